// Folds finished episodes into summary.json: success per strategy × group, costs, failures and errors listed.
import {
  SCHEMA_VERSION,
  type EpisodeLine,
  type EpisodeRecord,
  type EpisodeResult,
  type RunSummary,
  type StrategySummary,
  type Tally,
} from '../records/index.js';
import { summarizeAttributions, type AttributedFailure } from './attribution-table.js';
import { FindingsTally } from './findings-table.js';

const emptyTally = (): Tally => ({ episodes: 0, scored: 0, successes: 0, errors: 0 });

/** Incremental summary: add records as they finish (memory holds no traces). */
export class SummaryBuilder {
  private readonly byStrategy = new Map<string, StrategySummary>();
  private readonly failures: EpisodeLine[] = [];
  private readonly errors: EpisodeLine[] = [];
  private readonly results: EpisodeResult[] = [];
  private readonly attributed: AttributedFailure[] = [];
  private readonly findings = new FindingsTally();

  constructor(
    private readonly groups: string[],
    strategies: string[],
  ) {
    for (const strategy of strategies) this.strategy(strategy);
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
    this.results.push({
      task: record.task,
      ...(record.family === undefined ? {} : { family: record.family }),
      group: record.group,
      strategy: record.strategy,
      epoch: record.epoch,
      success: record.success,
      status: record.outcome.status,
      outcome: sharedOutcome(record.outcome.status),
    });
    const line: EpisodeLine = {
      task: record.task,
      group: record.group,
      strategy: record.strategy,
      epoch: record.epoch,
      status: record.outcome.status,
      reason: record.outcome.reason,
    };
    if (isError) {
      this.errors.push({ ...line, ...(record.outcome.message ? { detail: record.outcome.message } : {}) });
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
      this.failures.push({ ...line, ...(detail ? { detail } : {}), ...(attribution ? { attribution: `${attribution.component}.${attribution.mode}` } : {}) });
      this.attributed.push({ strategy: record.strategy, component: attribution?.component, mode: attribution?.mode });
    }
  }

  build(): RunSummary {
    const order = (a: { strategy: string; task: string; epoch: number }, b: { strategy: string; task: string; epoch: number }): number =>
      a.strategy.localeCompare(b.strategy) || a.task.localeCompare(b.task) || a.epoch - b.epoch;
    return {
      schemaVersion: SCHEMA_VERSION,
      groups: this.groups,
      strategies: [...this.byStrategy.values()],
      failures: [...this.failures].sort(order),
      errors: [...this.errors].sort(order),
      results: this.results.sort(order),
      attribution: summarizeAttributions(this.attributed, [...this.byStrategy.keys()]),
      ...this.findings.build(),
    };
  }
}

/** One frozen `{status}` per outcome status, shared by every result line (10,000 episodes hold 10,000 otherwise). */
const OUTCOMES = new Map<string, { readonly status: EpisodeRecord['outcome']['status'] }>();
function sharedOutcome(status: EpisodeRecord['outcome']['status']): { readonly status: EpisodeRecord['outcome']['status'] } {
  let outcome = OUTCOMES.get(status);
  if (outcome === undefined) OUTCOMES.set(status, (outcome = Object.freeze({ status })));
  return outcome;
}
