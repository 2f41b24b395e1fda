// Owns module resolution inside the sandbox: relative and /repo paths, extensions, index files, JSON, bare packages.
import type { FileLookup } from './types.js';

/** How specifiers resolve: `node` is Node's ESM (exact paths only), `vite` is vitest's (extensions and index files tried). */
export type ResolutionMode = 'node' | 'vite';

/** A resolved specifier: a repo file, a harness-provided module, or the error Node/vitest would raise. */
export type Resolution = { ok: true; name: string } | { ok: false; name: string; message: string };

const VITE_EXTENSIONS = ['.mjs', '.js', '.mts', '.ts', '.jsx', '.tsx', '.json'];
const NODE_BUILTINS = new Set([
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'process',
  'readline',
  'stream',
  'timers',
  'url',
  'util',
  'worker_threads',
  'zlib',
]);

/**
 * The longest specifier that can name a file, in characters: Linux's PATH_MAX (4,096). Node's lookups of a longer one
 * fail (ENAMETOOLONG) and find nothing; the sandbox fails it without trying paths, so a run cannot make the host hold
 * megabytes of tried paths (a fresh adversarial review, issue 32: 60 imports of 1 MB names grew the host by 2 GB).
 */
export const MAX_SPECIFIER_CHARS = 4096;

/** The directory part of a repo-relative path (`src/a/b.js` → `src/a`, `b.js` → ``). */
function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Joins and normalises posix segments; null when the result leaves the repository root. */
export function joinRepoPath(base: string, relative: string): string | null {
  const parts = base === '' ? [] : base.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

/**
 * Resolves `specifier` imported from `importer` (a repo-relative path, or `''` for inline code at the root).
 * Relative (`./`, `../`) and absolute `/repo/…` specifiers resolve in the working tree; in `vite` mode the
 * extensions `.mjs .js .mts .ts .jsx .tsx .json` and `index.*` are tried as vitest does. Bare specifiers resolve
 * to `synthetic` modules, else fail like Node: `node:` built-ins are unavailable (no filesystem, network or
 * process), a declared package that the sandbox cannot provide and an undeclared one both fail with
 * Node's "Cannot find package" wording.
 */
export function resolveSpecifier(
  specifier: string,
  importer: string,
  files: FileLookup,
  options: { mode: ResolutionMode; synthetic: ReadonlySet<string>; packages: ReadonlySet<string> },
): Resolution {
  const from = importer === '' ? '/repo/' : `/repo/${importer}`;
  if (specifier.length > MAX_SPECIFIER_CHARS) {
    const shown = `${specifier.slice(0, 100)}…`;
    return {
      ok: false,
      name: shown,
      message: `Cannot find module '${shown}' imported from ${from} (a specifier of ${specifier.length} characters names no file: ENAMETOOLONG)`,
    };
  }
  if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..' || specifier.startsWith('/')) {
    const relative = specifier.startsWith('/repo/') ? specifier.slice('/repo/'.length) : specifier.startsWith('/') ? null : specifier;
    const joined = relative === null ? null : specifier.startsWith('/repo/') ? joinRepoPath('', relative) : joinRepoPath(dirname(importer), relative);
    if (joined === null) return { ok: false, name: specifier, message: `Cannot find module '${specifier}' imported from ${from}` };
    const found = findFile(joined, files, options.mode);
    if (found !== undefined) return { ok: true, name: found };
    const target = `/repo/${joined}`;
    return {
      ok: false,
      name: specifier,
      message:
        options.mode === 'vite'
          ? `Failed to load url ${specifier} (resolved id: ${specifier}) in ${importer === '' ? '/repo' : importer}. Does the file exist?`
          : `Cannot find module '${target}' imported from ${from}`,
    };
  }
  if (options.synthetic.has(specifier)) return { ok: true, name: specifier };
  const builtin = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  if (NODE_BUILTINS.has(builtin)) {
    return {
      ok: false,
      name: specifier,
      message: `Node built-in module '${specifier}' is not available in the stratbench sandbox (no filesystem, network or processes); declare what needs it as an environment-dependent test or script`,
    };
  }
  const packageName = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
  if (options.packages.has(packageName)) {
    return {
      ok: false,
      name: specifier,
      message: `Cannot find package '${packageName}' imported from ${from} (declared in package.json, but the stratbench sandbox provides only the working tree: declare what needs it as an environment-dependent test)`,
    };
  }
  return { ok: false, name: specifier, message: `Cannot find package '${packageName}' imported from ${from}` };
}

function findFile(path: string, files: FileLookup, mode: ResolutionMode): string | undefined {
  if (path !== '' && files(path) !== undefined) return path;
  if (mode === 'node') return undefined;
  for (const extension of VITE_EXTENSIONS) if (files(path + extension) !== undefined) return path + extension;
  for (const extension of VITE_EXTENSIONS) {
    const index = path === '' ? `index${extension}` : `${path}/index${extension}`;
    if (files(index) !== undefined) return index;
  }
  return undefined;
}

/** Folders at the repository root that hold tests and their helpers (`tests/fixtures/orders.js`). */
const ROOT_TEST_FOLDERS = new Set(['test', 'tests', 'spec']);
/** Folder names that mean test code wherever they are (jest's and vitest's conventions). */
const TEST_FOLDERS = new Set(['__tests__', '__mocks__']);
/** vitest 4's default include glob, as a regular expression on the file name: `*.{test,spec}.?(c|m)[jt]s?(x)`. */
const TEST_FILE_NAME = /\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * Whether a repo-relative path is test code rather than source: a file vitest's default include glob collects, a file
 * under a root `test/`, `tests/` or `spec/` folder, or under a `__tests__/` or `__mocks__/` folder at any depth. A
 * `lib/test/pricing.js` is source (a source tree may name a folder `test`). Only test code may register tests, hooks
 * and matchers in the sandbox; when grading, it is read as it was before the episode (issue 25: the grader out of
 * the agent's reach).
 */
export function isTestModulePath(path: string): boolean {
  const parts = path.split('/');
  if (TEST_FILE_NAME.test(parts[parts.length - 1]!)) return true;
  if (parts.length > 1 && ROOT_TEST_FOLDERS.has(parts[0]!)) return true;
  return parts.slice(0, -1).some((part) => TEST_FOLDERS.has(part));
}
