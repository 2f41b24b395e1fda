import { ERROR_STATUS, type ResultColumns, type StatisticsInput, toResultColumns } from './result-columns.js';

export type { EpisodeResult } from './result-columns.js';

/**
 * One strategy's results on one task across epochs. `error` episodes (infrastructure) are counted in `errors` and
 * left out of `epochs`, `successes` and `results`.
 */
export interface TaskOutcome {
  strategy: string;
  task: string;
  /** The task's family, or the task id when it has none: the unit the bootstrap resamples. */
  family: string;
  group: string;
  /** Scored (non-error) episodes. */
  epochs: number;
  successes: number;
  errors: number;
  /** Success of each scored episode, in epoch order. */
  results: boolean[];
}

/**
 * stable-pass: every scored epoch succeeded; stable-fail: none did; flaky: some did; unscored: every episode was an
 * infrastructure error. With a single scored epoch the label is stable-pass or stable-fail by definition.
 */
export type StabilityLabel = 'stable-pass' | 'stable-fail' | 'flaky' | 'unscored';

export interface StabilityCounts {
  stablePass: number;
  stableFail: number;
  flaky: number;
  unscored: number;
}

/** The stability label of one task's outcome (see StabilityLabel). */
export function stabilityLabel(outcome: Pick<TaskOutcome, 'epochs' | 'successes'>): StabilityLabel {
  if (outcome.epochs === 0) return 'unscored';
  if (outcome.successes === outcome.epochs) return 'stable-pass';
  if (outcome.successes === 0) return 'stable-fail';
  return 'flaky';
}

/** How many tasks carry each stability label. */
export function countStability(outcomes: readonly TaskOutcome[]): StabilityCounts {
  const counts: StabilityCounts = { stablePass: 0, stableFail: 0, flaky: 0, unscored: 0 };
  for (const outcome of outcomes) {
    const label = stabilityLabel(outcome);
    switch (label) {
      case 'stable-pass':
        counts.stablePass += 1;
        break;
      case 'stable-fail':
        counts.stableFail += 1;
        break;
      case 'flaky':
        counts.flaky += 1;
        break;
      case 'unscored':
        counts.unscored += 1;
        break;
      default: {
        const unhandled: never = label;
        throw new Error(`unhandled stability label ${String(unhandled)}`);
      }
    }
  }
  return counts;
}

/**
 * Groups episodes by strategy, then task: Map<strategy, TaskOutcome[]>, strategies in order of first appearance, a
 * strategy's tasks in order of their first episode for that strategy. A repeated (strategy, task, epoch) keeps the
 * last episode. A task's group and family are its dictionary entry's (family: the task id when absent). Time and
 * memory O(episodes + strategies × tasks).
 */
export function collectTaskOutcomes(input: StatisticsInput): Map<string, TaskOutcome[]> {
  const columns = toResultColumns(input);
  const taskCount = columns.tasks.length;
  const cells = columns.strategies.length * taskCount;
  // Episodes bucketed per (strategy, task) cell in arrival order: a counting sort, no per-episode objects.
  const starts = new Uint32Array(cells + 1);
  for (let i = 0; i < columns.length; i += 1) {
    const cell = (columns.strategy[i] as number) * taskCount + (columns.task[i] as number);
    starts[cell + 1] = (starts[cell + 1] as number) + 1;
  }
  for (let cell = 0; cell < cells; cell += 1) starts[cell + 1] = (starts[cell + 1] as number) + (starts[cell] as number);
  const rows = new Uint32Array(columns.length);
  const filled = starts.slice(0, cells);
  for (let i = 0; i < columns.length; i += 1) {
    const cell = (columns.strategy[i] as number) * taskCount + (columns.task[i] as number);
    rows[filled[cell] as number] = i;
    filled[cell] = (filled[cell] as number) + 1;
  }
  const result = new Map<string, TaskOutcome[]>();
  const firstOfStrategy = new Float64Array(columns.strategies.length).fill(Number.POSITIVE_INFINITY);
  for (let i = columns.length - 1; i >= 0; i -= 1) firstOfStrategy[columns.strategy[i] as number] = i;
  const strategyOrder = columns.strategies.map((_, s) => s).sort((a, b) => (firstOfStrategy[a] as number) - (firstOfStrategy[b] as number));
  for (const s of strategyOrder) {
    if (!Number.isFinite(firstOfStrategy[s] as number)) continue;
    const tasks: number[] = [];
    for (let t = 0; t < taskCount; t += 1) if ((starts[s * taskCount + t + 1] as number) > (starts[s * taskCount + t] as number)) tasks.push(t);
    tasks.sort((a, b) => (rows[starts[s * taskCount + a] as number] as number) - (rows[starts[s * taskCount + b] as number] as number));
    result.set(
      columns.strategies[s] as string,
      tasks.map((t) => cellOutcome(columns, s, t, rows.subarray(starts[s * taskCount + t], starts[s * taskCount + t + 1]))),
    );
  }
  return result;
}

/** One (strategy, task) cell's outcome from its rows (arrival order): the last episode of each epoch, epoch order. */
function cellOutcome(columns: ResultColumns, strategy: number, task: number, cellRows: Uint32Array): TaskOutcome {
  const ordered = [...cellRows].sort((a, b) => (columns.epoch[a] as number) - (columns.epoch[b] as number) || a - b);
  const results: boolean[] = [];
  let errors = 0;
  for (let j = 0; j < ordered.length; j += 1) {
    const row = ordered[j] as number;
    const next = ordered[j + 1];
    if (next !== undefined && columns.epoch[next] === columns.epoch[row]) continue;
    if (columns.status[row] === ERROR_STATUS) errors += 1;
    else results.push(columns.success[row] === 1);
  }
  const entry = columns.tasks[task] as ResultColumns['tasks'][number];
  return {
    strategy: columns.strategies[strategy] as string,
    task: entry.id,
    family: entry.family,
    group: entry.group,
    epochs: results.length,
    successes: results.filter(Boolean).length,
    errors,
    results,
  };
}
