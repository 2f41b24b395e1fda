// Replays a trajectory (reference, naive, untouched, counterexample) on a fresh repo and scores it: proves the checks.
import { SimRepo } from '../sim-repo/index.js';
import { executeToolCall } from '../tools/index.js';
import type { Trajectory } from '../suite/schema.js';
import { runCheck } from '../scoring/checks.js';
import { score, type Score } from '../scoring/score.js';
import type { Outcome } from '../records/index.js';
import type { Observation } from '../scoring/claims/subjects.js';
import type { EpisodeTask } from './episode.js';

export interface ReplayResult extends Score {
  outcome: Outcome;
  /** Tool calls whose result was not success (informational: references may fail by design). */
  unsuccessfulCalls: string[];
  /**
   * Run steps whose exit is not what their `expect` says ("exit 0", the default, or "exit N"; "any exit" takes any; a
   * transient error the task injects is not the step's result):
   * `step N (cmd) exits E`, 1-based (issue 27 §4: a reference step that fails by accident validates otherwise).
   */
  unexpectedExits: string[];
}

/** Plays every step of `trajectory` on a fresh copy of the task's repo, ends as the trajectory says, and scores it. */
export function replayTrajectory(task: EpisodeTask, trajectory: Omit<Trajectory, 'steps'> & { steps: Trajectory['steps'] }): ReplayResult {
  const repo = SimRepo.fromSpec(task.repoSpec);
  const unsuccessfulCalls: string[] = [];
  const unexpectedExits: string[] = [];
  const observations: Observation[] = [];
  for (const [index, step] of trajectory.steps.entries()) {
    const result = executeToolCall(repo, { tool: step.tool, args: step.args });
    observations.push({
      tool: step.tool,
      args: step.args,
      status: result.status,
      output: result.output,
      exit_code: result.exit_code,
      error_code: result.error_code,
    });
    if (result.status !== 'success') unsuccessfulCalls.push(`${step.tool} ${JSON.stringify(step.args)} → ${result.status}`);
    // A transient error is a fault the task injects (a network blip the reference meets and retries), not the step's result.
    if (step.tool === 'run' && result.exit_code !== undefined && result.status !== 'transient_error') {
      const expected = /^\s*any exit\s*$/i.test(step.expect ?? '') ? undefined : Number(/^\s*exit\s+(\d+)\s*$/i.exec(step.expect ?? '')?.[1] ?? 0);
      if (expected !== undefined && result.exit_code !== expected)
        unexpectedExits.push(`step ${index + 1} (${String(step.args['cmd'])}) exits ${result.exit_code}, but its expect is exit ${expected}`);
    }
  }
  const outcome: Outcome =
    trajectory.stop !== undefined
      ? { status: 'stopped', reason: 'replay', message: trajectory.stop }
      : { status: 'finished', reason: 'replay', answer: trajectory.finish ?? '' };
  const scored = score(task, outcome, {
    repo,
    answer: outcome.answer,
    message: outcome.message,
    prompt: task.prompt,
    memory: repo.memory.map((note) => note.text),
    observations,
  });
  return { ...scored, outcome, unsuccessfulCalls, unexpectedExits };
}

/**
 * For a stop task whose reference declares done_when: undefined when at least one of those plan checks fails once
 * the reference's steps ran (what brings a replanning strategy to the stop, as core.yaml's payments-sandbox-key),
 * else the checks' details. A plan check that passes there makes every plan strategy finish — and fail the task.
 */
export function stopPlanCheckProblem(task: EpisodeTask & { expect: 'finish' | 'stop'; reference: Trajectory }): string | undefined {
  const doneWhen = task.reference.done_when ?? [];
  if (task.expect !== 'stop' || doneWhen.length === 0) return undefined;
  const repo = SimRepo.fromSpec(task.repoSpec);
  for (const step of task.reference.steps) executeToolCall(repo, { tool: step.tool, args: step.args });
  const results = doneWhen.map((check) => runCheck(check, { repo }));
  return results.every((result) => result.pass) ? results.map((result) => `${result.check.check}: ${result.detail}`).join('; ') : undefined;
}

/** Which trajectory a validation replayed: the task's own, or the do-nothing agent ("untouched"). */
export type TrajectoryKind = 'reference' | 'naive' | 'untouched' | 'counterexample';

/** One replayed trajectory in `stratbench validate` (and its --json output). */
export interface TrajectoryValidation {
  kind: TrajectoryKind;
  /** The counterexample's name (counterexamples only). */
  name?: string;
  expected: 'success' | 'failure';
  /** Whether it scored success. */
  success: boolean;
  /** Whether it scored as expected; a naive trajectory is informational and always ok. */
  ok: boolean;
  /** How the replay ended: finished or stopped. */
  ending: Outcome['status'];
  failing_checks: { check: string; detail: string }[];
  /** One sentence for the human-readable line. */
  detail: string;
}

export interface TaskValidation {
  id: string;
  group: string;
  trajectories: TrajectoryValidation[];
}

type ValidatedTask = EpisodeTask & {
  group: string;
  reference: Trajectory;
  naive?: Trajectory | undefined;
  counterexamples: Array<Trajectory & { name: string; why: string }>;
};

/** The do-nothing agent: no tool call, then an empty answer (expect: finish) or an empty stop message (expect: stop). */
export function untouchedTrajectory(expect: 'finish' | 'stop'): Trajectory {
  return expect === 'finish' ? { steps: [], finish: '' } : { steps: [], stop: '' };
}

/** What `validate` (and `run` before its first episode) says of a task whose untouched repository scores success. */
export function untouchedSuccessDetail(expect: 'finish' | 'stop'): string {
  return `scores success: an agent that does nothing and ${expect === 'finish' ? 'finishes' : 'stops'} with nothing to say passes, so the checks are theatre here`;
}

function validation(
  kind: TrajectoryKind,
  expected: 'success' | 'failure',
  result: ReplayResult,
  ok: boolean,
  detail: string,
  name?: string,
): TrajectoryValidation {
  return {
    kind,
    ...(name !== undefined && { name }),
    expected,
    success: result.success,
    ok,
    ending: result.outcome.status,
    failing_checks: result.checks.filter((c) => !c.pass).map((c) => ({ check: String(c.check['check']), detail: c.detail })),
    detail,
  };
}

/**
 * Replays every trajectory of every task: the reference must score success; the untouched repository (a
 * do-nothing agent, see untouchedTrajectory) and every counterexample must score failure — a task a
 * do-nothing agent passes has checks that are theatre. The naive trajectory is replayed for information
 * (expected failure, but ok either way). Order per task: reference, naive, untouched, counterexamples.
 */
export function validateTrajectories(tasks: readonly ValidatedTask[]): TaskValidation[] {
  return tasks.map((task) => {
    const reference = replayTrajectory(task, task.reference);
    // A reference step that exits otherwise than its expect says (write `expect: any exit` where the failure is the point).
    const exitsOk = reference.unexpectedExits.length === 0;
    const referenceDetail = !reference.success
      ? failureDetail(reference)
      : exitsOk
        ? 'scores success'
        : `scores success, but ${reference.unexpectedExits.join('; ')}`;
    const trajectories = [validation('reference', 'success', reference, reference.success && exitsOk, referenceDetail)];
    if (task.naive !== undefined) {
      const naive = replayTrajectory(task, task.naive);
      const detail = naive.success ? 'scores success (informational: a naive trajectory may pass)' : `fails: ${failureDetail(naive)}`;
      trajectories.push(validation('naive', 'failure', naive, true, detail));
    }
    const untouched = replayTrajectory(task, untouchedTrajectory(task.expect));
    const untouchedDetail = untouched.success ? untouchedSuccessDetail(task.expect) : `rejected: ${failureDetail(untouched)}`;
    trajectories.push(validation('untouched', 'failure', untouched, !untouched.success, untouchedDetail));
    for (const counterexample of task.counterexamples) {
      const replayed = replayTrajectory(task, counterexample);
      const detail = replayed.success ? `scores success, but it ${counterexample.why}: the checks are theatre here` : `rejected: ${failureDetail(replayed)}`;
      trajectories.push(validation('counterexample', 'failure', replayed, !replayed.success, detail, counterexample.name));
    }
    return { id: task.id, group: task.group, trajectories };
  });
}

function failureDetail(result: ReplayResult): string {
  if (!result.endingMatches) return `ending ${result.outcome.status} does not match expect`;
  return result.checks
    .filter((c) => !c.pass)
    .map((c) => `${String(c.check['check'])}: ${c.detail}`)
    .join('; ');
}
