// Owns the bare modules an eslint.config.js may import in the sandbox: @eslint/js, globals, eslint/config.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

let modules: Readonly<Record<string, string>> | undefined;

/**
 * ES module sources (name → source) for the sandbox's `syntheticModules`, built once from the installed packages:
 * - `@eslint/js`: the package's default export as data (`meta`, `configs.recommended`, `configs.all`; every config
 *   is plain JSON, so `js.configs.recommended`, `...js.configs.recommended.rules` and `extends: ["js/recommended"]`
 *   all see ESLint's real rule sets);
 * - `globals`: the real `globals` data (default export, as the CommonJS package is seen from ESM);
 * - `eslint/config` and `@eslint/config-helpers`: the real `defineConfig`/`globalIgnores` (config-helpers' own
 *   dependency-free ESM build, so `extends` flattens exactly as in ESLint).
 * @throws Error when one of the packages is missing from node_modules.
 */
export function eslintConfigModules(): Readonly<Record<string, string>> {
  if (modules !== undefined) return modules;
  const require = createRequire(import.meta.url);
  const eslintJs = require('@eslint/js') as unknown;
  const globals = require('globals') as unknown;
  const helpersCjs = createRequire(require.resolve('eslint')).resolve('@eslint/config-helpers');
  const helpers = readFileSync(helpersCjs.replace(/[\\/]cjs[\\/]index\.cjs$/, '/esm/index.js'), 'utf8');
  modules = {
    '@eslint/js': `export default JSON.parse(${JSON.stringify(JSON.stringify(eslintJs))});\n`,
    globals: `export default JSON.parse(${JSON.stringify(JSON.stringify(globals))});\n`,
    'eslint/config': helpers,
    '@eslint/config-helpers': helpers,
  };
  return modules;
}
