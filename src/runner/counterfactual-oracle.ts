// Oracles for counterfactual replay (issue 11 §2): one role played from the task's reference, from the state it is shown.
import type { ChatModel, ChatRequest, ChatResponse, Observation, RoleView } from '../models/types.js';
import { ScriptedModel, type ScriptedTask } from '../models/scripted.js';
import { describeStep } from '../models/scripted-tracks.js';
import { canonicalJson } from '../records/index.js';
import { callTarget, namedTargets } from '../attribution/targets.js';
import type { TrajectoryStep as SuiteStep } from '../suite/schema.js';

type TrajectoryStep = ScriptedTask['reference']['steps'][number];
const describe = (step: TrajectoryStep): string => describeStep(step as SuiteStep);

const respond = (value: unknown): ChatResponse => ({
  text: JSON.stringify(value),
  tokens_in: 0,
  tokens_out: 0,
  duration_ms: 0,
  load_ms: 0,
  model: 'oracle',
  done_reason: 'stop',
});
const sameCall = (tool: string, args: unknown, o: Observation): boolean => o.tool === tool && canonicalJson(o.args) === canonicalJson(args);
const sideEffect = (step: TrajectoryStep): string =>
  step.tool === 'edit' || step.tool === 'write'
    ? 'reversible'
    : step.tool === 'push'
      ? 'irreversible'
      : /\bmigrate\b(?!:status)/.test(String(step.args['cmd'] ?? ''))
        ? 'irreversible'
        : 'none';
/** A test file's path: under a tests/ folder, or named *.test.* / *.spec.*. */
const TEST_PATH = /(?:^|\/)(?:tests?|__tests__)\/|\.(?:test|spec)\.[cm]?[jt]sx?$/;
/** A step that changes something (an edit, a write, a push, a command that is not a check): work a report would claim. */
const isWork = (step: TrajectoryStep): boolean =>
  ['edit', 'write', 'push'].includes(step.tool) ||
  (step.tool === 'run' && !isCheckRun(step) && !/\b(status|log|show|diff|list|ls|cat)\b/.test(String(step.args['cmd'] ?? '')));
const sameTarget = (step: TrajectoryStep, o: Observation): boolean => o.tool === step.tool && callTarget(o.tool, o.args) === callTarget(step.tool, step.args);
/** Test and lint runs are checks: the continuation runs them again after any change. */
const isCheckRun = (step: TrajectoryStep): boolean =>
  step.tool === 'run' && /\b(test|lint|vitest|eslint)\b|migrate:status/.test(String(step.args['cmd'] ?? ''));

/**
 * Whether every value an answer gives is in what the episode saw: each number, sha, all-caps name, script name, path and
 * camelCase identifier of `answer` appears in the request (`prompt`) or some call's output or arguments. An answer with
 * none of them is evidenced.
 */
export function evidenced(answer: string, history: readonly Observation[], prompt = ''): boolean {
  const seen = `${prompt}\n${history.map((o) => `${o.output}\n${JSON.stringify(o.args)}`).join('\n')}`;
  // Quotations are left out: a report paraphrases what it quotes ("Node 20 (the version in .nvmrc)" for `.nvmrc`).
  // Code-like tokens count: a script name (test:checkout), a path (src/config.js), an identifier (formatValue).
  const values =
    answer.match(/\b\d+(?:\.\d+)+\b|\b\d{2,}\b|\b[0-9a-f]{7,40}\b|\b[A-Z][A-Z0-9_]{2,}\b|\b[\w-]+:[\w:-]+\b|(?:[\w.-]+\/)+[\w.-]+\.\w+|\b[a-z]+[A-Z]\w*\b/g) ??
    [];
  return values.every((value) => seen.includes(value));
}

/** The view as the oracle plays it: a declared role's (issue 28 §1) as the built-in role whose model serves it. */
const asModelView = (request: ChatRequest): RoleView =>
  request.view.role === 'judge'
    ? (request.view as unknown as RoleView)
    : request.declaredRole === undefined
      ? request.view
      : ({ ...request.view, role: request.role } as RoleView);

/**
 * The reference played for one role, acting from the current state:
 * - planner: the reference plan (or, with a replanner, the first reasonable approach: see the constructor) with every
 *   argument written (the oracle knows what the reads will show);
 * - executor: a step's own args, or for a step left to it (args null) the reference call it stands for: the step
 *   whose description matches, else the first reference call of that tool not yet made successfully;
 * - replanner: the reference continuation — an edit that the reference does not make is reverted, then every
 *   reference step not yet done (checks rerun), with the reference's done_when; a stop where the reference stops;
 * - gate, agent, direct, reporter: the scripted model's fault-free reply on the reference alone.
 */
export class OracleModel implements ChatModel {
  readonly name = 'oracle';
  readonly deterministic = true;
  private readonly tasks: ReadonlyMap<string, ScriptedTask>;
  private readonly scripted: ScriptedModel;
  private readonly firstApproach: ScriptedModel;
  /** The plan the oracle planner plays, per task. */
  private readonly planned = new Map<string, ScriptedTask['reference']>();

  /**
   * `replans`: the strategy has a replanner. Then the oracle planner writes the task's first reasonable approach
   * (its naive trajectory) where it has one, as the scripted model does: before the first failure nothing observable
   * says that approach is wrong (seed 001: testing the memory note first "is a sensible opening"), and the reference
   * plan of such a task is what was learned from that failure. Without a replanner it writes the reference.
   */
  constructor(tasks: Iterable<ScriptedTask>, options: { replans: boolean } = { replans: false }) {
    const given = [...tasks];
    const list = given.map((task) => ({ id: task.id, reference: task.reference }));
    this.tasks = new Map(list.map((task) => [task.id, task]));
    this.scripted = new ScriptedModel(list);
    this.firstApproach = new ScriptedModel(options.replans ? given.map((task) => ({ id: task.id, reference: task.reference, naive: task.naive })) : list);
    for (const task of given) this.planned.set(task.id, (options.replans ? task.naive : undefined) ?? task.reference);
  }

  /**
   * Whether the oracle has no output of its own for this view and so does not intervene: an executor step whose
   * arguments the plan left to it (args null) that no reference call stands for. A stand-in bound to the executor's
   * contract carries out the step it was given; inventing arguments (or sending none, which "fixes" an episode by
   * never making the harmful edit) would be an intervention on the plan, not on the executor (issue 27, kind 5).
   */
  abstains(request: ChatRequest | RoleView): boolean {
    const view = 'schemaName' in request ? asModelView(request) : request;
    if (view.role !== 'executor' || view.step.args !== null) return false;
    const task = this.tasks.get(view.task_id);
    return task !== undefined && this.referenceCallFor(task, view.step, view.history) === undefined;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    if (request.view.role === 'judge') throw new Error('counterfactual oracle: it plays roles of a strategy, not the judge');
    return respond(this.decide(asModelView(request)));
  }

  decide(view: RoleView): unknown {
    const task = this.tasks.get(view.task_id);
    if (!task) throw new Error(`oracle: unknown task "${view.task_id}"`);
    const reference = task.reference;
    switch (view.role) {
      case 'planner': {
        const played = this.planned.get(view.task_id) ?? reference;
        // A copy: the scripted model's plan is shared (and frozen) by every episode that gets it.
        const plan = this.firstApproach.decide(view) as { steps: ReadonlyArray<{ args: unknown }> };
        return { ...plan, steps: plan.steps.map((step, i) => ({ ...step, args: step.args ?? played.steps[i]?.args ?? {} })) };
      }
      case 'executor': {
        const { step, history } = view;
        if (step.args !== null) return { tool: step.tool, args: step.args };
        return { tool: step.tool, args: this.referenceCallFor(task, step, history)?.args ?? {} };
      }
      case 'replanner':
        return this.continuation(task, view.plan as { revision: number }, view.history);
      case 'reporter': {
        // A reporter writes up what the steps showed (its contract): the reference's answer where the reference's work
        // was done and the steps showed the answer's values — whatever other step failed on the way — else that the
        // answer was not found: it does not know what no step looked at.
        const answer = reference.finish ?? reference.stop ?? '';
        const worked = reference.steps.filter(isWork).every((s) => view.history.some((o) => o.status === 'success' && sameTarget(s, o)));
        return worked && evidenced(answer, view.history, view.prompt) ? { answer } : { answer: 'Not done: what the steps showed does not answer the request.' };
      }
      default:
        return this.scripted.decide(view);
    }
  }

  /**
   * The reference call a step left to the executor stands for: the one with its description, else the first of its
   * tool not yet made whose target the description allows (a step that names files or commands names its target:
   * "Update tests/pricing.test.js to expect 107.09" is not the reference's edit of src/pricing.js; an edit of "the
   * expected strings in the test" is an edit of a test file). Undefined when none fits: then the oracle abstains.
   */
  private referenceCallFor(task: ScriptedTask, step: { tool: string; does: string }, history: readonly Observation[]): TrajectoryStep | undefined {
    const candidates = task.reference.steps.filter((s) => s.tool === step.tool);
    const named = namedTargets(step.does);
    // An edit "in the test" / "the expected strings" is an edit of a test file, whichever file it leaves unnamed.
    const ofTests = (step.tool === 'edit' || step.tool === 'write') && /\btests?\b|\bspecs?\b|\bexpect(?:ed|ations?)\b/i.test(step.does);
    const allows = (s: TrajectoryStep) =>
      named.length > 0 ? named.includes(callTarget(s.tool, s.args)) : !ofTests || TEST_PATH.test(String(s.args['path'] ?? ''));
    return (
      candidates.find((s) => describe(s) === step.does) ??
      candidates.find((s) => allows(s) && !history.some((o) => o.status === 'success' && sameCall(s.tool, s.args, o)))
    );
  }

  private continuation(task: ScriptedTask, plan: { revision: number }, history: readonly Observation[]): unknown {
    const reference = task.reference;
    if (reference.stop !== undefined) return { decision: 'stop', invalidated: '', assumptions: [], steps: [], message: reference.stop };
    const revision = plan.revision + 1;
    const reverts = history
      .filter((o) => o.tool === 'edit' && o.status === 'success' && !reference.steps.some((s) => sameCall(s.tool, s.args, o)))
      .map(
        (o): TrajectoryStep => ({
          tool: 'edit',
          args: { path: o.args['path'], old: o.args['new'], new: o.args['old'] },
          does: `Revert the edit of ${String(o.args['path'])}`,
          deferred: false,
        }),
      );
    const remaining = reference.steps.filter((s) => isCheckRun(s) || !history.some((o) => o.status === 'success' && sameCall(s.tool, s.args, o)));
    const steps = [...reverts.reverse(), ...remaining].map((s, i) => ({
      id: `o${revision}.${i + 1}`,
      does: describe(s),
      tool: s.tool,
      args: s.args,
      depends_on: i === 0 ? [] : [`o${revision}.${i}`],
      expect: s.expect ?? (s.tool === 'run' ? 'exit 0' : 'success'),
      side_effect: sideEffect(s),
    }));
    return {
      decision: 'revise',
      invalidated: `oracle revision ${revision}: the plan so far does not meet the task`,
      assumptions: reference.assumption ? [reference.assumption] : [],
      steps,
      done_when: reference.done_when ?? [],
      message: '',
    };
  }
}
