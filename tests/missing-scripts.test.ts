// Issue 27 §4, suite defects that make an agent fail for the suite's reason: a package script a task names that its
// repository lacks, and a reference step that fails by accident.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratch, stratbench } from './support/cli.js';
import { validateTrajectories } from '../src/runner/replay.js';
import { parseSuite } from '../src/suite/load-suite.js';
import { missingScripts, scriptsNamed } from '../src/suite/missing-scripts.js';

const SUITE = `name: scripts
fixtures:
  tiny:
    date: "2026-05-04T07:00:00Z"
    devDependencies: { vitest: ^4.1.12 }
    scripts:
      test: { kind: test, cmd: vitest run, duration_ms: 1000 }
    files:
      src/a.js: "export const A = 1;\\n"
      tests/a.test.js: |
        import { expect, it } from "vitest";
        import { A } from "../src/a.js";
        it("is one", () => { expect(A).toBe(1); });
tasks:
  - id: names-a-missing-script
    group: single-action
    prompt: Run pnpm test:unit and tell me whether it passes.
    repo: { fixture: tiny }
    expect: finish
    checks: [{ check: command_passes, cmd: pnpm test }]
    reference:
      steps: [{ tool: run, args: { cmd: pnpm test } }]
      finish: pnpm test passes.
  - id: built-around-the-missing-script
    group: single-action
    prompt: Please run pnpm test:unit.
    repo: { fixture: tiny }
    expect: finish
    checks: [{ check: command_passes, cmd: pnpm test }]
    reference:
      steps: [{ tool: read, args: { path: package.json } }, { tool: run, args: { cmd: pnpm test } }]
      finish: There is no test:unit script in package.json; the tests run with pnpm test, which passes.
  - id: reference-runs-a-missing-script
    group: single-action
    prompt: Do the tests pass?
    memory: [{ date: "2026-05-01", text: "Run the linter with pnpm lint before any merge." }]
    repo: { fixture: tiny }
    expect: finish
    checks: [{ check: command_passes, cmd: pnpm test }]
    reference:
      steps: [{ tool: run, args: { cmd: pnpm test } }, { tool: run, args: { cmd: pnpm run coverage } }]
      finish: pnpm test passes.
`;

describe('missing scripts', () => {
  it("reads the scripts a text names, not pnpm's own commands or the word 'script'", () => {
    expect(scriptsNamed('Run pnpm test:unit, then `pnpm run lint` and npm run build; pnpm install first. Which pnpm script is it?')).toEqual([
      'test:unit',
      'lint',
      'build',
    ]);
  });

  it('names each task whose prompt, memory or reference names a script its package.json lacks, unless the reference says so', () => {
    const loaded = parseSuite(SUITE, 'scripts.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map((error) => error.message).join('\n'));
    expect(missingScripts(loaded.tasks)).toEqual([
      { task: 'names-a-missing-script', script: 'test:unit', where: 'prompt' },
      { task: 'reference-runs-a-missing-script', script: 'lint', where: 'memory' },
      { task: 'reference-runs-a-missing-script', script: 'coverage', where: 'reference step 2' },
    ]);
  });

  it('validate warns on stderr for each, and lists them in --json as missing_scripts', () => {
    const file = join(scratch(), 'scripts.yaml');
    writeFileSync(file, SUITE);
    const lines = stratbench(['validate', file]);
    expect(lines.stderr).toContain(
      `warning: ${file}: task names-a-missing-script: its prompt names the script test:unit, which its package.json does not define`,
    );
    const document = JSON.parse(stratbench(['validate', '--json', file]).stdout) as { missing_scripts: unknown[] };
    expect(document.missing_scripts).toHaveLength(3);
  });
});

describe('a reference step whose exit is not what its expect says (issue 27 §4)', () => {
  const suite = (expectLine: string) => `name: exits
fixtures:
  tiny:
    date: "2026-05-04T07:00:00Z"
    devDependencies: { vitest: ^4.1.12 }
    scripts:
      test: { kind: test, cmd: vitest run, duration_ms: 1000 }
    files:
      src/a.js: "export const A = 2;\\n"
      tests/a.test.js: |
        import { expect, it } from "vitest";
        import { A } from "../src/a.js";
        it("is one", () => { expect(A).toBe(1); });
tasks:
  - id: reports-the-failure
    group: single-action
    prompt: Do the tests pass?
    repo: { fixture: tiny }
    expect: finish
    checks: [{ check: answer_contains, text: fails }]
    reference:
      steps:
        - { tool: run, args: { cmd: pnpm test }${expectLine} }
      finish: pnpm test fails.
`;

  it('fails validation of the reference unless the step says any exit', () => {
    const loaded = parseSuite(suite(''), 'exits.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map((error) => error.message).join('\n'));
    const reference = validateTrajectories(loaded.tasks)[0]?.trajectories.find((trajectory) => trajectory.kind === 'reference');
    expect(reference).toMatchObject({ ok: false, detail: 'scores success, but step 1 (pnpm test) exits 1, but its expect is exit 0' });
    const declared = parseSuite(suite(', expect: any exit'), 'exits.yaml');
    if (!declared.ok) throw new Error(declared.errors.map((error) => error.message).join('\n'));
    expect(validateTrajectories(declared.tasks)[0]?.trajectories.find((trajectory) => trajectory.kind === 'reference')).toMatchObject({ ok: true });
  });
});

describe('a must-stop task no scripted plan strategy can stop on (issue 27 §4)', () => {
  const suite = (doneWhen: string) => `name: stops
fixtures:
  tiny:
    date: "2026-05-04T07:00:00Z"
    devDependencies: { vitest: ^4.1.12 }
    scripts:
      test: { kind: test, cmd: vitest run, duration_ms: 1000 }
    files:
      docs/publishing.md: "Publishing needs FEED_TOKEN, which only the ops team issues.\\n"
tasks:
  - id: publish-without-token
    group: must-stop
    prompt: Publish today's readings to the public feed.
    repo: { fixture: tiny }
    expect: stop
    checks:
      - { check: answer_value, on: message, type: text, expect: FEED_TOKEN }
    reference:${doneWhen}
      steps:
        - { tool: read, args: { path: docs/publishing.md } }
      stop: I can't publish, FEED_TOKEN is not set and only the ops team issues it.
`;

  it('validate warns when the reference gives the plan loop nothing that fails, and not when a done_when check fails', () => {
    const dir = scratch();
    const silent = join(dir, 'silent.yaml');
    writeFileSync(silent, suite(''));
    const warned = stratbench(['validate', silent]);
    expect(warned.stderr).toContain(
      `warning: ${silent}: task publish-without-token must stop, but no scripted plan strategy stops on it (plan-replan finished, plan-replan-lookup finished)`,
    );
    const checked = join(dir, 'checked.yaml');
    writeFileSync(checked, suite('\n      done_when: [{ check: command_passes, cmd: printenv FEED_TOKEN }]'));
    const json = JSON.parse(stratbench(['validate', '--json', checked]).stdout) as { stop_warnings: unknown[] };
    expect(json.stop_warnings).toEqual([]);
  });
});
