// `stratbench power`: how many tasks and epochs a paired comparison needs, or what n tasks can detect.
import { loadSuiteFile, formatSuiteError } from '../../suite/load-suite.js';
import { readResultsFolder } from '../../results-folder/index.js';
import {
  DEFAULT_POWER_EPOCHS,
  DEFAULT_TASK_CORRELATION,
  detectableEffects,
  estimatePowerInputs,
  familyDesignEffectBound,
  powerNotes,
  renderPowerText,
  tasksNeeded,
  type PowerAssumptions,
  type PowerEstimate,
  type PowerReport,
  type PowerSource,
} from '../../report/power.js';
import { UsageError } from '../usage-error.js';

/**
 * The flags of `stratbench power`, as commander hands them over (strings, unparsed: planPower parses and bounds them).
 * Defaults are report/power.ts's: alpha 0.05, power 0.8, epochs DEFAULT_POWER_EPOCHS (1, 2, 3, 5), task correlation
 * DEFAULT_TASK_CORRELATION (0.5), design effect 1.
 */
export interface PowerOptions {
  /** `--effect`: the difference in success rate to detect, percentage points in (0, 100), e.g. `5`. */
  effect?: string;
  /** `--discordance`: the probability the two strategies disagree on a task in one epoch, in (0, 1] (or from `from`). */
  discordance?: string;
  /** `--alpha`: two-sided significance level, in (0, 1). */
  alpha?: string;
  /** `--power`: the chance of detecting the effect, in (0, 1). */
  power?: string;
  /** `--epochs`: only this number of epochs per task, 1–1000. */
  epochs?: string;
  /** `--tasks`: a number of tasks: print the minimum detectable effect for them instead. */
  tasks?: string;
  /** `--design-effect`: the Kish design effect of task families, ≥ 1 (or from `suite` / `from`). */
  designEffect?: string;
  /** `--task-correlation`: the between-task share of a task's per-epoch difference variance, 0–1 (or from `from`). */
  taskCorrelation?: string;
  /** `--suite`: take the number of tasks and the families' design effect bound from this suite. */
  suite?: string;
  /** `--from`: estimate discordance, within-task correlation and design effect from this results folder. */
  from?: string;
  /** `--json`: one JSON document (question, assumptions, rows, notes) instead of text. */
  json?: boolean;
}

/** Largest --epochs and --tasks accepted: far above any run, low enough that a typo is refused. */
const MAX_EPOCHS = 1000;
const MAX_TASKS = 10_000_000;

/** A decimal number from the command line; throws UsageError naming the flag when it is not one. */
function number(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || /^\s*[+-]?0[xob]/i.test(value)) throw new UsageError(`${flag} must be a number, got "${value}"`);
  return n;
}

function wholeNumber(flag: string, value: string, max: number): number {
  const n = number(flag, value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max.toLocaleString('en-US')}, got ${value}`);
  return n;
}

function openInterval(flag: string, value: string, what: string): number {
  const n = number(flag, value);
  if (!(n > 0 && n < 1)) throw new UsageError(`${flag} ${what} must be between 0 and 1 (exclusive), got ${value}`);
  return n;
}

/** --effect in percentage points, as a fraction. */
function parseEffect(value: string): number {
  const n = number('--effect', value);
  if (!(n > 0 && n < 100)) throw new UsageError(`--effect is in percentage points and must be between 0 and 100 (exclusive), e.g. --effect 5; got ${value}`);
  // A fraction (0.05 for 5 points) would silently plan for a 0.05-point difference: millions of tasks.
  if (n < 1) throw new UsageError(`--effect is in percentage points: ${value} is less than one point; for 5 points write --effect 5 (not 0.05)`);
  return n / 100;
}

/** The suite's number of tasks and family sizes. Throws UsageError with every suite error (file:line:col). */
async function suiteShape(path: string): Promise<{ tasks: number; familySizes: number[] }> {
  const loaded = await loadSuiteFile(path);
  if (!loaded.ok) throw new UsageError(`${path}: ${loaded.errors.length} error(s)\n${loaded.errors.map(formatSuiteError).join('\n')}`);
  const sizes = new Map<string, number>();
  for (const task of loaded.tasks) sizes.set(task.family ?? task.id, (sizes.get(task.family ?? task.id) ?? 0) + 1);
  return { tasks: loaded.tasks.length, familySizes: [...sizes.values()] };
}

async function runEstimate(dir: string): Promise<PowerEstimate> {
  const folder = await readResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  for (const warning of folder.warnings) process.stderr.write(`warning: ${warning}\n`);
  const estimate = estimatePowerInputs(folder.records);
  if (estimate === null) throw new UsageError(`${dir}: no two strategies share a scored task, so the run says nothing about a paired comparison`);
  return estimate;
}

/**
 * Turns the flags into a PowerReport. Throws UsageError (exit 2) for a flag out of range, a missing input, a discordance
 * below the effect, conflicting sources of n, an unreadable suite or results folder.
 */
export async function planPower(flags: PowerOptions): Promise<PowerReport> {
  const effect = flags.effect === undefined ? null : parseEffect(flags.effect);
  const alpha = flags.alpha === undefined ? 0.05 : openInterval('--alpha', flags.alpha, '(the significance level)');
  const power = flags.power === undefined ? 0.8 : openInterval('--power', flags.power, '(the chance of detecting the effect)');
  const epochs = flags.epochs === undefined ? [...DEFAULT_POWER_EPOCHS] : [wholeNumber('--epochs', flags.epochs, MAX_EPOCHS)];
  if (flags.tasks !== undefined && flags.suite !== undefined) throw new UsageError('--tasks and --suite both give the number of tasks: use one');
  let tasks = flags.tasks === undefined ? null : wholeNumber('--tasks', flags.tasks, MAX_TASKS);
  const givenDiscordance = flags.discordance === undefined ? undefined : number('--discordance', flags.discordance);
  if (givenDiscordance !== undefined && !(givenDiscordance > 0 && givenDiscordance <= 1))
    throw new UsageError(
      `--discordance is the probability that two strategies disagree on a task in one epoch and must be in (0, 1], got ${flags.discordance}`,
    );
  const givenCorrelation = flags.taskCorrelation === undefined ? undefined : number('--task-correlation', flags.taskCorrelation);
  if (givenCorrelation !== undefined && !(givenCorrelation >= 0 && givenCorrelation <= 1))
    throw new UsageError(`--task-correlation must be from 0 to 1, got ${flags.taskCorrelation}`);
  const givenDesignEffect = flags.designEffect === undefined ? undefined : number('--design-effect', flags.designEffect);
  if (givenDesignEffect !== undefined && !(givenDesignEffect >= 1 && givenDesignEffect <= MAX_TASKS))
    throw new UsageError(`--design-effect must be at least 1 (1 = independent tasks), got ${flags.designEffect}`);

  const suite = flags.suite === undefined ? null : await suiteShape(flags.suite);
  const estimate = flags.from === undefined ? null : await runEstimate(flags.from);
  if (suite) tasks = suite.tasks;
  const mode: PowerReport['mode'] = tasks === null ? 'tasks-needed' : 'detectable-effect';
  if (mode === 'tasks-needed' && effect === null)
    throw new UsageError('--effect is required without --tasks or --suite: how many percentage points must the comparison detect? (e.g. --effect 5)');

  if (givenDiscordance === undefined && estimate === null)
    throw new UsageError('--discordance (or --from DIR) is required: the probability that two strategies disagree on a task in one epoch, e.g. 0.3');
  if (givenDiscordance === undefined && estimate !== null && estimate.discordance === 0)
    throw new UsageError(`${flags.from}: the strategies never disagreed on a task, so the run gives no discordance; give --discordance`);
  const discordance = givenDiscordance ?? (estimate?.discordance as number);
  if (effect !== null && mode === 'tasks-needed' && discordance < effect)
    throw new UsageError(
      `discordance ${discordance.toFixed(3)} is smaller than the effect ${(effect * 100).toFixed(1)} pp: a difference of δ needs at least a share δ of discordant tasks; raise --discordance or lower --effect`,
    );

  const sources: PowerReport['sources'] = {
    discordance: givenDiscordance !== undefined ? 'flag' : 'run',
    taskCorrelation: givenCorrelation !== undefined ? 'flag' : estimate?.taskCorrelation != null ? 'run' : 'default',
    designEffect: 'default',
    ...(suite ? { tasks: 'suite' as PowerSource } : tasks !== null ? { tasks: 'flag' as PowerSource } : {}),
  };
  let designEffect = 1;
  if (givenDesignEffect !== undefined) [designEffect, sources.designEffect] = [givenDesignEffect, 'flag'];
  else if (estimate) [designEffect, sources.designEffect] = [estimate.designEffect, 'run'];
  else if (suite) [designEffect, sources.designEffect] = [familyDesignEffectBound(suite.familySizes), 'suite'];
  const familySize = suite ? suite.tasks / suite.familySizes.length : estimate?.familySize;
  const assumptions: PowerAssumptions = {
    discordance,
    alpha,
    power,
    taskCorrelation: givenCorrelation ?? estimate?.taskCorrelation ?? DEFAULT_TASK_CORRELATION,
    designEffect,
    ...(familySize !== undefined && familySize > 1 ? { familySize } : {}),
  };
  const rows =
    mode === 'tasks-needed' ? tasksNeeded(effect as number, assumptions, epochs) : detectableEffects(tasks as number, assumptions, epochs, effect ?? undefined);
  return { mode, effect, tasks, assumptions, sources, rows, ...(estimate ? { estimate } : {}), notes: powerNotes(mode) };
}

/** `stratbench power`: prints the plan (text or --json); exit 0. Bad flags throw UsageError (exit 2). */
export async function powerCommand(flags: PowerOptions): Promise<number> {
  const report = await planPower(flags);
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderPowerText(report));
  return 0;
}
