// The agent's `vitest -t <pattern>` on declared tests is matched in linear time on the host (issue 25 §3): a
// catastrophic pattern finishes with vitest's answer; one RE2 cannot run leaves the declared tests unfiltered.
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';

const LONG = 'a'.repeat(61);

function repo(): SimRepo {
  return SimRepo.fromSpec(
    RepoSpec.parse({
      files: {
        'package.json': JSON.stringify({ name: 'names', type: 'module', scripts: { test: 'vitest run' } }),
        'tests/db.test.js': '// needs a database: declared in the suite\n',
      },
      scripts: { test: { kind: 'test' } },
      tests: [
        { name: `db > ${LONG}b`, file: 'tests/db.test.js', needs: 'database', passes_when: { kind: 'installed' }, failure: 'Error: no database' },
        { name: `db > ${LONG}a`, file: 'tests/db.test.js', needs: 'database', passes_when: { kind: 'installed' }, failure: 'Error: no database' },
      ],
    }),
  );
}

describe('declared tests under -t', () => {
  it('matches ^db (a|aa)+$ (catastrophic for a backtracking engine) on 62-character names with the right answer', () => {
    const sim = repo();
    const result = sim.run('pnpm test -t "^db (a|aa)+$"');
    expect(result.output).toContain(' ✓ tests/db.test.js (2 tests | 1 skipped)');
  });

  it('leaves the declared tests unfiltered for a pattern with lookaround, as for an invalid one', () => {
    const sim = repo();
    expect(sim.run('pnpm test -t "db (?=a)"').output).toContain(' ✓ tests/db.test.js (2 tests)\n');
    expect(sim.run('pnpm test -t "db ("').output).toContain(' ✓ tests/db.test.js (2 tests)\n');
  });

  it('matches an --exclude glob that backtracks for hours in picomatch’s RegExp (10 stars, a 60-character file name) in linear time', () => {
    const long = `tests/${'a'.repeat(60)}.test.js`;
    const sim = SimRepo.fromSpec(
      RepoSpec.parse({
        files: { 'package.json': JSON.stringify({ name: 'names', type: 'module', scripts: { test: 'vitest run' } }), [long]: '// declared\n' },
        scripts: { test: { kind: 'test' } },
        tests: [{ name: 'db > connects', file: long, needs: 'database', passes_when: { kind: 'installed' }, failure: 'Error: no database' }],
      }),
    );
    expect(sim.run('pnpm test --exclude "**/*a*a*a*a*a*a*a*a*a*a*c"').output).toContain(` ✓ ${long} (1 test)`);
    expect(sim.run('pnpm test --exclude "**/*a*a*a*a*a*a*a*a*a*a*.test.js"').output).toContain('No test files found');
  });
});
