// The statistics layer's public API: rates with intervals, pass@k / pass^k, stability, paired comparisons.
export { binomialCdf, normalQuantile } from './statistics-distributions.js';
export { createRandom, randomIndex, type Random } from './statistics-random.js';
export {
  DEFAULT_CONFIDENCE,
  newcombePairedInterval,
  quantileOfSorted,
  twoSidedZ,
  wilsonInterval,
  type Interval,
  type PairedTable,
} from './statistics-intervals.js';
export { binomialCoefficient, passAtK, passHatK } from './statistics-pass-k.js';
export {
  clusterBootstrapMeans,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type BootstrapInterval,
  type BootstrapOptions,
} from './statistics-bootstrap.js';
export { pairedSignFlipTest, pairedSignFlipTests, type SignFlipRequest, type SignFlipResult } from './statistics-sign-flip.js';
export { holmAdjust, mcnemarExact, minimumDetectableEffect, type MinimumDetectableEffectInput } from './statistics-paired-tests.js';
export {
  collectTaskOutcomes,
  countStability,
  stabilityLabel,
  type EpisodeResult,
  type StabilityCounts,
  type StabilityLabel,
  type TaskOutcome,
} from './statistics-tasks.js';
export {
  summarise,
  summariseOutcomes,
  type PassKEstimate,
  type RateEstimate,
  type RateMethod,
  type RateSummary,
  type StatisticsSummary,
} from './statistics-summary.js';
export {
  comparePaired,
  compareStrategies,
  withHolm,
  type DifferenceEstimate,
  type DifferenceMethod,
  type PairedComparison,
  type PairedOptions,
  type PairedTestMethod,
} from './statistics-comparison.js';
export { computeRunStatistics, type RunStatistics } from './statistics-run.js';
export {
  comparisonCells,
  COMPARISON_COLUMNS,
  rateCells,
  rateColumns,
  renderStatisticsText,
  statisticsNotes,
  type StatisticsTextOptions,
} from './statistics-table.js';
export { renderStatisticsMarkdown } from './formats/statistics-markdown.js';
