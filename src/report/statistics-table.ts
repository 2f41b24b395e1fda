// Plain-text rendering of a run's statistics: rates with intervals, pass@k / pass^k, stability, pairwise comparisons.
import Table from 'cli-table3';
import { formatChange, formatMinimumDetectableEffect, formatPValue, formatRate, formatTestMethod } from './formats/numbers.js';
import type { RunStatistics } from './statistics-run.js';
import type { RateSummary } from './statistics-summary.js';

export interface StatisticsTextOptions {
  /** Colour table headers and borders (only for a TTY). */
  color: boolean;
}

/** Column headers and cells shared by the text and markdown renderings of rate rows. */
export function rateColumns(statistics: RunStatistics): string[] {
  const epochs = Math.max(1, ...statistics.strategies.map((row) => row.epochs));
  const columns = ['Strategy', 'Group', 'Tasks', 'Episodes', 'Errors', 'Success (pass^1)'];
  if (epochs > 1) columns.push(`pass@${epochs}`, `pass^${epochs}`);
  columns.push('Stable pass / flaky / stable fail');
  return columns;
}

/** One row of rateColumns for a strategy (group "all") or a strategy × group. */
export function rateCells(row: RateSummary, statistics: RunStatistics): string[] {
  const epochs = Math.max(1, ...statistics.strategies.map((entry) => entry.epochs));
  const cells = [row.strategy, row.group ?? 'all', String(row.tasks), String(row.episodes), String(row.errors), formatRate(row.successRate)];
  if (epochs > 1) {
    const atN = row.passK.find((entry) => entry.k === epochs);
    const fewer = atN && atN.tasks < row.tasks ? ` (${atN.tasks} tasks)` : '';
    cells.push(atN ? `${formatRate(atN.passAtK)}${fewer}` : '–', atN ? `${formatRate(atN.passHatK)}${fewer}` : '–');
  }
  cells.push(`${row.stability.stablePass} / ${row.stability.flaky} / ${row.stability.stableFail}`);
  return cells;
}

/** Column headers of the pairwise comparison table. */
export const COMPARISON_COLUMNS = ['First', 'Second', 'Tasks', 'Second − first', 'Test', 'p', 'p (Holm)', 'MDE'];

/** One row of COMPARISON_COLUMNS. */
export function comparisonCells(comparison: RunStatistics['comparisons'][number]): string[] {
  return [
    comparison.first,
    comparison.second,
    String(comparison.tasks),
    formatChange(comparison.difference),
    formatTestMethod(comparison),
    formatPValue(comparison.test.pValue),
    formatPValue(comparison.adjustedPValue),
    formatMinimumDetectableEffect(comparison),
  ];
}

/** The notes printed under the statistics tables. */
export function statisticsNotes(statistics: RunStatistics): string[] {
  const confidence = Math.round(statistics.confidence * 100);
  return [
    `Rates with ${confidence}% intervals: Wilson (one epoch) or a cluster bootstrap over tasks (several; B = ${statistics.resamples}, seed ${statistics.seed}). Error episodes are excluded. pass@k / pass^k as in τ-bench (mean over tasks).`,
    'Pairs: Newcombe paired interval and McNemar exact test (one epoch) or paired cluster bootstrap interval and sign-flip test over tasks (several); p (Holm) is adjusted across pairs; MDE = smallest difference detectable with 80% power at α = 0.05.',
    'pass@k / pass^k count only tasks with at least k scored epochs. With few tasks a bootstrap interval can exclude 0 while p > 0.05: the test is exact, the interval approximate.',
    ...familyNotes(statistics),
  ];
}

/** A note when generated tasks share families: what the intervals resample and how much the design effect costs. */
function familyNotes(statistics: RunStatistics): string[] {
  const overall = statistics.strategies[0];
  if (overall === undefined || overall.families === undefined || overall.families === overall.tasks) return [];
  const effects = statistics.comparisons.flatMap((comparison) => (comparison.clustering ? [comparison.clustering.designEffect] : []));
  const range = effects.length === 0 ? '' : `; design effect ${Math.min(...effects).toFixed(2)}–${Math.max(...effects).toFixed(2)}, so MDE uses tasks / design effect`;
  return [
    `Families: the ${overall.tasks} tasks are variants of ${overall.families} families (template or mutant); intervals resample families and the sign-flip test flips one sign per family, at any number of epochs (Miller 2024)${range}.`,
  ];
}

/** The statistics section of the run table: a rate table (per strategy, then per group) and the pairwise table. */
export function renderStatisticsText(statistics: RunStatistics, options: StatisticsTextOptions): string {
  const style = options.color ? {} : { style: { head: [], border: [] } };
  const rates = new Table({ head: rateColumns(statistics), ...style });
  rates.push(...[...statistics.strategies, ...statistics.groups].map((row) => rateCells(row, statistics)));
  const out = ['Statistics', rates.toString()];
  if (statistics.comparisons.length > 0) {
    const pairs = new Table({ head: COMPARISON_COLUMNS, ...style });
    pairs.push(...statistics.comparisons.map(comparisonCells));
    out.push('', 'Paired comparisons (shared tasks)', pairs.toString());
  }
  out.push('', ...statisticsNotes(statistics));
  return `${out.join('\n')}\n`;
}
