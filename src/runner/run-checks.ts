// What `run` checks before its first episode (the references replay, the matrix is bounded) and after its last (errors).
import type { LoadedTask } from '../suite/load-suite.js';
import { PLAN_REPLAN_BUDGETS, PLAN_UP_FRONT_BUDGETS, REACT_BUDGETS } from '../strategies/context.js';
import { strategyByName, type StrategyName } from '../strategies/index.js';
import { replayTrajectory, untouchedSuccessDetail, untouchedTrajectory } from './replay.js';
import { UsageError } from './usage-error.js';

/** The most episodes one run may hold (tasks × strategies × epochs); beyond it, shard the run (`--shard i/n`). */
export const MAX_EPISODES = 1_000_000;
/** `run` exits with this code when more than `--max-error-rate` of its episodes ended in an infrastructure error. */
export const ERRORED_RUN_EXIT_CODE = 4;

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Replays, on a fresh repository, the reference trajectory of each task and the do-nothing agent (what `validate`
 * does): a reference that does not score success means the suite is broken, and every strategy's failure on that
 * task would be blamed on the agent; an untouched repository that scores success means the task's checks are theatre
 * (an agent that makes no tool call passes), and every strategy's success on it would be counted. Throws UsageError
 * (exit 2) naming each such task, the failing checks or validate's line for the untouched repository.
 */
export function checkReferences(tasks: readonly LoadedTask[], suitePath: string): void {
  const broken: string[] = [];
  const theatre: string[] = [];
  for (const task of tasks) {
    const result = replayTrajectory(task, task.reference);
    if (!result.success) {
      const why = result.endingMatches
        ? result.checks
            .filter((check) => !check.pass)
            .map((check) => `${String(check.check['check'])}: ${check.detail}`)
            .join('; ')
        : `ending ${result.outcome.status} does not match expect ${task.expect}`;
      broken.push(`  ${task.id}: ${why}`);
    }
    if (replayTrajectory(task, untouchedTrajectory(task.expect)).success) theatre.push(`  ${task.id}: untouched — ${untouchedSuccessDetail(task.expect)}`);
  }
  if (broken.length === 0 && theatre.length === 0) return;
  const problems = [
    ...(broken.length > 0
      ? [`the reference of ${broken.length} task(s) does not score success, so the suite cannot tell a good agent from a bad one:\n${broken.join('\n')}`]
      : []),
    ...(theatre.length > 0
      ? [
          `the untouched repository of ${theatre.length} task(s) scores success, so an agent that does nothing would be counted a success:\n${theatre.join('\n')}`,
        ]
      : []),
  ];
  throw new UsageError(
    `${suitePath}: ${problems.join(`\n${suitePath}: `)}\n` +
      `fix the suite (\`stratbench validate ${suitePath}\` replays every trajectory), or run anyway with --no-validate`,
  );
}

/** Throws UsageError when tasks × strategies × epochs exceeds MAX_EPISODES (checked before the results folder exists). */
export function checkMatrixSize(tasks: number, strategies: number, epochs: number): void {
  const episodes = tasks * strategies * epochs;
  if (episodes <= MAX_EPISODES) return;
  throw new UsageError(
    `the matrix is ${count(tasks)} tasks × ${strategies} strategies × ${count(epochs)} epochs = ${count(episodes)} episodes, ` +
      `more than ${count(MAX_EPISODES)} in one run; lower --epochs or split it with --shard i/n`,
  );
}

/**
 * The most model calls one episode of `strategy` can make under the default budgets, before reply repairs: direct 2;
 * ReAct one per tool call, an answer and a budget report; the plan strategies a plan, one executor call per tool call,
 * one per replan and a report; gated one more for the gate.
 */
export function maxModelCalls(strategy: StrategyName): number {
  const plan = (budgets: typeof REACT_BUDGETS): number => 1 + budgets.maxToolCalls + budgets.maxReplans + 1;
  switch (strategy) {
    case 'direct':
      return 2;
    case 'react':
      return REACT_BUDGETS.maxToolCalls + 2;
    case 'plan-up-front':
      return plan(PLAN_UP_FRONT_BUDGETS);
    case 'plan-replan':
    case 'plan-replan-lookup':
      return plan(PLAN_REPLAN_BUDGETS);
    case 'gated':
      return 1 + Math.max(2, plan(PLAN_REPLAN_BUDGETS));
    default:
      // A module strategy says its own bound (Strategy.maxModelCalls); else the gated bound, the largest built in.
      return strategyByName(strategy)?.maxModelCalls ?? 1 + Math.max(2, plan(PLAN_REPLAN_BUDGETS));
  }
}

/**
 * The matrix line printed before the first episode, e.g. "matrix: 14 tasks × 5 strategies × 3 epochs = 210 episodes
 * (shard 1/2: 105; 40 kept from the interrupted run, 65 to run); at most 3,402 model calls (default budgets, before
 * reply repairs), all to the in-process scripted stand-in". Throws UsageError when the matrix exceeds MAX_EPISODES.
 */
export function describeMatrix(input: {
  tasks: number;
  strategies: readonly StrategyName[];
  epochs: number;
  toRun?: number;
  kept?: number;
  shard?: { index: number; count: number };
  scripted: boolean;
}): string {
  checkMatrixSize(input.tasks, input.strategies.length, input.epochs);
  const episodes = input.tasks * input.strategies.length * input.epochs;
  const perRound = input.strategies.reduce((sum, strategy) => sum + maxModelCalls(strategy), 0);
  const share = input.toRun === undefined || episodes === 0 ? 1 : input.toRun / episodes;
  const calls = Math.ceil(perRound * input.tasks * input.epochs * share);
  const plural = (n: number, word: string): string => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
  const details = [
    ...(input.shard ? [`shard ${input.shard.index}/${input.shard.count}`] : []),
    ...(input.kept ? [`${count(input.kept)} kept from the interrupted run`] : []),
    ...(input.toRun !== undefined && input.toRun !== episodes ? [`${count(input.toRun)} to run`] : []),
  ];
  return (
    `matrix: ${plural(input.tasks, 'task')} × ${plural(input.strategies.length, 'strategy').replace(/strategys$/, 'strategies')} × ${plural(input.epochs, 'epoch')} = ${plural(episodes, 'episode')}` +
    // Two lines, so the default output stays within 120 columns.
    `${details.length > 0 ? ` (${details.join('; ')})` : ''}\n  at most ${count(calls)} model calls (default budgets, before reply repairs)` +
    `${input.scripted ? ', all to the in-process scripted stand-in' : ''}`
  );
}

/**
 * After a run: the share of its episodes that ended in an infrastructure `error`, and the warning to print when it is
 * above `maxRate` (then `run` exits ERRORED_RUN_EXIT_CODE); null when it is not.
 */
export function erroredRunWarning(episodes: number, errors: number, maxRate: number, outDir: string): string | null {
  if (episodes === 0 || errors / episodes <= maxRate) return null;
  return (
    `${errors} of ${episodes} episodes (${((errors / episodes) * 100).toFixed(1)}%) ended in an infrastructure error, above --max-error-rate ${(maxRate * 100).toFixed(1)}%: ` +
    `the success rates stand on the other ${episodes - errors}. Once the model server is back, \`stratbench run --resume ${outDir}\` runs the errored episodes again (exit ${ERRORED_RUN_EXIT_CODE})`
  );
}
