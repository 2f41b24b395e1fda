// Owns the one place that loads ESLint 9 (lazily, synchronously) and the internal modules the simulation reuses.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Linter } from 'eslint';

/** A problem as `Linter#verify` reports it (`line`/`column` are 1-based; absent for ignored-file warnings). */
export interface LintMessage {
  ruleId: string | null;
  severity: 1 | 2;
  message: string;
  line?: number;
  column?: number;
  fatal?: boolean;
  fix?: unknown;
}

/** Where a file stands against a config array: linted, ignored, matched by no `files` pattern, outside the base path. */
export type ConfigStatus = 'matched' | 'ignored' | 'unconfigured' | 'external';

/** ESLint's `FlatConfigArray` (from `@eslint/config-array`): default configs first, then the user's, then CLI overrides. */
export interface FlatConfigArray {
  push(...configs: unknown[]): number;
  /** Validates and flattens the configs. @throws ConfigError on a malformed config object. */
  normalizeSync(): void;
  /** The merged config for an absolute path, undefined when ignored or unconfigured. @throws ConfigError (validation). */
  getConfig(filePath: string): object | undefined;
  getConfigStatus(filePath: string): ConfigStatus;
  isDirectoryIgnored(directoryPath: string): boolean;
}

/** A compiled glob (minimatch 3, as ESLint uses it). `partial` matches a directory that could contain a match. */
export interface Matcher {
  pattern: string;
  match(path: string, partial?: boolean): boolean;
}

/** ESLint's command-line parser (optionator). @throws Error with ESLint's message on an invalid option or value. */
export interface CliOptionsParser {
  parse(argv: readonly string[]): Record<string, unknown> & { _: string[] };
  generateHelp(): string;
}

/** What the simulation uses from ESLint; every field is the installed eslint@9 package's own code. */
export interface EslintModules {
  version: string;
  /** One reused `new Linter({ configType: 'flat', cwd: '/repo' })`. */
  linter: Linter;
  createConfigArray(options: { basePath: string; shouldIgnore: boolean }): FlatConfigArray;
  cliOptions: CliOptionsParser;
  /** A minimatch with ESLint's options (`{ dot: true }`). */
  matcher(pattern: string): Matcher;
  isGlob(pattern: string): boolean;
  globParent(pattern: string): string;
  /** ESLint's `messages/<template>.js` rendering of a fatal error, undefined when the template does not exist. */
  messageTemplate(template: string, data: unknown): string | undefined;
}

let loaded: EslintModules | undefined;

/**
 * Loads ESLint on first use (~300 ms; later calls return the same modules) so processes that never lint do not pay.
 * Reaches into `eslint/lib/…` by file path for the Linter, the config array, the CLI parser and the message templates: the
 * project pins eslint 9.39.1 exactly, and using ESLint's own code keeps file matching, option parsing and error
 * wording identical to the real CLI. minimatch, is-glob and glob-parent are resolved from ESLint's own folder.
 * @throws Error when eslint is not installed or its layout changed.
 */
export function loadEslint(): EslintModules {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const apiPath = require.resolve('eslint');
  const root = dirname(dirname(apiPath));
  const fromEslint = createRequire(apiPath);
  // The Linter from its own module, not the package's entry: the entry loads the ESLint and LegacyESLint classes too
  // (file enumeration, caching, eslintrc's loaders): ~36 modules and ~450 KB of source the code worker never runs,
  // ~1.3 MB of its live heap and ~3 MB resident (measured). It is the same class (`require('eslint').Linter === Linter`).
  const { Linter } = require(join(root, 'lib', 'linter', 'index.js')) as Pick<typeof import('eslint'), 'Linter'>;
  const { FlatConfigArray: FlatConfigArrayClass } = require(join(root, 'lib', 'config', 'flat-config-array.js')) as {
    FlatConfigArray: new (configs: unknown[], options: { basePath: string; shouldIgnore: boolean }) => FlatConfigArray;
  };
  const createCliOptions = require(join(root, 'lib', 'options.js')) as (usingFlatConfig: boolean) => CliOptionsParser;
  const { version } = require(join(root, 'package.json')) as { version: string };
  const minimatch = fromEslint('minimatch') as { Minimatch: new (pattern: string, options: { dot: boolean }) => Matcher };
  const isGlob = fromEslint('is-glob') as (pattern: string) => boolean;
  const globParent = fromEslint('glob-parent') as (pattern: string) => string;
  loaded = {
    version,
    linter: new Linter({ configType: 'flat', cwd: '/repo' }),
    createConfigArray: (options) => new FlatConfigArrayClass([], options),
    cliOptions: createCliOptions(true),
    matcher: (pattern) => new minimatch.Minimatch(pattern, { dot: true }),
    isGlob,
    globParent,
    messageTemplate(template, data) {
      if (!/^[a-z-]+$/.test(template)) return undefined;
      try {
        const render = require(join(root, 'messages', `${template}.js`)) as (data: unknown) => string;
        return render(data ?? {});
      } catch {
        return undefined;
      }
    },
  };
  return loaded;
}
