// computeRunStatistics(): everything the statistics section of a run needs, as one JSON-ready value (for summary.json).
import { type StatisticsInput, toResultColumns } from './result-columns.js';
import type { BootstrapOptions } from './statistics-bootstrap.js';
import { compareStrategies, type PairedComparison, type PairsOption, selectPairs } from './statistics-comparison.js';
import { summarise, type StatisticsSummary } from './statistics-summary.js';

/** How the compared pairs were chosen when they are not every pair of strategies (see selectPairs). */
export interface PairSelection {
  /** baseline: each strategy against the first (the default beyond ALL_PAIRS_UP_TO strategies); requested: --pairs. */
  rule: 'baseline' | 'requested';
  /** Pairs compared (before leaving out pairs without a shared task). */
  pairs: number;
  /** Pairs of strategies there are: n(n − 1)/2. */
  allPairs: number;
}

/**
 * summarise() plus the paired comparisons of the chosen strategy pairs (Holm-corrected across those pairs); contains
 * no NaN or Infinity. `pairSelection` is present only when not every pair was compared.
 */
export interface RunStatistics extends StatisticsSummary {
  comparisons: PairedComparison[];
  pairSelection?: PairSelection;
}

/**
 * Rates with intervals, pass@k / pass^k, stability (per strategy and per strategy × group) and paired comparisons of
 * the chosen pairs of strategies (options.pairs; default: every pair up to 6 strategies, else each against the
 * first), from one run's episodes (ResultColumns or an EpisodeResult[]). Pure and deterministic given options.seed.
 * Throws RangeError for a requested pair naming an unknown strategy, a strategy twice, or a pair twice.
 */
export function computeRunStatistics(input: StatisticsInput, options: BootstrapOptions & PairsOption = {}): RunStatistics {
  const columns = toResultColumns(input);
  const summary = summarise(columns, options);
  const strategies = summary.strategies.map((row) => row.strategy);
  const pairs = selectPairs(strategies, options.pairs);
  const allPairs = (strategies.length * (strategies.length - 1)) / 2;
  const keys = new Set(pairs.map((pair) => [...pair].sort().join('\u0000')));
  const everyPair = keys.size === allPairs;
  const selection: PairSelection | undefined = everyPair ? undefined : { rule: options.pairs ? 'requested' : 'baseline', pairs: pairs.length, allPairs };
  return { ...summary, comparisons: compareStrategies(columns, { ...options, pairs }), ...(selection ? { pairSelection: selection } : {}) };
}
