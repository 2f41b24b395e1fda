// The `cache clear` command: empties the response cache folder of `run --cache` and the validation cache.
import { join } from 'node:path';
import { clearResponseCache } from '../../models/response-cache.js';
import { UsageError } from '../usage-error.js';
import { clearValidationCache } from '../validation-cache.js';

/** The flags of `stratbench cache clear` (cli.ts). */
export interface CacheClearOptions {
  /** `--cache-dir`: the response cache folder (the CLI's default: DEFAULT_CACHE_DIR, models/response-cache.ts). */
  cacheDir: string;
  /** `--validation-cache-dir`: the validation cache folder (default: `validation/` inside `cacheDir`, DEFAULT_VALIDATION_CACHE_DIR by default). */
  validationCacheDir?: string;
}

/**
 * `stratbench cache clear`: deletes the cached replies in `options.cacheDir` and the validation cache's files in
 * `options.validationCacheDir` (other files are left alone), prints how many of each (the second line only when the
 * validation cache folder exists); returns 0. Throws UsageError (exit 2) when a folder cannot be read or a file cannot
 * be removed.
 */
export async function cacheClearCommand(options: CacheClearOptions): Promise<number> {
  const dir = options.cacheDir;
  const validationDir = options.validationCacheDir ?? join(dir, 'validation');
  let removed: number;
  let validationRemoved: number | null;
  try {
    removed = await clearResponseCache(dir);
  } catch (error) {
    throw new UsageError(`cannot clear the cache in ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    validationRemoved = await clearValidationCache(validationDir);
  } catch (error) {
    throw new UsageError(`cannot clear the validation cache in ${validationDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  process.stdout.write(`removed ${removed} cached repl${removed === 1 ? 'y' : 'ies'} from ${dir}\n`);
  if (validationRemoved !== null) {
    process.stdout.write(`removed ${validationRemoved} validation cache file${validationRemoved === 1 ? '' : 's'} from ${validationDir}\n`);
  }
  return 0;
}
