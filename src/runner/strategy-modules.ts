// `run --strategy-module PATH`: a researcher's strategy, loaded from a module and registered by its name (issue 28 §1).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { addModuleStrategy, type Strategy } from '../strategies/index.js';
import { UsageError } from './usage-error.js';

const isStrategy = (value: unknown): value is Strategy =>
  typeof value === 'object' && value !== null && typeof (value as Strategy).name === 'string' && typeof (value as Strategy).run === 'function';

/**
 * Imports each module (`.js`/`.mjs` natively; `.ts`/`.mts`/`.cts` through jiti, the loader ESLint and Vite use for
 * configs) and registers the strategies it exports: its default export (a strategy or an array of them) and every
 * named export that is a strategy (`defineStrategy` makes them). Returns the names registered, in order, and each
 * module's absolute path and content hash (run.json keeps them: `--resume` loads them again, and an edited module
 * changes the run's configuration hash, as an edited prompt does). Throws a
 * UsageError (exit 2) naming the path for a missing file, a module that does not load, one that exports no strategy,
 * and a malformed or clashing strategy.
 */
export async function loadStrategyModules(paths: readonly string[]): Promise<LoadedModules> {
  const names: string[] = [];
  const modules: LoadedModules['modules'] = [];
  for (const path of paths) {
    const file = resolve(path);
    if (!existsSync(file)) throw new UsageError(`--strategy-module ${path}: no such file`);
    let loaded: Record<string, unknown>;
    try {
      if (/\.[cm]?ts$/.test(file)) {
        const { createJiti } = await import('jiti');
        loaded = (await createJiti(import.meta.url).import(file)) as Record<string, unknown>;
      } else loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`--strategy-module ${path}: the module does not load: ${error instanceof Error ? error.message : String(error)}`);
    }
    const exported = [
      ...(Array.isArray(loaded['default']) ? loaded['default'] : [loaded['default']]),
      ...Object.entries(loaded)
        .filter(([key]) => key !== 'default')
        .map(([, value]) => value),
    ];
    const strategies = [...new Set(exported.filter(isStrategy))];
    if (strategies.length === 0) throw new UsageError(`--strategy-module ${path}: exports no strategy (export default defineStrategy({ name, roles, run }))`);
    for (const strategy of strategies) {
      try {
        addModuleStrategy(strategy);
      } catch (error) {
        throw new UsageError(`--strategy-module ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
      names.push(strategy.name);
    }
    modules.push({
      path: file,
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
      strategies: strategies.map((strategy) => strategy.name),
    });
  }
  return { names, modules };
}

/** The strategies registered, and each module as the run records it (absolute path, content hash, strategy names). */
export interface LoadedModules {
  names: string[];
  modules: Array<{ path: string; sha256: string; strategies: string[] }>;
}
