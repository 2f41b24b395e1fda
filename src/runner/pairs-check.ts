// Requested `--pairs` checked against a run's strategies before any work (exit 2 naming the bad pair).
import { selectPairs } from '../report/statistics-comparison.js';
import { UsageError } from './usage-error.js';

/** Checks requested pairs against the strategies of a run (selectPairs' rules). Throws UsageError naming the bad pair. */
export function checkPairs(strategies: readonly string[], pairs: readonly [string, string][] | undefined): void {
  if (pairs === undefined) return;
  try {
    selectPairs(strategies, pairs);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`--pairs: ${error.message}`);
    throw error;
  }
}
