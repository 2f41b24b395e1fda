// What a run is, as run.json records it: its configuration hash (what --resume and compare check), models, prompts, settings.
import { createHash } from 'node:crypto';
import { ROLES } from '../models/types.js';
import { isScriptedModelName, SCRIPTED_NOTICE } from '../models/scripted.js';
import { SCHEMA_VERSION, type RunDescription, type RunJudge, type RunValidation, type Shard } from '../records/index.js';
import { strategyByName } from '../strategies/index.js';
import { ollamaConfigIdentity, ollamaFlags } from './ollama-setup.js';
import { OPENAI_OPTION_KEYS } from './openai-setup.js';
import { DEFAULT_CONCURRENCY, type RunModels } from './run-models.js';
import type { RunSelection } from './run-selection.js';

/** The tool's version recorded in run.json (`tool.version`). */
const VERSION = '0.1.0';

/** The strategies' options every run records (the lookup variant is a strategy of its own: plan-replan-lookup). */
const STRATEGY_OPTIONS = { lookupMissAsResult: false };

const sha256 = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** A run's identity and settings, derived from its options, selection and models before anything is written. */
export interface RunIdentity {
  /** 16 hex digits of the sha256 of everything that changes what an episode does (suite, seed, models, prompts…). */
  configHash: string;
  /** The model name serving each used role and each declared role (issue 28 §1). */
  modelNames: Record<string, string>;
  promptShas: Record<string, string>;
  strategyOptions: { lookupMissAsResult: boolean };
  seed: number;
  epochs: number;
  /** Some role is played by the scripted stand-in (its notice goes in the header and run.json). */
  anyScripted: boolean;
  /** Every model is the in-process scripted one, with no model judge and no external agent: nothing waits on I/O. */
  allInProcess: boolean;
  /** Model calls in flight (`--concurrency`; default DEFAULT_CONCURRENCY, or 1 when allInProcess). */
  concurrency: number;
}

/** The identity of a run (see RunIdentity). Pure. */
export function runIdentity(options: Record<string, unknown>, selection: RunSelection, run: RunModels): RunIdentity {
  const { models, usedRoles, prompts, judgeBuilt, ollamaInfo, openaiInfo } = run;
  // Declared roles too (issue 28 §1): each under its own name, served by its model role's model.
  const declared = selection.strategies.flatMap((name) => strategyByName(name)?.declaredRoles ?? []);
  const modelNames: Record<string, string> = {
    ...Object.fromEntries(usedRoles.map((role) => [role, models[role].name])),
    ...Object.fromEntries(declared.map((role) => [role.name, models[role.model].name])),
  };
  const promptShas = Object.fromEntries(ROLES.map((role) => [role, prompts[role].sha256]));
  const { strategyModules, externalAgent } = selection;
  const configHash = sha256({
    suite: selection.suite.hash,
    seed: Number(options['seed']),
    models: run.specs,
    prompts: promptShas,
    options: STRATEGY_OPTIONS,
    ...(strategyModules.modules.length > 0 ? { strategy_modules: strategyModules.modules.map((module) => module.sha256) } : {}),
    ...(externalAgent ? { external_agent: externalAgent } : {}),
    ...(judgeBuilt ? { judge: { spec: judgeBuilt.judge.spec, prompt: judgeBuilt.judge.promptSha256 } } : {}),
    ...(ollamaInfo ? { ollama: ollamaConfigIdentity(ollamaInfo) } : {}),
    ...(openaiInfo ? { openai: { tool_calling: openaiInfo.tool_calling, options: run.openaiConfig.options, models: openaiInfo.models } } : {}),
  }).slice(0, 16);
  // Concurrency overlaps waiting on model servers; the in-process scripted model never waits, and interleaving
  // its CPU-bound episodes only costs time (measured: ~4,400 vs ~3,200 episodes/s at 1 vs 4).
  // An external agent's episodes wait on its process: they overlap like a server's.
  const allInProcess =
    usedRoles.every((role) => models[role].deterministic && isScriptedModelName(models[role].name)) &&
    judgeBuilt?.model === undefined &&
    externalAgent === undefined;
  return {
    configHash,
    modelNames,
    promptShas,
    strategyOptions: { ...STRATEGY_OPTIONS },
    seed: Number(options['seed']),
    epochs: Number(options['epochs']),
    anyScripted: Object.values(modelNames).some(isScriptedModelName),
    allInProcess,
    concurrency: typeof options['concurrency'] === 'number' ? options['concurrency'] : allInProcess ? 1 : DEFAULT_CONCURRENCY,
  };
}

/** run.json's content for a run (records/run-file.ts RunDescription); `started_at` is now. Pure but for the clock. */
export function describeRun(
  options: Record<string, unknown>,
  selection: RunSelection,
  run: RunModels,
  identity: RunIdentity,
  extra: { judgeRecord: RunJudge | undefined; shard: Shard | undefined; validation?: RunValidation },
): RunDescription {
  const { suite, suitePath, strategies, tasks, strategyModules, externalAgent } = selection;
  const { judgeSpec, ollamaInfo, openaiInfo, prompts } = run;
  const { epochs, seed } = identity;
  return {
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
      concurrency: identity.concurrency,
      seed,
      model_specs: run.specs,
      ...(judgeSpec === undefined ? {} : { judge: judgeSpec }),
      prompts_dir: String(options['prompts']),
      options: identity.strategyOptions,
      ...(strategyModules.modules.length > 0 ? { strategy_modules: strategyModules.modules } : {}),
      ...(externalAgent ? { external_agent: externalAgent } : {}),
      // The backend flags (host, base URL, timeouts) of every model the run calls, the judge's included, for --resume.
      ...(ollamaInfo || judgeSpec?.startsWith('ollama:') ? { ollama_flags: ollamaFlags(options) } : {}),
      ...(openaiInfo || judgeSpec?.startsWith('openai:')
        ? { openai_flags: Object.fromEntries(OPENAI_OPTION_KEYS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]])) }
        : {}),
    },
    config_hash: identity.configHash,
    suite: { path: suitePath, name: suite.name, hash: suite.hash, tasks: suite.tasks.length },
    models: identity.modelNames,
    ...(identity.anyScripted ? { model_notes: { scripted: SCRIPTED_NOTICE } } : {}),
    ...(extra.judgeRecord ? { judge: extra.judgeRecord } : {}),
    ...(ollamaInfo ? { ollama: ollamaInfo } : {}),
    ...(openaiInfo ? { openai: { ...openaiInfo, options: run.openaiConfig.options } } : {}),
    prompts: identity.promptShas,
    prompt_texts: Object.fromEntries(ROLES.map((role) => [role, prompts[role].template])),
    prompt_contamination: run.contamination,
    strategies,
    epochs,
    seed,
    ...(extra.shard ? { shard: extra.shard } : {}),
    ...(extra.validation ? { validation: extra.validation } : {}),
  };
}
