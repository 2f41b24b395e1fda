// `stratbench run`: validates every input before any episode runs, then runs the episode matrix into a results folder and reports.
import { dirname, resolve } from 'node:path';
import { interruptModelCalls, limitModelCalls } from '../../models/call-limit.js';
import type { HostStats } from '../../models/host-pool.js';
import type { ChatModel, ChatOptions, Role } from '../../models/types.js';
import type { EpisodeRecord, RunDescription, RunJudge, RunValidation, Shard } from '../../records/index.js';
import {
  commandLine,
  DISK_FAULT_EXIT_CODE,
  diskFaultCode,
  DiskReadError,
  DiskWriteError,
  FolderLockLostError,
  NODE_DISK,
  readRunFile,
  type Disk,
  type ResumeEpisodes,
} from '../../results-folder/index.js';
import { toolDescriptionsForPrompt } from '../../tools/index.js';
import type { BackendOptions } from '../backend-options.js';
import { withCounterfactual } from '../counterfactual-replay.js';
import type { EpisodeTask, RunEnvironment } from '../episode.js';
import { DEFAULT_CALIBRATION_DIR, runJudgeRecord } from '../judge-setup.js';
import { roleChatOptions, type HostPools } from '../ollama-setup.js';
import { checkReferencesCached, describeMatrix, SKIPPED_VALIDATION, validationLine } from '../run-checks.js';
import { describeRun, runIdentity, type RunIdentity } from '../run-description.js';
import { claimRunFolder, guardedDisk, loadResumed, lockFolder, prepareRunFolder, type HeldLock } from '../run-folder.js';
import { interruptOnSignals, type RunInterrupt } from '../run-interrupt.js';
import { episodesInFlight, prepareRunModels, type ModelDependencies, type RunModels } from '../run-models.js';
import { resumeDefaults } from '../run-resume.js';
import { runMatrix } from '../run-suite.js';
import { selectRun, type RunSelection } from '../run-selection.js';
import { overflowedAtFirstCall, reportRun, type MatrixOutcome } from '../run-ending.js';
import { UsageError } from '../usage-error.js';
import { DEFAULT_VALIDATION_CACHE_DIR } from '../validation-cache.js';
import { closeCodeCache, DEFAULT_CODE_CACHE_DIR, openCodeCache } from '../code-cache.js';
import { harnessIdentity } from '../harness-identity.js';

/** `--<role>-model <spec>`: the model of one role (`plannerModel`…), over `--model`. */
export type RoleModelOptions = { [R in Role as `${R}Model`]?: string };

/**
 * The flags of `stratbench run` as commander hands them over (cli.ts: names camel-cased, numbers parsed and bounded
 * there); on `--resume DIR` every flag not given again is read back from DIR/run.json (resumeDefaults). Defaults named
 * here are cli.ts's unless said otherwise; the backend flags (hosts, call options, cache) are BackendOptions.
 */
export interface RunOptions extends BackendOptions, RoleModelOptions {
  /** `--suite`: the task suite (YAML); the CLI's default is the package's tasks/core.yaml. */
  suite?: string;
  /** `--strategies`: names separated by commas, or `all` (DEFAULT_STRATEGIES; an external agent alone with --agent-cmd). */
  strategies?: string;
  /** `--tasks`: only these task ids, separated by commas. */
  tasks?: string;
  /** `--split`: only the tasks of this split, `dev` or `test`. */
  split?: string;
  /** `--epochs`: repetitions of every task × strategy, 1–1000 (default 1). */
  epochs?: number;
  /** `--concurrency`: model calls in flight, 1–64 (default DEFAULT_CONCURRENCY 4; 1 when every model is in-process scripted). */
  concurrency?: number;
  /** `--seed`: the base seed each episode derives its own from (default 1). */
  seed?: number;
  /** `--model`: every role's model spec (default `scripted`). */
  model?: string;
  /** `--out`: the results folder (default `results/<timestamp>`). */
  out?: string;
  /** `--prompts`: the role prompt templates folder (the CLI's default: the package's prompts/). */
  prompts?: string;
  /** `--no-progress` sets it false: no progress lines on stderr (default: a bar on a TTY, plain lines otherwise). */
  progress?: boolean;
  /** `--compress`: write episodes.jsonl.gz instead of episodes.jsonl. */
  compress?: boolean;
  /** `--wide`: print every column of the report (default: fit 120 columns). */
  wide?: boolean;
  /** `--no-validate` sets it false: skip replaying the references before the first episode. */
  validate?: boolean;
  /** `--validation-cache-dir`: where tasks whose references passed are remembered (default DEFAULT_VALIDATION_CACHE_DIR). */
  validationCacheDir?: string;
  /** `--no-validation-cache` sets it false: replay every reference, neither reading nor writing the validation cache. */
  validationCache?: boolean;
  /** `--code-cache-dir`: where the results of the repositories' code runs are kept between runs (default DEFAULT_CODE_CACHE_DIR). */
  codeCacheDir?: string;
  /** `--no-code-cache` sets it false: run every test file, `eslint` and `node` run the process has not run itself. */
  codeCache?: boolean;
  /** `--max-error-rate`: above this share (0–1) of infrastructure errors the run exits 4 (default DEFAULT_RUN_MAX_ERROR_RATE 0.05, run-ending.ts). */
  maxErrorRate?: number;
  /** `--counterfactual`: replay each failed episode with each role swapped for an oracle (no model calls). */
  counterfactual?: boolean;
  /** `--resume`: continue the interrupted run in this folder. */
  resume?: string;
  /** `--shard i/n`: run only slice i of n of the matrix. */
  shard?: string;
  /** `--pairs`: strategy pairs the statistics compare, parsed by parsePairs. */
  pairs?: [string, string][];
  /** `--format`: stdout as a table (default) or the summary JSON. */
  format?: 'table' | 'json';
  /** `--judge`: the model spec grading judged checks (needed when a task has one). */
  judge?: string;
  /** `--calibration-dir`: where judge-check keeps its measurements (default DEFAULT_CALIBRATION_DIR). */
  calibrationDir?: string;
  /** `--strategy-module`, repeatable: modules defining strategies. */
  strategyModule?: string[];
  /** `--agent-cmd`: an agent process run once per episode (issue 28 §3). */
  agentCmd?: string;
  /** `--agent-name`: its strategy name (default DEFAULT_AGENT_NAME, `external`). */
  agentName?: string;
  /** `--agent-max-tool-calls` (default 12), `--agent-max-model-calls` (default 24), `--agent-deadline-ms` (default 120000, ms): as given, or numbers from run.json. */
  agentMaxToolCalls?: string | number;
  agentMaxModelCalls?: string | number;
  agentDeadlineMs?: string | number;
  /** Set by `--resume` from run.json only: the agent's working folder and its files' hashes (no flag). */
  agentCwd?: string;
  agentFiles?: Array<{ path: string; sha256: string }>;
}

/** What `run` reaches besides its options; injected by tests and scripts (default: the real thing). */
export interface RunDependencies extends ModelDependencies {
  /** Ask a plan wave's executor calls one at a time (benchmarks: the sequential baseline). Default false. */
  sequentialWaves?: boolean;
  /** Where the results folder's files are written (default: node:fs); tests pass a disk that refuses writes. */
  disk?: Disk;
}

/**
 * `stratbench run`: returns the exit code (0 success, 4 too many infrastructure errors, 130/143 interrupted,
 * DISK_FAULT_EXIT_CODE 5 when the disk refused a write — ENOSPC, EROFS, EIO, EDQUOT, EFBIG — with a message naming the
 * file and the errno; the episodes already on disk are kept for `--resume`; 2 when another process took the folder's
 * lock). `explicit` names the options given on the command line (commander names), which `--resume` does not replace.
 * Throws UsageError for bad input and ConfigurationError when a server or model named for a role is not there (both
 * exit 2, before any episode runs).
 */
export async function runCommand(options: RunOptions, explicit: ReadonlySet<string> = new Set(), deps: RunDependencies = {}): Promise<number> {
  const held: HeldLock = {};
  try {
    return await runLocked({ ...options }, explicit, deps, held);
  } catch (error) {
    if (error instanceof FolderLockLostError) {
      process.stderr.write(`stratbench: ${error.message}\n`);
      return 2;
    }
    if (diskFaultCode(error) === undefined) throw error;
    return await reportDiskFault(error, held);
  } finally {
    // Released on every way out: the end, Ctrl-C/SIGTERM (which end the run normally) and errors.
    await held.lock?.release();
    // The code cache the run opened is this run's: a later run in the process (tests, the API) opens its own.
    closeCodeCache();
  }
}

/** A write (or read) the disk refused: the file and errno on stderr, and how to go on; returns DISK_FAULT_EXIT_CODE. */
async function reportDiskFault(error: unknown, held: HeldLock): Promise<number> {
  if (error instanceof DiskReadError) {
    process.stderr.write(`stratbench: the disk failed a read: ${error.message}\n`);
    return DISK_FAULT_EXIT_CODE;
  }
  const path = error instanceof DiskWriteError ? error.path : ((error as NodeJS.ErrnoException).path ?? 'the results folder');
  const why = error instanceof DiskWriteError ? error.message : `cannot write ${path}: ${diskFaultCode(error)}`;
  const dir = held.lock ? dirname(held.lock.path) : dirname(path);
  // Before run.json was written (the lock, the claim), there is nothing to resume: the run starts again.
  const started = await readRunFile(dir, { required: true }).then(
    (read) => read.ok && read.run !== null,
    () => false,
  );
  process.stderr.write(
    `stratbench: the disk refused a write: ${why}\n` +
      (started
        ? `  the episodes already in ${dir} are kept; free space (or make the disk writable) and continue with: stratbench run --resume ${dir}\n`
        : `  no episode was written; free space (or make the disk writable) and run the command again\n`),
  );
  return DISK_FAULT_EXIT_CODE;
}

/** Everything runMatrix and the report need, settled before the first episode. */
interface PreparedRun {
  options: Record<string, unknown>;
  selection: RunSelection;
  models: RunModels;
  identity: RunIdentity;
  outDir: string;
  shard: Shard | undefined;
  existing: ResumeEpisodes | undefined;
  runInfo: RunDescription;
  judgeRecord: RunJudge | undefined;
  validation: RunValidation;
}

/** The run with its folder's lock held in `held`: prepare (every check before the folder is claimed), run, report. */
async function runLocked(givenOptions: Record<string, unknown>, explicit: ReadonlySet<string>, deps: RunDependencies, held: HeldLock): Promise<number> {
  const interrupt: { signal?: AbortSignal } = {};
  const run = await prepareRun(givenOptions, explicit, deps, held, interrupt);
  announceMatrix(run);
  // Ctrl-C or SIGTERM: stop starting episodes, abort the model calls in flight (their episodes are not written; --resume
  // runs them), write what finished and the summary (a second signal kills).
  const signals = interruptOnSignals(run.models.pooling.pools);
  interrupt.signal = signals.signal;
  let outcome: MatrixOutcome;
  try {
    outcome = await executeMatrix(run, deps, held, signals);
  } finally {
    // Also when the run ends early (a write the disk refused): no handler of this run outlives it.
    signals.release();
  }
  return reportRun(run, outcome, signals.stoppedBy());
}

/**
 * Reads the options (a resume's from run.json, its folder locked first), selects the matrix, builds and preflights the
 * models, replays the references, prepares and locks the folder, loads a resumed folder's episodes and claims the
 * folder with run.json. Throws UsageError / ConfigurationError (exit 2) before anything is written.
 */
async function prepareRun(
  givenOptions: Record<string, unknown>,
  explicit: ReadonlySet<string>,
  deps: RunDependencies,
  held: HeldLock,
  interrupt: { signal?: AbortSignal },
): Promise<PreparedRun> {
  const resumeDir = givenOptions['resume'];
  if (typeof resumeDir === 'string') {
    // A resume writes where it started; an --out naming another folder would be silently ignored.
    const out = givenOptions['out'];
    if (typeof out === 'string' && resolve(out) !== resolve(resumeDir)) {
      throw new UsageError(`--resume ${resumeDir} continues in ${resumeDir}; --out cannot name another folder (${out}): leave --out out`);
    }
    // A resume holds its folder from the start: another run cannot be resuming it while this one reads it.
    await lockFolder(resumeDir, commandLine(), held);
  }
  const options = await resumeDefaults(givenOptions, explicit);
  const selection = await selectRun(options, explicit, interrupt);
  const models = await prepareRunModels(options, explicit, selection, deps);
  const identity = runIdentity(options, selection, models);
  // Both caches are keyed on the harness: its identity is computed once (~30 ms).
  const useValidationCache = options['validate'] !== false && options['validationCache'] !== false;
  const useCodeCache = options['codeCache'] !== false;
  const harness = useValidationCache || useCodeCache ? await harnessIdentity() : undefined;
  // Before the references replay: they are served from, and kept in, the code cache too.
  await openCodeCache(useCodeCache ? (typeof options['codeCacheDir'] === 'string' ? options['codeCacheDir'] : DEFAULT_CODE_CACHE_DIR) : null, harness);
  // A broken reference would make every strategy's failure on its task look like the agent's, and a task an untouched
  // repository passes would count a do-nothing agent's success (exit 2, no folder). Tasks that passed before with the
  // same content and harness are served from the validation cache.
  const validation =
    options['validate'] === false
      ? SKIPPED_VALIDATION
      : await checkReferencesCached(selection.tasks, selection.suitePath, {
          cacheDir:
            options['validationCache'] === false
              ? null
              : typeof options['validationCacheDir'] === 'string'
                ? options['validationCacheDir']
                : DEFAULT_VALIDATION_CACHE_DIR,
          // Side by side as the episodes will run (`--concurrency`): a second code worker costs memory (decision 0047).
          sideBySide: identity.concurrency,
          ...(harness !== undefined ? { harness } : {}),
        });
  const { outDir, shard } = await prepareRunFolder(options, held);
  const existing = await loadResumed(options, outDir, identity.configHash);
  // The judge's calibration: what judge-check measured on this suite with this judge and prompt, else "uncalibrated".
  const calibrationDir = typeof options['calibrationDir'] === 'string' ? options['calibrationDir'] : DEFAULT_CALIBRATION_DIR;
  const judgeRecord = models.judgeBuilt ? await runJudgeRecord(models.judgeBuilt.judge, selection.suite.hash, calibrationDir) : undefined;
  const runInfo = describeRun(options, selection, models, identity, { judgeRecord, shard, validation });
  await claimRunFolder(options, outDir, runInfo);
  return { options, selection, models, identity, outDir, shard, existing, runInfo, judgeRecord, validation };
}

/** The matrix line on stderr: tasks × strategies × epochs, the shard's slice, what a resume keeps and what runs. */
function announceMatrix(run: PreparedRun): void {
  const { selection, identity, shard, existing } = run;
  const matrixSize = selection.tasks.length * selection.strategies.length * identity.epochs;
  // The exact size of shard i/n (inShard): every n-th row (task × epoch, all strategies) from row i − 1, or for a
  // shard written before rows, every n-th matrix position.
  const strategies = selection.strategies.length;
  const unitSize = shard?.unit === 'row' ? strategies : 1;
  const units = matrixSize / unitSize;
  const sliceSize = shard ? Math.max(0, Math.ceil((units - (shard.index - 1)) / shard.count)) * unitSize : matrixSize;
  if (shard && sliceSize === 0) {
    const unitName = shard.unit === 'row' ? 'task × epoch row' : 'episode';
    process.stderr.write(
      `warning: shard ${shard.index}/${shard.count} holds no episode: the matrix has ${units} ${unitName}(s), fewer than ${shard.count} shards; nothing runs\n`,
    );
  }
  const kept = existing?.kept ?? 0;
  process.stderr.write(
    `${describeMatrix({
      tasks: selection.tasks.length,
      strategies: selection.strategies,
      epochs: identity.epochs,
      ...(shard ? { shard } : {}),
      ...(kept > 0 ? { kept } : {}),
      ...(shard || kept > 0 ? { toRun: Math.max(0, sliceSize - kept) } : {}),
      scripted: identity.allInProcess,
    })}\n${validationLine(run.validation)}\n`,
  );
}

/**
 * Runs the matrix: at most `concurrency` model calls in flight (a plan wave's executor calls go out together,
 * LLMCompiler-style, and the judge's calls share the slots); the interrupt's signal aborts every call — queued, sent
 * (the connection is closed) or between retries (interruptModelCalls).
 */
async function executeMatrix(run: PreparedRun, deps: RunDependencies, held: HeldLock, signals: RunInterrupt): Promise<MatrixOutcome> {
  const { options, selection, models, identity } = run;
  const env = runEnvironment(run, deps, signals.signal);
  let firstCallOverflows = 0;
  const summary = await runMatrix(
    {
      tasks: selection.tasks,
      groups: selection.suite.groups,
      strategies: selection.strategies,
      epochs: identity.epochs,
      concurrency: identity.allInProcess ? identity.concurrency : episodesInFlight(identity.concurrency),
      modelCallSlots: identity.concurrency,
      seed: identity.seed,
      outDir: run.outDir,
      progress: options['progress'] === false ? 'none' : process.stderr.isTTY ? 'tty' : 'plain',
      runInfo: run.runInfo,
      ...(run.existing ? { existing: run.existing } : {}),
      ...(options['compress'] === true ? { compress: true } : {}),
      // Every write of the folder first checks the lock is still this run's (FolderLockLostError otherwise).
      disk: guardedDisk(deps.disk ?? NODE_DISK, held.lock),
      ...(run.shard ? { shard: run.shard } : {}),
      ...(models.pooling.pools.size > 0 ? { atEnd: () => ({ model_hosts: modelHostStats(models.pooling.pools) }) } : {}),
      ...(options['pairs'] ? { pairs: options['pairs'] as [string, string][] } : {}),
      signal: signals.signal,
      // Each failed episode replayed as it finishes, with each role swapped for the reference oracle (no model calls);
      // an episode whose very first model call overflowed the context window is counted (warned about at the end).
      complete: async (record: EpisodeRecord, cell: { task: EpisodeTask }) => {
        if (overflowedAtFirstCall(record)) firstCallOverflows += 1;
        return options['counterfactual'] === true ? withCounterfactual(record, cell.task, env) : record;
      },
    },
    env,
  );
  return { summary, firstCallOverflows };
}

/** The episodes' environment: every model (and the judge's) behind the call limit and the interrupt, prompts, options. */
function runEnvironment(run: PreparedRun, deps: RunDependencies, signal: AbortSignal): RunEnvironment {
  const { models, identity } = run;
  const { judgeBuilt } = models;
  const optionsByRole = new Map<Role, ChatOptions>();
  const { judge: judgeModel, ...limitedModels } = interruptModelCalls(
    limitModelCalls<Role | 'judge'>(
      judgeBuilt?.model ? { ...models.models, judge: judgeBuilt.model } : (models.models as Record<Role | 'judge', ChatModel>),
      identity.concurrency,
    ),
    signal,
  );
  return {
    models: limitedModels as Record<Role, ChatModel>,
    ...(judgeBuilt ? { judge: judgeBuilt.bind && judgeModel ? judgeBuilt.bind(judgeModel) : judgeBuilt.judge } : {}),
    prompts: models.prompts,
    toolDescriptions: toolDescriptionsForPrompt(),
    // One object per role for the whole run (the configuration does not change): episodes copy it with their seed.
    chatOptions: (role: Role) => {
      let options = optionsByRole.get(role);
      if (options === undefined) optionsByRole.set(role, (options = roleChatOptions(models.ollamaConfig, role)));
      return options;
    },
    options: deps.sequentialWaves === true ? { ...identity.strategyOptions, parallelWaves: false } : identity.strategyOptions,
    configHash: identity.configHash,
  };
}

/** Per-host calls, failures, latency and times marked down of every pooled model, keyed by model spec (run.json `model_hosts`). */
function modelHostStats(pools: HostPools): Record<string, HostStats[]> {
  return Object.fromEntries([...pools].map(([spec, pool]) => [spec, pool.stats()]));
}
