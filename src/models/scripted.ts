// The embedded `scripted` model: a deterministic stand-in (not an LLM) that plays each task's trajectories.
import { isFrozenFlat, type Trajectory, type TrajectoryStep } from '../records/index.js';
import type { ChatModel, ChatRequest, ChatResponse, FailureView, Observation, RoleView } from './types.js';
import { describeStep, referenceAfterSwitch, sequentialPosition, type ScriptedTask } from './scripted-tracks.js';
import { faultStrikesRole, markFault, SCRIPTED_FAULTS, type ScriptedFault } from './scripted-faults.js';

export type { ScriptedTask } from './scripted-tracks.js';

/** What the scripted model says about itself wherever it shows (README, run.json, table header). */
export const SCRIPTED_NOTICE =
  "scripted = deterministic stand-in, not an LLM: it replays each task's recorded trajectories (naive first, reference after a failure)";

interface PlanStepOut {
  id: string;
  does: string;
  tool: string;
  args: Record<string, unknown> | null;
  depends_on: string[];
  expect: string;
  side_effect: 'none' | 'reversible' | 'irreversible';
}

/**
 * Plays trajectories as DESIGN.md describes: it tries `naive` first where present and switches to
 * `reference` only after it observes a failure, so it shows what each strategy's control flow can do with
 * a model that makes no content mistakes. Every decision is derived from the request's view alone (no
 * hidden state), so the same model can be served over HTTP. Tokens and durations are reported as 0.
 * `faults` (names from SCRIPTED_FAULTS, see scripted-faults.ts) corrupt one role's replies at a known place;
 * the first that strikes marks the reply. A string reply (a fault's prose) is sent as raw text.
 * Throws (a harness bug, recorded as an `error` episode) when asked about a task it does not know; the
 * constructor throws for an unknown fault name (the registry reports those as a ModelSpecError first).
 */
/** The name a scripted model serves under: its spec as given ("scripted" or "scripted:faults=a,b"). */
export function scriptedModelName(faults: readonly string[]): string {
  return faults.length === 0 ? 'scripted' : `scripted:faults=${faults.join(',')}`;
}

/** True for the in-process scripted stand-in's names, with or without faults. */
export const isScriptedModelName = (name: string): boolean => name === 'scripted' || name.startsWith('scripted:');

export class ScriptedModel implements ChatModel {
  /** "scripted", or "scripted:faults=a,b" when faults are injected: a faulted run is never shown as the plain stand-in. */
  readonly name: string;
  readonly deterministic = true;
  private readonly tasks: ReadonlyMap<string, ScriptedTask>;
  private readonly faults: readonly ScriptedFault[];

  constructor(tasks: Iterable<ScriptedTask>, faults: readonly string[] = []) {
    this.tasks = new Map([...tasks].map((task) => [task.id, task]));
    this.faults = faults.map((name) => {
      const fault = SCRIPTED_FAULTS[name];
      if (!fault) throw new Error(`scripted model: unknown fault "${name}"`);
      return fault;
    });
    this.name = scriptedModelName(faults);
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    // `--judge scripted` grades in code (src/scoring/judge/scripted-judge.ts): no judge request reaches this model.
    if (request.view.role === 'judge') throw new Error('scripted model: it plays trajectories, not the judge (use --judge scripted)');
    // A role a strategy module declared is answered as the built-in role whose model serves it (its faults strike it too).
    const view = request.declaredRole === undefined ? request.view : ({ ...request.view, role: request.role } as RoleView);
    return this.reply(this.decide(view));
  }

  /** The reply value for a view, faults applied (exposed for serving the scripted model over the Ollama protocol). */
  decide(view: RoleView): unknown {
    const task = this.tasks.get(view.task_id);
    if (!task) throw new Error(`scripted model: unknown task "${view.task_id}"`);
    const reply = this.play(task, view);
    for (const fault of this.faults) {
      if (!faultStrikesRole(fault, view.role)) continue;
      const corrupted = fault.apply({ task, view, reply });
      if (corrupted !== undefined) return markFault(fault.name, corrupted);
    }
    return reply;
  }

  /** The fault-free reply: the task's trajectories played for this view. */
  private play(task: ScriptedTask, view: RoleView): unknown {
    switch (view.role) {
      case 'gate':
        return task.naive === undefined && task.reference.steps.length <= 1 ? ROUTE_DIRECT : ROUTE_PLAN;
      case 'direct':
        return this.direct(task, view.phase, view.history);
      case 'agent':
        return this.agent(task, view.history);
      case 'planner': {
        // The first plan of a trajectory, once per trajectory.
        const trajectory = task.naive ?? task.reference;
        return remembered(firstPlans, trajectory, () => this.plan(trajectory, 's') as object);
      }
      case 'executor':
        return this.execute(task, view.step);
      case 'replanner':
        return this.replan(task, view.plan as { revision: number }, view.history, view.failure);
      case 'reporter':
        return this.report(task, view.plan as { revision: number; steps: Array<{ status: string; revision: number }> } | null, view.failures);
    }
  }

  private reply(value: unknown): ChatResponse {
    return {
      text: textOf(value),
      tokens_in: 0,
      tokens_out: 0,
      duration_ms: 0,
      load_ms: 0,
      model: this.name,
      done_reason: 'stop',
    };
  }

  private direct(task: ScriptedTask, phase: 'act' | 'answer', history: Observation[]): unknown {
    const position = sequentialPosition(task, history);
    if (phase === 'act') {
      const next = position.remaining[0];
      return next ? toolAction(next) : ending(position.trajectory);
    }
    if (!position.switched && position.remaining.length === 0) return ending(position.trajectory);
    const done = history.map((o) => `${o.tool} ${JSON.stringify(o.args)} → ${o.status}`).join('; ');
    return { action: 'finish', answer: `Partial: ${done}. The request needs more than one action; the rest was not done.` };
  }

  private agent(task: ScriptedTask, history: Observation[]): unknown {
    const position = sequentialPosition(task, history);
    const next = position.remaining[0];
    return next ? toolAction(next) : ending(position.trajectory);
  }

  private plan(trajectory: Trajectory, prefix: string, steps: TrajectoryStep[] = trajectory.steps): unknown {
    return {
      goal: trajectory.finish ?? trajectory.stop ?? 'Complete the request',
      done_when: trajectory.done_when ?? [],
      assumptions: trajectory.assumption ? [trajectory.assumption] : [],
      steps: toPlanSteps(steps, trajectory.steps, prefix),
    };
  }

  private execute(task: ScriptedTask, step: { id: string; does: string; tool: string; args: Record<string, unknown> | null }): unknown {
    if (step.args !== null) return executorCall(step.tool, step.args);
    const known = [...(task.naive?.steps ?? []), ...task.reference.steps].find(
      (candidate) => candidate.tool === step.tool && describeStep(candidate) === step.does,
    );
    return { tool: step.tool, args: known?.args ?? {} };
  }

  private replan(task: ScriptedTask, plan: { revision: number }, history: Observation[], failure: FailureView): unknown {
    if (task.naive !== undefined && plan.revision === 0) {
      const revision = plan.revision + 1;
      const steps = referenceAfterSwitch(task, history);
      const replanned = this.plan(task.reference, `r${revision}.`, steps) as { assumptions: string[]; steps: PlanStepOut[]; done_when: unknown[] };
      return {
        decision: 'revise',
        invalidated: task.naive.assumption ?? `the first approach (${describeStep(task.naive.steps[0] ?? task.reference.steps[0]!)}) would work`,
        assumptions: replanned.assumptions,
        steps: replanned.steps,
        ...(task.reference.done_when ? { done_when: task.reference.done_when } : {}),
        message: '',
      };
    }
    if (task.reference.stop !== undefined) return { decision: 'stop', invalidated: '', assumptions: [], steps: [], message: task.reference.stop };
    return { decision: 'stop', invalidated: '', assumptions: [], steps: [], message: `I could not finish: ${describeFailure(failure)}.` };
  }

  private report(task: ScriptedTask, plan: { revision: number; steps: Array<{ status: string; revision: number }> } | null, failures: FailureView[]): unknown {
    if (plan === null) return { answer: `Not done: ${failures.map(describeFailure).join('; ') || 'a budget ended the run'}.` };
    const trajectory = plan.revision > 0 ? task.reference : (task.naive ?? task.reference);
    const allDone = plan.steps.filter((step) => step.revision === plan.revision).every((step) => step.status === 'done');
    if (allDone && failures.length === 0) return remembered(finalAnswers, trajectory, () => ({ answer: trajectory.finish ?? trajectory.stop ?? '' }));
    return { answer: `Not done: ${failures.map(describeFailure).join('; ') || 'some steps did not run'}.` };
  }
}

// Replies built from the task's own (unchanging) trajectories are the same object each time they are given while kept
// (the last KEPT_REPLIES of each kind), so their JSON text is written once (textOf); each is frozen, so nothing can
// change one under a later episode. Replies that depend on what happened (partial answers, failures, revisions) are
// built anew.

/** A reply's text: a string as it is, a value as JSON, kept for the values the builders below hand out again. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = replyTexts.get(value);
  if (text === undefined) replyTexts.set(value, (text = JSON.stringify(value)));
  return text;
}
const replyTexts = new WeakMap<object, string>();

/**
 * `build()`'s value for `key`, built once and frozen. Each kind keeps at most KEPT_REPLIES (the oldest dropped): a
 * suite of hundreds of tasks would otherwise hold every reply of every trajectory for the whole run (~5 MB on
 * `tasks/bench.json`).
 */
function remembered<K extends object>(kept: Map<K, unknown>, key: K, build: () => object): unknown {
  let value = kept.get(key);
  if (value === undefined) {
    if (kept.size >= KEPT_REPLIES) kept.delete(kept.keys().next().value!);
    kept.set(key, (value = frozenCopy(build())));
  }
  return value;
}

/**
 * A deep copy of a reply, frozen at every level: a caller that changes what it was given (rather than a copy) throws
 * instead of changing the reply every later episode gets. Copied first, so the task's own data (a step's args) is
 * never frozen.
 */
function frozenCopy<T extends object>(value: T): T {
  const freeze = (item: unknown): void => {
    if (item === null || typeof item !== 'object') return;
    Object.freeze(item);
    for (const child of Object.values(item)) freeze(child);
  };
  const copy = structuredClone(value);
  freeze(copy);
  return copy;
}
const KEPT_REPLIES = 256;
const toolActions = new Map<TrajectoryStep, unknown>();
const endings = new Map<Trajectory, unknown>();
const firstPlans = new Map<Trajectory, unknown>();
const finalAnswers = new Map<Trajectory, unknown>();
const executorCalls = new Map<object, Map<string, unknown>>();
const ROUTE_DIRECT = Object.freeze({ route: 'direct' });
const ROUTE_PLAN = Object.freeze({ route: 'plan' });

function toolAction(step: TrajectoryStep): unknown {
  return remembered(toolActions, step, () => ({ action: 'tool', tool: step.tool, args: step.args }));
}

function ending(trajectory: Trajectory): unknown {
  return remembered(endings, trajectory, () =>
    trajectory.stop !== undefined ? { action: 'stop', message: trajectory.stop } : { action: 'finish', answer: trajectory.finish ?? '' },
  );
}

/**
 * The executor's call of a plan step whose args the plan gave: one per args object and tool, for the last KEPT_REPLIES
 * args, when the args cannot change (isFrozenFlat: a parsed reply's are); else built anew.
 */
function executorCall(tool: string, args: Record<string, unknown>): unknown {
  // Kept args were frozen and flat when kept, and such args cannot change: only new ones are checked.
  let byTool = executorCalls.get(args);
  if (byTool === undefined) {
    if (!isFrozenFlat(args)) return { tool, args };
    if (executorCalls.size >= KEPT_REPLIES) executorCalls.delete(executorCalls.keys().next().value!);
    executorCalls.set(args, (byTool = new Map()));
  }
  let call = byTool.get(tool);
  if (call === undefined) byTool.set(tool, (call = frozenCopy({ tool, args })));
  return call;
}

/**
 * The line of a failed call's output that says what failed: the first line marking a failure (vitest's `×`/`FAIL`, an
 * error), else the first line (for a script, the package manager's echo of what it ran: `> node scripts/migrate.js`).
 */
function failureLine(output: string): string {
  const lines = output.split('\n').map((line) => line.trim());
  return lines.find((line) => /^(?:×|✗|FAIL\b)|\b(?:Error|ERR_|error|failed|Missing script)\b/.test(line)) ?? lines[0] ?? '';
}

function describeFailure(failure: FailureView): string {
  if (failure.kind === 'step_failed') return `step ${failure.step_id} (${failure.tool}) ended ${failure.status}: ${failureLine(failure.output)}`;
  return `done_when failed: ${failure.checks.map((c) => c.detail).join(', ')}`;
}

/** A run command's likely side-effect class, for the plan's `side_effect` field. */
function commandSideEffect(cmd: string): PlanStepOut['side_effect'] {
  if (/\bmigrate\b(?!:status)|\bdb:migrate\b/.test(cmd) && !/status/.test(cmd)) return 'irreversible';
  if (/\b(install|ci|i)\b|fixtures:reset|\bseed\b/.test(cmd)) return 'reversible';
  return 'none';
}

function sideEffectOf(step: TrajectoryStep): PlanStepOut['side_effect'] {
  if (step.tool === 'edit' || step.tool === 'write') return 'reversible';
  if (step.tool === 'push') return 'irreversible';
  if (step.tool === 'run') return commandSideEffect(String(step.args['cmd'] ?? ''));
  return 'none';
}

/**
 * Turns trajectory steps into plan steps with ids `<prefix><n>`. Dependencies follow `after` (indices into
 * the full trajectory) or default to the previous kept step; dependencies on steps not kept are dropped.
 */
function toPlanSteps(steps: TrajectoryStep[], all: TrajectoryStep[], prefix: string): PlanStepOut[] {
  const idOfIndex = new Map<number, string>();
  steps.forEach((step, i) => idOfIndex.set(all.indexOf(step), `${prefix}${i + 1}`));
  return steps.map((step, i) => {
    const deps =
      step.after !== undefined ? step.after.map((a) => idOfIndex.get(a)).filter((id): id is string => id !== undefined) : i > 0 ? [`${prefix}${i}`] : [];
    return {
      id: `${prefix}${i + 1}`,
      does: describeStep(step),
      tool: step.tool,
      args: step.deferred ? null : step.args,
      depends_on: deps,
      expect: step.expect ?? (step.tool === 'run' ? 'exit 0' : 'success'),
      side_effect: sideEffectOf(step),
    };
  });
}
