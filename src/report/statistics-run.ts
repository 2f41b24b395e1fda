// computeRunStatistics(): everything the statistics section of a run needs, as one JSON-ready value (for summary.json).
import type { BootstrapOptions } from './statistics-bootstrap.js';
import { compareStrategies, type PairedComparison } from './statistics-comparison.js';
import { summarise, type StatisticsSummary } from './statistics-summary.js';
import type { EpisodeResult } from './statistics-tasks.js';

/** summarise() plus every pairwise strategy comparison (Holm-corrected across pairs). Contains no NaN or Infinity. */
export interface RunStatistics extends StatisticsSummary {
  comparisons: PairedComparison[];
}

/**
 * Rates with intervals, pass@k / pass^k, stability (per strategy and per strategy × group) and paired comparisons of
 * every pair of strategies, from one run's episodes. Pure and deterministic given options.seed.
 */
export function computeRunStatistics(episodes: readonly EpisodeResult[], options: BootstrapOptions = {}): RunStatistics {
  return { ...summarise(episodes, options), comparisons: compareStrategies(episodes, options) };
}
