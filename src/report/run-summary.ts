// Folds finished episodes into summary.json: success per strategy × group, costs, failures and errors listed.
import {
  OutcomeStatus,
  SCHEMA_VERSION,
  SUMMARY_LISTED_EPISODES,
  type EpisodeLine,
  type EpisodeRecord,
  type RunSummary,
  type StrategySummary,
  type Tally,
  type TaskResults,
} from '../records/index.js';
import { summarizeAttributions, type AttributedFailure } from './attribution-table.js';
import { FindingsTally } from './findings-table.js';
import { inCanonicalOrder, ResultColumnsBuilder, type ResultColumns } from './result-columns.js';

const emptyTally = (): Tally => ({ episodes: 0, scored: 0, successes: 0, errors: 0 });

type Ordered = { strategy: string; task: string; epoch: number };
const order = (a: Ordered, b: Ordered): number => a.strategy.localeCompare(b.strategy) || a.task.localeCompare(b.task) || a.epoch - b.epoch;

/**
 * The first `limit` episode lines in strategy, task, epoch order, of however many are added, and their count: memory
 * holds at most 2 × limit lines (sorted and cut whenever it fills).
 */
class FirstLines {
  private lines: EpisodeLine[] = [];
  total = 0;
  constructor(private readonly limit: number) {}
  add(line: EpisodeLine): void {
    this.total += 1;
    this.lines.push(line);
    if (this.lines.length >= 2 * this.limit) this.lines = this.lines.sort(order).slice(0, this.limit);
  }
  build(): EpisodeLine[] {
    return [...this.lines].sort(order).slice(0, this.limit);
  }
}

/**
 * Incremental summary: add records as they finish. Memory holds no traces and no object per episode: results go
 * to typed-array columns (about 12 bytes an episode), failed and errored episodes to their first
 * SUMMARY_LISTED_EPISODES lines and a count, attributions to counts.
 */
export class SummaryBuilder {
  private readonly byStrategy = new Map<string, StrategySummary>();
  private readonly failures = new FirstLines(SUMMARY_LISTED_EPISODES);
  private readonly errors = new FirstLines(SUMMARY_LISTED_EPISODES);
  private readonly results = new ResultColumnsBuilder();
  private readonly attributed = new Map<string, AttributedFailure & { count: number }>();
  private readonly findings = new FindingsTally();
  private readonly seenGroups = new Set<string>();

  /**
   * `groups` and `strategies` in the run's order (empty: as the records come); `tasks`, the run's task order, puts
   * the statistics' clusters in that order whatever the order of the records (see inCanonicalOrder).
   */
  constructor(
    private readonly groups: string[],
    private readonly strategyOrder: string[],
    private readonly taskOrder: readonly string[] = [],
  ) {
    for (const strategy of strategyOrder) this.strategy(strategy);
  }

  private strategy(name: string): StrategySummary {
    let summary = this.byStrategy.get(name);
    if (!summary) {
      summary = {
        strategy: name,
        ...emptyTally(),
        by_group: {},
        model_calls: 0,
        tool_calls: 0,
        tool_ms: 0,
        model_ms: 0,
        replans: 0,
        tokens_in: 0,
        tokens_out: 0,
      };
      for (const group of this.groups) summary.by_group[group] = emptyTally();
      this.byStrategy.set(name, summary);
    }
    return summary;
  }

  add(record: EpisodeRecord): void {
    this.seenGroups.add(record.group);
    const summary = this.strategy(record.strategy);
    const group = (summary.by_group[record.group] ??= emptyTally());
    const isError = record.outcome.status === 'error';
    this.findings.add(record);
    for (const tally of [summary, group]) {
      tally.episodes += 1;
      if (isError) tally.errors += 1;
      else {
        tally.scored += 1;
        if (record.success) tally.successes += 1;
      }
    }
    this.results.add(record);
    const line: EpisodeLine = {
      task: record.task,
      group: record.group,
      strategy: record.strategy,
      epoch: record.epoch,
      status: record.outcome.status,
      reason: record.outcome.reason,
    };
    if (isError) {
      this.errors.add({ ...line, ...(record.outcome.message ? { detail: record.outcome.message } : {}) });
      return;
    }
    const m = record.metrics;
    summary.model_calls += Object.values(m.model_calls).reduce((a, b) => a + b, 0);
    summary.tool_calls += m.tool_calls;
    summary.tool_ms += m.tool_ms;
    summary.model_ms += m.model_ms;
    summary.replans += m.replans;
    summary.tokens_in += m.tokens_in;
    summary.tokens_out += m.tokens_out;
    if (!record.success) {
      const failing = record.checks.find((c) => !c.pass);
      const endingNote = record.outcome.status === 'finished' || record.outcome.status === 'stopped' ? `expected ${record.expect}` : undefined;
      const detail = failing?.detail ?? endingNote ?? record.outcome.message;
      const attribution = record.attribution;
      this.failures.add({ ...line, ...(detail ? { detail } : {}), ...(attribution ? { attribution: `${attribution.component}.${attribution.mode}` } : {}) });
      const key = `${record.strategy}\u0000${attribution?.component ?? ''}\u0000${attribution?.mode ?? ''}`;
      const counted = this.attributed.get(key);
      if (counted) counted.count += 1;
      else this.attributed.set(key, { strategy: record.strategy, component: attribution?.component, mode: attribution?.mode, count: 1 });
    }
  }

  /** Distinct tasks added. */
  get tasks(): number {
    return this.results.finish().tasks.length;
  }

  /** Every added episode's result, as columns (what the statistics read). */
  columns(): ResultColumns {
    return inCanonicalOrder(this.results.finish(), this.strategyOrder, this.taskOrder);
  }

  build(): RunSummary {
    return {
      schemaVersion: SCHEMA_VERSION,
      // Without the run's groups (a folder without run.json): those of the episodes, in order of appearance.
      groups: this.groups.length > 0 ? this.groups : [...this.seenGroups],
      strategies: [...this.byStrategy.values()],
      failures: this.failures.build(),
      failures_total: this.failures.total,
      errors: this.errors.build(),
      errors_total: this.errors.total,
      task_results: taskResults(this.results.finish()),
      attribution: summarizeAttributions([...this.attributed.values()], [...this.byStrategy.keys()]),
      ...this.findings.build(),
    };
  }
}

const OUTCOME_CHARS = OutcomeStatus.options.map((status) => (status === 'error' ? 'e' : 'f').charCodeAt(0));
const SUCCEEDED = 's'.charCodeAt(0);
const ABSENT = '-'.charCodeAt(0);

/**
 * One line per strategy × task (strategy, then task order), its epochs as characters: s, f, e, or - when absent.
 * Each line is gathered as one byte an epoch (a string array would cost 8 bytes an episode).
 */
export function taskResults(columns: ResultColumns): TaskResults[] {
  const rows = new Map<number, { strategy: number; task: number; outcomes: Uint8Array; length: number }>();
  const tasks = columns.tasks.length;
  for (let i = 0; i < columns.length; i++) {
    const strategy = columns.strategy[i] as number;
    const task = columns.task[i] as number;
    const key = strategy * tasks + task;
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = { strategy, task, outcomes: new Uint8Array(16).fill(ABSENT), length: 0 }));
    const epoch = columns.epoch[i] as number;
    if (epoch >= row.outcomes.length) {
      const grown = new Uint8Array(Math.max(epoch + 1, row.outcomes.length * 2)).fill(ABSENT);
      grown.set(row.outcomes);
      row.outcomes = grown;
    }
    row.length = Math.max(row.length, epoch + 1);
    row.outcomes[epoch] = columns.success[i] === 1 ? SUCCEEDED : (OUTCOME_CHARS[columns.status[i] as number] as number);
  }
  return [...rows.values()]
    .map((row) => {
      const task = columns.tasks[row.task]!;
      return {
        strategy: columns.strategies[row.strategy]!,
        task: task.id,
        ...(task.family === task.id ? {} : { family: task.family }),
        group: task.group,
        outcomes: Buffer.from(row.outcomes.buffer, row.outcomes.byteOffset, row.length).toString('latin1'),
      };
    })
    .sort((a, b) => a.strategy.localeCompare(b.strategy) || a.task.localeCompare(b.task));
}
