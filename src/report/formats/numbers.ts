// Number formatting shared by the text, markdown and JUnit renderings of statistics (rates, changes, p-values).
import type { DifferenceEstimate, PairedComparison } from '../statistics-comparison.js';
import type { RateEstimate } from '../statistics-summary.js';
import type { TaskSide } from '../compare-report.js';

/** 0.714 → "71.4%". */
export function formatPercent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** A rate with its interval: "71.4% [45.4–88.3]"; "–" when nothing was scored. */
export function formatRate(rate: RateEstimate | null): string {
  if (!rate) return '–';
  return `${formatPercent(rate.estimate)} [${(rate.lower * 100).toFixed(1)}–${(rate.upper * 100).toFixed(1)}]`;
}

function signedPoints(value: number): string {
  const points = value * 100;
  const rounded = Math.abs(points) < 0.05 ? 0 : points;
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : ''}${Math.abs(rounded).toFixed(1)}`;
}

/** A difference in percentage points with its interval: "-14.3 pp [-30.1, +2.0]". */
export function formatChange(difference: DifferenceEstimate): string {
  return `${signedPoints(difference.estimate)} pp [${signedPoints(difference.lower)}, ${signedPoints(difference.upper)}]`;
}

/** "0.031", "<0.001". */
export function formatPValue(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** Minimum detectable effect: "35.2 pp", or "> 100 pp" when not even a 100-point change is detectable. */
export function formatMinimumDetectableEffect(comparison: PairedComparison): string {
  return comparison.minimumDetectableEffect === null ? '> 100 pp' : `${(comparison.minimumDetectableEffect * 100).toFixed(1)} pp`;
}

/** One side of a task: "2/3 flaky", "0/0 unscored (3 errors)", "–" when absent. */
export function formatTaskSide(side: TaskSide | null): string {
  if (!side) return '–';
  const errors = side.errors > 0 ? ` (${side.errors} error${side.errors === 1 ? '' : 's'})` : '';
  return `${side.successes}/${side.epochs} ${side.label}${errors}`;
}

/** The paired test's name as printed. */
export function formatTestMethod(comparison: PairedComparison): string {
  return comparison.test.method === 'mcnemar-exact' ? 'McNemar exact' : 'paired cluster bootstrap';
}
