// Suite check (issue 27 §4): a must-stop task that no plan strategy can stop on, played by the scripted model. A
// plan loop stops only when a step or a done_when check fails and the replanner gives up; a reference with no failing
// done_when lets every plan strategy finish — and fail the task for the suite's reason, not the strategy's.
import { ScriptedModel } from '../models/scripted.js';
import { ROLES, type ChatModel, type Role } from '../models/types.js';
import { toolDescriptionsForPrompt } from '../tools/index.js';
import { runEpisode, type EpisodeTask } from './episode.js';
import type { PromptSet, StrategyName } from '../strategies/index.js';
import type { Trajectory } from '../suite/schema.js';

/**
 * The plan strategies replayed: those that stop through a replanner (plan-up-front cannot stop by design; gated may
 * route a one-call task to direct, which says nothing of its plan path).
 */
export const STOP_REPLAY_STRATEGIES: readonly StrategyName[] = ['plan-replan', 'plan-replan-lookup'];

type ReplayedTask = EpisodeTask & { expect: 'finish' | 'stop'; reference: Trajectory; naive?: Trajectory | undefined };

/** Every role played by the scripted model on the tasks' own trajectories; no model is called. */
function scriptedEnvironment(tasks: readonly ReplayedTask[], prompts: PromptSet) {
  const scripted = new ScriptedModel(tasks.map((task) => ({ id: task.id, reference: task.reference, naive: task.naive })));
  return {
    models: Object.fromEntries(ROLES.map((role): [Role, ChatModel] => [role, scripted])) as Record<Role, ChatModel>,
    prompts,
    toolDescriptions: toolDescriptionsForPrompt(),
    chatOptions: () => ({ temperature: 0 }),
    options: { lookupMissAsResult: false },
    configHash: 'validate',
  };
}

/** A must-stop task on which no scripted plan strategy stops, with how each one ended. */
export interface StopReplayWarning {
  task: string;
  /** Per strategy: the episode's end status (finished, budget_exhausted …). */
  endings: Record<string, string>;
}

/**
 * Plays each `expect: stop` task with the scripted model (its reference and naive trajectories) under each of
 * STOP_REPLAY_STRATEGIES and returns the tasks on which none ended `stopped`. No model is called; one episode per
 * task and strategy (milliseconds each on the scripted model). Throws only what runEpisode throws (nothing for a
 * well-formed task).
 */
export async function stopReplayWarnings(tasks: readonly ReplayedTask[], prompts: PromptSet): Promise<StopReplayWarning[]> {
  const stopTasks = tasks.filter((task) => task.expect === 'stop');
  if (stopTasks.length === 0) return [];
  const env = scriptedEnvironment(stopTasks, prompts);
  const warnings: StopReplayWarning[] = [];
  for (const task of stopTasks) {
    const endings: Record<string, string> = {};
    for (const strategy of STOP_REPLAY_STRATEGIES) {
      const record = await runEpisode({ task, strategy, epoch: 0, seed: 1 }, env);
      endings[strategy] = record.outcome.status;
    }
    if (!Object.values(endings).includes('stopped')) warnings.push({ task: task.id, endings });
  }
  return warnings;
}

/** A task with a naive first approach on which the scripted ReAct agent does not succeed, and why. */
export interface NaiveReplayWarning {
  task: string;
  /** The episode's end status. */
  ending: string;
  /** The first failing check's detail, or the ending's reason when every check passed. */
  detail: string;
}

/**
 * Plays each task that has a `naive` trajectory with the scripted ReAct agent, which tries the naive approach first and
 * switches to the reference once it fails (seed 001's "sensible opening" that turns out wrong), and returns the tasks on
 * which it does not succeed (issue 27 §4). The agent plays only the task's own trajectories, so such a failure is the
 * trajectories' doing: a naive approach whose failure is not observable, one that opens with the reference's own first
 * call (the two cannot be told apart), or one whose side effects the reference does not undo. No model is called.
 */
export async function naiveReplayWarnings(tasks: readonly ReplayedTask[], prompts: PromptSet): Promise<NaiveReplayWarning[]> {
  const naiveTasks = tasks.filter((task) => task.naive !== undefined);
  if (naiveTasks.length === 0) return [];
  const env = scriptedEnvironment(naiveTasks, prompts);
  const warnings: NaiveReplayWarning[] = [];
  for (const task of naiveTasks) {
    const record = await runEpisode({ task, strategy: 'react', epoch: 0, seed: 1 }, env);
    if (record.success) continue;
    const failing = record.checks.find((check) => !check.pass);
    warnings.push({ task: task.id, ending: record.outcome.status, detail: failing?.detail ?? record.outcome.reason ?? record.outcome.status });
  }
  return warnings;
}
