// run replays the references side by side, one task per code worker, when its episodes run side by side
// (`--concurrency` > 1, issue 32): the verdicts and the lines naming broken tasks are those of the one-by-one replay.
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { checkReferencesCached } from '../src/runner/run-checks.js';
import { clearRunCaches, codeAheadStats, stopCodeWorker } from '../src/sim-repo/index.js';
import { setCodeWorkerLimit } from '../src/sim-repo/code-host.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';

afterAll(() => {
  setCodeWorkerLimit(undefined);
  stopCodeWorker();
});

const BENCH = fileURLToPath(new URL('../tasks/bench.json', import.meta.url));

async function slice(): Promise<LoadedTask[]> {
  const loaded = await loadSuiteFile(BENCH);
  if (!loaded.ok) throw new Error(loaded.errors.map((error) => error.message).join('\n'));
  // Every 60th task: all five fixtures, tests and lint run for real.
  const tasks = loaded.tasks.filter((_, index) => index % 60 === 0);
  // Two broken references: no step, so the hidden tests fail as on the untouched repository.
  return tasks.map((task, index) => (index === 2 || index === 7 ? { ...task, reference: { ...task.reference, steps: [] } } : task));
}

const failure = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'no error',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

describe('references replayed side by side', () => {
  it('fail the same tasks with the same lines, in the same order, as one by one', async () => {
    const tasks = await slice();
    expect(tasks.length).toBeGreaterThanOrEqual(10);
    clearRunCaches();
    setCodeWorkerLimit(1);
    const alone = await failure(checkReferencesCached(tasks, 'bench.json', { cacheDir: null, sideBySide: 1 }));
    stopCodeWorker();
    // Nothing served from the first replay's results: every test run is made again, ahead.
    clearRunCaches();
    setCodeWorkerLimit(2);
    const ahead = codeAheadStats.ahead;
    const sideBySide = await failure(checkReferencesCached(tasks, 'bench.json', { cacheDir: null, sideBySide: 2 }));
    // The replays' test runs went ahead, on the two workers.
    expect(codeAheadStats.ahead).toBeGreaterThan(ahead);
    expect(alone).toMatch(/the reference of 2 task\(s\) does not score success/);
    const named = alone
      .split('\n')
      .filter((line) => line.startsWith('  '))
      .map((line) => line.slice(2, line.indexOf(':')));
    expect(named).toEqual([tasks[2]!.id, tasks[7]!.id]);
    expect(sideBySide).toBe(alone);
  });
});
