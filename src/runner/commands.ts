// The `run` and `validate` commands: validate every input before any episode runs, then run and report.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { loadSuiteFile, formatSuiteError, type LoadedTask, type SuiteError } from '../suite/load-suite.js';
import { missingScripts } from '../suite/missing-scripts.js';
import { naiveReplayWarnings, stopReplayWarnings } from './stop-replay.js';
import { loadStrategyModules } from './strategy-modules.js';
import { agentModelProblem, registerExternalAgent } from './agent-option.js';
import type { GeneratorReject } from '../suite/schema.js';
import { compositionLines, suiteComposition } from './suite-composition.js';
import { CallInterrupted, ROLES, type ChatModel, type Role } from '../models/types.js';
import { buildModels, modelSpecsByRole, ModelSpecError } from '../models/registry.js';
import { isScriptedModelName, SCRIPTED_NOTICE } from '../models/scripted.js';
import { DEFAULT_STRATEGIES, isStrategyName, knownStrategyNames, modelRolesOf, strategyByName, type StrategyName } from '../strategies/index.js';
import { toolDescriptionsForPrompt } from '../tools/index.js';
import { listNames, renderRunReport } from '../report/index.js';
import { cutLine, DEFAULT_REPORT_WIDTH } from '../report/formats/fit-width.js';
import { loadPromptSet, PromptFilesError } from './prompt-files.js';
import {
  claimRunFile,
  FolderLockedError,
  loadForResume,
  type ResumeEpisodes,
  commandLine,
  lockResultsFolder,
  OutputFolderError,
  parseShard,
  prepareOutputFolder,
  readRunFile,
  ResumeError,
  type FolderLock,
  type Disk,
  DISK_FAULT_EXIT_CODE,
  diskFaultCode,
  DiskReadError,
  DiskWriteError,
  FolderLockLostError,
  NODE_DISK,
} from '../results-folder/index.js';
import { runMatrix } from './run-suite.js';
import type { EpisodeTask } from './episode.js';
import { prewarmForRepos } from '../sim-repo/index.js';
import { validateTrajectories, type TrajectoryKind, type TrajectoryValidation } from './replay.js';
import { SCHEMA_VERSION, type EpisodeRecord, type RunDescription, type Shard } from '../records/index.js';
import { withCounterfactual } from './counterfactual-replay.js';
import { useColor } from './terminal.js';
import { checkMatrixSize, checkReferences, describeMatrix, ERRORED_RUN_EXIT_CODE, erroredRunWarning } from './run-checks.js';
import {
  OLLAMA_OPTION_KEYS,
  ollamaConfigIdentity,
  ollamaFlags,
  ollamaHeaderNote,
  ollamaModelFactory,
  ollamaRunConfig,
  prepareOllamaModels,
  roleChatOptions,
  type HostPools,
  type OllamaDependencies,
} from './ollama-setup.js';
import type { HostStats } from '../models/host-pool.js';
import { interruptModelCalls, limitModelCalls } from '../models/call-limit.js';
import {
  checkOllamaOnlyOptions,
  OPENAI_OPTION_KEYS,
  openaiHeaderNote,
  openaiModelFactory,
  openaiRunConfig,
  prepareOpenAIModels,
  type OpenAIDependencies,
} from './openai-setup.js';
import { CONTAMINATION_MIN_WORDS, findPromptContamination, formatContamination, type ContaminationReport } from '../suite/prompt-contamination.js';
import type { PromptSet } from '../strategies/prompts.js';
import { tasksWithJudgedChecks } from './judge-checks.js';
import { buildJudge, DEFAULT_CALIBRATION_DIR, judgeLine, requireJudge, runJudgeRecord } from './judge-setup.js';
import { formatAgreement } from '../report/judge-agreement.js';

/** What `run` reaches besides its options; injected by tests and scripts (default: the real thing). */
export interface RunDependencies {
  /** Transport and retry timing of every Ollama model of the run. */
  ollama?: OllamaDependencies;
  /** Transport and retry timing of every OpenAI-compatible model of the run. */
  openai?: OpenAIDependencies;
  /** Ask a plan wave's executor calls one at a time (benchmarks: the sequential baseline). Default false. */
  sequentialWaves?: boolean;
  /** Where the results folder's files are written (default: node:fs); tests pass a disk that refuses writes. */
  disk?: Disk;
}

export { UsageError } from './usage-error.js';
/** What cli.ts reports for a write the disk refused in any command (exit 5). */
export { DISK_FAULT_EXIT_CODE, diskFaultCode, DiskReadError, DiskWriteError } from '../results-folder/index.js';
import { checkPairs } from './pairs-check.js';
import { UsageError } from './usage-error.js';

const VERSION = '0.1.0';

/** `run --max-error-rate`: above this share of infrastructure-error episodes the run exits ERRORED_RUN_EXIT_CODE. */
export const DEFAULT_RUN_MAX_ERROR_RATE = 0.05;

/** Model calls in flight for model backends that wait on a server (`--concurrency`). */
export const DEFAULT_CONCURRENCY = 4;

/**
 * Episodes in flight when models wait on a server: `concurrency` model calls at most, and a quarter more episodes
 * (at least one), so that while an episode runs its tools, scores or writes its record, another's call takes its
 * place at the server. With exactly `concurrency` episodes every such gap left a call slot empty: measured with 2
 * fake hosts × 8 at 50 ms per call, ~3% of the wall (`npm run bench:ollama`). The same idea as vLLM's or LLMCompiler's
 * clients keeping a queue of requests ready; the calls themselves stay bounded by `limitModelCalls`.
 */
export function episodesInFlight(concurrency: number): number {
  return concurrency + Math.max(1, Math.ceil(concurrency / 4));
}

/** Parses `--strategies`. Throws UsageError naming unknown strategies. */
export function parseStrategies(value: string): StrategyName[] {
  if (value.trim() === 'all') return [...DEFAULT_STRATEGIES];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isStrategyName(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(`unknown strategy ${unknown.map((u) => `"${u}"`).join(', ') || '(none given)'}; known: ${knownStrategyNames().join(', ')}, all`);
  }
  return [...new Set(names)] as StrategyName[];
}

/** Loads a prompts folder, a missing template being a usage error (exit 2). */
async function loadPromptsOrThrow(dir: string): Promise<PromptSet> {
  try {
    return await loadPromptSet(dir);
  } catch (error) {
    if (error instanceof PromptFilesError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The contamination check of every role's template against the suite's tasks (issue 11 §4), each finding
 * written to stderr as a warning; the report is what run.json and validate --json record.
 */
function checkPromptContamination(prompts: PromptSet, tasks: readonly LoadedTask[]): ContaminationReport {
  const templates = Object.fromEntries(ROLES.map((role) => [role, prompts[role].template]));
  const findings = findPromptContamination(templates, tasks);
  for (const finding of findings) process.stderr.write(`warning: ${formatContamination(finding)}\n`);
  return { min_words: CONTAMINATION_MIN_WORDS, findings };
}

async function loadSuiteOrThrow(
  path: string,
): Promise<{ tasks: LoadedTask[]; hash: string; name: string; groups: string[]; rejected: GeneratorReject[]; warnings: SuiteError[] }> {
  const loaded = await loadSuiteFile(path);
  if (!loaded.ok) throw new UsageError(`${path}: ${loaded.errors.length} error(s)\n${loaded.errors.map(formatSuiteError).join('\n')}`);
  const groups = loaded.suite.groups ?? [...new Set(loaded.tasks.map((t) => t.group))];
  return { tasks: loaded.tasks, hash: loaded.hash, name: loaded.suite.name, groups, rejected: loaded.suite.rejected ?? [], warnings: loaded.warnings };
}

function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 23);
}

const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/**
 * With `--resume DIR`, options the user did not give on the command line are taken from DIR/run.json, so
 * `stratbench run --resume DIR` continues exactly the configuration that was interrupted.
 */
async function resumeDefaults(options: Record<string, unknown>, explicit: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const dir = options['resume'];
  if (typeof dir !== 'string') return options;
  const read = await readRunFile(dir, { required: true });
  if (!read.ok) throw new UsageError(`cannot resume ${dir}: ${read.error}`);
  if (read.run === null) throw new UsageError(`cannot resume ${dir}: no run.json`);
  const config = read.run.config;
  const merged: Record<string, unknown> = { ...options, out: dir };
  const conflicts: string[] = [];
  const take = (option: string, value: unknown): void => {
    if (value === undefined) return;
    if (!explicit.has(option)) merged[option] = value;
    else if (['suite', 'strategies', 'tasks', 'epochs', 'seed', 'agentCmd', 'agentName'].includes(option) && String(options[option]) !== String(value)) {
      const flag = option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      conflicts.push(`--${flag} ${String(options[option])} (the run has ${String(value)})`);
    }
  };
  take('suite', config.suite);
  take('strategies', config.strategies.join(','));
  take('tasks', config.tasks.join(','));
  take('epochs', config.epochs);
  take('seed', config.seed);
  take('concurrency', config.concurrency);
  take('prompts', config.prompts_dir);
  take('judge', config.judge);
  // The strategy modules the run loaded, by the absolute paths it recorded (their strategies are in --strategies).
  take(
    'strategyModule',
    config.strategy_modules?.map((module) => module.path),
  );
  // The external agent the run ran (issue 28 §3): its command, name and budgets.
  const agent = config.external_agent;
  take('agentCmd', agent?.command);
  take('agentName', agent?.name);
  take('agentMaxToolCalls', agent?.max_tool_calls);
  take('agentMaxModelCalls', agent?.max_model_calls);
  take('agentDeadlineMs', agent?.deadline_ms);
  take('agentCwd', agent?.cwd);
  take('agentFiles', agent?.files);
  // The episodes file's format (--compress), even when the run was killed before it wrote its first episode.
  take('compress', read.run.episodes_format === 'gzip' ? true : undefined);
  const specs = config.model_specs;
  // An explicit --model replaces the stored per-role models (the configuration check then refuses a change).
  if (!explicit.has('model')) {
    take('model', specs['direct']);
    for (const role of ROLES) take(`${role}Model`, specs[role]);
  }
  for (const key of OLLAMA_OPTION_KEYS) take(key, config.ollama_flags?.[key]);
  for (const key of OPENAI_OPTION_KEYS) take(key, (config['openai_flags'] as Record<string, unknown> | undefined)?.[key]);
  // A shard resumes as that shard: its slice of the matrix, never the whole matrix.
  const shard = read.run.shard ? `${read.run.shard.index}/${read.run.shard.count}` : undefined;
  if (!explicit.has('shard')) {
    if (shard === undefined) delete merged['shard'];
    else merged['shard'] = shard;
  } else if (String(options['shard']).trim() !== String(shard)) {
    conflicts.push(`--shard ${String(options['shard'])} (the run has ${shard ?? 'no shard'})`);
  }
  if (conflicts.length > 0) {
    throw new UsageError(`cannot resume ${dir} with a different matrix: ${conflicts.join(', ')}; leave these flags out to continue it as it was`);
  }
  return merged;
}

/**
 * The tasks of one split (`--split dev|test`). Throws UsageError for another value, for a suite none of whose tasks
 * has a split (the filter would silently run nothing or everything), and when no selected task is in the split.
 */
export function tasksOfSplit(tasks: readonly LoadedTask[], split: string, suitePath: string): LoadedTask[] {
  if (split !== 'dev' && split !== 'test') throw new UsageError(`--split must be dev or test, not "${split}"`);
  if (!tasks.some((task) => task.split !== undefined)) {
    throw new UsageError(`--split ${split}: the suite ${suitePath} has no splits (no task sets \`split\`); leave --split out to run it all`);
  }
  const chosen = tasks.filter((task) => task.split === split);
  if (chosen.length === 0) throw new UsageError(`--split ${split}: none of the selected tasks is in the ${split} split`);
  return chosen;
}

/**
 * `stratbench run`: returns the exit code (0 success, 130 interrupted, DISK_FAULT_EXIT_CODE 5 when the disk refused a
 * write — ENOSPC, EROFS, EIO, EDQUOT, EFBIG — with a message naming the file and the errno; the episodes already on
 * disk are kept for `--resume`). Throws UsageError for bad input and ConfigurationError when an Ollama server or
 * model named for a role is not there (both exit 2, before any episode runs).
 */
export async function runCommand(
  givenOptions: Record<string, unknown>,
  explicit: ReadonlySet<string> = new Set(),
  deps: RunDependencies = {},
): Promise<number> {
  const held: { lock?: FolderLock } = {};
  try {
    return await runLocked(givenOptions, explicit, deps, held);
  } catch (error) {
    if (error instanceof FolderLockLostError) {
      process.stderr.write(`stratbench: ${error.message}\n`);
      return 2;
    }
    const code = diskFaultCode(error);
    if (code === undefined) throw error;
    if (error instanceof DiskReadError) {
      process.stderr.write(`stratbench: the disk failed a read: ${error.message}\n`);
      return DISK_FAULT_EXIT_CODE;
    }
    const path = error instanceof DiskWriteError ? error.path : ((error as NodeJS.ErrnoException).path ?? 'the results folder');
    const why = error instanceof DiskWriteError ? error.message : `cannot write ${path}: ${code}`;
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
  } finally {
    // Released on every way out: the end, Ctrl-C/SIGTERM (which end the run normally) and errors.
    await held.lock?.release();
  }
}

/**
 * Takes the exclusive lock of results folder `dir` into `held` (see lockResultsFolder); a folder that does not exist
 * is left to the caller's own message. Throws UsageError (exit 2) naming the process that holds it.
 */
async function lockFolder(dir: string, command: string, held: { lock?: FolderLock }): Promise<void> {
  const isFolder = await stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isFolder) return;
  try {
    held.lock = await lockResultsFolder(dir, command, { onWait: (line) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    if (error instanceof FolderLockedError) throw new UsageError(error.message);
    throw error;
  }
  if (held.lock.note !== null) process.stderr.write(`${held.lock.note}\n`);
}

/**
 * `disk` with every write preceded by `lock.assertHeld()`: a run that lost its folder's lock (another process took it
 * over while this one was stopped past its lease) writes nothing more and ends with FolderLockLostError.
 */
function guardedDisk(disk: Disk, lock: FolderLock | undefined): Disk {
  if (lock === undefined) return disk;
  return {
    writeSync(path, fd, bytes, offset) {
      lock.assertHeld();
      return disk.writeSync(path, fd, bytes, offset);
    },
    async writeFile(path, text) {
      lock.assertHeld();
      await disk.writeFile(path, text);
    },
  };
}

async function runLocked(
  givenOptions: Record<string, unknown>,
  explicit: ReadonlySet<string>,
  deps: RunDependencies,
  held: { lock?: FolderLock },
): Promise<number> {
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
  const suitePath = String(options['suite']);
  const suite = await loadSuiteOrThrow(suitePath);
  // Module strategies first: --strategies may name them (issue 28 §1).
  const strategyModules = await loadStrategyModules((options['strategyModule'] as string[] | undefined) ?? []);
  // An external agent (--agent-cmd) is a strategy too; without --strategies it is the run's only one.
  let interruptSignal: AbortSignal | undefined;
  const externalAgent = await registerExternalAgent(options, () => interruptSignal);
  if (externalAgent !== undefined && !explicit.has('strategies') && options['resume'] === undefined) options['strategies'] = externalAgent.name;
  const strategies = parseStrategies(String(options['strategies']));
  if (externalAgent !== undefined && !strategies.includes(externalAgent.name)) {
    throw new UsageError(`--agent-cmd runs as the strategy "${externalAgent.name}"; add it to --strategies (${strategies.join(',')},${externalAgent.name})`);
  }
  checkPairs(strategies, options['pairs'] as [string, string][] | undefined);
  let tasks = suite.tasks;
  if (typeof options['tasks'] === 'string') {
    const wanted = options['tasks']
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (wanted.length === 0) {
      throw new UsageError(
        `--tasks "${options['tasks']}" names no task; give task ids separated by commas, or leave it out to run all ${tasks.length}: ${listNames(tasks.map((t) => t.id))}`,
      );
    }
    const unknown = wanted.filter((id) => !tasks.some((t) => t.id === id));
    if (unknown.length > 0)
      throw new UsageError(
        `unknown task ${unknown.join(', ')}; the suite's ${tasks.length} tasks include ${listNames(
          tasks.map((t) => t.id),
          unknown[0],
        )}`,
      );
    tasks = tasks.filter((t) => wanted.includes(t.id));
  }
  if (typeof options['split'] === 'string') tasks = tasksOfSplit(tasks, options['split'], suitePath);
  // QuickJS's WebAssembly (and ESLint) load on the code worker while this thread sets the run up.
  prewarmForRepos(tasks.map((task) => task.repoSpec));
  checkMatrixSize(tasks.length, strategies.length, Number(options['epochs']));
  // A judged check needs a judge model (exit 2 before any episode, naming the task and --judge).
  const judgeSpec = typeof options['judge'] === 'string' ? options['judge'] : undefined;
  requireJudge(tasksWithJudgedChecks(tasks), judgeSpec);
  if (judgeSpec !== undefined && tasksWithJudgedChecks(tasks).length === 0) {
    process.stderr.write(`warning: --judge ${judgeSpec}: no task of this run has a judged check, so the judge is never called\n`);
  }
  const overrides: Partial<Record<Role, string>> = {};
  for (const role of ROLES) {
    const value = options[`${role}Model`];
    if (typeof value === 'string') overrides[role] = value;
  }
  const specs = modelSpecsByRole(String(options['model']), overrides);
  const ollamaConfig = ollamaRunConfig(options);
  const openaiConfig = openaiRunConfig(options, ollamaConfig.options);
  let models: Record<Role, ChatModel>;
  // Models served by several hosts (--ollama-host a,b / --openai-base-url u1,u2): their per-host figures go to run.json.
  const pooling = { concurrency: typeof options['concurrency'] === 'number' ? options['concurrency'] : DEFAULT_CONCURRENCY, pools: new Map() };
  try {
    models = buildModels(specs, {
      tasks: suite.tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
      ollama: ollamaModelFactory(ollamaConfig, deps.ollama, pooling),
      openai: openaiModelFactory(openaiConfig, deps.openai, pooling),
    });
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
  const prompts = await loadPromptsOrThrow(String(options['prompts']));
  const contamination = checkPromptContamination(prompts, suite.tasks);
  const usedRoles = [
    ...new Set(
      strategies.flatMap((s) => {
        const strategy = strategyByName(s);
        return strategy ? modelRolesOf(strategy) : [];
      }),
    ),
  ];
  // --num-ctx / --keep-alive with only openai: models would be silently ignored: exit 2 (mixed backends: a warning).
  for (const warning of checkOllamaOnlyOptions(specs, usedRoles, explicit, ollamaConfig.roleOptions, judgeSpec)) process.stderr.write(`${warning}\n`);
  const unproxied = externalAgent === undefined ? undefined : await agentModelProblem(models.agent);
  if (unproxied !== undefined) throw new UsageError(`--agent-cmd: ${unproxied}; set --agent-model`);
  // Preflight (Ollama answers, every model is there) before any episode and before the results folder.
  const prepared = await prepareOllamaModels(models, specs, usedRoles, ollamaConfig, deps.ollama);
  models = prepared.models;
  const ollamaInfo = prepared.info;
  const openaiInfo = await prepareOpenAIModels(specs, usedRoles, openaiConfig, deps.openai);
  // The judge's model is preflighted like the roles' (ConfigurationError, exit 2) and its prompt hashed.
  const judgeBuilt =
    judgeSpec === undefined
      ? undefined
      : await buildJudge(judgeSpec, String(options['prompts']), {
          ollama: ollamaConfig,
          openai: openaiConfig,
          ...(deps.ollama ? { ollamaDeps: deps.ollama } : {}),
          ...(deps.openai ? { openaiDeps: deps.openai } : {}),
          pooling,
        });
  // A broken reference would make every strategy's failure on its task look like the agent's, and a task an untouched
  // repository passes would count a do-nothing agent's success (exit 2, no folder).
  if (options['validate'] !== false) checkReferences(tasks, suitePath);
  const outDir = typeof options['out'] === 'string' ? options['out'] : join('results', timestamp());
  let shard: Shard | undefined;
  try {
    shard = typeof options['shard'] === 'string' ? parseShard(options['shard']) : undefined;
    await prepareOutputFolder(outDir);
    if (held.lock === undefined) await lockFolder(outDir, commandLine(), held);
  } catch (error) {
    if (error instanceof OutputFolderError || error instanceof ResumeError) throw new UsageError(error.message);
    throw error;
  }

  // Declared roles too (issue 28 §1): each under its own name, served by its model role's model.
  const declared = strategies.flatMap((name) => strategyByName(name)?.declaredRoles ?? []);
  const modelNames: Record<string, string> = {
    ...Object.fromEntries(usedRoles.map((role) => [role, models[role].name])),
    ...Object.fromEntries(declared.map((role) => [role.name, models[role.model].name])),
  };
  const promptShas = Object.fromEntries(ROLES.map((role) => [role, prompts[role].sha256]));
  const strategyOptions = { lookupMissAsResult: false };
  const configHash = sha256({
    suite: suite.hash,
    seed: Number(options['seed']),
    models: specs,
    prompts: promptShas,
    options: strategyOptions,
    ...(strategyModules.modules.length > 0 ? { strategy_modules: strategyModules.modules.map((module) => module.sha256) } : {}),
    ...(externalAgent ? { external_agent: externalAgent } : {}),
    ...(judgeBuilt ? { judge: { spec: judgeBuilt.judge.spec, prompt: judgeBuilt.judge.promptSha256 } } : {}),
    ...(ollamaInfo ? { ollama: ollamaConfigIdentity(ollamaInfo) } : {}),
    ...(openaiInfo ? { openai: { tool_calling: openaiInfo.tool_calling, options: openaiConfig.options, models: openaiInfo.models } } : {}),
  }).slice(0, 16);
  const seed = Number(options['seed']);
  const epochs = Number(options['epochs']);
  const anyScripted = Object.values(modelNames).some(isScriptedModelName);
  // Concurrency overlaps waiting on model servers; the in-process scripted model never waits, and interleaving
  // its CPU-bound episodes only costs time (measured: ~4,400 vs ~3,200 episodes/s at 1 vs 4).
  // An external agent's episodes wait on its process: they overlap like a server's.
  const allInProcess =
    usedRoles.every((role) => models[role].deterministic && isScriptedModelName(models[role].name)) &&
    judgeBuilt?.model === undefined &&
    externalAgent === undefined;
  const concurrency = typeof options['concurrency'] === 'number' ? options['concurrency'] : allInProcess ? 1 : DEFAULT_CONCURRENCY;
  let existing: ResumeEpisodes | undefined;
  if (typeof options['resume'] === 'string') {
    try {
      const loaded = await loadForResume(outDir, configHash);
      existing = loaded;
      for (const warning of loaded.warnings) process.stderr.write(`warning: ${warning}\n`);
      if (options['compress'] === true && loaded.compressed === false) {
        process.stderr.write(`note: --compress does not apply: ${outDir} continues in its own episodes.jsonl (a resumed run keeps the folder's format)\n`);
      }
      process.stderr.write(
        `resuming ${outDir}: ${loaded.kept} finished episode(s) kept` +
          `${loaded.keptWithLostTexts > 0 ? ` (${loaded.keptWithLostTexts} of them reference messages or thinking that messages.jsonl lacks: kept with their verdicts, the texts shown as lost)` : ''}` +
          `${loaded.droppedTornLine ? `, a half-written last ${loaded.compressed ? 'gzip member' : 'line'} dropped` : ''}` +
          `${loaded.rerunErrors > 0 ? `, ${loaded.rerunErrors} errored episode(s) to run again` : ''}\n`,
      );
    } catch (error) {
      if (error instanceof ResumeError) throw new UsageError(error.message);
      throw error;
    }
  }
  // The judge's calibration: what judge-check measured on this suite with this judge and prompt, else "uncalibrated".
  const calibrationDir = typeof options['calibrationDir'] === 'string' ? options['calibrationDir'] : DEFAULT_CALIBRATION_DIR;
  const judgeRecord = judgeBuilt ? await runJudgeRecord(judgeBuilt.judge, suite.hash, calibrationDir) : undefined;
  const runInfo: RunDescription = {
    schemaVersion: SCHEMA_VERSION,
    ...(options['compress'] === true ? { episodes_format: 'gzip' as const } : {}),
    tool: { name: 'stratbench', version: VERSION, node: process.version },
    started_at: new Date().toISOString(),
    config: {
      suite: suitePath,
      groups: suite.groups,
      strategies,
      tasks: tasks.map((t) => t.id),
      ...(typeof options['split'] === 'string' ? { split: options['split'] } : {}),
      epochs,
      concurrency,
      seed,
      model_specs: specs,
      ...(judgeSpec === undefined ? {} : { judge: judgeSpec }),
      prompts_dir: String(options['prompts']),
      options: strategyOptions,
      ...(strategyModules.modules.length > 0 ? { strategy_modules: strategyModules.modules } : {}),
      ...(externalAgent ? { external_agent: externalAgent } : {}),
      // The backend flags (host, base URL, timeouts) of every model the run calls, the judge's included, for --resume.
      ...(ollamaInfo || judgeSpec?.startsWith('ollama:') ? { ollama_flags: ollamaFlags(options) } : {}),
      ...(openaiInfo || judgeSpec?.startsWith('openai:')
        ? { openai_flags: Object.fromEntries(OPENAI_OPTION_KEYS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]])) }
        : {}),
    },
    config_hash: configHash,
    suite: { path: suitePath, name: suite.name, hash: suite.hash, tasks: suite.tasks.length },
    models: modelNames,
    ...(anyScripted ? { model_notes: { scripted: SCRIPTED_NOTICE } } : {}),
    ...(judgeRecord ? { judge: judgeRecord } : {}),
    ...(ollamaInfo ? { ollama: ollamaInfo } : {}),
    ...(openaiInfo ? { openai: { ...openaiInfo, options: openaiConfig.options } } : {}),
    prompts: promptShas,
    prompt_texts: Object.fromEntries(ROLES.map((role) => [role, prompts[role].template])),
    prompt_contamination: contamination,
    strategies,
    epochs,
    seed,
    ...(shard ? { shard } : {}),
  };
  if (typeof options['resume'] !== 'string') {
    try {
      const note = await claimRunFile(outDir, { ...runInfo, status: 'running' });
      if (note !== null) process.stderr.write(`${note}\n`);
    } catch (error) {
      if (error instanceof OutputFolderError) throw new UsageError(error.message);
      throw error;
    }
  }
  const progress = options['progress'] === false ? 'none' : process.stderr.isTTY ? 'tty' : 'plain';
  const matrixSize = tasks.length * strategies.length * epochs;
  // Matrix positions p with p mod n = i − 1 (inShard): the exact size of shard i/n.
  const sliceSize = shard ? Math.max(0, Math.ceil((matrixSize - (shard.index - 1)) / shard.count)) : matrixSize;
  if (shard && sliceSize === 0) {
    process.stderr.write(
      `warning: shard ${shard.index}/${shard.count} holds no episode: the matrix has ${matrixSize} episode(s), fewer than ${shard.count} shards; nothing runs\n`,
    );
  }
  process.stderr.write(
    `${describeMatrix({
      tasks: tasks.length,
      strategies,
      epochs,
      ...(shard ? { shard } : {}),
      ...((existing?.kept ?? 0) > 0 ? { kept: existing?.kept ?? 0 } : {}),
      ...(shard || (existing?.kept ?? 0) > 0 ? { toRun: Math.max(0, sliceSize - (existing?.kept ?? 0)) } : {}),
      scripted: allInProcess,
    })}\n`,
  );
  // Ctrl-C or SIGTERM: stop starting episodes, abort the model calls in flight (their episodes are not written; --resume
  // runs them), write what finished and the summary (a second signal kills).
  const controller = new AbortController();
  interruptSignal = controller.signal;
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(
      `\ninterrupted (${signal}): model calls in flight abandoned, their episodes left for --resume; writing the summary (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to kill)\n`,
    );
    stoppedBy = signal;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // Calls waiting for a model server to come back give up now (their episodes end as infrastructure errors, which
    // --resume runs again) instead of waiting up to 60 s each.
    for (const pool of pooling.pools.values()) pool.stopWaiting(`interrupted by ${signal}`);
    controller.abort(new CallInterrupted(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // At most `concurrency` model calls in flight: a plan wave's executor calls go out together (LLMCompiler-style), and
  // the judge's calls share the slots. A signal aborts every call: queued, sent (the connection is closed) or between
  // retries (interruptModelCalls).
  const { judge: judgeModel, ...limitedModels } = interruptModelCalls(
    limitModelCalls<Role | 'judge'>(judgeBuilt?.model ? { ...models, judge: judgeBuilt.model } : (models as Record<Role | 'judge', ChatModel>), concurrency),
    controller.signal,
  );
  const env = {
    models: limitedModels as Record<Role, ChatModel>,
    ...(judgeBuilt ? { judge: judgeBuilt.bind && judgeModel ? judgeBuilt.bind(judgeModel) : judgeBuilt.judge } : {}),
    prompts,
    toolDescriptions: toolDescriptionsForPrompt(),
    chatOptions: (role: Role) => roleChatOptions(ollamaConfig, role),
    options: deps.sequentialWaves === true ? { ...strategyOptions, parallelWaves: false } : strategyOptions,
    configHash,
  };
  let firstCallOverflows = 0;
  let summary: Awaited<ReturnType<typeof runMatrix>>;
  try {
    summary = await runMatrix(
      {
        tasks,
        groups: suite.groups,
        strategies,
        epochs,
        concurrency: allInProcess ? concurrency : episodesInFlight(concurrency),
        modelCallSlots: concurrency,
        seed,
        outDir,
        progress,
        runInfo,
        ...(existing ? { existing } : {}),
        ...(options['compress'] === true ? { compress: true } : {}),
        // Every write of the folder first checks the lock is still this run's (FolderLockLostError otherwise).
        disk: guardedDisk(deps.disk ?? NODE_DISK, held.lock),
        ...(shard ? { shard } : {}),
        ...(pooling.pools.size > 0 ? { atEnd: () => ({ model_hosts: modelHostStats(pooling.pools) }) } : {}),
        ...(options['pairs'] ? { pairs: options['pairs'] as [string, string][] } : {}),
        signal: controller.signal,
        // Each failed episode replayed as it finishes, with each role swapped for the reference oracle (no model calls);
        // an episode whose very first model call overflowed the context window is counted (warned about at the end).
        complete: async (record: EpisodeRecord, cell: { task: EpisodeTask }) => {
          if (overflowedAtFirstCall(record)) firstCallOverflows += 1;
          return options['counterfactual'] === true ? withCounterfactual(record, cell.task, env) : record;
        },
      },
      env,
    );
  } finally {
    // Also when the run ends early (a write the disk refused): no handler of this run outlives it.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const header = {
    suiteName: suite.name,
    tasks: tasks.length,
    strategies,
    epochs,
    models: modelNames,
    completeness: summary.completeness.label,
    notes: [
      ...(anyScripted ? [SCRIPTED_NOTICE] : []),
      ...(judgeRecord ? [judgeLine(judgeRecord, formatAgreement)] : []),
      ...(ollamaInfo ? [ollamaHeaderNote(ollamaInfo)] : []),
      ...(openaiInfo ? [openaiHeaderNote(openaiInfo)] : []),
    ],
  };
  if (options['format'] === 'json') process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else process.stdout.write(renderRunReport(summary, header, useColor(process.stdout), { wide: options['wide'] === true }));
  process.stderr.write(`results: ${outDir}\n`);
  if (firstCallOverflows > 0) process.stderr.write(`stratbench: warning: ${firstCallOverflowWarning(firstCallOverflows)}\n`);
  if (summary.interrupted) {
    process.stderr.write(`interrupted after ${summary.ran} new episode(s); continue with: stratbench run --resume ${outDir}\n`);
    // 128 + the signal's number, as a shell reports a process the signal ended: 130 Ctrl-C, 143 SIGTERM.
    return stoppedBy === 'SIGTERM' ? 143 : 130;
  }
  const episodeCount = summary.strategies.reduce((sum, entry) => sum + entry.episodes, 0);
  const maxErrorRate = typeof options['maxErrorRate'] === 'number' ? options['maxErrorRate'] : DEFAULT_RUN_MAX_ERROR_RATE;
  const errored = erroredRunWarning(episodeCount, summary.errors_total ?? summary.errors.length, maxErrorRate, outDir);
  if (errored !== null) {
    process.stderr.write(`stratbench: ${errored}\n`);
    return ERRORED_RUN_EXIT_CODE;
  }
  return 0;
}

/** Whether an episode ended context_exceeded on its first model call: no history had grown, the prompt alone did not fit. */
export function overflowedAtFirstCall(record: EpisodeRecord): boolean {
  if (record.outcome.status !== 'budget_exhausted' || record.outcome.reason !== 'context_exceeded') return false;
  return Object.values(record.metrics.model_calls).reduce((sum, calls) => sum + calls, 0) <= 1;
}

/**
 * The end-of-run warning for episodes whose first prompt overflowed (review 6): a context window smaller than the
 * harness's own first prompt is a configuration to fix, though the episodes still count as the strategies' failures.
 */
export function firstCallOverflowWarning(episodes: number): string {
  return `${episodes} episode(s) ended context_exceeded on their first model call: the context window is smaller than the first prompt, so every strategy fails before it acts (raise --num-ctx, or serve the model with a longer context); they count as the strategies' failures`;
}

/** Per-host calls, failures, latency and times marked down of every pooled model, keyed by model spec (run.json `model_hosts`). */
function modelHostStats(pools: HostPools): Record<string, HostStats[]> {
  return Object.fromEntries([...pools].map(([spec, pool]) => [spec, pool.stats()]));
}

/** A trajectory's label in validate's lines: `reference`, `naive`, `untouched` or `counterexample "name"`. */
const trajectoryLabel = (trajectory: TrajectoryValidation): string =>
  trajectory.kind === 'counterexample' ? `counterexample "${trajectory.name ?? ''}"` : trajectory.kind;

/** validate's closing line: how many trajectories of each kind scored as they should. */
function validateSummary(trajectories: readonly TrajectoryValidation[]): string {
  const count = (kind: TrajectoryKind) => {
    const all = trajectories.filter((t) => t.kind === kind);
    return { all: all.length, ok: all.filter((t) => t.ok).length, failed: all.filter((t) => !t.success).length };
  };
  const [references, counterexamples, untouched, naive] = [count('reference'), count('counterexample'), count('untouched'), count('naive')];
  return (
    `${references.ok}/${references.all} references score success; ` +
    `${counterexamples.ok}/${counterexamples.all} counterexamples are rejected; ` +
    `${untouched.ok}/${untouched.all} untouched repositories (an agent that does nothing) are rejected; ` +
    `${naive.failed}/${naive.all} naive trajectories fail (informational).`
  );
}

/**
 * `stratbench validate [--json]`: 0 when every reference succeeds and every counterexample and untouched run
 * fails; 2 otherwise (and for a suite that does not load). With `json`, stdout is one document
 * `{ suite, tasks: [{ id, group, trajectories: TrajectoryValidation[] }], ok, composition, rejected, warnings, missing_scripts, stop_warnings, naive_warnings, prompt_contamination? }`
 * (composition: tasks and families per group × split and per fixture; rejected: the generator's rejects) instead of
 * the lines. With `prompts` (a folder of role templates), the contamination check runs and each finding is a
 * warning on stderr; so is each answer_contains / message_mentions check (`warnings`: a grounded check could judge
 * its claim, see wordCheckWarnings) and each script a task's prompt, memory or reference names that its package.json
 * lacks (`missing_scripts`: `{ task, script, where }`, see missingScripts) and each must-stop task on which no scripted
 * plan strategy stops (`stop_warnings`: `{ task, endings }`, see stopReplayWarnings) and each task with a naive
 * approach the scripted ReAct agent cannot get past (`naive_warnings`: `{ task, ending, detail }`, see
 * naiveReplayWarnings); a warning does not change the exit code.
 */
export async function validateCommand(path: string, options: { json?: boolean; prompts?: string; wide?: boolean } = {}): Promise<number> {
  const suite = await loadSuiteOrThrow(path);
  const promptSet = options.prompts === undefined ? undefined : await loadPromptsOrThrow(options.prompts);
  const contamination = promptSet === undefined ? undefined : checkPromptContamination(promptSet, suite.tasks);
  const tasks = validateTrajectories(suite.tasks);
  const trajectories = tasks.flatMap((task) => task.trajectories);
  const bad = trajectories.filter((trajectory) => !trajectory.ok);
  const composition = suiteComposition(suite.tasks, suite.groups);
  // Substring checks that judge a claim (issue 26 §2): a warning each, which does not change the exit code.
  for (const warning of suite.warnings) process.stderr.write(`warning: ${formatSuiteError(warning)}\n`);
  // Scripts a task names that its repository lacks (issue 27 §4): an agent would fail for the suite's reason.
  const scripts = missingScripts(suite.tasks);
  for (const missing of scripts)
    process.stderr.write(
      `warning: ${path}: task ${missing.task}: its ${missing.where} names the script ${missing.script}, which its package.json does not define\n`,
    );
  // Must-stop tasks no plan strategy can stop on, played by the scripted model (issue 27 §4).
  const stops = promptSet === undefined ? [] : await stopReplayWarnings(suite.tasks, promptSet);
  for (const stop of stops)
    process.stderr.write(
      `warning: ${path}: task ${stop.task} must stop, but no scripted plan strategy stops on it (${Object.entries(stop.endings)
        .map(([strategy, status]) => `${strategy} ${status}`)
        .join(', ')}): give its reference a done_when check that fails while the blocker stands\n`,
    );
  // Naive approaches the scripted ReAct agent cannot get past, playing only the task's own trajectories (issue 27 §4).
  const naive = promptSet === undefined ? [] : await naiveReplayWarnings(suite.tasks, promptSet);
  for (const warning of naive)
    process.stderr.write(
      `warning: ${path}: task ${warning.task}: the scripted ReAct agent, trying its naive approach first and then the reference, ends ${warning.ending} (${warning.detail}): the naive approach must fail observably and not open with the reference's first call\n`,
    );
  if (options.json === true) {
    const document = {
      suite: suite.name,
      tasks,
      ok: bad.length === 0,
      composition,
      rejected: suite.rejected,
      warnings: suite.warnings,
      missing_scripts: scripts,
      stop_warnings: stops,
      naive_warnings: naive,
      ...(contamination ? { prompt_contamination: contamination } : {}),
    };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    // An ok line is cut at 120 columns unless --wide (its checks' failure texts ran to 1,100 characters); a FAIL line
    // is what the suite's author must read, and stays whole, as does the summary.
    const width = options.wide === true ? undefined : DEFAULT_REPORT_WIDTH;
    for (const task of tasks) {
      for (const trajectory of task.trajectories) {
        const line = `${trajectory.ok ? 'ok  ' : 'FAIL'}  ${task.id.padEnd(28)} ${trajectoryLabel(trajectory)} — ${trajectory.detail}`;
        process.stdout.write(`${trajectory.ok ? cutLine(line, width) : line}\n`);
      }
    }
    // The summary stays one line: CI logs and docs grep for it.
    process.stdout.write(`\n${validateSummary(trajectories)}\n`);
    process.stdout.write(`\n${compositionLines(composition, suite.rejected).join('\n')}\n`);
  }
  if (bad.length > 0) {
    process.stderr.write(
      `stratbench: ${bad.length} trajectory(ies) do not score as they should (${options.json === true ? 'see "ok": false in the JSON' : 'see FAIL lines'})\n`,
    );
    return 2;
  }
  return 0;
}
