// The `cache clear` command: empties the response cache folder of `run --cache`, the validation cache and the code cache.
import { join } from 'node:path';
import { clearResponseCache } from '../../models/response-cache.js';
import { UsageError } from '../usage-error.js';
import { clearValidationCache } from '../validation-cache.js';
import { clearRunStore } from '../../sim-repo/index.js';

/** The flags of `stratbench cache clear` (cli.ts). */
export interface CacheClearOptions {
  /** `--cache-dir`: the response cache folder (the CLI's default: DEFAULT_CACHE_DIR, models/response-cache.ts). */
  cacheDir: string;
  /** `--validation-cache-dir`: the validation cache folder (default: `validation/` inside `cacheDir`, DEFAULT_VALIDATION_CACHE_DIR by default). */
  validationCacheDir?: string;
  /** `--code-cache-dir`: the code cache folder (default: `code-runs/` inside `cacheDir`). */
  codeCacheDir?: string;
}

/**
 * `stratbench cache clear`: deletes the cached replies in `options.cacheDir` and the validation cache's files in
 * `options.validationCacheDir` and the code cache's harness folders in `options.codeCacheDir` (other files are left
 * alone), prints how many of each (the second and third lines only when their folder exists); returns 0. Throws UsageError (exit 2) when a folder cannot be read or a file cannot
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
  const codeDir = options.codeCacheDir ?? join(dir, 'code-runs');
  let codeRemoved: number | null;
  try {
    codeRemoved = clearRunStore(codeDir);
  } catch (error) {
    throw new UsageError(`cannot clear the code cache in ${codeDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  process.stdout.write(`removed ${removed} cached repl${removed === 1 ? 'y' : 'ies'} from ${dir}\n`);
  if (validationRemoved !== null) {
    process.stdout.write(`removed ${validationRemoved} validation cache file${validationRemoved === 1 ? '' : 's'} from ${validationDir}\n`);
  }
  if (codeRemoved !== null) {
    process.stdout.write(`removed the code runs of ${codeRemoved} harness${codeRemoved === 1 ? '' : 'es'} from ${codeDir}\n`);
  }
  return 0;
}
