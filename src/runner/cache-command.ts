// The `cache clear` command: empties the response cache folder of `run --cache`.
import { clearResponseCache } from '../models/response-cache.js';

/** `stratbench cache clear`: deletes the cached replies in `dir`, prints how many; exit code 0. */
export async function cacheClearCommand(dir: string): Promise<number> {
  const removed = await clearResponseCache(dir);
  process.stdout.write(`removed ${removed} cached repl${removed === 1 ? 'y' : 'ies'} from ${dir}\n`);
  return 0;
}
