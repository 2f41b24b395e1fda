// The `cache clear` command: empties the response cache folder of `run --cache`.
import { clearResponseCache } from '../../models/response-cache.js';
import { UsageError } from '../usage-error.js';

/** The flags of `stratbench cache clear` (cli.ts). */
export interface CacheClearOptions {
  /** `--cache-dir`: the response cache folder (the CLI's default: DEFAULT_CACHE_DIR, models/response-cache.ts). */
  cacheDir: string;
}

/**
 * `stratbench cache clear`: deletes the cached replies in `options.cacheDir` (other files are left alone), prints how
 * many; returns 0. Throws UsageError (exit 2) when the folder cannot be read or a reply cannot be removed.
 */
export async function cacheClearCommand(options: CacheClearOptions): Promise<number> {
  const dir = options.cacheDir;
  let removed: number;
  try {
    removed = await clearResponseCache(dir);
  } catch (error) {
    throw new UsageError(`cannot clear the cache in ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  process.stdout.write(`removed ${removed} cached repl${removed === 1 ? 'y' : 'ies'} from ${dir}\n`);
  return 0;
}
