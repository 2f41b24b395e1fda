// Plain-text rendering of a run's statistics: rates with intervals, pass@k / pass^k, stability, pairwise comparisons.
import { fitTable, wrapLine } from './formats/fit-width.js';
import { formatChange, formatMinimumDetectableEffect, formatPValue, formatRate, formatTestMethod } from './formats/numbers.js';
import type { RunStatistics } from './statistics-run.js';
import type { RateSummary } from './statistics-summary.js';

export interface StatisticsTextOptions {
  /** Colour table headers and borders (only for a TTY). */
  color: boolean;
  /** Widest line; undefined = no limit. Within it, per-group rows are left out and columns dropped from the right. */
  maxWidth?: number;
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
    ...pairNotes(statistics),
  ];
}

/** Which pairs were compared when not all of them were, and how to ask for others. */
function pairNotes(statistics: RunStatistics): string[] {
  const selection = statistics.pairSelection;
  if (selection === undefined) return [];
  const which =
    selection.rule === 'baseline' ? `each strategy against the first, ${statistics.strategies[0]?.strategy ?? ''}` : 'the pairs asked for with --pairs';
  return [
    `Pairs compared: ${selection.pairs} of ${selection.allPairs} (${which}); ask for others with --pairs first:second,… (Holm adjusts across the pairs compared).`,
  ];
}

/** A note when generated tasks share families: what the intervals resample and how much the design effect costs. */
function familyNotes(statistics: RunStatistics): string[] {
  const overall = statistics.strategies[0];
  if (overall === undefined || overall.families === undefined || overall.families === overall.tasks) return [];
  const effects = statistics.comparisons.flatMap((comparison) => (comparison.clustering ? [comparison.clustering.designEffect] : []));
  const range =
    effects.length === 0 ? '' : `; design effect ${Math.min(...effects).toFixed(2)}–${Math.max(...effects).toFixed(2)}, so MDE uses tasks / design effect`;
  return [
    `Families: the ${overall.tasks} tasks are variants of ${overall.families} families (template or mutant); intervals resample families and the sign-flip test flips one sign per family, at any number of epochs (Miller 2024)${range}.`,
  ];
}

/** The statistics section of the run table: a rate table (per strategy, then per group) and the pairwise table. */
export function renderStatisticsText(statistics: RunStatistics, options: StatisticsTextOptions): string {
  const style = options.color ? {} : { head: [], border: [] };
  const width = options.maxWidth;
  const limit = width === undefined ? {} : { maxWidth: width };
  const rateHead = rateColumns(statistics);
  const rows = [...statistics.strategies, ...(width === undefined ? statistics.groups : [])].map((row) => rateCells(row, statistics));
  // Narrow: Episodes, Tasks, Group, Errors, then the stability counts go before the rates.
  const rates = fitTable(rateHead, rows, { style, ...limit, dropOrder: [3, 2, 1, 4, rateHead.length - 1] });
  const out = ['Statistics', rates];
  if (width !== undefined && statistics.groups.length > 0) out.push('(per-group rows: --wide, or stratbench report DIR --wide)');
  if (statistics.comparisons.length > 0) {
    // Narrow: p (Holm), then the test's name, then MDE go first.
    const pairs = fitTable(COMPARISON_COLUMNS, statistics.comparisons.map(comparisonCells), { style, ...limit, dropOrder: [6, 4, 7] });
    out.push('', 'Paired comparisons (shared tasks)', pairs);
  }
  out.push('', ...statisticsNotes(statistics).flatMap((note) => wrapLine(note, width)));
  return `${out.join('\n')}\n`;
}
