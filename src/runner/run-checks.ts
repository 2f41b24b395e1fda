// What `run` checks before its first episode (the references replay, the matrix is bounded) and after its last (errors).
import type { RunValidation } from '../records/index.js';
import type { LoadedTask } from '../suite/load-suite.js';
import { taskDigests } from '../suite/task-digest.js';
import { PLAN_REPLAN_BUDGETS, PLAN_UP_FRONT_BUDGETS, REACT_BUDGETS } from '../strategies/context.js';
import { strategyByName, type StrategyName } from '../strategies/index.js';
import { replayTrajectory, untouchedSuccessDetail, untouchedTrajectory, type ReplayResult } from './replay.js';
import { codeAheadPure, codeWorkerCount } from '../sim-repo/index.js';
import { UsageError } from './usage-error.js';
import { harnessDigest, harnessIdentity, type HarnessIdentity } from './harness-identity.js';
import { readValidationCache, saveValidationCache, type CacheFiles } from './validation-cache.js';

/** The most episodes one run may hold (tasks × strategies × epochs); beyond it, shard the run (`--shard i/n`). */
export const MAX_EPISODES = 1_000_000;
/** `run` exits with this code when more than `--max-error-rate` of its episodes ended in an infrastructure error. */
export const ERRORED_RUN_EXIT_CODE = 4;

const count = (n: number): string => n.toLocaleString('en-US');

/** What `run`'s reference check found: the tasks that passed, and a line for each broken or theatre task. */
interface ReferenceReplay {
  passed: LoadedTask[];
  broken: string[];
  theatre: string[];
}

/**
 * Replays, on a fresh repository, the reference trajectory of each task and the do-nothing agent (what `validate`
 * does): a reference that does not score success means the suite is broken, and every strategy's failure on that
 * task would be blamed on the agent; an untouched repository that scores success means the task's checks are theatre
 * (an agent that makes no tool call passes), and every strategy's success on it would be counted.
 *
 * With `sideBySide` > 1 and more than one code worker (codeWorkerCount), up to that many tasks are replayed side by
 * side, one per worker: each replay is a pure computation on its own repository, so its test runs go ahead
 * (codeAheadPure) and the result is the one the synchronous replay gives. Lines come in the tasks' order either way.
 * Default 1: a second worker holds a second QuickJS memory and ESLint (~70 MB on a cold tasks/bench.json run: peak
 * 250 → 318 MB for validation 24 → 17 s), so `run` asks for it only when its episodes run side by side too.
 */
async function replayReferences(tasks: readonly LoadedTask[], sideBySide = 1): Promise<ReferenceReplay> {
  const outcomes: Array<{ reference: ReplayResult; theatre: boolean }> = new Array(tasks.length);
  const lanes = Math.min(sideBySide, codeWorkerCount(), tasks.length);
  const replay = (task: LoadedTask) => ({
    reference: replayTrajectory(task, task.reference),
    theatre: replayTrajectory(task, untouchedTrajectory(task.expect)).success,
  });
  if (lanes <= 1) tasks.forEach((task, index) => (outcomes[index] = replay(task)));
  else {
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let index = next++; index < tasks.length; index = next++) {
        const task = tasks[index] as LoadedTask;
        const reference = await codeAheadPure(() => replayTrajectory(task, task.reference));
        const theatre = (await codeAheadPure(() => replayTrajectory(task, untouchedTrajectory(task.expect)))).success;
        outcomes[index] = { reference, theatre };
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
  }
  const found: ReferenceReplay = { passed: [], broken: [], theatre: [] };
  tasks.forEach((task, index) => {
    const { reference: result, theatre } = outcomes[index] as { reference: ReplayResult; theatre: boolean };
    if (!result.success) {
      const why = result.endingMatches
        ? result.checks
            .filter((check) => !check.pass)
            .map((check) => `${String(check.check['check'])}: ${check.detail}`)
            .join('; ')
        : `ending ${result.outcome.status} does not match expect ${task.expect}`;
      found.broken.push(`  ${task.id}: ${why}`);
    }
    if (theatre) found.theatre.push(`  ${task.id}: untouched — ${untouchedSuccessDetail(task.expect)}`);
    if (result.success && !theatre) found.passed.push(task);
  });
  return found;
}

/** Throws UsageError (exit 2) naming each broken or theatre task of `replay`; returns when there is none. */
function throwOnProblems({ broken, theatre }: ReferenceReplay, suitePath: string): void {
  if (broken.length === 0 && theatre.length === 0) return;
  const problems = [
    ...(broken.length > 0
      ? [`the reference of ${broken.length} task(s) does not score success, so the suite cannot tell a good agent from a bad one:\n${broken.join('\n')}`]
      : []),
    ...(theatre.length > 0
      ? [
          `the untouched repository of ${theatre.length} task(s) scores success, so an agent that does nothing would be counted a success:\n${theatre.join('\n')}`,
        ]
      : []),
  ];
  throw new UsageError(
    `${suitePath}: ${problems.join(`\n${suitePath}: `)}\n` +
      `fix the suite (\`stratbench validate ${suitePath}\` replays every trajectory), or run anyway with --no-validate`,
  );
}

/**
 * Replays the reference and the untouched repository of each task (see replayReferences) and throws UsageError (exit
 * 2) naming each broken or theatre task, the failing checks or validate's line for the untouched repository.
 */
export async function checkReferences(tasks: readonly LoadedTask[], suitePath: string, sideBySide = 1): Promise<void> {
  throwOnProblems(await replayReferences(tasks, sideBySide), suitePath);
}

/** Where checkReferencesCached keeps its cache, and the seams tests replace. */
export interface ReferenceCacheOptions {
  /** The validation cache folder (`--validation-cache-dir`; the CLI's default: DEFAULT_VALIDATION_CACHE_DIR); null: no cache (`--no-validation-cache`). */
  cacheDir: string | null;
  /** The harness the entries are keyed on (default: harnessIdentity() of this installation). */
  harness?: HarnessIdentity;
  /** The file operations (default: node:fs). */
  files?: CacheFiles;
  /** Where the cache's one-line warnings go (default: stderr). */
  warn?: (line: string) => void;
  /** Tasks replayed at once (run's `--concurrency`; default 1), at most one per code worker: see replayReferences. */
  sideBySide?: number;
}

/**
 * checkReferences with the validation cache: a task whose content digest (suite/task-digest.ts: the task as loaded
 * and its resolved repository) passed before under the same harness (package version, Node, dependencies and a hash
 * of the built code, see harnessIdentity) is not replayed; the others are, and those that pass are added to the cache
 * before any error is thrown. A broken task is never cached, so it fails every run. A cache that cannot be read or
 * written costs one warning line and the replays, never the run. Returns what run.json records as `validation`;
 * throws UsageError (exit 2) as checkReferences.
 */
export async function checkReferencesCached(tasks: readonly LoadedTask[], suitePath: string, options: ReferenceCacheOptions): Promise<RunValidation> {
  const started = performance.now();
  if (options.cacheDir === null) {
    await checkReferences(tasks, suitePath, options.sideBySide);
    return { mode: 'replayed', replayed: tasks.length, cached: 0, ms: Math.round(performance.now() - started), cache_dir: null, harness: null };
  }
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const harness = options.harness ?? (await harnessIdentity());
  const read = await readValidationCache(options.cacheDir, harness, options.files);
  if (read.warning !== undefined) warn(read.warning);
  const digests = taskDigests(tasks);
  const digestOf = new Map(tasks.map((task, index) => [task, digests[index] as string]));
  const toReplay = tasks.filter((task) => !read.passed.has(digestOf.get(task) as string));
  const replay = await replayReferences(toReplay, options.sideBySide);
  const passed = new Map(replay.passed.map((task) => [digestOf.get(task) as string, task.id]));
  const saveWarning = await saveValidationCache(options.cacheDir, harness, read.passed, passed, options.files);
  if (saveWarning !== undefined) warn(saveWarning);
  throwOnProblems(replay, suitePath);
  const cached = tasks.length - toReplay.length;
  return {
    mode: toReplay.length === 0 ? 'cached' : cached === 0 ? 'replayed' : 'partly cached',
    replayed: toReplay.length,
    cached,
    ms: Math.round(performance.now() - started),
    cache_dir: options.cacheDir,
    harness: harnessDigest(harness).slice(0, 16),
  };
}

/**
 * Records in the validation cache the tasks of `tasks` whose ids are in `passedIds` (`validate` found their reference
 * scoring success and their untouched repository rejected: run's own check), so the next `run` does not replay them.
 * Never throws: a cache that cannot be read or written costs a warning line.
 */
export async function rememberPassedTasks(tasks: readonly LoadedTask[], passedIds: ReadonlySet<string>, options: ReferenceCacheOptions): Promise<void> {
  if (options.cacheDir === null) return;
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const harness = options.harness ?? (await harnessIdentity());
  const read = await readValidationCache(options.cacheDir, harness, options.files);
  if (read.warning !== undefined) warn(read.warning);
  const passedTasks = tasks.filter((task) => passedIds.has(task.id));
  const digests = taskDigests(passedTasks);
  const passed = new Map(passedTasks.map((task, index) => [digests[index] as string, task.id]));
  const saveWarning = await saveValidationCache(options.cacheDir, harness, read.passed, passed, options.files);
  if (saveWarning !== undefined) warn(saveWarning);
}

/** What run.json records as `validation` for `run --no-validate`. */
export const SKIPPED_VALIDATION: RunValidation = { mode: 'skipped', replayed: 0, cached: 0, ms: 0, cache_dir: null, harness: null };

/** The line `run` prints under the matrix: how the references were checked, e.g. "references: 690 tasks served from the validation cache (…)". */
export function validationLine(validation: RunValidation): string {
  const tasks = (n: number): string => `${count(n)} task${n === 1 ? '' : 's'}`;
  const seconds = `${(validation.ms / 1000).toFixed(1)} s`;
  switch (validation.mode) {
    case 'skipped':
      return '  references: not replayed (--no-validate)';
    case 'cached':
      return `  references: ${tasks(validation.cached)} served from the validation cache ${validation.cache_dir} (${seconds})`;
    case 'replayed':
    case 'partly cached':
      return (
        `  references: ${tasks(validation.replayed)} replayed` +
        `${validation.cached > 0 ? `, ${tasks(validation.cached)} served from the validation cache` : ''} (${seconds}; cache: ${validation.cache_dir ?? 'off'})`
      );
  }
}

/** Throws UsageError when tasks × strategies × epochs exceeds MAX_EPISODES (checked before the results folder exists). */
export function checkMatrixSize(tasks: number, strategies: number, epochs: number): void {
  const episodes = tasks * strategies * epochs;
  if (episodes <= MAX_EPISODES) return;
  throw new UsageError(
    `the matrix is ${count(tasks)} tasks × ${strategies} strategies × ${count(epochs)} epochs = ${count(episodes)} episodes, ` +
      `more than ${count(MAX_EPISODES)} in one run; lower --epochs or split it with --shard i/n`,
  );
}

/**
 * The most model calls one episode of `strategy` can make under the default budgets, before reply repairs: direct 2;
 * ReAct one per tool call, an answer and a budget report; the plan strategies a plan, one executor call per tool call,
 * one per replan and a report; gated one more for the gate.
 */
export function maxModelCalls(strategy: StrategyName): number {
  const plan = (budgets: typeof REACT_BUDGETS): number => 1 + budgets.maxToolCalls + budgets.maxReplans + 1;
  switch (strategy) {
    case 'direct':
      return 2;
    case 'react':
      return REACT_BUDGETS.maxToolCalls + 2;
    case 'plan-up-front':
      return plan(PLAN_UP_FRONT_BUDGETS);
    case 'plan-replan':
    case 'plan-replan-lookup':
      return plan(PLAN_REPLAN_BUDGETS);
    case 'gated':
      return 1 + Math.max(2, plan(PLAN_REPLAN_BUDGETS));
    default:
      // A module strategy says its own bound (Strategy.maxModelCalls); else the gated bound, the largest built in.
      return strategyByName(strategy)?.maxModelCalls ?? 1 + Math.max(2, plan(PLAN_REPLAN_BUDGETS));
  }
}

/**
 * The matrix line printed before the first episode, e.g. "matrix: 14 tasks × 5 strategies × 3 epochs = 210 episodes
 * (shard 1/2: 105; 40 kept from the interrupted run, 65 to run); at most 3,402 model calls (default budgets, before
 * reply repairs), all to the in-process scripted stand-in". Throws UsageError when the matrix exceeds MAX_EPISODES.
 */
export function describeMatrix(input: {
  tasks: number;
  strategies: readonly StrategyName[];
  epochs: number;
  toRun?: number;
  kept?: number;
  shard?: { index: number; count: number };
  scripted: boolean;
}): string {
  checkMatrixSize(input.tasks, input.strategies.length, input.epochs);
  const episodes = input.tasks * input.strategies.length * input.epochs;
  const perRound = input.strategies.reduce((sum, strategy) => sum + maxModelCalls(strategy), 0);
  const share = input.toRun === undefined || episodes === 0 ? 1 : input.toRun / episodes;
  const calls = Math.ceil(perRound * input.tasks * input.epochs * share);
  const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
  const details = [
    ...(input.shard ? [`shard ${input.shard.index}/${input.shard.count}`] : []),
    ...(input.kept ? [`${count(input.kept)} kept from the interrupted run`] : []),
    ...(input.toRun !== undefined && input.toRun !== episodes ? [`${count(input.toRun)} to run`] : []),
  ];
  return (
    `matrix: ${plural(input.tasks, 'task')} × ${plural(input.strategies.length, 'strategy').replace(/strategys$/, 'strategies')} × ${plural(input.epochs, 'epoch')} = ${plural(episodes, 'episode')}` +
    // Two lines, so the default output stays within 120 columns.
    `${details.length > 0 ? ` (${details.join('; ')})` : ''}\n  at most ${count(calls)} model calls (default budgets, before reply repairs)` +
    `${input.scripted ? ', all to the in-process scripted stand-in' : ''}`
  );
}

/**
 * After a run: the share of its episodes that ended in an infrastructure `error`, and the warning to print when it is
 * above `maxRate` (then `run` exits ERRORED_RUN_EXIT_CODE); null when it is not.
 */
export function erroredRunWarning(episodes: number, errors: number, maxRate: number, outDir: string): string | null {
  if (episodes === 0 || errors / episodes <= maxRate) return null;
  return (
    `${errors} of ${episodes} episodes (${((errors / episodes) * 100).toFixed(1)}%) ended in an infrastructure error, above --max-error-rate ${(maxRate * 100).toFixed(1)}%: ` +
    `the success rates stand on the other ${episodes - errors}. Once the model server is back, \`stratbench run --resume ${outDir}\` runs the errored episodes again (exit ${ERRORED_RUN_EXIT_CODE})`
  );
}
