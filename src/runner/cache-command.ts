// The `cache clear` command: empties the response cache folder of `run --cache`.
import { clearResponseCache } from '../models/response-cache.js';
import { UsageError } from './usage-error.js';

/** `stratbench cache clear`: deletes the cached replies in `dir`, prints how many; exit code 0. */
export async function cacheClearCommand(dir: string): Promise<number> {
  let removed: number;
  try {
    removed = await clearResponseCache(dir);
  } catch (error) {
    throw new UsageError(`cannot clear the cache in ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  process.stdout.write(`removed ${removed} cached repl${removed === 1 ? 'y' : 'ies'} from ${dir}\n`);
  return 0;
}
