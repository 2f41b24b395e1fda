// A run's models: one per role (and the judge's), built from the model specs and preflighted before any episode runs.
import { buildModels, modelSpecsByRole, ModelSpecError } from '../models/registry.js';
import { ROLES, type ChatModel, type Role } from '../models/types.js';
import type { ContaminationReport } from '../suite/prompt-contamination.js';
import { modelRolesOf, strategyByName } from '../strategies/index.js';
import type { PromptSet } from '../strategies/prompts.js';
import { agentModelProblem } from './agent-option.js';
import { tasksWithJudgedChecks } from './judge-checks.js';
import { buildJudge, requireJudge } from './judge-setup.js';
import { checkPromptContamination, loadPromptsOrThrow } from './load-inputs.js';
import {
  ollamaModelFactory,
  ollamaRunConfig,
  prepareOllamaModels,
  type HostPools,
  type OllamaDependencies,
  type OllamaRunConfig,
  type OllamaRunInfo,
} from './ollama-setup.js';
import {
  checkOllamaOnlyOptions,
  openaiModelFactory,
  openaiRunConfig,
  prepareOpenAIModels,
  type OpenAIDependencies,
  type OpenAIRunConfig,
  type OpenAIRunInfo,
} from './openai-setup.js';
import type { RunSelection } from './run-selection.js';
import { UsageError } from './usage-error.js';

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

/** The judge as built for a run: the judge, and for a model judge its ChatModel and `bind` (see buildJudge). */
export type BuiltJudge = Awaited<ReturnType<typeof buildJudge>>;

/** Everything a run calls a model with, after preflight. */
export interface RunModels {
  /** The model spec of every role (`--model`, then `--<role>-model`). */
  specs: Record<Role, string>;
  models: Record<Role, ChatModel>;
  /** The roles the run's strategies call a model for. */
  usedRoles: Role[];
  ollamaConfig: OllamaRunConfig;
  openaiConfig: OpenAIRunConfig;
  /** What run.json records of the Ollama (OpenAI-compatible) models; undefined when no role uses that backend. */
  ollamaInfo: OllamaRunInfo | undefined;
  openaiInfo: OpenAIRunInfo | undefined;
  /** Models served by several hosts, by spec: their per-host figures go to run.json (`model_hosts`). */
  pooling: { concurrency: number; pools: HostPools };
  prompts: PromptSet;
  contamination: ContaminationReport;
  judgeSpec: string | undefined;
  judgeBuilt: BuiltJudge | undefined;
}

/** What the models of a run reach besides its options (tests inject transports and retry timing). */
export interface ModelDependencies {
  ollama?: OllamaDependencies;
  openai?: OpenAIDependencies;
}

/**
 * Builds and preflights the run's models and judge and loads its prompts. Throws UsageError (exit 2) for a judged check
 * without `--judge`, a bad model spec, a missing prompt template, an external agent whose model the proxy cannot
 * serve, or Ollama-only flags with no Ollama model; ConfigurationError (exit 2) for a server or model that is not there.
 * Nothing is written and no episode runs before this returns.
 */
export async function prepareRunModels(
  options: Record<string, unknown>,
  explicit: ReadonlySet<string>,
  selection: RunSelection,
  deps: ModelDependencies,
): Promise<RunModels> {
  const judgeSpec = typeof options['judge'] === 'string' ? options['judge'] : undefined;
  checkJudgeNeeded(selection, judgeSpec);
  const specs = modelSpecsByRole(String(options['model']), roleModelOverrides(options));
  const ollamaConfig = ollamaRunConfig(options);
  const openaiConfig = openaiRunConfig(options, ollamaConfig.options);
  const pooling = { concurrency: typeof options['concurrency'] === 'number' ? options['concurrency'] : DEFAULT_CONCURRENCY, pools: new Map() };
  let models: Record<Role, ChatModel>;
  try {
    models = buildModels(specs, {
      tasks: selection.suite.tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
      ollama: ollamaModelFactory(ollamaConfig, deps.ollama, pooling),
      openai: openaiModelFactory(openaiConfig, deps.openai, pooling),
    });
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
  const prompts = await loadPromptsOrThrow(String(options['prompts']));
  const contamination = checkPromptContamination(prompts, selection.suite.tasks);
  const usedRoles = [...new Set(selection.strategies.flatMap((s) => modelRolesOfStrategy(s)))];
  // --num-ctx / --keep-alive with only openai: models would be silently ignored: exit 2 (mixed backends: a warning).
  for (const warning of checkOllamaOnlyOptions(specs, usedRoles, explicit, ollamaConfig.roleOptions, judgeSpec)) process.stderr.write(`${warning}\n`);
  const unproxied = selection.externalAgent === undefined ? undefined : await agentModelProblem(models.agent);
  if (unproxied !== undefined) throw new UsageError(`--agent-cmd: ${unproxied}; set --agent-model`);
  // Preflight (Ollama answers, every model is there) before any episode and before the results folder.
  const prepared = await prepareOllamaModels(models, specs, usedRoles, ollamaConfig, deps.ollama);
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
  return {
    specs,
    models: prepared.models,
    usedRoles,
    ollamaConfig,
    openaiConfig,
    ollamaInfo: prepared.info,
    openaiInfo,
    pooling,
    prompts,
    contamination,
    judgeSpec,
    judgeBuilt,
  };
}

/** A judged check needs a judge model (exit 2 before any episode, naming the task and --judge); a judge nothing calls is a warning. */
function checkJudgeNeeded(selection: RunSelection, judgeSpec: string | undefined): void {
  requireJudge(tasksWithJudgedChecks(selection.tasks), judgeSpec);
  if (judgeSpec !== undefined && tasksWithJudgedChecks(selection.tasks).length === 0) {
    process.stderr.write(`warning: --judge ${judgeSpec}: no task of this run has a judged check, so the judge is never called\n`);
  }
}

/** `--<role>-model` flags given (commander's `plannerModel`…), by role. */
function roleModelOverrides(options: Record<string, unknown>): Partial<Record<Role, string>> {
  const overrides: Partial<Record<Role, string>> = {};
  for (const role of ROLES) {
    const value = options[`${role}Model`];
    if (typeof value === 'string') overrides[role] = value;
  }
  return overrides;
}

/** The model roles a strategy calls (none for a name no strategy has). */
function modelRolesOfStrategy(name: string): Role[] {
  const strategy = strategyByName(name);
  return strategy ? modelRolesOf(strategy) : [];
}
