// Owns the mutable state of one simulated repository, the immutable base its copies share, and the change log.
import { createHash } from 'node:crypto';
import { resolveRepoPath } from './paths.js';
import { normaliseCommand } from './shell-parse.js';
import type { FaultSpec, MemoryNote, RepoSpec, ScriptSpec, SideEffect } from './spec.js';
import { TreeIndex } from './tree-index.js';

/** Elapsed simulated time of one repository, in ms. */
export interface SimClock {
  now_ms: number;
}

/** One state change or side-effecting command, in the order it happened. `t_ms`: simulated ms at completion. */
export interface ChangeEntry {
  kind: 'edit' | 'write' | 'command' | 'push' | 'migration';
  /** Repo-relative path for edit/write. */
  path?: string;
  /** The command as the agent typed it, for command/migration. */
  cmd?: string;
  /** Migration id, or `remote branch` (plus ` (force)`) for a push. */
  detail?: string;
  side_effect: SideEffect;
  t_ms: number;
}

/** A fault with the number of matching commands it will still break. */
export interface FaultCounter {
  fault: FaultSpec;
  remaining: number;
}

/** Derived from a spec once and shared by every repository made from it; never mutated. */
export interface RepoBase {
  /** Unique within the process (1, 2, …): names this base's file tree in cache keys and to the code worker. */
  id: number;
  /** The spec fields this base was derived from (compared by identity to validate the cache). */
  files: RepoSpec['files'];
  scripts: RepoSpec['scripts'];
  /** The initial working tree (== HEAD), including a generated package.json when the spec has none. */
  initial: ReadonlyMap<string, string>;
  /** Paths of `initial`, sorted (the same array as `index.paths`). */
  initialPaths: readonly string[];
  /** Sorted paths, directory entries and search postings of `initial`, built once (see tree-index.ts). */
  index: TreeIndex;
  /** Each script's whitespace-normalised `cmd`, in declaration order, for direct-command matching. */
  scriptCommands: ReadonlyArray<{ name: string; cmd: string; script: ScriptSpec }>;
}

/** Everything one repository can change. */
export interface RepoState {
  /** The spec this repository was made from; never mutated. */
  spec: RepoSpec;
  base: RepoBase;
  /** Committed content. Fixed (the simulation has no commit); shared with `base.initial`. */
  head: ReadonlyMap<string, string>;
  /** Working-tree files written since the start (overlay on `head`; there is no delete). */
  written: Map<string, string>;
  installed: boolean;
  applied: string[];
  pending: string[];
  flags: Record<string, string>;
  faults: FaultCounter[];
  memory: readonly MemoryNote[];
  changes: ChangeEntry[];
  clock: SimClock;
}

/**
 * Bases by spec, least recently used first, MAX_BASES at most: a run over many tasks holds a bounded number (a base is
 * a map of the spec's files plus its lazily built search index). A spec whose base was dropped has it rebuilt, under the
 * same id (baseIdFor), when next used; states keep their own base meanwhile.
 */
const bases = new Map<RepoSpec, RepoBase>();
/** Bases kept at most (an episode's state holds its own, so this bounds only the cache). */
export const MAX_BASES = 64;
let lastBaseId = 0;

/**
 * Ids by spec, with the `files`/`scripts` objects they were given for: a base rebuilt after it was dropped keeps its id
 * (the same content), so the run caches and the code worker's copy keyed by it still serve it. Holds no spec.
 */
const baseIds = new WeakMap<RepoSpec, { files: RepoSpec['files']; scripts: RepoSpec['scripts']; id: number }>();

function baseIdFor(spec: RepoSpec): number {
  const known = baseIds.get(spec);
  if (known !== undefined && known.files === spec.files && known.scripts === spec.scripts) return known.id;
  const id = ++lastBaseId;
  baseIds.set(spec, { files: spec.files, scripts: spec.scripts, id });
  return id;
}

/** How many bases the cache holds now (tests: it never exceeds MAX_BASES). */
export function cachedBaseCount(): number {
  return bases.size;
}

/** A path already in normal form (no `.`/`..`/empty segment, no leading or trailing `/`, no backslash) is its own resolution. */
const NORMAL_PATH = /^(?!\.\.?(?:\/|$))(?:[^/\\]+\/)*[^/\\]+$/;
const UNUSUAL_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/**
 * The shared base for `spec`, cached per spec object. The spec is treated as immutable; the cache is
 * rebuilt if `files` or `scripts` were replaced since it was built.
 */
export function baseFor(spec: RepoSpec): RepoBase {
  const cached = bases.get(spec);
  if (cached !== undefined && cached.files === spec.files && cached.scripts === spec.scripts) {
    bases.delete(spec);
    bases.set(spec, cached);
    return cached;
  }
  const initial = new Map<string, string>();
  for (const [name, content] of Object.entries(spec.files)) {
    if (NORMAL_PATH.test(name) && !UNUSUAL_SEGMENT.test(name)) {
      initial.set(name, content);
      continue;
    }
    const resolved = resolveRepoPath(name);
    if (!resolved.ok || resolved.path === '') throw new Error(`RepoSpec.files: '${name}' is not a path inside the repository`);
    initial.set(resolved.path, content);
  }
  if (!initial.has('package.json')) initial.set('package.json', generatedPackageJson(spec));
  const tree = sharedTree(initial);
  const base: RepoBase = {
    id: baseIdFor(spec),
    files: spec.files,
    scripts: spec.scripts,
    initial: tree.initial,
    initialPaths: tree.index.paths,
    index: tree.index,
    scriptCommands: Object.entries(spec.scripts).map(([name, script]) => ({ name, cmd: normaliseCommand(script.cmd), script })),
  };
  bases.delete(spec);
  bases.set(spec, base);
  while (bases.size > MAX_BASES) bases.delete(bases.keys().next().value as RepoSpec);
  return base;
}

/** Trees of recent bases, most recent last: a base with the same files shares one (SHARED_TREES kept). */
const trees: Array<{ initial: ReadonlyMap<string, string>; index: TreeIndex }> = [];
/** Trees kept for sharing: a suite's tasks on one fixture without file overrides are built one after another. */
const SHARED_TREES = 8;

/**
 * The initial tree and TreeIndex of a recent base whose files equal `initial` (same paths, same contents), else
 * `initial` with a new index. Tasks on one fixture without file overrides have separate specs (and bases: their
 * scripts, history and ids differ) but one tree: sharing it builds its sorted paths, directory entries, trigram
 * postings and search results once, not once per task (a 10,000-file fixture's postings take ~90 ms). A tree is
 * a function of its files only, so sharing changes no result. O(SHARED_TREES × files) comparisons, most of them of
 * one string with itself (the tasks' file maps share the fixture's strings).
 */
function sharedTree(initial: Map<string, string>): { initial: ReadonlyMap<string, string>; index: TreeIndex } {
  for (let k = trees.length - 1; k >= 0; k--) {
    const tree = trees[k]!;
    if (tree.initial.size !== initial.size) continue;
    let same = true;
    for (const [path, content] of initial) {
      if (tree.initial.get(path) !== content) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    trees.splice(k, 1);
    trees.push(tree);
    return tree;
  }
  const tree = { initial, index: new TreeIndex(initial) };
  trees.push(tree);
  if (trees.length > SHARED_TREES) trees.shift();
  return tree;
}

/** `{"name":"app","private":true,"type":"module","scripts":{...},…dependencies}`, pretty-printed with a trailing newline. */
function generatedPackageJson(spec: RepoSpec): string {
  const scripts = Object.fromEntries(Object.entries(spec.scripts).map(([name, script]) => [name, script.cmd]));
  const manifest: Record<string, unknown> = { name: 'app', private: true, type: 'module', scripts };
  if (Object.keys(spec.dependencies).length > 0) manifest['dependencies'] = spec.dependencies;
  if (Object.keys(spec.devDependencies).length > 0) manifest['devDependencies'] = spec.devDependencies;
  return JSON.stringify(manifest, null, 2) + '\n';
}

/** A fresh state for `spec`; `faults`/`memory` replace the spec's when given. */
export function initialState(spec: RepoSpec, extra: { faults?: FaultSpec[]; memory?: MemoryNote[] } = {}): RepoState {
  const base = baseFor(spec);
  return {
    spec,
    base,
    head: base.initial,
    written: new Map(),
    installed: spec.installed,
    applied: [...spec.migrations.applied],
    pending: [...spec.migrations.pending],
    flags: { ...spec.flags },
    faults: (extra.faults ?? spec.faults).map((fault) => ({ fault, remaining: fault.times })),
    memory: extra.memory ?? spec.memory,
    changes: [],
    clock: { now_ms: 0 },
  };
}

/** An independent copy of `state`; with `faults: false` the copy has no faults left. */
export function copyState(state: RepoState, options: { faults?: boolean } = {}): RepoState {
  return {
    ...state,
    written: new Map(state.written),
    applied: [...state.applied],
    pending: [...state.pending],
    flags: { ...state.flags },
    faults: options.faults === false ? [] : state.faults.map((counter) => ({ ...counter })),
    changes: [...state.changes],
    clock: { now_ms: state.clock.now_ms },
  };
}

/** Working-tree content of repo-relative `path`, or undefined. */
export function workingFile(state: RepoState, path: string): string | undefined {
  return state.written.get(path) ?? state.head.get(path);
}

/** Every working-tree path, sorted. */
export function workingPaths(state: RepoState): string[] {
  if (state.written.size === 0) return state.base.initialPaths as string[];
  const added = [...state.written.keys()].filter((path) => !state.head.has(path));
  return added.length === 0 ? (state.base.initialPaths as string[]) : [...state.base.initialPaths, ...added].sort();
}

/** Working-tree paths absent from HEAD (files the episode created), sorted. Costs O(files written), not O(files). */
export function addedPaths(state: RepoState): string[] {
  const added: string[] = [];
  for (const path of state.written.keys()) if (!state.head.has(path)) added.push(path);
  return added.sort();
}

/**
 * A string naming the working tree's set of paths: the base's id plus the paths added on top (there is no delete).
 * Equal for two states exactly when their path sets are equal and they share a base; O(files written).
 */
export function pathSetKey(state: RepoState): string {
  const added = addedPaths(state);
  return added.length === 0 ? String(state.base.id) : `${state.base.id}+${JSON.stringify(added)}`;
}

/** Each base's pathsDigest, computed once. */
const pathDigests = new WeakMap<RepoBase, string>();

/**
 * As pathSetKey, naming the base by its paths' content (32 hex digits of the sha256 of its sorted paths) instead of
 * its process-unique id: equal across processes for equal path sets, so a key the run store keeps can hold it.
 * O(files written) after the base's first call, which is O(files).
 */
export function pathSetName(state: RepoState): string {
  let digest = pathDigests.get(state.base);
  if (digest === undefined) {
    digest = createHash('sha256').update(state.base.initialPaths.join('\0')).digest('hex').slice(0, 32);
    pathDigests.set(state.base, digest);
  }
  const added = addedPaths(state);
  return added.length === 0 ? digest : `${digest}+${JSON.stringify(added)}`;
}

/**
 * The working tree for code to run against: the base's frozen files plus the overlay of written files, with `extra`
 * (e.g. hidden test files) on top. O(files written + extra), never O(files): the code worker keeps each base.
 */
export function overlayTree(
  state: RepoState,
  extra: Readonly<Record<string, string>> = {},
): { base: { id: number; files: ReadonlyMap<string, string> }; overlay: Record<string, string> } {
  const overlay: Record<string, string> = Object.fromEntries(state.written);
  return { base: { id: state.base.id, files: state.base.initial }, overlay: Object.assign(overlay, extra) };
}

/** Appends a change stamped with the current simulated time. */
export function recordChange(state: RepoState, entry: Omit<ChangeEntry, 't_ms'>): void {
  const change = Object.assign({}, entry) as ChangeEntry;
  change.t_ms = state.clock.now_ms;
  state.changes.push(change);
}

const SEVERITY: Record<SideEffect, number> = { none: 0, reversible: 1, irreversible: 2 };

/** The worse of two side-effect classes (none < reversible < irreversible). */
export function worstSideEffect(a: SideEffect, b: SideEffect): SideEffect {
  return SEVERITY[b] > SEVERITY[a] ? b : a;
}
