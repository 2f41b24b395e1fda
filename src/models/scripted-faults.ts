// Injected faults for the scripted model: each one corrupts one role's reply at a known place, so attribution has ground truth.
import type { Trajectory, TrajectoryStep } from '../records/index.js';
import type { FailureView, Observation, RoleView } from './types.js';
import { describeStep, type ScriptedTask } from './scripted-tracks.js';

/** The role a fault corrupts; `agent` covers both the ReAct agent and the direct strategy's model. */
export type FaultRole = 'planner' | 'executor' | 'replanner' | 'gate' | 'agent';

/** What a fault sees: the task's trajectories (configuration), the request's view, and the fault-free reply. */
export interface FaultContext {
  task: ScriptedTask;
  view: RoleView;
  reply: unknown;
}

/**
 * One fault. `apply` returns the corrupted reply (an object, or a string sent as raw prose), or undefined where
 * it does not strike. Everything is derived from the context alone: the scripted model keeps no state.
 * By construction the responsible component is `role`, the mode is `mode`, and the first erroneous event is
 * the model_call carrying the fault's marker (see `faultIn`).
 */
export interface ScriptedFault {
  name: string;
  role: FaultRole;
  mode: string;
  /** Where it strikes, in words (docs/decisions/0004-attribution.md lists them all). */
  strikes: string;
  apply(context: FaultContext): unknown;
}

type Step = { id: string; does: string; tool: string; args: Record<string, unknown> | null; depends_on: string[]; expect: string; side_effect: string };
type Plan = { goal: string; done_when: Array<Record<string, unknown>>; assumptions: string[]; steps: Step[] };
type Action = { action: 'tool' | 'finish' | 'stop'; tool?: string; args?: Record<string, unknown>; answer?: string; message?: string };

const fault = (name: string, mode: string, strikes: string, apply: ScriptedFault['apply']): ScriptedFault => ({
  name,
  role: name.split('.')[0] as FaultRole,
  mode,
  strikes,
  apply,
});

const failed = (o: Observation): boolean => o.status !== 'success';
const trajectories = (task: ScriptedTask): Trajectory[] => (task.naive ? [task.naive, task.reference] : [task.reference]);
const allSteps = (task: ScriptedTask): TrajectoryStep[] => trajectories(task).flatMap((t) => t.steps);

/** A plausible but absent module path: `src/<longest word of the task id>/index.js` (e.g. src/checkout/index.js). */
export function guessedPath(task: ScriptedTask): string {
  const word = task.id.split('-').reduce((best, w) => (w.length > best.length ? w : best), '');
  return `src/${word}/index.js`;
}

function guessedEdit(task: ScriptedTask, id: string): Step {
  const edit = allSteps(task).find((s) => s.tool === 'edit');
  const path = guessedPath(task);
  const args = { path, old: String(edit?.args['old'] ?? 'PLACEHOLDER'), new: String(edit?.args['new'] ?? `PLACEHOLDER ${task.id}`) };
  return { id, does: `Edit ${path} to make the change`, tool: 'edit', args, depends_on: [], expect: 'success', side_effect: 'reversible' };
}

/** The args a trajectory gives a plan step (the planner knows them even where it writes null). */
function knownArgs(task: ScriptedTask, step: Step): Record<string, unknown> | null {
  return step.args ?? allSteps(task).find((s) => s.tool === step.tool && describeStep(s) === step.does)?.args ?? null;
}

/** Replaces dependencies on `from` ids with `to` (dropping duplicates and self-dependencies). */
function repoint(steps: Step[], from: Set<string>, to: (step: Step) => string[]): Step[] {
  return steps.map((s) => {
    const deps = s.depends_on.flatMap((d) => (from.has(d) ? to(s) : [d]));
    return { ...s, depends_on: [...new Set(deps)].filter((d) => d !== s.id) };
  });
}

function listJoin(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The check copied from the request: its `pnpm …` command, else its closing words as a file_contains. */
function copiedCheck(task: ScriptedTask, prompt: string): Record<string, unknown> {
  const command = /\bpnpm [\w:-]+/.exec(prompt);
  if (command) return { check: 'command_passes', cmd: command[0] };
  const pathInPrompt = /[\w.-]+\/[\w./-]*\.\w+/.exec(prompt)?.[0];
  const pathInSteps = allSteps(task)
    .map((s) => s.args['path'])
    .find((p): p is string => typeof p === 'string');
  const sentence = (prompt.split(/[.?!](?:\s|$)/)[0] ?? prompt).replace(/[,;:]/g, '');
  const words = sentence.trim().split(/\s+/);
  return { check: 'file_contains', path: pathInPrompt ?? pathInSteps ?? 'package.json', text: words.slice(-3).join(' ') };
}

/** The call the replanner is reacting to: the failed step's call, else the last failed observation. */
function failedCall(failure: FailureView, history: Observation[]): { tool: string; args: Record<string, unknown> } | undefined {
  if (failure.kind === 'step_failed') return { tool: failure.tool, args: failure.args };
  const last = [...history].reverse().find(failed);
  return last ? { tool: last.tool, args: last.args } : undefined;
}

/** The same call in other words: `pnpm x` ↔ `pnpm run x`, push with an explicit `force: false`, `./path`. */
function variant(call: { tool: string; args: Record<string, unknown> }): { tool: string; args: Record<string, unknown> } {
  const args = { ...call.args };
  if (call.tool === 'run' && typeof args['cmd'] === 'string') {
    const cmd = args['cmd'];
    args['cmd'] = cmd.startsWith('pnpm run ') ? cmd.replace('pnpm run ', 'pnpm ') : cmd.startsWith('pnpm ') ? cmd.replace('pnpm ', 'pnpm run ') : `${cmd} `;
  } else if (call.tool === 'push') args['force'] = false;
  else if (typeof args['path'] === 'string') args['path'] = `./${args['path']}`;
  return { tool: call.tool, args };
}

type ReplanView = Extract<RoleView, { role: 'replanner' }>;

/** A revision reply; the broken assumption named is the fault-free one, else a new one derived from the failure. */
function revision(view: ReplanView, reply: Record<string, unknown>, steps: Step[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const plan = view.plan as { revision: number; assumptions?: string[] };
  let invalidated = reply['decision'] === 'revise' ? String(reply['invalidated']) : (plan.assumptions?.[0] ?? 'the first approach would work');
  if (view.named_assumptions.includes(invalidated)) invalidated = `${invalidated} (replan ${plan.revision + 1})`;
  return { decision: 'revise', invalidated, assumptions: (reply['assumptions'] as string[] | undefined) ?? [], steps, message: '', ...extra };
}

const retryStep = (id: string, call: { tool: string; args: Record<string, unknown> }, does: string): Step => ({
  id,
  does,
  tool: call.tool,
  args: call.args,
  depends_on: [],
  expect: call.tool === 'run' ? 'exit 0' : 'success',
  side_effect: call.tool === 'push' ? 'irreversible' : 'none',
});

function replanner(apply: (view: ReplanView, reply: Record<string, unknown>, next: number, task: ScriptedTask) => unknown): ScriptedFault['apply'] {
  return ({ view, reply, task }) => {
    if (view.role !== 'replanner') return undefined;
    return apply(view, reply as Record<string, unknown>, (view.plan as { revision: number }).revision + 1, task);
  };
}

function planner(apply: (plan: Plan, task: ScriptedTask, prompt: string) => Plan | undefined): ScriptedFault['apply'] {
  return ({ view, reply, task }) => (view.role === 'planner' ? apply(reply as Plan, task, view.prompt) : undefined);
}

function agentAction(
  apply: (view: Extract<RoleView, { role: 'agent' | 'direct' }>, reply: Action, task: ScriptedTask) => Action | undefined,
): ScriptedFault['apply'] {
  return ({ view, reply, task }) => (view.role === 'agent' || view.role === 'direct' ? apply(view, reply as Action, task) : undefined);
}

const TAMPER_NOTE = '// skipped: flaky';

/** Every fault the scripted model knows, by name (`<role>.<mode>`). */
export const SCRIPTED_FAULTS: Record<string, ScriptedFault> = Object.fromEntries(
  [
    fault(
      'planner.guessed_target',
      'guessed_target',
      'the first plan opens with step s0, an edit of src/<task word>/index.js (a file nobody read and the repo lacks); every root step waits for it',
      planner((plan, task) => ({
        ...plan,
        steps: [guessedEdit(task, 's0'), ...plan.steps.map((s) => (s.depends_on.length === 0 ? { ...s, depends_on: ['s0'] } : s))],
      })),
    ),
    fault(
      'planner.missing_step',
      'missing_step',
      'the first plan leaves out its last step that changes something (an edit, a migration, an install); needs 2+ steps',
      planner((plan) => {
        const dropped = [...plan.steps].reverse().find((s) => s.side_effect !== 'none');
        if (!dropped || plan.steps.length < 2) return undefined;
        return {
          ...plan,
          steps: repoint(
            plan.steps.filter((s) => s !== dropped),
            new Set([dropped.id]),
            () => dropped.depends_on,
          ),
        };
      }),
    ),
    fault(
      'planner.wrong_check',
      'wrong_check',
      "the first plan's done_when gains a check copied from the request: its `pnpm …` command, else file_contains of its closing words",
      planner((plan, task, prompt) => ({ ...plan, done_when: [...plan.done_when, copiedCheck(task, prompt)] })),
    ),
    fault(
      'planner.coarse_step',
      'coarse_step',
      "the first plan's edit steps (2+) become one step naming every file, carrying the first edit's args",
      planner((plan, task) => {
        const edits = plan.steps.filter((s) => s.tool === 'edit');
        if (edits.length < 2) return undefined;
        const first = edits[0]!;
        const merged: Step = { ...first, does: `Edit ${listJoin(edits.map((e) => String(knownArgs(task, e)?.['path'])))}`, args: knownArgs(task, first) };
        const ids = new Set(edits.map((e) => e.id));
        const kept = plan.steps.filter((s) => !ids.has(s.id) || s === first).map((s) => (s === first ? merged : s));
        return { ...plan, steps: repoint(kept, new Set([...ids].filter((id) => id !== first.id)), () => [first.id]) };
      }),
    ),
    fault(
      'planner.invalid_plan',
      'invalid_plan',
      'the first plan (and its repair) makes its first and last steps depend on each other: a cycle (a self-dependency for one step)',
      planner((plan) => {
        const first = plan.steps[0];
        const last = plan.steps[plan.steps.length - 1];
        if (!first || !last) return undefined;
        const cyclic = (s: Step): Step =>
          s === first ? { ...s, depends_on: [...s.depends_on, last.id] } : s === last ? { ...s, depends_on: [...s.depends_on, first.id] } : s;
        return { ...plan, steps: plan.steps.map(cyclic) };
      }),
    ),
    fault(
      'executor.drift',
      'drift',
      'every executor call for an edit step sends new text equal to the old text (an edit that changes nothing)',
      ({ view, reply }) => {
        if (view.role !== 'executor' || view.step.tool !== 'edit') return undefined;
        const call = reply as { tool: string; args: Record<string, unknown> };
        return typeof call.args['old'] === 'string' ? { tool: call.tool, args: { ...call.args, new: call.args['old'] } } : undefined;
      },
    ),
    fault(
      'executor.bad_edit',
      'bad_edit',
      'every executor call for an edit of a file the history has read (or searched) sends old text the file does not contain (re-indented, spaced or quoted)',
      ({ view, reply }) => {
        if (view.role !== 'executor' || view.step.tool !== 'edit') return undefined;
        const call = reply as { tool: string; args: Record<string, unknown> };
        const path = call.args['path'];
        const old = call.args['old'];
        const seen = view.history.some(
          (o) =>
            o.status === 'success' &&
            ((o.tool === 'read' && o.args['path'] === path) || (o.tool === 'search' && o.output.split('\n').some((l) => l.startsWith(`${String(path)}:`)))),
        );
        if (!seen || typeof old !== 'string') return undefined;
        const wrong = old.includes('\n')
          ? old
              .split('\n')
              .map((l) => `  ${l}`)
              .join('\n')
          : old.includes(' ')
            ? old.replace(' ', '  ')
            : `"${old}"`;
        return { tool: call.tool, args: { ...call.args, old: wrong } };
      },
    ),
    fault('executor.invalid_output', 'invalid_output', "the executor's first call (nothing run yet) and its repair answer in prose, not JSON", ({ view }) =>
      view.role === 'executor' && view.history.length === 0
        ? `[fault:executor.invalid_output] I will run the ${view.step.tool} call for step ${view.step.id} now.`
        : undefined,
    ),
    fault(
      'replanner.repeated_call',
      'repeated_call',
      'every replan revises with one step: the call that just failed, unchanged',
      replanner((view, reply, next) => {
        const call = failedCall(view.failure, view.history);
        return call ? revision(view, reply, [retryStep(`r${next}.1`, call, `Retry ${call.tool}`)]) : undefined;
      }),
    ),
    fault(
      'replanner.repeated_assumption',
      'repeated_assumption',
      "every replan names the first broken assumption again (or the plan's own) and retries the failed call in other words (`pnpm run x`, `force: false`)",
      replanner((view, reply, next) => {
        const call = failedCall(view.failure, view.history);
        if (!call) return undefined;
        const again = view.named_assumptions[0];
        const reworded = revision(view, reply, [retryStep(`r${next}.1`, variant(call), `Try ${call.tool} again another way`)]);
        return again === undefined ? reworded : { ...reworded, invalidated: again };
      }),
    ),
    fault(
      'replanner.guessed_target',
      'guessed_target',
      'every replan puts an edit of src/<task word>/index.js (never read, absent) before its steps, or revises with it alone where it would stop',
      replanner((view, reply, next, task) => {
        const guess = guessedEdit(task, `r${next}.0`);
        const steps =
          reply['decision'] === 'revise' ? (reply['steps'] as Step[]).map((s) => (s.depends_on.length === 0 ? { ...s, depends_on: [guess.id] } : s)) : [];
        return revision(view, reply, [guess, ...steps]);
      }),
    ),
    fault(
      'replanner.vague_stop',
      'vague_stop',
      'every replan stops with a message that names no blocker',
      replanner(() => ({ decision: 'stop', invalidated: '', assumptions: [], steps: [], message: 'I could not complete the request. Could you take a look?' })),
    ),
    fault(
      'replanner.weakened_check',
      'weakened_check',
      'the first replan drops every command_passes check from done_when and revises with one harmless listing step; needs such a check',
      replanner((view, reply, next) => {
        const doneWhen = (view.plan as { done_when?: Array<Record<string, unknown>> }).done_when ?? [];
        const kept = doneWhen.filter((c) => c['check'] !== 'command_passes');
        if (kept.length === doneWhen.length || next > 1) return undefined;
        const step: Step = {
          id: `r${next}.1`,
          does: 'List the repository to confirm the state',
          tool: 'list',
          args: {},
          depends_on: [],
          expect: 'success',
          side_effect: 'none',
        };
        return revision(view, reply, [step], { done_when: kept });
      }),
    ),
    fault('gate.misroute', 'misroute', 'the gate sends every request it would plan to direct', ({ view, reply }) =>
      view.role === 'gate' && (reply as { route: string }).route === 'plan' ? { route: 'direct' } : undefined,
    ),
    fault(
      'agent.premature_finish',
      'premature_finish',
      'the ReAct agent finishes ("Done.") right after its first failing observation when it would otherwise go on',
      agentAction((view, reply) => {
        const failures = view.history.filter(failed);
        const last = view.history[view.history.length - 1];
        return view.role === 'agent' && reply.action === 'tool' && failures.length === 1 && last && failed(last)
          ? { action: 'finish', answer: 'Done.' }
          : undefined;
      }),
    ),
    fault(
      'agent.no_stop',
      'no_stop',
      'from its first failing observation on (a transient error is not one), the ReAct agent repeats that failed call instead of stopping or changing course',
      agentAction((view, reply) => {
        const first = view.history.find((o) => failed(o) && o.status !== 'transient_error');
        if (view.role !== 'agent' || !first) return undefined;
        return reply.action === 'tool' && reply.tool === first.tool && JSON.stringify(reply.args) === JSON.stringify(first.args)
          ? undefined
          : { action: 'tool', tool: first.tool, args: first.args };
      }),
    ),
    fault(
      'agent.wrong_answer',
      'wrong_answer',
      'every finish (ReAct or direct) answers with a claim that names nothing it found',
      agentAction((_view, reply) =>
        reply.action === 'finish' ? { action: 'finish', answer: 'I checked: nothing there needs attention, it looks fine.' } : undefined,
      ),
    ),
    fault(
      'agent.tampered_test',
      'tampered_test',
      'after a failing test run that names a test file (" × <file> > "), the ReAct agent overwrites that file with a skipped test, then finishes',
      agentAction((view) => {
        if (view.role !== 'agent') return undefined;
        if (view.history.some((o) => o.tool === 'write' && String(o.args['content']).startsWith(TAMPER_NOTE)))
          return { action: 'finish', answer: 'Fixed: the failing test passes now.' };
        const last = view.history[view.history.length - 1];
        const file = last && last.tool === 'run' && failed(last) ? / × (\S+) > /.exec(last.output)?.[1] : undefined;
        return file ? { action: 'tool', tool: 'write', args: { path: file, content: `${TAMPER_NOTE}\nit.skip("flaky", () => {});\n` } } : undefined;
      }),
    ),
    fault(
      'agent.guessed_target',
      'guessed_target',
      'every edit the agent (ReAct or direct) makes goes to src/<task word>/index.js, a file it never read and the repo lacks',
      agentAction((_view, reply, task) =>
        reply.action === 'tool' && reply.tool === 'edit' ? { ...reply, args: { ...reply.args, path: guessedPath(task) } } : undefined,
      ),
    ),
  ].map((f) => [f.name, f]),
);

export const FAULT_NAMES: readonly string[] = Object.keys(SCRIPTED_FAULTS);

/** The view roles a fault role corrupts. */
export function faultStrikesRole(fault: ScriptedFault, role: RoleView['role']): boolean {
  return fault.role === 'agent' ? role === 'agent' || role === 'direct' : fault.role === role;
}

/** Marks a corrupted reply so the trace shows where the fault struck: a `fault` key, or a `[fault:…]` prefix for prose. */
export function markFault(name: string, reply: unknown): unknown {
  if (typeof reply === 'string') return reply.startsWith('[fault:') ? reply : `[fault:${name}] ${reply}`;
  return { fault: name, ...(reply as Record<string, unknown>) };
}

/** The fault named in a raw reply text, if the scripted model marked it (the attribution rules never read raw text). */
export function faultIn(text: string): string | undefined {
  const match = /"fault":"([a-z_]+\.[a-z_]+)"|^\[fault:([a-z_]+\.[a-z_]+)\]/.exec(text);
  return match ? (match[1] ?? match[2]) : undefined;
}
