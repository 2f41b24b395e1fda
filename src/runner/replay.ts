// Replays a recorded trajectory (reference, naive, counterexample) on a fresh repo and scores it: proves the checks.
import { SimRepo } from '../sim-repo/index.js';
import { executeToolCall } from '../tools/index.js';
import type { Trajectory } from '../suite/schema.js';
import { score, type Score } from '../scoring/score.js';
import type { Outcome } from './record.js';
import type { EpisodeTask } from './episode.js';

export interface ReplayResult extends Score {
  outcome: Outcome;
  /** Tool calls whose result was not success (informational: references may fail by design). */
  unsuccessfulCalls: string[];
}

/** Plays every step of `trajectory` on a fresh copy of the task's repo, ends as the trajectory says, and scores it. */
export function replayTrajectory(task: EpisodeTask, trajectory: Omit<Trajectory, 'steps'> & { steps: Trajectory['steps'] }): ReplayResult {
  const repo = SimRepo.fromSpec(task.repoSpec);
  const unsuccessfulCalls: string[] = [];
  for (const step of trajectory.steps) {
    const result = executeToolCall(repo, { tool: step.tool, args: step.args });
    if (result.status !== 'success') unsuccessfulCalls.push(`${step.tool} ${JSON.stringify(step.args)} → ${result.status}`);
  }
  const outcome: Outcome =
    trajectory.stop !== undefined
      ? { status: 'stopped', reason: 'replay', message: trajectory.stop }
      : { status: 'finished', reason: 'replay', answer: trajectory.finish ?? '' };
  const scored = score(task, outcome, { repo, answer: outcome.answer, message: outcome.message });
  return { ...scored, outcome, unsuccessfulCalls };
}

export interface ValidationLine {
  task: string;
  trajectory: string;
  expected: 'success' | 'failure';
  ok: boolean;
  detail: string;
}

/** Every reference must score success and every counterexample failure; returns one line per trajectory. */
export function validateTrajectories(tasks: Array<EpisodeTask & { reference: Trajectory; counterexamples: Array<Trajectory & { name: string; why: string }> }>): ValidationLine[] {
  const lines: ValidationLine[] = [];
  for (const task of tasks) {
    const reference = replayTrajectory(task, task.reference);
    lines.push({
      task: task.id,
      trajectory: 'reference',
      expected: 'success',
      ok: reference.success,
      detail: reference.success ? 'scores success' : failureDetail(reference),
    });
    for (const counterexample of task.counterexamples) {
      const replayed = replayTrajectory(task, counterexample);
      lines.push({
        task: task.id,
        trajectory: `counterexample "${counterexample.name}"`,
        expected: 'failure',
        ok: !replayed.success,
        detail: replayed.success ? `scores success, but it ${counterexample.why}: the checks are theatre here` : `rejected: ${failureDetail(replayed)}`,
      });
    }
  }
  return lines;
}

function failureDetail(result: ReplayResult): string {
  if (!result.endingMatches) return `ending ${result.outcome.status} does not match expect`;
  const failing = result.checks.filter((c) => !c.pass).map((c) => `${String(c.check['check'])}: ${c.detail}`);
  return failing.join('; ');
}
