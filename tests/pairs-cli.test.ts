import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratch, stratbench } from './support/cli.js';

describe('--pairs on run and report', () => {
  const out = join(scratch(), 'run');
  const run = stratbench([
    'run',
    '--strategies',
    'direct,react,gated',
    '--tasks',
    'default-currency,bump-node-version',
    '--epochs',
    '2',
    '--pairs',
    'gated:direct',
    '--out',
    out,
    '--no-progress',
    '--format',
    'json',
  ]);

  it('run compares only the pairs asked for, and says so', () => {
    expect(run.status).toBe(0);
    const statistics = (
      JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
        statistics: { comparisons: { first: string; second: string }[]; pairSelection: unknown };
      }
    ).statistics;
    expect(statistics.comparisons.map((comparison) => `${comparison.first}:${comparison.second}`)).toEqual(['gated:direct']);
    expect(statistics.pairSelection).toEqual({ rule: 'requested', pairs: 1, allPairs: 3 });
  });

  it('report recomputes with other pairs and notes them in the table', () => {
    const report = stratbench(['report', out, '--pairs', 'direct:react,react:gated']);
    expect(report.status).toBe(0);
    expect(report.stdout).toContain('Pairs compared: 2 of 3 (the pairs asked for with --pairs)');
  });

  it('a malformed list or an unknown strategy exits 2 naming it, before any episode runs', () => {
    const malformed = stratbench(['report', out, '--pairs', 'direct-react']);
    expect([malformed.status, malformed.stderr.trim()]).toEqual([
      2,
      'stratbench: --pairs: "direct-react" is not first:second (two strategy names joined by a colon, e.g. direct:react)',
    ]);
    const unknown = stratbench(['report', out, '--pairs', 'direct:plan-replan']);
    expect([unknown.status, unknown.stderr.trim()]).toEqual([
      2,
      'stratbench: --pairs: pair direct:plan-replan: no strategy "plan-replan" in these results (strategies: direct, react, gated)',
    ]);
    const fresh = join(scratch(), 'never');
    const before = stratbench(['run', '--strategies', 'direct,react', '--pairs', 'direct:gated', '--out', fresh, '--no-progress']);
    expect(before.status).toBe(2);
    expect(before.stderr).toContain('no strategy "gated"');
  });
});
