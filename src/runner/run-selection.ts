// What a run runs: the suite, its strategies (built-in, module and external agent) and the tasks chosen by --tasks/--split.
import type { LoadedTask } from '../suite/load-suite.js';
import { DEFAULT_STRATEGIES, isStrategyName, knownStrategyNames, type StrategyName } from '../strategies/index.js';
import { listNames } from '../report/index.js';
import { prewarmForRepos } from '../sim-repo/index.js';
import { registerExternalAgent, type ExternalAgentRecord } from './agent-option.js';
import { loadSuiteOrThrow, type CommandSuite } from './load-inputs.js';
import { checkPairs } from './pairs-check.js';
import { checkMatrixSize } from './run-checks.js';
import { loadStrategyModules, type LoadedModules } from './strategy-modules.js';
import { UsageError } from './usage-error.js';

/** The matrix a run covers: the whole suite, the strategies and the tasks chosen from it. */
export interface RunSelection {
  suitePath: string;
  suite: CommandSuite;
  /** The modules of `--strategy-module` (paths and content hashes, recorded in run.json). */
  strategyModules: LoadedModules;
  /** The `--agent-cmd` agent, registered as a strategy (undefined without it). */
  externalAgent: ExternalAgentRecord | undefined;
  strategies: StrategyName[];
  /** The suite's tasks after `--tasks` and `--split`, in suite order. */
  tasks: LoadedTask[];
}

/**
 * Loads the suite and the strategy modules, registers the external agent (its runs read `interrupt.signal`, set once
 * the run installs its signal handlers), parses `--strategies` (an external agent alone is the default, except on a
 * resume) and `--pairs`, and chooses the tasks; starts loading the sandbox for them. Throws UsageError (exit 2) for
 * anything unknown, empty or too large (checkMatrixSize).
 */
export async function selectRun(options: Record<string, unknown>, explicit: ReadonlySet<string>, interrupt: { signal?: AbortSignal }): Promise<RunSelection> {
  const suitePath = String(options['suite']);
  const suite = await loadSuiteOrThrow(suitePath);
  // Module strategies first: --strategies may name them (issue 28 §1).
  const strategyModules = await loadStrategyModules((options['strategyModule'] as string[] | undefined) ?? []);
  // An external agent (--agent-cmd) is a strategy too; without --strategies it is the run's only one.
  const externalAgent = await registerExternalAgent(options, () => interrupt.signal);
  if (externalAgent !== undefined && !explicit.has('strategies') && options['resume'] === undefined) options['strategies'] = externalAgent.name;
  const strategies = parseStrategies(String(options['strategies']));
  if (externalAgent !== undefined && !strategies.includes(externalAgent.name)) {
    throw new UsageError(`--agent-cmd runs as the strategy "${externalAgent.name}"; add it to --strategies (${strategies.join(',')},${externalAgent.name})`);
  }
  checkPairs(strategies, options['pairs'] as [string, string][] | undefined);
  let tasks = typeof options['tasks'] === 'string' ? tasksNamed(suite.tasks, options['tasks']) : suite.tasks;
  if (typeof options['split'] === 'string') tasks = tasksOfSplit(tasks, options['split'], suitePath);
  // QuickJS's WebAssembly (and ESLint) load on the code worker while this thread sets the run up.
  prewarmForRepos(tasks.map((task) => task.repoSpec));
  checkMatrixSize(tasks.length, strategies.length, Number(options['epochs']));
  return { suitePath, suite, strategyModules, externalAgent, strategies, tasks };
}

/** Parses `--strategies`: names separated by commas, or `all` (DEFAULT_STRATEGIES). Throws UsageError naming unknown strategies. */
export function parseStrategies(value: string): StrategyName[] {
  if (value.trim() === 'all') return [...DEFAULT_STRATEGIES];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isStrategyName(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(`unknown strategy ${unknown.map((u) => `"${u}"`).join(', ') || '(none given)'}; known: ${knownStrategyNames().join(', ')}, all`);
  }
  return [...new Set(names)] as StrategyName[];
}

/** The tasks `--tasks a,b` names, in suite order. Throws UsageError for a list naming no task or an unknown one. */
export function tasksNamed(tasks: readonly LoadedTask[], list: string): LoadedTask[] {
  const wanted = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (wanted.length === 0) {
    throw new UsageError(
      `--tasks "${list}" names no task; give task ids separated by commas, or leave it out to run all ${tasks.length}: ${listNames(tasks.map((t) => t.id))}`,
    );
  }
  const unknown = wanted.filter((id) => !tasks.some((t) => t.id === id));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown task ${unknown.join(', ')}; the suite's ${tasks.length} tasks include ${listNames(
        tasks.map((t) => t.id),
        unknown[0],
      )}`,
    );
  return tasks.filter((t) => wanted.includes(t.id));
}

/**
 * The tasks of one split (`--split dev|test`). Throws UsageError for another value, for a suite none of whose tasks
 * has a split (the filter would silently run nothing or everything), and when no selected task is in the split.
 */
export function tasksOfSplit(tasks: readonly LoadedTask[], split: string, suitePath: string): LoadedTask[] {
  if (split !== 'dev' && split !== 'test') throw new UsageError(`--split must be dev or test, not "${split}"`);
  if (!tasks.some((task) => task.split !== undefined)) {
    throw new UsageError(`--split ${split}: the suite ${suitePath} has no splits (no task sets \`split\`); leave --split out to run it all`);
  }
  const chosen = tasks.filter((task) => task.split === split);
  if (chosen.length === 0) throw new UsageError(`--split ${split}: none of the selected tasks is in the ${split} split`);
  return chosen;
}
