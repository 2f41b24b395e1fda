// Whole runs on one code worker and on several side by side give the same episodes (outcomes, checks, tool outputs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, episodes, ROOT, scratch } from './support/cli.js';

const STRATEGIES = 'direct,react,plan-up-front,plan-replan,gated';

/** Tasks of tasks/bench.json that run tests and lint (fixes, renames, triage) on each of its fixtures. */
const BENCH_TASKS = [
  'fix-client-condition-removed-l48-v1',
  'fix-commands-stats-constant-changed-l10-2-v1',
  'fix-dates-constant-changed-l49-2-v1',
  'fix-coupons-comparison-flipped-l8-v1',
  'api-client-rename-format-value-v1',
  'data-lib-triage-csv-v1',
];

/** Runs `stratbench run` with STRATBENCH_CODE_WORKERS=`workers`; returns each episode's verdict-bearing fields by key. */
function runWith(workers: number, args: string[]): Map<string, unknown> {
  const out = join(scratch('code-worker-pool-'), 'run');
  // Without the code cache: each run's code runs on its own pool of workers, not served from the other's.
  const result = spawnSync(process.execPath, [CLI, 'run', ...args, '--strategies', STRATEGIES, '--out', out, '--no-progress', '--no-code-cache'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', STRATBENCH_CODE_WORKERS: String(workers) },
  });
  expect(result.stderr).not.toMatch(/Error/);
  return new Map(
    episodes(out).map((record) => {
      const trace = record['trace'] as Array<Record<string, unknown>>;
      const outputs = trace.map((event) => [event['type'], event['output'], event['exit_code'], event['status']]);
      return [record['key'] as string, { ...record, trace: outputs }];
    }),
  );
}

describe('runs on a pool of code workers', () => {
  it('give the core suite’s episodes the same with one worker, one episode at a time, as with two workers and four episodes side by side', () => {
    const alone = runWith(1, ['--suite', 'tasks/core.yaml']);
    const sideBySide = runWith(2, ['--suite', 'tasks/core.yaml', '--concurrency', '4']);
    expect(alone.size).toBe(70);
    expect(Object.fromEntries(sideBySide)).toEqual(Object.fromEntries(alone));
  });

  it('give a slice of tasks/bench.json (tests and lint run) the same episodes with one worker as with two', () => {
    const args = ['--suite', 'tasks/bench.json', '--tasks', BENCH_TASKS.join(','), '--no-validate'];
    const alone = runWith(1, args);
    const sideBySide = runWith(2, [...args, '--concurrency', '6']);
    expect(alone.size).toBe(30);
    expect(Object.fromEntries(sideBySide)).toEqual(Object.fromEntries(alone));
  });
});
