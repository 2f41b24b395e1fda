// Owns the test runner: collects test files, executes each in the sandbox with vitest's API, prints vitest-style output.
import picomatch from 'picomatch';
import { linearGlob } from './linear-glob.js';
import { compileLinear, type LinearRegex } from './linear-regex.js';
import { evaluatePredicate } from './predicates.js';
import { clearSharedReads, jsonBytes, RunCache } from './run-cache.js';
import { STORED_FORMS } from './stored-results.js';
import { runSandboxed, storableRun, type WorkingTree } from './code-host.js';
import type { SandboxRunResult } from './sandbox/index.js';
import type { TestSpec } from './spec.js';
import { isTestModulePath } from './sandbox/module-resolve.js';
import { addedPaths, overlayTree, pathSetKey, workingFile, type RepoBase, type RepoState } from './state.js';
import { renderTestRun } from './test-output.js';
import { MAX_TESTS_PER_FILE, readTestReport, type ReportError, type ReportTest } from './test-report.js';
import type { FileResult, TestResult, TestRun, TestState } from './test-results.js';
import { parseVitestArgs } from './vitest-cli.js';
import { DEFAULT_TIMEOUT_MS, outOfMemoryMessage } from './sandbox/limits.js';

export type { FileResult, TestResult, TestRun, TestState } from './test-results.js';

/** vitest 4's default include glob and excludes. */
const INCLUDE = picomatch('**/*.{test,spec}.?(c|m)[jt]s?(x)', { dot: false });
const DEFAULT_EXCLUDE = ['**/node_modules/**', '**/.git/**'];
const EXECUTABLE = /\.(c|m)?js$/;
/** Host-time budget of one test file, in ms. */

const matchers = new Map<string, (path: string) => boolean>();

/**
 * A compiled glob (picomatch's translation, as vitest's file search uses, run in linear time: linearGlob; the glob is
 * the agent's `--exclude`), memoised: the same few globs recur in every run.
 */
function globMatcher(glob: string): (path: string) => boolean {
  let matcher = matchers.get(glob);
  if (matcher === undefined) {
    matcher = linearGlob(glob);
    if (matchers.size < 1_000) matchers.set(glob, matcher);
  }
  return matcher;
}

/** A file's result with every path its run read (and what it saw). */
interface ExecutedFile {
  result: FileResult;
  reads: ReadonlyArray<readonly [string, string | undefined]>;
}

/**
 * Per-file results of earlier runs, keyed by file, name pattern and env; valid while every file read reads the same.
 * A result is counted at its JSON size, its reads by RunCache (fixture text held anyway costs its path only). Until
 * issue 32's second round the reads were counted twice, fixture text included (~14.5 KB an entry for ~2 KB of result),
 * so a 24 MiB budget evicted what a cold tasks/bench.json run needed again; the worker's copies of the read files
 * stayed alive beside the cache's shared strings, too.
 */
export const testRunCache = new RunCache<FileResult>({
  maxEntries: 4_000,
  perKey: 512,
  maxBytes: 24 * 1024 * 1024,
  sizeOf: jsonBytes,
  stored: { name: 'test-file', ...STORED_FORMS.testFile },
});

/**
 * Whole `vitest` runs of every repository spec, keyed by the spec (its date, hidden files and declared tests are part
 * of what a run means: by a process-unique number, specIds), arguments, env, the set of paths and the declared tests'
 * outcomes; valid while every file the run read (test files, their imports, declared test files) reads the same.
 * A repeated state costs one lookup. One process-wide budget, not one cache per spec: many tasks hold no more.
 * Its file results are mostly the test-file cache's own objects, counted again here (an over-estimate kept on purpose:
 * an entry outliving its files' entries holds them alone): a cold tasks/bench.json run counts ~50 KB an entry for
 * ~7 KB it alone holds (its output and arrays). A miss costs no sandbox run while the files' entries live, but it
 * costs the main thread: at 32 MiB the episodes of that run took 2.46 s instead of 2.10 s, at the same peak RSS.
 */
export const wholeRunCache = new RunCache<TestRun & { executedFiles: number }>({ maxEntries: 10_000, maxBytes: 64 * 1024 * 1024, sizeOf: jsonBytes });

/** A number per spec object for wholeRunCache's keys (a WeakMap: it holds no spec). */
const specIds = new WeakMap<object, number>();
let lastSpecId = 0;

/** Forgets every cached test run, per file and whole (benchmarks of the uncached cost). */
export function clearTestRunCaches(): void {
  testRunCache.clear();
  wholeRunCache.clear();
  clearTestIdentities();
  clearSharedReads();
}

/** The string the process holds for `path` regardless of the caches (a hidden or fixture file), for RunCache.set. */
function heldContent(state: RepoState): (path: string) => string | undefined {
  return (path) => {
    const plain = path.startsWith(GRADING_PREFIX) ? path.slice(GRADING_PREFIX.length) : path;
    return state.spec.hidden_files[plain] ?? state.base.initial.get(plain);
  };
}

/** Test files executed in the sandbox vs served from a cache since the process started (`npm run bench`). */
export const testFileStats = { executed: 0, cached: 0 };

/** Options of a test run. `hidden`: include the spec's hidden test files (scoring only). */
export interface TestRunOptions {
  hidden?: boolean;
}

/**
 * Runs `vitest` with `args` (the words after `vitest`, e.g. `['run', 'tests/checkout.test.js']`) against the
 * working tree with `env`. Test files are those vitest 4 would collect (`**\/*.{test,spec}.?(c|m)[jt]s?(x)`,
 * minus node_modules, .git and `--exclude` globs, narrowed by positional path filters); each is executed in a
 * fresh sandbox (vitest's resolution rules, the spec's fixed date), except files holding environment-dependent
 * tests, whose declared predicates decide. Exit 1 when a test or a file fails, when no test file matches
 * ("No test files found") unless --passWithNoTests, or when dependencies are not installed; else 0.
 */
export function runTests(state: RepoState, env: Readonly<Record<string, string>>, args: readonly string[], options: TestRunOptions = {}): TestRun {
  if (!state.installed) {
    return {
      exit_code: 1,
      files: [],
      output:
        "Error: Cannot find module 'vitest'\nRequire stack:\n- /repo/node_modules/.bin/vitest\n" +
        ' WARN   Local package.json exists, but node_modules missing, did you mean to install?',
    };
  }
  const parsed = parseVitestArgs(args);
  if (!parsed.ok) return { exit_code: 1, files: [], output: parsed.message };
  const hidden = options.hidden === true;
  const declaredOutcomes = state.spec.tests.map((test) => (evaluatePredicate(test.passes_when, state, env) ? 1 : 0)).join('');
  // The set of paths by name (base id + created files), not by listing every path: O(files written).
  let specId = specIds.get(state.spec);
  if (specId === undefined) specIds.set(state.spec, (specId = ++lastSpecId));
  const key = JSON.stringify([specId, args, env, hidden, declaredOutcomes, pathSetKey(state)]);
  const cache = wholeRunCache;
  const lookup = fileLookup(state, hidden);
  const cached = cache.get(key, lookup);
  if (cached !== undefined) {
    testFileStats.cached += cached.executedFiles;
    return cached;
  }
  const reads = new Map<string, string | undefined>();
  const recorded = (path: string): string | undefined => {
    const content = lookup(path);
    reads.set(path, content);
    return content;
  };
  const run = collectAndRun(state, env, parsed, hidden, recorded, reads);
  cache.set(key, [...reads], run, heldContent(state));
  return run;
}

function collectAndRun(
  state: RepoState,
  env: Readonly<Record<string, string>>,
  parsed: Extract<ReturnType<typeof parseVitestArgs>, { ok: true }>,
  hidden: boolean,
  lookup: (path: string) => string | undefined,
  reads: Map<string, string | undefined>,
): TestRun & { executedFiles: number } {
  const options = { hidden };
  const excluded = [...DEFAULT_EXCLUDE, ...parsed.exclude].map(globMatcher);
  const isExcluded = (path: string) => ancestorsAndSelf(path).some((candidate) => excluded.some((matches) => matches(candidate)));
  const candidates = [...baseTestFiles(state.base), ...addedPaths(state), ...(options.hidden === true ? Object.keys(state.spec.hidden_files) : [])];
  const selected = [...new Set(candidates)]
    .filter((path) => INCLUDE(path) && !isExcluded(path))
    .filter((path) => parsed.filters.length === 0 || parsed.filters.some((filter) => path.includes(filter)))
    .sort();
  if (selected.length === 0) {
    if (parsed.passWithNoTests) return { exit_code: 0, files: [], output: 'No test files found, exiting with code 0', executedFiles: 0 };
    const shown = [...parsed.filters, ...parsed.exclude.map((glob) => `--exclude ${glob}`)];
    return {
      exit_code: 1,
      files: [],
      output: `No test files found, exiting with code 1${shown.length > 0 ? `\n\nfilter: ${shown.join(' ')}` : ''}`,
      executedFiles: 0,
    };
  }
  const testEnv = { ...env, NODE_ENV: env['NODE_ENV'] ?? 'test', VITEST: 'true', TEST: 'true', MODE: 'test' };
  const pattern = parsed.testNamePattern;
  let snapshot: WorkingTree | undefined;
  const tree = () => (snapshot ??= overlayTree(state, options.hidden === true ? state.spec.hidden_files : {}));
  let pristine: WorkingTree | undefined;
  const gradingTree = () => (pristine ??= hiddenGradingTree(state));
  const grading = gradingLookup(state);
  let executedFiles = 0;
  const files = selected.map((file) => {
    const declared = state.spec.tests.filter((test) => test.file === file);
    if (declared.length > 0) {
      lookup(file);
      return declaredFile(state, env, file, declared, pattern);
    }
    // A hidden test runs against the pristine test code (SWE-bench resets the test files before grading).
    const isHidden = hidden && Object.hasOwn(state.spec.hidden_files, file);
    const executed = isHidden ? executeFile(state, grading, gradingTree, file, pattern, testEnv) : executeFile(state, lookup, tree, file, pattern, testEnv);
    executedFiles++;
    for (const [path, content] of executed.reads) reads.set(isHidden ? GRADING_PREFIX + path : path, content);
    return executed.result;
  });
  const failed = files.some((file) => file.error !== undefined || file.tests.some((test) => test.state === 'failed'));
  return { exit_code: failed ? 1 : 0, files, output: renderTestRun(files, lookup), executedFiles };
}

/** The base's paths that vitest's include glob collects, computed once per base (the overlay's are added per run). */
const testFilesOfBase = new WeakMap<RepoBase, readonly string[]>();

function baseTestFiles(base: RepoBase): readonly string[] {
  let files = testFilesOfBase.get(base);
  if (files === undefined) testFilesOfBase.set(base, (files = base.initialPaths.filter((path) => INCLUDE(path))));
  return files;
}

/** The working tree, with the spec's hidden files on top when scoring; GRADING_PREFIX paths read as a hidden test's run does. */
function fileLookup(state: RepoState, hidden: boolean): (path: string) => string | undefined {
  if (!hidden) return (path) => workingFile(state, path);
  const grading = gradingLookup(state);
  return (path) => (path.startsWith(GRADING_PREFIX) ? grading(path.slice(GRADING_PREFIX.length)) : (state.spec.hidden_files[path] ?? workingFile(state, path)));
}

/** Marks, in a whole run's reads, the paths a hidden test's run read (through gradingLookup, not the working tree). */
const GRADING_PREFIX = '\u0000grading:';

/**
 * What a hidden test file sees: the spec's hidden files, test code (isTestModulePath) as it was before the episode —
 * an edited helper reads as the original, an added one is absent — and the working tree for everything else.
 */
function gradingLookup(state: RepoState): (path: string) => string | undefined {
  return (path) => state.spec.hidden_files[path] ?? (isTestModulePath(path) ? state.base.initial.get(path) : workingFile(state, path));
}

/** gradingLookup as a tree for the code worker: the written files minus test code, the hidden files on top. */
function hiddenGradingTree(state: RepoState): WorkingTree {
  const tree = overlayTree(state, {});
  const overlay: Record<string, string> = {};
  for (const [path, content] of Object.entries(tree.overlay)) if (!isTestModulePath(path)) overlay[path] = content;
  return { base: tree.base, overlay: Object.assign(overlay, state.spec.hidden_files) };
}

function ancestorsAndSelf(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, index) => parts.slice(0, index + 1).join('/'));
}

function executeFile(
  state: RepoState,
  lookup: (path: string) => string | undefined,
  tree: () => WorkingTree,
  file: string,
  pattern: string | null,
  env: Readonly<Record<string, string>>,
): ExecutedFile {
  if (!EXECUTABLE.test(file)) {
    const content = lookup(file);
    return {
      result: {
        file,
        tests: [],
        error: { name: 'Error', message: `${file}: only JavaScript test files (.js, .mjs, .cjs) run in the stratbench sandbox`, stack: '' },
      },
      reads: [[file, content]],
    };
  }
  // The declared packages are part of the key: they change how an undeclared import fails ("Cannot find package").
  const packages = [...Object.keys(state.spec.dependencies), ...Object.keys(state.spec.devDependencies)];
  const key = `${file}\u0000${pattern ?? ''}\u0000${state.spec.date}\u0000${JSON.stringify(env)}\u0000${JSON.stringify(packages)}`;
  const cached = testRunCache.lookup(key, lookup, heldContent(state));
  if (cached !== undefined) {
    testFileStats.cached++;
    return cached;
  }
  const run = runSandboxed(
    {
      entry: { path: file },
      env,
      vitest: true,
      packages,
      runTests: JSON.stringify({ testNamePattern: pattern }),
      timeoutMs: DEFAULT_TIMEOUT_MS,
      resolution: 'vite',
      date: state.spec.date,
    },
    tree(),
  );
  // Counted once answered: a probe of codeAhead stopped at this run (it throws) has executed nothing yet.
  testFileStats.executed++;
  const result = toFileResult(file, run);
  // A run killed at the hard cutoff or stopped by its CPU-time limit may be the machine's load: no code cache keeps it.
  return { result, reads: testRunCache.set(key, run.reads, result, heldContent(state), storableRun(run)) };
}

/**
 * A test's id and describe path as already kept, so every result of the same test shares one string and one array:
 * each run's report arrives as new copies (and a declared test's were built again per whole run). In a cold
 * tasks/bench.json run the cached results held ~3.6 MB of such copies (the main thread's heap snapshot). The paths are
 * frozen: cached results are shared by every episode that hits them. Bounded by TEST_IDENTITIES identities and
 * TEST_IDENTITY_BYTES: past either it starts again. clearTestRunCaches empties it.
 */
const testIdentities = new Map<string, { id: string; path: readonly string[] }>();
const TEST_IDENTITIES = 16_384;
/**
 * Estimated bytes the identities may keep (two per character of each id and name): names come from the code a run
 * executes, up to MAX_PATH_DEPTH × MAX_NAME_CHARS each, and a count bound alone let a fresh review's test files pin
 * 376 MB. An identity over TEST_IDENTITY_MAX_CHARS characters is not shared.
 */
const TEST_IDENTITY_BYTES = 4 * 1024 * 1024;
const TEST_IDENTITY_MAX_CHARS = 16 * 1024;
let testIdentityBytes = 0;

/** What the shared test identities hold now (tests): identities and estimated bytes. */
export function testIdentityStats(): { identities: number; bytes: number } {
  return { identities: testIdentities.size, bytes: testIdentityBytes };
}

function clearTestIdentities(): void {
  testIdentities.clear();
  testIdentityBytes = 0;
}

function testIdentity(file: string, path: readonly string[]): { id: string; path: readonly string[] } {
  const id = [file, ...path].join(' > ');
  const known = testIdentities.get(id);
  if (known !== undefined && known.path.length === path.length && known.path.every((name, index) => name === path[index])) return known;
  const identity = { id, path: Object.freeze([...path]) };
  // The id holds every name, so twice its length bounds the id and the names together.
  const bytes = 4 * id.length + 100;
  if (id.length > TEST_IDENTITY_MAX_CHARS) return identity;
  if (known !== undefined) {
    testIdentities.delete(id);
    testIdentityBytes -= bytes;
  }
  if (testIdentities.size >= TEST_IDENTITIES || testIdentityBytes + bytes > TEST_IDENTITY_BYTES) clearTestIdentities();
  testIdentities.set(id, identity);
  testIdentityBytes += bytes;
  return identity;
}

const SHIM_STATE: Record<ReportTest['state'], TestState> = { pass: 'passed', fail: 'failed', skip: 'skipped', todo: 'todo' };

/**
 * The marker of a test file whose result the host could not read, or whose code tried to change what grades it: the
 * agent's failure (issue 25), never a crash or an infrastructure error. Scoring and attribution read it.
 */
export const TAMPERED_GRADER = 'tampered_grader';

/** A file whose run was tampered with: no test of it counts as passed. */
function tamperedFile(file: string, what: string): FileResult {
  return { file, tests: [], error: { name: 'TamperedGraderError', message: `${TAMPERED_GRADER}: ${what}`, stack: '' }, tampered: what };
}

function toFileResult(file: string, run: SandboxRunResult): FileResult {
  if (run.tampered !== undefined && run.tampered.length > 0) return tamperedFile(file, `refused: ${run.tampered.join('; ')}`);
  if (run.status !== 'ok') {
    const error = run.error ?? { name: 'Error', message: `${file} did not finish (${run.status})`, stack: '' };
    return { file, tests: [], error };
  }
  if (run.value === undefined)
    return tamperedFile(file, 'the test run ended without a result (repository code ended the run: process.exit or a thrown exit signal)');
  const report = readTestReport(run.value);
  if ('unreadable' in report)
    return tamperedFile(file, `the test run's result could not be read (${report.unreadable}: ${JSON.stringify(run.value.slice(0, 80))})`);
  const tests = report.tests.map((test): TestResult => {
    const { id, path } = testIdentity(file, test.path);
    const result: TestResult = { id, file, path, state: SHIM_STATE[test.state] };
    if (test.error !== undefined)
      result.error = outOfMemory(run, test.error) ? { name: 'RangeError', message: outOfMemoryMessage(), stack: '' } : shimError(test.error);
    return result;
  });
  const fileResult: FileResult = { file, tests };
  if (report.errors.length > 0)
    fileResult.error = outOfMemory(run, report.errors[0]!) ? { name: 'RangeError', message: outOfMemoryMessage(), stack: '' } : shimError(report.errors[0]!);
  else if (report.cut.tests > 0)
    fileResult.error = { name: 'Error', message: `${report.cut.tests} tests past the first ${MAX_TESTS_PER_FILE} of /repo/${file} were not read`, stack: '' };
  else if (tests.length === 0) fileResult.error = { name: 'Error', message: `No test suite found in file /repo/${file}`, stack: '' };
  return fileResult;
}

/**
 * Whether a test's error is the sandbox's memory running out: the run hit the cap and the test failed with what
 * vitest's runner reports for a thrown value that is no Error ("Unknown Error"), which QuickJS throws when it cannot
 * allocate its out-of-memory error (shown as "Unknown Error: null" before; a fresh review, issue 32).
 */
function outOfMemory(run: SandboxRunResult, error: ReportError): boolean {
  return run.memoryRefused === true && error.name === 'Unknown Error' && error.stack === '';
}

/** How many lines of a stack are searched for the error's location (vitest's first frame is on the first few). */
const LOCATION_LINES = 10;
/** Longest stack line searched, in characters (the search costs up to the square of a line's length). */
const LOCATION_LINE_CHARS = 500;
const LOCATION = /\(?([^\s()]+\.[cm]?js):(\d+):(\d+)\)?/;

/** A reported error as the output prints it, with the first `file.js:line:column` of its stack's first lines. */
function shimError(error: ReportError): NonNullable<TestResult['error']> {
  const result: NonNullable<TestResult['error']> = { name: error.name, message: error.message, stack: error.stack };
  const location = firstLocation(error.stack);
  if (location !== undefined) result.location = location;
  if (error.expected !== undefined && error.actual !== undefined) {
    result.expected = error.expected;
    result.actual = error.actual;
  }
  return result;
}

/**
 * The first `file.js:line:column` in the first LOCATION_LINES lines of `stack`, each cut to LOCATION_LINE_CHARS: the
 * regex backtracks over a line's length from each start, so the lines are bounded (linear in the stack's length).
 */
function firstLocation(stack: string): { file: string; line: number; column: number } | undefined {
  let start = 0;
  for (let count = 0; count < LOCATION_LINES && start <= stack.length; count++) {
    const newline = stack.indexOf('\n', start);
    const end = newline < 0 ? stack.length : newline;
    const match = LOCATION.exec(stack.slice(start, Math.min(end, start + LOCATION_LINE_CHARS)));
    if (match) return { file: match[1]!, line: Number(match[2]), column: Number(match[3]) };
    if (newline < 0) break;
    start = newline + 1;
  }
  return undefined;
}

/** Environment-dependent tests of one file: skipped when the file marks them `.skip(`, else their predicate decides. */
function declaredFile(
  state: RepoState,
  env: Readonly<Record<string, string>>,
  file: string,
  declared: readonly TestSpec[],
  pattern: string | null,
): FileResult {
  const content = workingFile(state, file) ?? '';
  const regex = pattern === null ? null : safeRegex(pattern);
  const tests = declared.map((test): TestResult => {
    const { id, path } = testIdentity(file, test.name.split(' > '));
    const base = { id, file, path, declared: true as const };
    if (content.includes('.skip(') || (regex !== null && !regex.test(path.join(' ')))) return { ...base, state: 'skipped' };
    if (evaluatePredicate(test.passes_when, state, env)) return { ...base, state: 'passed' };
    // The declared failure text is printed as written (it already names its error).
    return { ...base, state: 'failed', error: { name: '', message: test.failure, stack: '' } };
  });
  return { file, tests };
}

/**
 * The agent's `-t` pattern as a linear-time regex (compileLinear: RegExp's syntax, RE2's automata), so no pattern keeps
 * the host busy on a declared test's name (issue 25 §3). Null, as for an invalid pattern, when it cannot run in linear
 * time (lookaround, backreferences): the declared tests are then not filtered by name.
 */
function safeRegex(source: string): LinearRegex | null {
  const compiled = compileLinear(source);
  return compiled.ok ? compiled.regex : null;
}
