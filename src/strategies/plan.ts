// Plans as data: the step state, validation in code, dependency order, and plan diffs.
import { getTool, type ToolDefinition } from '../tools/index.js';
import { canonicalJson, isFrozenFlat, type PlanDiff, type PlanSnapshot } from '../records/index.js';
import type { PlanReply, PlanStep } from './replies.js';

/** Limits on a plan's size (seed 001: steps are one tool call each; 1–12 per plan). */
export const MIN_PLAN_STEPS = 1;
export const MAX_PLAN_STEPS = 12;

export type StepStatus = 'pending' | 'done' | 'failed' | 'skipped';

export interface StepState extends PlanStep {
  status: StepStatus;
  /** Plan revision that introduced the step (0 = the first plan). */
  revision: number;
}

/** The plan state the harness owns (seed 001's PlanState): the model sees it, never mutates it. */
export interface PlanState {
  goal: string;
  done_when: PlanReply['done_when'];
  assumptions: string[];
  steps: StepState[];
  revision: number;
}

/**
 * What the tool's schema finds wrong with `args` ('' when they are valid), as `field: message` joined by commas. The
 * answer for frozen plain args of data properties holding primitives — a reply value every episode with that reply shares
 * (call-role's parse cache freezes them) — is kept with the args: they cannot change.
 */
function argProblems(tool: ToolDefinition, args: object): string {
  const kept = checkedArgs.get(args);
  if (kept !== undefined && kept.tool === tool) return kept.problems;
  const parsed = tool.args.safeParse(args);
  const problems = parsed.success ? '' : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(args)'}: ${issue.message}`).join(', ');
  // zod reads inherited properties too: isFrozenFlat asks for Object's prototype (or none).
  if (isFrozenFlat(args)) checkedArgs.set(args, { tool, problems });
  return problems;
}

/** argProblems' answers for frozen args of primitives, by args object. */
const checkedArgs = new WeakMap<object, { tool: ToolDefinition; problems: string }>();

/**
 * Checks a list of new steps in code: 1–12 steps, unique ids (also against `existingIds`), known tools,
 * args valid for the tool when given, dependencies that exist (new or existing), no cycles.
 * Returns human-readable problems; empty when valid.
 */
export function validateSteps(steps: readonly PlanStep[], existingIds: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  if (steps.length < MIN_PLAN_STEPS || steps.length > MAX_PLAN_STEPS) {
    problems.push(`a plan has ${MIN_PLAN_STEPS}-${MAX_PLAN_STEPS} steps, got ${steps.length}`);
  }
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id) || existingIds.has(step.id)) problems.push(`duplicate step id "${step.id}"`);
    ids.add(step.id);
    const tool = getTool(step.tool);
    if (!tool) problems.push(`step ${step.id}: unknown tool "${step.tool}"`);
    else if (step.args !== null) {
      const fields = argProblems(tool, step.args);
      if (fields !== '') problems.push(`step ${step.id}: bad args for ${step.tool}: ${fields}`);
    }
  }
  for (const step of steps) {
    for (const dep of step.depends_on) {
      if (!ids.has(dep) && !existingIds.has(dep)) problems.push(`step ${step.id} depends on unknown step "${dep}"`);
      if (dep === step.id) problems.push(`step ${step.id} depends on itself`);
    }
  }
  const cycle = findCycle(steps);
  if (cycle) problems.push(`dependency cycle: ${cycle.join(' -> ')}`);
  return problems;
}

/** Validates a whole plan reply (the planner's). */
export function validatePlan(plan: PlanReply): string[] {
  return validateSteps(plan.steps);
}

function findCycle(steps: readonly PlanStep[]): string[] | undefined {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const mark = state.get(id);
    if (mark === 'done') return undefined;
    if (mark === 'visiting') return [...path.slice(path.indexOf(id)), id];
    const step = byId.get(id);
    if (!step) return undefined;
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of step.depends_on) {
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const step of steps) {
    const found = visit(step.id);
    if (found) return found;
  }
  return undefined;
}

/** Steps whose dependencies are all done, in plan order. */
export function readySteps(plan: PlanState): StepState[] {
  const status = new Map(plan.steps.map((step) => [step.id, step.status]));
  return plan.steps.filter((step) => step.status === 'pending' && step.depends_on.every((dep) => status.get(dep) === 'done'));
}

/** Pending steps that can never run because a dependency failed or was skipped. */
export function blockedSteps(plan: PlanState): StepState[] {
  const status = new Map(plan.steps.map((step) => [step.id, step.status]));
  const blocked: StepState[] = [];
  let changed = true;
  while (changed) {
    changed = false;
    for (const step of plan.steps) {
      if (step.status !== 'pending' || blocked.includes(step)) continue;
      if (step.depends_on.some((dep) => status.get(dep) === 'failed' || status.get(dep) === 'skipped' || !status.has(dep))) {
        blocked.push(step);
        status.set(step.id, 'skipped');
        changed = true;
      }
    }
  }
  return blocked;
}

/**
 * Diff between the remaining steps of the old plan and the steps of the new one (seed 003: every revision
 * emits `{removed, added, revised}`; revised = same id, different tool, args or dependencies).
 */
export function planDiff(oldSteps: readonly PlanStep[], newSteps: readonly PlanStep[]): PlanDiff {
  const oldById = new Map(oldSteps.map((step) => [step.id, step]));
  const newIds = new Set(newSteps.map((step) => step.id));
  const signature = (step: PlanStep): string => canonicalJson([step.tool, step.args, step.depends_on]);
  return {
    removed: oldSteps.filter((step) => !newIds.has(step.id)).map((step) => step.id),
    added: newSteps.filter((step) => !oldById.has(step.id)).map((step) => step.id),
    revised: newSteps
      .filter((step) => {
        const before = oldById.get(step.id);
        return before !== undefined && signature(before) !== signature(step);
      })
      .map((step) => step.id),
  };
}

/** Paths a step writes (for serialising steps that touch the same file), when known from its args. */
export function writtenPath(step: PlanStep): string | undefined {
  if ((step.tool === 'edit' || step.tool === 'write') && step.args && typeof step.args['path'] === 'string') return step.args['path'];
  return undefined;
}

/** Plain-data snapshot of the plan for views and trace events. */
export function planSnapshot(plan: PlanState): PlanSnapshot {
  return {
    goal: plan.goal,
    done_when: plan.done_when,
    assumptions: plan.assumptions,
    revision: plan.revision,
    steps: plan.steps.map((step) => ({ ...step })),
  };
}
