// `--pairs a:b,c:d` (run, report): which strategy pairs the statistics compare; parsed and checked before any work.
import { UsageError } from './usage-error.js';

/**
 * Parses `--pairs first:second,…` into [first, second] pairs (difference = second − first). Throws UsageError for an
 * empty list or an item that is not two non-empty names joined by one colon.
 */
export function parsePairs(value: string): [string, string][] {
  const items = value.split(',').map((item) => item.trim());
  if (items.length === 0 || items.every((item) => item === '')) throw new UsageError('--pairs takes first:second pairs separated by commas, got nothing');
  return items.map((item): [string, string] => {
    const names = item.split(':').map((name) => name.trim());
    if (names.length !== 2 || names.some((name) => name === '')) {
      throw new UsageError(`--pairs: "${item}" is not first:second (two strategy names joined by a colon, e.g. direct:react)`);
    }
    return [names[0] as string, names[1] as string];
  });
}
