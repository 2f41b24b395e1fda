// Runs the REAL vitest and ESLint on repository states written to disk: the ground truth the sandbox is compared with.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import picomatch from 'picomatch';

/** A repository state: repo-relative posix path → file content. */
export type RepoFiles = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

/** How one test ended, as vitest's JSON reporter says it (`pending` is reported as `skipped`). */
export type RealTestState = 'passed' | 'failed' | 'skipped' | 'todo';

/** One test: `id` is `file > describe … > test`, the file relative to the state root. */
export interface RealTestResult {
  id: string;
  file: string;
  state: RealTestState;
  /** The first failure message, for failed tests. */
  message?: string;
}

/** A test file that failed as a whole (it did not load: a syntax error, a throw at import, no test suite). */
export interface RealFileError {
  file: string;
  message: string;
}

export interface RealLintMessage {
  file: string;
  line: number;
  column: number;
  ruleId: string | null;
  severity: 1 | 2;
  message: string;
}

/** ESLint's verdict on a state: `eslint <targets>` exits 1 when `errorCount > 0`. */
export interface RealLintResult {
  errorCount: number;
  warningCount: number;
  messages: RealLintMessage[];
  /** Set when ESLint itself could not run (a broken eslint.config.js, say). */
  crash?: string;
}

export interface RealStateResult {
  tests: RealTestResult[];
  fileErrors: RealFileError[];
  lint: RealLintResult | null;
}

export interface RealRunOptions {
  /** Globs relative to a state's root that vitest leaves out (as `--exclude` does), e.g. `tests/e2e/**`. */
  exclude?: readonly string[];
  /** The repository's fixed clock (ISO): `new Date()` in tests and code returns it, as in the sandbox. */
  date?: string;
  /** `process.env` of the code under test, on top of PATH and HOME. */
  env?: Readonly<Record<string, string>>;
  /** Paths ESLint lints, relative to a state's root; `null` skips ESLint. Default `['src', 'tests']`. */
  lintTargets?: readonly string[] | null;
  /** Globs ESLint ignores on top of the state's config (e.g. hidden test files the agent's `pnpm lint` never sees). */
  lintIgnore?: readonly string[];
  /** `batched` (default): one vitest process over every state; `per-state`: one vitest process per state. */
  mode?: 'batched' | 'per-state';
  /**
   * vitest's pool. `vmThreads` (default) runs each test file in a fresh VM context (its own module graph, as the
   * default isolation gives) and is ~8x faster here than `forks`, the pool `vitest run` uses by default.
   */
  pool?: 'vmThreads' | 'forks';
  /** Keep the written folders (for debugging); they are removed by default. */
  keep?: boolean;
}

/** The project root: states are written below it so bare imports (vitest, @eslint/js, globals) resolve from its node_modules. */
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST_BIN = join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
/**
 * Not under node_modules: vitest externalises files whose path contains `/node_modules/` and runs them with Node's
 * own ESM loader (a missing named export throws a SyntaxError), whereas in the shop's own checkout vite transforms
 * them (a missing named export is `undefined`). `.stratbench-cache/` is git-ignored.
 */
const RUNS_ROOT = join(PROJECT_ROOT, '.stratbench-cache', 'real-tools');

const entriesOf = (files: RepoFiles): Array<[string, string]> => (files instanceof Map ? [...files.entries()] : Object.entries(files));

/**
 * Writes each state to `.stratbench-cache/real-tools/<run>/state-<n>/` (adding `package.json` with
 * `"type": "module"` when the state has none), runs the real vitest (`vitest run`, JSON reporter) over the test
 * files of every state and ESLint's Node API (`lintFiles(lintTargets)` with the state's own eslint.config.js),
 * and returns one result per state, in order. The folders are removed afterwards unless `keep`.
 * @throws Error when vitest writes no report (it crashed or could not start).
 */
export async function runRealTools(states: readonly RepoFiles[], options: RealRunOptions = {}): Promise<RealStateResult[]> {
  const runRoot = join(RUNS_ROOT, `run-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(runRoot, { recursive: true });
  try {
    const stateDirs = await Promise.all(states.map((files, index) => writeState(join(runRoot, `state-${index}`), files)));
    const names = stateDirs.map((_, index) => `state-${index}`);
    const tests: Array<Omit<RealStateResult, 'lint'>> = [];
    if (options.mode === 'per-state') {
      for (const [index, name] of names.entries()) tests.push((await runVitest(runRoot, [name], options, index))[0]!);
    } else {
      tests.push(...(await runVitest(runRoot, names, options, 0)));
    }
    const lintTargets = options.lintTargets === undefined ? ['src', 'tests'] : options.lintTargets;
    const results: RealStateResult[] = [];
    for (const [index, dir] of stateDirs.entries()) {
      results.push({ ...tests[index]!, lint: lintTargets === null ? null : await runEslint(dir, lintTargets, options.lintIgnore ?? []) });
    }
    return results;
  } finally {
    if (options.keep !== true) await rm(runRoot, { recursive: true, force: true });
  }
}

async function writeState(dir: string, files: RepoFiles): Promise<string> {
  const entries = entriesOf(files);
  for (const [path, content] of entries) {
    const target = join(dir, ...path.split('/'));
    if (!target.startsWith(dir + sep)) throw new Error(`state file "${path}" leaves the state folder`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  if (!entries.some(([path]) => path === 'package.json')) {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }, null, 2) + '\n');
  }
  return dir;
}

interface VitestJsonReport {
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string; failureMessages: string[] }>;
  }>;
}

const STATE_OF: Record<string, RealTestState> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'skipped',
  todo: 'todo',
  disabled: 'skipped',
};

/** One vitest process over `stateNames` (folders under `root`); results per state, in `stateNames` order. */
async function runVitest(root: string, stateNames: readonly string[], options: RealRunOptions, tag: number): Promise<Array<Omit<RealStateResult, 'lint'>>> {
  const config = join(root, `vitest.config-${tag}.mjs`);
  const setup = join(root, `fixed-date-${tag}.setup.mjs`);
  const report = join(root, `report-${tag}.json`);
  const include = stateNames.map((name) => `${name}/**/*.{test,spec}.?(c|m)[jt]s?(x)`);
  const exclude = ['**/node_modules/**', '**/.git/**', ...stateNames.flatMap((name) => (options.exclude ?? []).map((glob) => `${name}/${glob}`))];
  const test: Record<string, unknown> = { include, exclude, pool: options.pool ?? 'vmThreads', watch: false };
  if (options.date !== undefined) {
    await writeFile(setup, `import { vi } from "vitest";\nvi.useFakeTimers({ now: ${Date.parse(options.date)}, toFake: ["Date"] });\n`);
    test['setupFiles'] = [setup];
  }
  await writeFile(config, `export default ${JSON.stringify({ test })};\n`);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    ...(process.env['TZ'] && { TZ: process.env['TZ'] }),
    ...options.env,
  };
  const stderr = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [VITEST_BIN, 'run', '--root', root, '--config', config, '--reporter=json', `--outputFile=${report}`],
      { cwd: root, env, maxBuffer: 64 * 1024 * 1024 },
      (_error, _stdout, stderrText) => resolve(stderrText),
    );
  });
  let parsed: VitestJsonReport;
  try {
    parsed = JSON.parse(await readFile(report, 'utf8')) as VitestJsonReport;
  } catch {
    throw new Error(`vitest wrote no report in ${root}:\n${stderr}`);
  }
  const byState = stateNames.map(() => ({ tests: [] as RealTestResult[], fileErrors: [] as RealFileError[] }));
  for (const fileResult of parsed.testResults) {
    const [stateName, ...rest] = relative(root, fileResult.name).split(sep);
    const index = stateNames.indexOf(stateName ?? '');
    if (index < 0) throw new Error(`vitest reported a file outside the states: ${fileResult.name}`);
    const file = rest.join('/');
    const bucket = byState[index]!;
    const local = (text: string) => text.split(join(root, stateName!) + sep).join('');
    if (fileResult.status === 'failed' && fileResult.assertionResults.length === 0) {
      bucket.fileErrors.push({ file, message: local(fileResult.message || 'failed to load') });
    }
    for (const assertion of fileResult.assertionResults) {
      const state = STATE_OF[assertion.status];
      if (state === undefined) throw new Error(`unknown vitest test status "${assertion.status}"`);
      const result: RealTestResult = { id: [file, ...assertion.ancestorTitles, assertion.title].join(' > '), file, state };
      if (assertion.failureMessages.length > 0) result.message = local(assertion.failureMessages[0]!);
      bucket.tests.push(result);
    }
  }
  for (const bucket of byState) bucket.tests.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return byState;
}

/** ESLint's Node API with the state's own eslint.config.js, as `eslint <targets>` run in the state's root. */
async function runEslint(dir: string, targets: readonly string[], ignore: readonly string[]): Promise<RealLintResult> {
  try {
    const eslint = new ESLint({ cwd: dir, errorOnUnmatchedPattern: false, ignorePatterns: [...ignore] });
    const results = await eslint.lintFiles([...targets]);
    const messages = results.flatMap((result) =>
      result.messages.map((message) => ({
        file: relative(dir, result.filePath).split(sep).join('/'),
        line: message.line,
        column: message.column,
        ruleId: message.ruleId,
        severity: message.severity,
        message: message.message,
      })),
    );
    return {
      errorCount: results.reduce((sum, result) => sum + result.errorCount, 0),
      warningCount: results.reduce((sum, result) => sum + result.warningCount, 0),
      messages,
    };
  } catch (error) {
    return { errorCount: 1, warningCount: 0, messages: [], crash: (error as Error).message };
  }
}

/**
 * The exit code `vitest run ARGS` (e.g. `vitest run --exclude tests/e2e`, `vitest run tests/checkout.test.js`) would
 * have on a state, derived from a run over all its test files: the files its positional filters (substrings of the
 * path) and `--exclude` globs (matched against the path and its folders, as vitest 4 does) select, minus `ignore`
 * (hidden files). 1 when no file is selected ("No test files found"), a selected file failed to load or a test
 * failed; else 0 (skipped and todo tests do not fail a run).
 */
export function vitestExitCode(cmd: string, result: Pick<RealStateResult, 'tests' | 'fileErrors'>, ignore: readonly string[] = []): 0 | 1 {
  const words = cmd.split(/\s+/).filter((word) => word !== '');
  if (words[0] !== 'vitest' || words[1] !== 'run') throw new Error(`not a \`vitest run\` command: ${cmd}`);
  const filters: string[] = [];
  const excluded: Array<(path: string) => boolean> = [];
  for (let index = 2; index < words.length; index += 1) {
    const word = words[index]!;
    if (word === '--exclude') excluded.push(picomatch(words[(index += 1)]!.replace(/^["']|["']$/g, ''), { dot: true }));
    else if (word.startsWith('-')) throw new Error(`vitestExitCode does not model the option ${word}`);
    else filters.push(word);
  }
  const ancestors = (path: string) => path.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/'));
  const selected = (file: string) =>
    !ignore.includes(file) &&
    (filters.length === 0 || filters.some((filter) => file.includes(filter))) &&
    !ancestors(file).some((path) => excluded.some((matches) => matches(path)));
  const files = new Set([...result.tests.map((test) => test.file), ...result.fileErrors.map((error) => error.file)].filter(selected));
  if (files.size === 0) return 1;
  return result.fileErrors.some((error) => selected(error.file)) || result.tests.some((test) => selected(test.file) && test.state === 'failed') ? 1 : 0;
}
