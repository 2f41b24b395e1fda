// Runs one episode: fresh repo, strategy, scoring, metrics — and turns any crash into a recorded `error`.
import { codeAheadOverlaps, codeAheadPure, SimRepo } from '../sim-repo/index.js';
import type { RepoSpec } from '../sim-repo/spec.js';
import type { Check, Trajectory } from '../suite/schema.js';
import { CallInterrupted, InfrastructureError, type ChatModel, type ChatOptions, type Role } from '../models/types.js';
import { Trace } from '../trace/trace.js';
import { score } from '../scoring/score.js';
import type { Observation } from '../scoring/claims/subjects.js';
import { attribute, costFindings } from '../attribution/index.js';
import {
  ContextExceededEnding,
  declaredComponents,
  strategyByName,
  type Strategy,
  type StrategyName,
  type StrategyContext,
  type StrategyOptions,
  type PromptSet,
} from '../strategies/index.js';
import { SCHEMA_VERSION, type EpisodeRecord, type Metrics, type Outcome, type TextSink, type TraceEvent } from '../records/index.js';
import { JudgeFailure, type Judge } from './judge.js';
import { gradeJudgedChecks } from './judge-checks.js';

/** The parts of a loaded task an episode needs. */
export interface EpisodeTask {
  id: string;
  /** The template family of a generated task (recorded; the statistics resample families). */
  family?: string | undefined;
  /** The task's split (dev | test) in a suite that has them (recorded on the episode). */
  split?: 'dev' | 'test' | undefined;
  group: string;
  /** The suite's task repository: the shared fixture it starts from is recorded (grid grouping, exports). */
  repo?: { fixture: string } | undefined;
  prompt: string;
  expect: 'finish' | 'stop';
  checks: Check[];
  repoSpec: RepoSpec;
  /** The suite's trajectories; attribution reads their length (does the task need more than one action?). */
  reference?: Trajectory | undefined;
  naive?: Trajectory | undefined;
}

/** Everything shared by all episodes of a run. */
export interface RunEnvironment {
  models: Record<Role, ChatModel>;
  prompts: PromptSet;
  toolDescriptions: string;
  chatOptions: (role: Role) => ChatOptions;
  options: StrategyOptions;
  /** Hash of the model/prompt/suite configuration; part of every episode key. */
  configHash: string;
  /** Where the messages sent to models and their thinking go (the run's messages.jsonl); absent: hashed only. */
  texts?: TextSink;
  /** Grades the `judged` checks after the episode (`run --judge`); absent: they keep the scripted judge's in-code verdict. */
  judge?: Judge;
}

export interface EpisodeSpec {
  task: EpisodeTask;
  strategy: StrategyName;
  epoch: number;
  seed: number;
}

/** `task|strategy|epoch|configHash`: identifies an episode across resumed and sharded runs. */
export function episodeKey(task: string, strategy: string, epoch: number, configHash: string): string {
  return `${task}|${strategy}|${epoch}|${configHash}`;
}

/**
 * Runs one episode end to end. Throws only `CallInterrupted` (the run was interrupted while a model call was in
 * flight: the episode has no ending to record, and `--resume` runs it) and an Error for a strategy name no built-in or
 * registered module defines (a caller's bug: `run` checks names before any episode). An InfrastructureError ends it as `error` (reason
 * `infrastructure:<kind>`), any other exception (a strategy or model bug) as `error` (reason
 * `harness_error`) with the message; neither is scored as a strategy failure. A prompt past the model's context
 * window (`ContextExceededEnding`) ends it as `budget_exhausted` / `context_exceeded`: a failure of the strategy.
 */
export async function runEpisode(spec: EpisodeSpec, env: RunEnvironment): Promise<EpisodeRecord> {
  const started = performance.now();
  const { task } = spec;
  const repo = SimRepo.fromSpec(task.repoSpec);
  const trace = new Trace(repo.clock, env.texts);
  const strategy = strategyByName(spec.strategy);
  if (strategy === undefined) throw new Error(`unknown strategy ${spec.strategy}: not built in and no --strategy-module defines it`);
  const played = await playStrategy(spec, env, strategy, repo, trace);
  const toolMs = repo.clock.now_ms;
  const { outcome, scored } = await scoreEpisode(spec, env, played, repo, trace);
  if (outcome.status !== 'error') {
    for (const check of scored.checks) trace.emit({ type: 'check', scope: 'final', check: check.check, pass: check.pass, detail: check.detail });
  }
  const { attribution, findings } = blame(task, strategy, trace, { repo, answer: outcome.answer, message: outcome.message }, scored);
  // Built by assignment in the schema's key order, not with conditional spreads: this runs for every episode, and
  // JSON.stringify writes the keys in insertion order (episodes.jsonl's bytes).
  const record = { schemaVersion: SCHEMA_VERSION, key: episodeKey(task.id, spec.strategy, spec.epoch, env.configHash), task: task.id } as EpisodeRecord;
  if (task.family !== undefined) record.family = task.family;
  if (task.split !== undefined) record.split = task.split;
  record.group = task.group;
  if (task.repo !== undefined) record.fixture = task.repo.fixture;
  record.strategy = spec.strategy;
  record.epoch = spec.epoch;
  record.seed = spec.seed;
  record.models = modelsOf(strategy, env.models);
  record.outcome = outcome;
  record.success = scored.success;
  record.expect = task.expect;
  record.checks = scored.checks;
  record.metrics = metricsOf(trace.events, toolMs);
  record.attribution = attribution;
  if (findings !== undefined && findings.length > 0) record.findings = findings;
  record.wall_ms = Math.round((performance.now() - started) * 1000) / 1000;
  record.trace = trace.events;
  return record;
}

/** Every role the strategy calls, a declared one by its name, with the name of the model serving it (the built-in role's model for a declared one). */
function modelsOf(strategy: Strategy, models: Record<Role, ChatModel>): Record<string, string> {
  const named: Record<string, string> = {};
  for (const role of strategy.roles) named[role] = models[role].name;
  for (const role of strategy.declaredRoles ?? []) named[role.name] = models[role.model].name;
  return named;
}

/**
 * Runs the strategy on the fresh repository and returns how it ended. A prompt past the context window ends as
 * contextExceeded says; any other exception as an `error` outcome (errorOutcome) with its `end` event. Rethrows
 * CallInterrupted (the run was interrupted: no ending to record).
 */
async function playStrategy(spec: EpisodeSpec, env: RunEnvironment, strategy: Strategy, repo: SimRepo, trace: Trace): Promise<Outcome> {
  const { task } = spec;
  // Each role's options once per episode, with its seed (a Map: roles vary, and this runs for every model call).
  const chatOptions = new Map<Role, ChatOptions>();
  const context: StrategyContext = {
    task: { id: task.id, prompt: task.prompt, memory: repo.memory.map((note) => ({ date: note.date, text: note.text })) },
    repo,
    models: env.models,
    prompts: env.prompts,
    toolDescriptions: env.toolDescriptions,
    trace,
    epoch: spec.epoch,
    chatOptions: (role) => {
      let options = chatOptions.get(role);
      if (options === undefined) {
        // Object.assign, not a spread: roles' options differ in shape, and a spread of many shapes is ~10× slower.
        options = Object.assign({}, env.chatOptions(role));
        options.seed = spec.seed;
        chatOptions.set(role, options);
      }
      return options;
    },
    options: env.options,
  };
  if (strategy.declaredRoles) context.declaredRoles = strategy.declaredRoles;
  try {
    return await strategy.run(context);
  } catch (error) {
    if (error instanceof CallInterrupted) throw error;
    // By name too: a strategy module may call roles through its own copy of the package (a local install beside a
    // global CLI), whose ContextExceededEnding is another class of the same shape.
    if (error instanceof ContextExceededEnding || (error instanceof Error && error.name === 'ContextExceededEnding')) {
      return contextExceeded(trace, error as ContextExceededEnding);
    }
    const outcome = errorOutcome(error);
    trace.emit({ type: 'end', status: outcome.status, reason: outcome.reason, message: outcome.message ?? '' });
    return outcome;
  }
}

/** An episode's score: success and the final checks' results (with the ending's, for the judge). */
type EpisodeScore = Awaited<ReturnType<typeof score>> | { success: boolean; checks: EpisodeRecord['checks'] };

/**
 * Scores the final state, answer and message (nothing for an `error` episode), then lets the run's judge grade the
 * judged checks. A judge that cannot grade turns the episode into an `error` (infrastructure; --resume reruns it).
 */
async function scoreEpisode(
  spec: EpisodeSpec,
  env: RunEnvironment,
  played: Outcome,
  repo: SimRepo,
  trace: Trace,
): Promise<{ outcome: Outcome; scored: EpisodeScore }> {
  const { task } = spec;
  // The claim checks read what the agent was asked and every tool call it made (issue 26 §1).
  // A loop, not flatMap: an array per event adds up over every episode.
  const observations: Observation[] = [];
  for (const event of trace.events) {
    if (event.type === 'tool_call') {
      observations.push({
        tool: event.tool,
        args: event.args,
        status: event.status,
        output: event.output,
        exit_code: event.exit_code,
        error_code: event.error_code,
      });
    }
  }
  const memory = repo.memory.map((note) => note.text);
  const scoreOn = (state: SimRepo) =>
    score(task, played, { repo: state, answer: played.answer, message: played.message, prompt: task.prompt, memory, observations });
  // With a model served over the network, or episodes side by side on several code workers, the checks' sandbox runs go
  // ahead without blocking other episodes (codeAheadPure: scoring reads the state only, so it runs on a copy whose
  // result is the score).
  const scored: EpisodeScore =
    played.status === 'error'
      ? { success: false, checks: [] as EpisodeRecord['checks'] }
      : Object.values(env.models).some((model) => !model.deterministic) || codeAheadOverlaps()
        ? await codeAheadPure(() => scoreOn(repo.clone()))
        : scoreOn(repo);
  if (env.judge === undefined || !('endingMatches' in scored)) return { outcome: played, scored };
  try {
    return {
      outcome: played,
      scored: await gradeJudgedChecks({ task, outcome: played, events: trace.events, epoch: spec.epoch, seed: spec.seed }, scored, env.judge),
    };
  } catch (error) {
    if (error instanceof CallInterrupted) throw error;
    return { outcome: judgeErrorOutcome(error), scored: { success: false, checks: [] } };
  }
}

/**
 * The attribution of a failed, non-error episode (attribute returns null otherwise) and the cost findings of a
 * successful one; both pure over the trace, task and final state. A rule that throws is a bug: the episode keeps no
 * attribution (the table counts it as unattributed), or no findings.
 */
function blame(
  task: EpisodeTask,
  strategy: Strategy,
  trace: Trace,
  final: { repo: SimRepo; answer: string | undefined; message: string | undefined },
  scored: EpisodeScore,
): { attribution: EpisodeRecord['attribution']; findings: EpisodeRecord['findings'] } {
  const declared = declaredComponents(strategy.declaredRoles);
  let attribution: EpisodeRecord['attribution'] = null;
  try {
    attribution = attribute(task, trace.events, final, scored.checks, declared);
  } catch {
    attribution = null;
  }
  let findings: EpisodeRecord['findings'] = [];
  try {
    findings = scored.success ? costFindings(task, trace.events, final, scored.checks, declared) : [];
  } catch {
    findings = [];
  }
  return { attribution, findings };
}

/**
 * A judge that could not grade: `error` / `infrastructure:judge_<kind>` (kind: unreachable, server_error, busy,
 * timeout, model_missing, invalid_reply, other) with the judge's message; anything else as errorOutcome says.
 */
function judgeErrorOutcome(error: unknown): Outcome {
  if (!(error instanceof JudgeFailure)) return errorOutcome(error);
  return { status: 'error', reason: `infrastructure:judge_${error.judgeKind}`, message: error.message };
}

/** An InfrastructureError as `error` / `infrastructure:<kind>`, anything else as `error` / `harness_error`, with its message. */
function errorOutcome(error: unknown): Outcome {
  return {
    status: 'error',
    reason: error instanceof InfrastructureError ? `infrastructure:${error.kind}` : 'harness_error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * A role's prompt did not fit the model's context window: the strategy's failure, not infrastructure (issue 25 §5).
 * The role's model_call events go into the trace (the last is the call that overflowed), then a `budget` event
 * (limit `context_exceeded`, the server's words) and the end: `budget_exhausted` / `context_exceeded`, scored and
 * attributed like any failure, kept by `--resume`. No report is asked for: the history that overflowed is what a
 * reporter would be sent (decision 0022).
 */
function contextExceeded(trace: Trace, ending: ContextExceededEnding): Outcome {
  for (const event of ending.events) trace.emit(event);
  const detail = `the ${ending.role}'s prompt does not fit the model's context window: ${ending.cause.overflow.detail}`;
  trace.emit({ type: 'budget', limit: 'context_exceeded', detail });
  const outcome: Outcome = { status: 'budget_exhausted', reason: 'context_exceeded' };
  trace.emit({ type: 'end', status: outcome.status, reason: outcome.reason });
  return outcome;
}

/** Cost metrics derived from the trace (model calls by role, tokens, model/load time) and the simulated clock. */
export function metricsOf(events: readonly TraceEvent[], toolMs: number): Metrics {
  const metrics: Metrics = { model_calls: {}, tool_calls: 0, replans: 0, tokens_in: 0, tokens_out: 0, model_ms: 0, load_ms: 0, tool_ms: toolMs };
  for (const event of events) {
    if (event.type === 'model_call') {
      metrics.model_calls[event.role] = (metrics.model_calls[event.role] ?? 0) + 1;
      metrics.tokens_in += event.tokens_in;
      metrics.tokens_out += event.tokens_out;
      metrics.model_ms += event.duration_ms;
      metrics.load_ms += event.load_ms;
    } else if (event.type === 'tool_call') metrics.tool_calls += 1;
    else if (event.type === 'plan_revision') metrics.replans += 1;
  }
  return metrics;
}
