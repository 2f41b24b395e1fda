// Owns which working-tree files `eslint <patterns>` lints: ESLint 9's findFiles, run over the in-memory tree.
import { posix } from 'node:path';
import type { EslintModules, FlatConfigArray, Matcher } from './load-eslint.js';

/** The repository root as ESLint sees it (its cwd and the config's base path). */
export const REPO_ROOT = '/repo';

/** ESLint's fatal errors of file selection, rendered by its `messages/<template>.js`. */
export type FindFilesError =
  | { template: 'file-not-found'; data: { pattern: string; globDisabled: boolean } }
  | { template: 'all-matched-files-ignored'; data: { pattern: string } };

/** Absolute paths (`/repo/…`) in ESLint's order: explicit files first, then each search's walk. */
export type FindFilesResult = { ok: true; files: string[] } | { ok: false; error: FindFilesError };

type Globbing = Pick<EslintModules, 'matcher' | 'isGlob' | 'globParent'>;

/** What `eslint <patterns>` will look at: files named explicitly, then one search per base directory. */
export interface FileSearchPlan {
  tree: Tree;
  /** Absolute paths of patterns naming a file. */
  explicit: string[];
  /** Base directory (absolute) → its patterns, the repository root first. */
  searches: Map<string, Search>;
}

/** The in-memory tree as directories of entries, each listing sorted as libuv's scandir sorts (byte order). */
export class Tree {
  readonly files = new Set<string>();
  private readonly children = new Map<string, Map<string, boolean>>();

  constructor(paths: readonly string[]) {
    for (const path of paths) {
      this.files.add(path);
      const parts = path.split('/');
      for (let depth = 0; depth < parts.length; depth++) {
        const directory = parts.slice(0, depth).join('/');
        let entries = this.children.get(directory);
        if (entries === undefined) this.children.set(directory, (entries = new Map()));
        entries.set(parts[depth]!, depth < parts.length - 1);
      }
    }
  }

  isDirectory(path: string): boolean {
    return this.children.has(path);
  }

  /** `[name, isDirectory]` pairs of a directory, sorted by name. */
  list(directory: string): Array<[string, boolean]> {
    return [...(this.children.get(directory) ?? new Map<string, boolean>())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

interface Search {
  /** Absolute glob patterns. */
  patterns: string[];
  /** The patterns as typed, for error messages. */
  rawPatterns: string[];
}

/**
 * The first step of ESLint 9's file selection (`eslint-helpers.js` findFiles), before any config is loaded: a
 * pattern naming a file is linted as given (even if ignored or unconfigured: ESLint then warns); a directory is
 * searched as `dir/**`; a glob is searched from its glob parent. A pattern that is none of these fails with
 * `file-not-found` (unless `errorOnUnmatchedPattern` is false: it is then dropped).
 */
export function planFileSearch(input: {
  patterns: readonly string[];
  paths: readonly string[];
  errorOnUnmatchedPattern: boolean;
  eslint: Globbing;
}): { ok: true; plan: FileSearchPlan } | { ok: false; error: FindFilesError } {
  const tree = new Tree(input.paths);
  const explicit: string[] = [];
  const missing: string[] = [];
  const searches = new Map<string, Search>([[REPO_ROOT, { patterns: [], rawPatterns: [] }]]);
  const searchAt = (base: string): Search => {
    let search = searches.get(base);
    if (search === undefined) searches.set(base, (search = { patterns: [], rawPatterns: [] }));
    return search;
  };
  for (const raw of input.patterns) {
    const pattern = raw.replace(/\\/g, '/');
    const absolute = posix.resolve(REPO_ROOT, pattern);
    const relative = repoRelative(absolute);
    if (relative !== undefined && tree.files.has(relative)) {
      explicit.push(absolute);
    } else if (relative !== undefined && (relative === '' || tree.isDirectory(relative))) {
      const search = searchAt(absolute);
      search.patterns.push(`${absolute}/**`);
      search.rawPatterns.push(pattern);
    } else if (input.eslint.isGlob(pattern)) {
      const search = searchAt(posix.resolve(REPO_ROOT, input.eslint.globParent(pattern)));
      search.patterns.push(absolute);
      search.rawPatterns.push(pattern);
    } else {
      missing.push(pattern);
    }
  }
  if (input.errorOnUnmatchedPattern && missing.length > 0) {
    return { ok: false, error: { template: 'file-not-found', data: { pattern: missing[0]!, globDisabled: false } } };
  }
  for (const [base, search] of searches) if (search.patterns.length === 0) searches.delete(base);
  return { ok: true, plan: { tree, explicit, searches } };
}

/** Whether the plan has nothing to look at (ESLint then loads no config and reports nothing). */
export function isEmptyPlan(plan: FileSearchPlan): boolean {
  return plan.explicit.length === 0 && plan.searches.size === 0;
}

/**
 * The second step (globSearch): each search walks its base depth first in name order, skips directories the
 * configs ignore and keeps files that match a pattern and have a config (a `files` match, not ignored). The first
 * pattern that yields no file fails the run (unless `errorOnUnmatchedPattern` is false): `all-matched-files-ignored`
 * when it matches files that are all ignored or unconfigured, `file-not-found` when it matches no file at all.
 * @throws ConfigError from `configs.getConfig` when a config object is malformed (ESLint's fatal error).
 */
export function findLintFiles(
  plan: FileSearchPlan,
  configs: FlatConfigArray,
  options: { errorOnUnmatchedPattern: boolean; eslint: Globbing },
): FindFilesResult {
  const found: string[] = [];
  for (const [base, search] of plan.searches) {
    const outcome = globSearch(plan.tree, base, search, configs, options.eslint);
    if (outcome.unmatched !== undefined && options.errorOnUnmatchedPattern) {
      const rawPattern = search.rawPatterns[search.patterns.indexOf(outcome.unmatched)]!;
      return globMatches(plan.tree, base, outcome.unmatched, options.eslint)
        ? { ok: false, error: { template: 'all-matched-files-ignored', data: { pattern: rawPattern } } }
        : { ok: false, error: { template: 'file-not-found', data: { pattern: rawPattern, globDisabled: false } } };
    }
    found.push(...outcome.files);
  }
  return { ok: true, files: [...new Set([...plan.explicit, ...found])] };
}

function repoRelative(absolute: string): string | undefined {
  if (absolute === REPO_ROOT) return '';
  return absolute.startsWith(`${REPO_ROOT}/`) ? absolute.slice(REPO_ROOT.length + 1) : undefined;
}

/** Walks `base` as globSearch does; `unmatched` is the first pattern (absolute) that no linted file matched. */
function globSearch(tree: Tree, base: string, search: Search, configs: FlatConfigArray, eslint: Globbing): { files: string[]; unmatched?: string } {
  const matchers = new Map<string, { matcher: Matcher; absolute: string }>();
  for (const pattern of search.patterns) {
    const relative = posix.relative(base, pattern);
    matchers.set(relative, { matcher: eslint.matcher(relative), absolute: pattern });
  }
  const unmatched = new Set(matchers.keys());
  const files: string[] = [];
  const walk = (directory: string, prefix: string): void => {
    for (const [name, isDirectory] of tree.list(directory)) {
      const entryPath = prefix === '' ? name : `${prefix}/${name}`;
      const absolute = `${base}/${entryPath}`;
      const treePath = directory === '' ? name : `${directory}/${name}`;
      if (isDirectory) {
        if (![...matchers.values()].some(({ matcher }) => matcher.match(entryPath, true))) continue;
        if (configs.isDirectoryIgnored(absolute)) continue;
        walk(treePath, entryPath);
        continue;
      }
      const config = configs.getConfig(absolute);
      let matches = false;
      for (const [relative, { matcher }] of matchers) {
        if (!matcher.match(entryPath)) continue;
        matches = true;
        if (config !== undefined) unmatched.delete(relative);
      }
      if (matches && config !== undefined) files.push(absolute);
    }
  };
  const start = repoRelative(base);
  if (start !== undefined && (start === '' || tree.isDirectory(start))) walk(start, '');
  const first = unmatched.values().next();
  return first.done === true ? { files } : { files, unmatched: matchers.get(first.value)!.absolute };
}

/** Whether `pattern` (absolute) matches any file under `base`, ignores and configs aside (ESLint's globMatch). */
function globMatches(tree: Tree, base: string, pattern: string, eslint: Globbing): boolean {
  const matcher = eslint.matcher(posix.relative(base, pattern));
  const walk = (directory: string, prefix: string): boolean => {
    for (const [name, isDirectory] of tree.list(directory)) {
      const entryPath = prefix === '' ? name : `${prefix}/${name}`;
      const treePath = directory === '' ? name : `${directory}/${name}`;
      if (isDirectory) {
        if (matcher.match(entryPath, true) && walk(treePath, entryPath)) return true;
      } else if (matcher.match(entryPath)) {
        return true;
      }
    }
    return false;
  };
  const start = repoRelative(base);
  return start !== undefined && (start === '' || tree.isDirectory(start)) && walk(start, '');
}
