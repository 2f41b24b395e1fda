// Owns the SimRepo class: the one stateful, deterministic, in-memory repository an episode acts on.
import { EDIT_MS, LOOKUP_MS, PUSH_MS } from './durations.js';
import { editFile, listDirectory, pathsContaining, readFile, searchFiles, searchPrinted, writeFile, type EditApplied, type SearchMatch } from './file-ops.js';
import { changesUnder, findCommit, formatLog, formatShow, gitLog, type LogOptions, type ShowOptions } from './git-history.js';
import { gitDiff, gitStatus, type WorktreeChanges } from './git-worktree.js';
import { resolveRepoPath } from './paths.js';
import { evaluatePredicate } from './predicates.js';
import { pushBranch, type PushOptions } from './push.js';
import type { RepoResult } from './results.js';
import { runTests, type TestResult, type TestRunOptions } from './test-runner.js';
import { classifyCommandLine, runCommandLine, type RunResult } from './shell.js';
import type { Commit, FaultSpec, MemoryNote, Predicate, RepoSpec, SideEffect } from './spec.js';
import { addedPaths, copyState, initialState, recordChange, workingFile, workingPaths, type ChangeEntry, type RepoState, type SimClock } from './state.js';

/**
 * A simulated git repository rooted at `/repo`: files (HEAD and working tree), history, package scripts,
 * a fake test runner, env, permissions, faults, a simulated clock and a change log. Pure and in memory:
 * it never runs a process, touches a real file or opens a connection. Expected failures are returned as
 * `{ ok: false, code, message }` values; nothing throws for them. Every operation advances `clock.now_ms`
 * by its simulated duration (lookups 200 ms, edit/write 100 ms, push 3000 ms, commands their script's
 * `duration_ms`).
 */
export class SimRepo {
  private constructor(private readonly state: RepoState) {}

  /**
   * A fresh, independent repository in the spec's initial state. Cheap: immutable parts (HEAD files,
   * history, tests) are shared with other repositories made from the same spec, which is never mutated.
   * `extra.faults` / `extra.memory` replace the spec's. A `package.json` is generated from `scripts` when
   * `files` has none.
   */
  static fromSpec(spec: RepoSpec, extra: { faults?: FaultSpec[]; memory?: MemoryNote[] } = {}): SimRepo {
    return new SimRepo(initialState(spec, extra));
  }

  /** An independent copy of the current state (clock and change log included); `faults: false` drops the faults. */
  clone(options: { faults?: boolean } = {}): SimRepo {
    return new SimRepo(copyState(this.state, options));
  }

  /** Elapsed simulated time in ms (read-only view; operations advance it). */
  get clock(): Readonly<SimClock> {
    return this.state.clock;
  }

  /**
   * Runs the thunks in order (each sees the effects of the earlier ones) as if they had started together:
   * afterwards the clock is start + the longest individual duration. Returns their results in order.
   */
  concurrently<T>(thunks: Array<() => T>): T[] {
    const clock = this.state.clock;
    const start = clock.now_ms;
    let longest = 0;
    const results = thunks.map((thunk) => {
      clock.now_ms = start;
      const result = thunk();
      longest = Math.max(longest, clock.now_ms - start);
      return result;
    });
    clock.now_ms = start + longest;
    return results;
  }

  /** A working-tree file. Errors: path_escape, is_directory, not_found. 200 ms. */
  read(path: string): RepoResult<{ path: string; content: string }> {
    this.advance(LOOKUP_MS);
    return readFile(this.state, path);
  }

  /** Entries of a directory as repo-relative paths, directories ending in `/`. Errors: path_escape, not_a_directory, not_found. 200 ms. */
  list(path = '.'): RepoResult<{ path: string; entries: string[] }> {
    this.advance(LOOKUP_MS);
    return listDirectory(this.state, path);
  }

  /** Literal substring search of the working tree, ordered by path then line. Errors: empty_query, path_escape, not_found. 200 ms. */
  search(text: string, path?: string): RepoResult<{ matches: SearchMatch[] }> {
    this.advance(LOOKUP_MS);
    return searchFiles(this.state, text, path);
  }

  /**
   * `search`'s matches printed by `print` (pure), and how many there are; 200 ms, the same errors. The printed text of
   * a scope no written file is in is kept with the base's matches under `key`, which must name `print` (file-ops'
   * searchPrinted): a search tool printing the same way on the same base does not print again.
   */
  searchPrinted(
    text: string,
    path: string | undefined,
    key: string,
    print: (matches: readonly SearchMatch[]) => string,
  ): RepoResult<{ output: string; count: number }> {
    this.advance(LOOKUP_MS);
    return searchPrinted(this.state, text, path ?? '.', key, print);
  }

  /**
   * Replaces `old` with `replacement` in a working-tree file. `old` must occur exactly once unless
   * `replaceAll`. CRLF policy: in a CRLF file, LF-only `old` (and `new`) text is converted to CRLF before
   * matching; uniqueness is checked after that; every other byte is kept (see `replaceText`).
   * Errors (file unchanged): path_escape, is_directory, not_found, empty_old, old_not_found, ambiguous_match. 100 ms.
   */
  edit(path: string, old: string, replacement: string, replaceAll = false): RepoResult<EditApplied> {
    this.advance(EDIT_MS);
    const edited = editFile(this.state, path, old, replacement, replaceAll);
    if (edited.ok) recordChange(this.state, { kind: 'edit', path: edited.path, side_effect: 'reversible' });
    return edited;
  }

  /** Creates or overwrites a working-tree file. Errors: path_escape, is_directory, not_a_directory. 100 ms. */
  write(path: string, content: string): RepoResult<{ path: string; created: boolean }> {
    this.advance(EDIT_MS);
    const written = writeFile(this.state, path, content);
    if (written.ok) recordChange(this.state, { kind: 'write', path: written.path, side_effect: 'reversible' });
    return written;
  }

  /** Runs a command line in the simulated shell (see shell.ts and command-resolve.ts for the language). */
  run(cmd: string): RunResult {
    return runCommandLine(this.state, cmd);
  }

  /** Side-effect class of `cmd` before it runs: migrate irreversible, install/commands as declared, tests none, unknown none. */
  classifyCommand(cmd: string): SideEffect {
    return classifyCommandLine(this.state, cmd);
  }

  /**
   * Commits newest first (`path`: those changing it; `skip` newest left out; at most `limit`), with `git log` text;
   * `total`: every commit that matched the path. Errors: path_escape. 200 ms.
   */
  gitLog(options: LogOptions = {}): RepoResult<{ commits: Commit[]; total: number; output: string }> {
    this.advance(LOOKUP_MS);
    const log = gitLog(this.state, options);
    return log.ok ? { ok: true, commits: log.commits, total: log.total, output: formatLog(log.commits) } : log;
  }

  /**
   * One commit by sha prefix (≥ 4 hex digits) or HEAD~n, with `git show` text (see `ShowOptions`: `paths`, `stat`,
   * `patch`). `statFirstOver`: when the plain diff text is longer than this many characters, the file list comes
   * first (`--stat --patch`), so a large commit names every file it changed before any diff. `files`: the changed
   * paths shown, in git's order. Errors: not_found, ambiguous_sha, path_escape. 200 ms.
   */
  gitShow(sha: string, options: ShowOptions & { statFirstOver?: number } = {}): RepoResult<{ commit: Commit; files: string[]; output: string }> {
    this.advance(LOOKUP_MS);
    const found = findCommit(this.state, sha.trim());
    if (!found.ok) return found;
    const selected = changesUnder(found.commit, options.paths);
    if (!selected.ok) return selected;
    const { changes } = selected;
    let output = formatShow(found.commit, options, changes);
    if (options.stat !== true && options.statFirstOver !== undefined && output.length > options.statFirstOver) {
      output = formatShow(found.commit, { stat: true, patch: true }, changes);
    }
    return { ok: true, commit: found.commit, files: changes.map((change) => change.path), output };
  }

  /** Unified diff of the working tree against HEAD (optionally under `path`). Errors: path_escape, not_found. 200 ms. */
  gitDiff(path?: string): RepoResult<{ files: string[]; output: string }> {
    this.advance(LOOKUP_MS);
    return gitDiff(this.state, path);
  }

  /** `git status` text plus the modified and untracked paths. 200 ms. */
  gitStatus(): { ok: true; output: string } & WorktreeChanges {
    this.advance(LOOKUP_MS);
    return { ok: true, ...gitStatus(this.state) };
  }

  /** Pushes to the remote; irreversible and recorded. Errors: unknown_remote, permission_denied. 3000 ms. */
  push(options: PushOptions = {}): RepoResult<{ output: string }> {
    this.advance(PUSH_MS);
    return pushBranch(this.state, options);
  }

  /**
   * Runs every test file with no filter — the hidden test files too when `hidden` (scoring only) — with the spec's
   * env, and returns each test's result (`id` = `file > describe … > test`, the FAIL_TO_PASS / PASS_TO_PASS id) and
   * each file-level failure. Neither advances the clock nor changes the state; results are cached by content.
   */
  testResults(options: TestRunOptions = {}): { tests: TestResult[]; fileErrors: Array<{ file: string; message: string }>; output: string; exit_code: number } {
    const run = runTests(this.state, this.state.spec.env, ['run', '--passWithNoTests'], options);
    return {
      tests: run.files.flatMap((file) => file.tests),
      fileErrors: run.files
        .filter((file) => file.error !== undefined)
        .map((file) => ({ file: file.file, message: `${file.error!.name}: ${file.error!.message}` })),
      output: run.output,
      exit_code: run.exit_code,
    };
  }

  /** Paths of the hidden test files (never visible to the agent). */
  get hiddenFiles(): string[] {
    return Object.keys(this.state.spec.hidden_files).sort();
  }

  /** Evaluates a predicate on the current state with the spec's env. */
  evaluate(predicate: Predicate): boolean {
    return evaluatePredicate(predicate, this.state, this.state.spec.env);
  }

  /** Every state change and side-effecting command so far, in order. */
  get changes(): readonly ChangeEntry[] {
    return this.state.changes;
  }

  /** The irreversible entries of the change log (pushes, migrations, irreversible commands). */
  irreversibleActions(): ChangeEntry[] {
    return this.state.changes.filter((entry) => entry.side_effect === 'irreversible');
  }

  /** Working-tree content of a path (agent-style path), or undefined (missing or outside the repository). */
  fileAt(path: string): string | undefined {
    const resolved = resolveRepoPath(path);
    return resolved.ok ? workingFile(this.state, resolved.path) : undefined;
  }

  /** Content of a path at the start of the episode, or undefined. */
  initialFile(path: string): string | undefined {
    const resolved = resolveRepoPath(path);
    return resolved.ok ? this.state.base.initial.get(resolved.path) : undefined;
  }

  /** Every commit of the history, newest first, with its changes (for scoring: neither advances the clock nor is recorded). */
  history(): readonly Commit[] {
    const log = gitLog(this.state, { limit: Number.MAX_SAFE_INTEGER });
    return log.ok ? log.commits : [];
  }

  /** Content of a path at HEAD, or undefined. */
  headFile(path: string): string | undefined {
    const resolved = resolveRepoPath(path);
    return resolved.ok ? this.state.head.get(resolved.path) : undefined;
  }

  /**
   * The working-tree files at or under `scope` (a repo-relative path, `''` = the root; a file or a folder) that
   * contain `text`, sorted, and how many files are at or under `scope` — for checks on the final state. Uses the
   * base's index: it does not read every file. Neither advances the clock nor is recorded.
   */
  filesContaining(text: string, scope = ''): { paths: string[]; filesInScope: number } {
    return pathsContaining(this.state, text, scope);
  }

  /**
   * The working-tree paths `pattern` matches (no `g` or `y` flag), sorted: the base's once per tree, then the files
   * the episode created. O(files written) after a tree's first call, not O(files) as `allFiles`.
   */
  pathsMatching(pattern: RegExp): readonly string[] {
    const base = this.state.base.index.pathsMatching(pattern);
    const added = addedPaths(this.state).filter((path) => pattern.test(path));
    return added.length === 0 ? base : [...base, ...added].sort();
  }

  /** Every working-tree file as `[repo-relative path, content]`, sorted by path. */
  allFiles(): Array<[string, string]> {
    return workingPaths(this.state).map((path) => [path, workingFile(this.state, path)!]);
  }

  get env(): Readonly<Record<string, string>> {
    return this.state.spec.env;
  }

  get memory(): readonly MemoryNote[] {
    return this.state.memory;
  }

  get permissions(): Readonly<{ push: boolean }> {
    return this.state.spec.permissions;
  }

  /** Applied and pending migration ids, in order. */
  get migrations(): { applied: readonly string[]; pending: readonly string[] } {
    return { applied: this.state.applied, pending: this.state.pending };
  }

  /** Whether dependencies (node_modules) are installed. */
  get installed(): boolean {
    return this.state.installed;
  }

  get flags(): Readonly<Record<string, string>> {
    return this.state.flags;
  }

  get ciLog(): string | undefined {
    return this.state.spec.ci_log;
  }

  get branch(): string {
    return this.state.spec.branch;
  }

  get remote(): string {
    return this.state.spec.remote;
  }

  private advance(ms: number): void {
    this.state.clock.now_ms += ms;
  }
}
