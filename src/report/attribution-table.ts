// The attribution table of a run: failed episodes per strategy × component, and the most frequent failure modes.
import Table from 'cli-table3';
import { MODES, type Component } from '../attribution/modes.js';
import type { AttributionSummary } from '../records/index.js';

/** One failed, non-error episode as the tally needs it; `component`/`mode` absent when it has no attribution. */
export interface AttributedFailure {
  strategy: string;
  component?: string | undefined;
  mode?: string | undefined;
  /** Episodes this line stands for (default 1). */
  count?: number;
}

const ORDER = Object.keys(MODES) as Component[];

/**
 * Tallies failed episodes (not `error` ones: the caller passes failures only) by strategy and component, and
 * ranks `component.mode` pairs. Strategies appear in `strategies` order (then any other). Pure.
 */
export function summarizeAttributions(failures: readonly AttributedFailure[], strategies: readonly string[] = []): AttributionSummary {
  const by_strategy: Record<string, Record<string, number>> = {};
  for (const strategy of strategies) by_strategy[strategy] = {};
  const modes = new Map<string, { component: string; mode: string; count: number; by_strategy: Record<string, number> }>();
  let unattributed = 0;
  for (const failure of failures) {
    const weight = failure.count ?? 1;
    if (failure.component === undefined || failure.mode === undefined) {
      unattributed += weight;
      continue;
    }
    const row = (by_strategy[failure.strategy] ??= {});
    row[failure.component] = (row[failure.component] ?? 0) + weight;
    const key = `${failure.component}.${failure.mode}`;
    const entry = modes.get(key) ?? { component: failure.component, mode: failure.mode, count: 0, by_strategy: {} };
    entry.count += weight;
    entry.by_strategy[failure.strategy] = (entry.by_strategy[failure.strategy] ?? 0) + weight;
    modes.set(key, entry);
  }
  const seen = new Set(Object.values(by_strategy).flatMap((row) => Object.keys(row)));
  const components = [...ORDER.filter((c) => seen.has(c)), ...[...seen].filter((c) => !(ORDER as string[]).includes(c)).sort()];
  const top_modes = [...modes.values()].sort((a, b) => b.count - a.count || `${a.component}.${a.mode}`.localeCompare(`${b.component}.${b.mode}`));
  return { components, by_strategy, top_modes, unattributed };
}

export interface AttributionTableOptions {
  color: boolean;
  /** How many `component.mode` rows to list (default 8). */
  topModes?: number;
}

/**
 * The table printed under the run table: one row per strategy with its failures per component, then the top
 * modes with counts. Returns '' when no episode failed.
 */
export function renderAttributionTable(summary: AttributionSummary, options: AttributionTableOptions): string {
  const strategies = Object.keys(summary.by_strategy);
  const total = (row: Record<string, number> | undefined): number => Object.values(row ?? {}).reduce((a, b) => a + b, 0);
  if (strategies.every((s) => total(summary.by_strategy[s]) === 0) && summary.unattributed === 0) return '';
  const style = options.color ? {} : { head: [], border: [] };
  const table = new Table({ head: ['failures by component', ...summary.components, 'total'], style });
  for (const strategy of strategies) {
    const row = summary.by_strategy[strategy] ?? {};
    table.push([strategy, ...summary.components.map((c) => (row[c] ? String(row[c]) : '-')), String(total(row))]);
  }
  const lines = ['Failure attribution (failed episodes; error episodes are not attributed):', table.toString()];
  const top = summary.top_modes.slice(0, options.topModes ?? 8);
  if (top.length > 0) {
    lines.push('Top failure modes:');
    for (const m of top) {
      const where = Object.entries(m.by_strategy)
        .map(([s, n]) => `${s} ${n}`)
        .join(', ');
      lines.push(`  ${String(m.count).padStart(4)}  ${`${m.component}.${m.mode}`.padEnd(32)} ${where}`);
    }
  }
  if (summary.unattributed > 0) lines.push(`  (${summary.unattributed} failed episode(s) carry no attribution)`);
  return lines.join('\n');
}
