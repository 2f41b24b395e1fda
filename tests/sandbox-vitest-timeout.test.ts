// A test whose promise never settles, in the sandbox (@vitest/runner on virtual timers) and in the real vitest 4.1.12.
//
// Real vitest fails that test with its timeout message when the timeout passes and runs the file's other tests; the
// sandbox's @vitest/runner does the same on the prelude's virtual timers, which advance only when no job is left, so
// its verdicts never depend on the machine's speed (docs/decisions/0043).
import { beforeAll, describe, expect, it } from 'vitest';
import { RepoSpec } from '../src/sim-repo/spec.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { type RealStateResult, runRealTools } from './support/real-runners.js';

const HANGING_TEST = `import { describe, expect, it } from 'vitest';

describe('a promise that never settles', () => {
  it('passes before', () => {
    expect(1).toBe(1);
  });
  it('returns a promise that never settles', () => new Promise(() => {}), 100);
  it('awaits forever with the default timeout', async () => {
    await new Promise(() => {});
    expect(1).toBe(2);
  });
  it('passes after', () => {
    expect(2).toBe(2);
  });
});

it('runs a later top-level test', () => {
  expect([1]).toEqual([1]);
});
`;

const files = { 'package.json': '{ "type": "module" }\n', 'tests/hang.test.js': HANGING_TEST };

/** vitest's timeout message (@vitest/runner 4.1.12's withTimeout). */
const timedOut = (ms: number): string =>
  `Test timed out in ${ms}ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".`;

describe('a test whose promise never settles, against real vitest 4.1.12', () => {
  let real: RealStateResult;
  beforeAll(async () => {
    [real] = (await runRealTools([files], { lintTargets: null })) as [RealStateResult];
  }, 60_000);

  it('fails that test with its timeout message and runs the others, as vitest does', () => {
    const repo = SimRepo.fromSpec(RepoSpec.parse({ files }));
    const results = repo.testResults();
    const states = new Map(results.tests.map((test) => [test.id, test.state]));
    expect(results.fileErrors).toEqual([]);
    expect(real.fileErrors).toEqual([]);
    expect(states).toEqual(new Map(real.tests.map((test) => [test.id, test.state])));
    expect([...states.values()]).toEqual(['passed', 'failed', 'failed', 'passed', 'passed']);
    // vitest's JSON report gives a timeout's stack (captured where the test was registered), not its message: the
    // message is checked on the sandbox's side, where it comes from the same @vitest/runner code.
    const messages = results.tests.filter((test) => test.state === 'failed').map((test) => test.error?.message);
    expect(messages).toEqual([timedOut(100), timedOut(5000)]);
  });
});
