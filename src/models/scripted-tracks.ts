// Which trajectory the scripted model is on (naive or reference) and what comes next, derived from history alone.
import type { Trajectory, TrajectoryStep } from '../records/index.js';
import { canonicalJson } from '../records/index.js';
import type { Observation } from './types.js';

/** The trajectories the scripted model plays for one task. */
export interface ScriptedTask {
  id: string;
  reference: Trajectory;
  naive?: Trajectory | undefined;
}

export type Track = 'naive' | 'reference';

export interface Position {
  track: Track;
  trajectory: Trajectory;
  /** The steps still to play on this track (on the reference after a switch: without repeated edits). */
  remaining: TrajectoryStep[];
  /** Whether a failure was observed on the naive track (the reason for switching). */
  switched: boolean;
}

const SIDE_EFFECT_TOOLS = new Set(['edit', 'write']);

/** An observation the scripted model reads as "this approach failed". */
export function observedFailure(observation: Observation): boolean {
  return observation.status !== 'success';
}

const sameCall = (step: TrajectoryStep, observation: Observation): boolean =>
  step.tool === observation.tool && canonicalJson(step.args) === canonicalJson(observation.args);

/**
 * The reference steps left after switching: edits and writes that already succeeded in this episode are
 * not replayed (they would fail: their old text is gone); everything else is.
 */
export function referenceAfterSwitch(task: ScriptedTask, history: readonly Observation[]): TrajectoryStep[] {
  const succeeded = history.filter((o) => o.status === 'success' && SIDE_EFFECT_TOOLS.has(o.tool));
  return task.reference.steps.filter((step) => !(SIDE_EFFECT_TOOLS.has(step.tool) && succeeded.some((o) => sameCall(step, o))));
}

/**
 * Where a sequential player (direct, ReAct) stands after `history`: it plays the naive trajectory until
 * it observes a failure, then the reference (DESIGN.md, Models: scripted).
 */
export function sequentialPosition(task: ScriptedTask, history: readonly Observation[]): Position {
  const naive = task.naive;
  if (naive === undefined) {
    return { track: 'reference', trajectory: task.reference, remaining: task.reference.steps.slice(history.length), switched: false };
  }
  const failedAt = history.findIndex(observedFailure);
  if (failedAt < 0) {
    return { track: 'naive', trajectory: naive, remaining: naive.steps.slice(history.length), switched: false };
  }
  const before = history.slice(0, failedAt + 1);
  const reference = referenceAfterSwitch(task, before);
  const played = history.length - (failedAt + 1);
  return { track: 'reference', trajectory: task.reference, remaining: reference.slice(played), switched: true };
}

/** A short description of a trajectory step, used as the plan step's `does` when none is written. */
export function describeStep(step: TrajectoryStep): string {
  if (step.does) return step.does;
  const args = step.args;
  switch (step.tool) {
    case 'run':
      return `Run \`${String(args['cmd'])}\``;
    case 'read':
      return `Read ${String(args['path'])}`;
    case 'edit':
      return `Edit ${String(args['path'])}`;
    case 'write':
      return `Write ${String(args['path'])}`;
    case 'search':
      return `Search for ${JSON.stringify(args['text'])}`;
    case 'git_log':
      return args['path'] ? `List commits touching ${String(args['path'])}` : 'List recent commits';
    case 'git_show':
      return 'Show a commit';
    default:
      return `Call ${step.tool}`;
  }
}
