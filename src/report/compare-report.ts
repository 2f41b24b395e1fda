// compareResults(): what changed between a base and a head results folder, and whether it is a regression.
import type { BootstrapOptions } from './statistics-bootstrap.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from './statistics-bootstrap.js';
import { comparePaired, withHolm, type PairedComparison } from './statistics-comparison.js';
import { DEFAULT_CONFIDENCE } from './statistics-intervals.js';
import { summariseOutcomes, type RateSummary } from './statistics-summary.js';
import { collectTaskOutcomes, stabilityLabel, type StabilityLabel, type TaskOutcome } from './statistics-tasks.js';
import type { RunFile } from '../records/index.js';
import type { ResultsFolder } from '../results-folder/index.js';

/** Significance level of the regression gate (issue 5: α = 0.05). */
export const REGRESSION_ALPHA = 0.05;
/** A stable-pass → stable-fail flip trips the gate only when both sides have at least this many scored epochs. */
export const MIN_EPOCHS_FOR_STABLE_FLIP = 2;

export interface FolderOverview {
  dir: string;
  episodes: number;
  errors: number;
  strategies: string[];
  tasks: number;
  /** Most scored epochs of any task × strategy. */
  epochs: number;
  warnings: string[];
}

export type Sameness = 'same' | 'different' | 'unknown';

/** One field of run.json that differs (or is known on one side only); values are shown as stored. */
export interface ConfigurationDifference {
  field: string;
  base: string | null;
  head: string | null;
}

export interface ConfigurationComparison {
  suite: Sameness;
  models: Sameness;
  prompts: Sameness;
  differences: ConfigurationDifference[];
}

/** One strategy's change on the tasks both folders scored: base = first, head = second. */
export interface StrategyChange {
  strategy: string;
  base: RateSummary;
  head: RateSummary;
  /** change.adjustedPValue is Holm-adjusted across strategies (shown; the gate uses change.test.pValue). */
  change: PairedComparison;
  verdict: 'regressed' | 'improved' | 'no significant change';
}

export interface GroupChange {
  strategy: string;
  group: string;
  /** Unadjusted p; group rows are descriptive and do not gate. */
  change: PairedComparison;
}

export interface TaskSide {
  label: StabilityLabel;
  successes: number;
  epochs: number;
  errors: number;
}

/** One task × strategy from either folder. `flip` is set when both sides are scored and their labels differ. */
export interface TaskComparison {
  strategy: string;
  task: string;
  group: string;
  base: TaskSide | null;
  head: TaskSide | null;
  flip: 'regressed' | 'improved' | 'changed' | null;
  /** A stable-pass → stable-fail flip with ≥ MIN_EPOCHS_FOR_STABLE_FLIP scored epochs on both sides. */
  gating: boolean;
}

export interface Decision {
  regression: boolean;
  reasons: string[];
}

export interface ComparisonReport {
  base: FolderOverview;
  head: FolderOverview;
  configuration: ConfigurationComparison;
  strategies: StrategyChange[];
  groups: GroupChange[];
  tasks: TaskComparison[];
  onlyInBase: string[];
  onlyInHead: string[];
  decision: Decision;
  settings: { confidence: number; resamples: number; seed: number; alpha: number };
}

export type CompareResultsResult = { ok: true; report: ComparisonReport } | { ok: false; error: string };

function overview(folder: ResultsFolder, outcomes: Map<string, TaskOutcome[]>): FolderOverview {
  const all = [...outcomes.values()].flat();
  return {
    dir: folder.dir,
    episodes: folder.records.length,
    errors: all.reduce((sum, outcome) => sum + outcome.errors, 0),
    strategies: [...outcomes.keys()],
    tasks: new Set(all.map((outcome) => outcome.task)).size,
    epochs: Math.max(0, ...all.map((outcome) => outcome.epochs)),
    warnings: folder.warnings,
  };
}

function modelsOf(folder: ResultsFolder): Record<string, string> | undefined {
  return folder.run?.models ?? folder.records[0]?.models;
}

function compareRecords(
  prefix: string,
  base: Record<string, string> | undefined,
  head: Record<string, string> | undefined,
  differences: ConfigurationDifference[],
): Sameness {
  if (!base || !head) return 'unknown';
  let same = true;
  for (const key of [...new Set([...Object.keys(base), ...Object.keys(head)])].sort()) {
    if (base[key] !== head[key]) {
      same = false;
      differences.push({ field: `${prefix}.${key}`, base: base[key] ?? null, head: head[key] ?? null });
    }
  }
  return same ? 'same' : 'different';
}

/** Compares suite hash, models and prompt hashes from run.json (models fall back to the episodes' own). */
export function compareConfiguration(base: ResultsFolder, head: ResultsFolder): ConfigurationComparison {
  const differences: ConfigurationDifference[] = [];
  const baseRun: RunFile | null = base.run;
  const headRun: RunFile | null = head.run;
  let suite: Sameness = 'unknown';
  const baseHash = baseRun?.suite?.hash;
  const headHash = headRun?.suite?.hash;
  if (baseHash !== undefined && headHash !== undefined) suite = baseHash === headHash ? 'same' : 'different';
  if (baseHash !== headHash) differences.push({ field: 'suite.hash', base: baseHash ?? null, head: headHash ?? null });
  const basePath = baseRun?.suite?.path;
  const headPath = headRun?.suite?.path;
  if (basePath !== headPath) differences.push({ field: 'suite.path', base: basePath ?? null, head: headPath ?? null });
  const models = compareRecords('models', modelsOf(base), modelsOf(head), differences);
  const prompts = compareRecords('prompts', baseRun?.prompts, headRun?.prompts, differences);
  if (baseRun?.epochs !== headRun?.epochs) {
    differences.push({ field: 'epochs', base: baseRun?.epochs?.toString() ?? null, head: headRun?.epochs?.toString() ?? null });
  }
  return { suite, models, prompts, differences };
}

function side(outcome: TaskOutcome | undefined): TaskSide | null {
  if (!outcome) return null;
  return { label: stabilityLabel(outcome), successes: outcome.successes, epochs: outcome.epochs, errors: outcome.errors };
}

function compareTask(strategy: string, task: string, group: string, base?: TaskOutcome, head?: TaskOutcome): TaskComparison {
  const baseSide = side(base);
  const headSide = side(head);
  let flip: TaskComparison['flip'] = null;
  let gating = false;
  if (baseSide && headSide && baseSide.epochs > 0 && headSide.epochs > 0 && baseSide.label !== headSide.label) {
    const baseRate = baseSide.successes / baseSide.epochs;
    const headRate = headSide.successes / headSide.epochs;
    flip = headRate < baseRate ? 'regressed' : headRate > baseRate ? 'improved' : 'changed';
    gating =
      baseSide.label === 'stable-pass' &&
      headSide.label === 'stable-fail' &&
      baseSide.epochs >= MIN_EPOCHS_FOR_STABLE_FLIP &&
      headSide.epochs >= MIN_EPOCHS_FOR_STABLE_FLIP;
  }
  return { strategy, task, group, base: baseSide, head: headSide, flip, gating };
}

const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;

/**
 * Compares two results folders strategy by strategy on their shared tasks (a task shared = scored at least once on
 * each side for that strategy): per strategy and per group, head − base with a 95% interval and a paired test
 * (comparePaired: McNemar exact with one epoch, paired cluster bootstrap with several); every task × strategy with
 * both sides' stability labels and flips; run.json differences.
 * Decision (the `--fail-on-regression` gate): regression when some strategy's difference is negative with an
 * unadjusted paired-test p < 0.05 (one test per strategy, no multiplicity correction — the Holm-adjusted p is reported
 * alongside), or when some task goes stable-pass → stable-fail with ≥ 2 scored epochs on both sides (with one epoch
 * a single pass → fail is listed as a flip but left to the paired test).
 * Returns `{ ok: false, error }` when no strategy or no task is shared.
 */
export function compareResults(base: ResultsFolder, head: ResultsFolder, options: BootstrapOptions = {}): CompareResultsResult {
  const baseOutcomes = collectTaskOutcomes(base.records);
  const headOutcomes = collectTaskOutcomes(head.records);
  const baseOverview = overview(base, baseOutcomes);
  const headOverview = overview(head, headOutcomes);
  const shared = baseOverview.strategies.filter((strategy) => headOutcomes.has(strategy));
  if (shared.length === 0) {
    return {
      ok: false,
      error: `no strategy in common: base ${base.dir} has [${baseOverview.strategies.join(', ')}], head ${head.dir} has [${headOverview.strategies.join(', ')}]`,
    };
  }
  let strategies: StrategyChange[] = [];
  const groups: GroupChange[] = [];
  const tasks: TaskComparison[] = [];
  for (const strategy of shared) {
    const baseByTask = new Map((baseOutcomes.get(strategy) ?? []).map((outcome) => [outcome.task, outcome]));
    const headByTask = new Map((headOutcomes.get(strategy) ?? []).map((outcome) => [outcome.task, outcome]));
    for (const task of new Set([...baseByTask.keys(), ...headByTask.keys()])) {
      const baseTask = baseByTask.get(task);
      const headTask = headByTask.get(task);
      tasks.push(compareTask(strategy, task, (headTask ?? (baseTask as TaskOutcome)).group, baseTask, headTask));
    }
    const sharedTasks = [...baseByTask.keys()].filter(
      (task) => (baseByTask.get(task)?.epochs ?? 0) > 0 && (headByTask.get(task)?.epochs ?? 0) > 0,
    );
    if (sharedTasks.length === 0) continue;
    const baseShared = sharedTasks.map((task) => baseByTask.get(task) as TaskOutcome);
    const headShared = sharedTasks.map((task) => headByTask.get(task) as TaskOutcome);
    const change = comparePaired(baseShared, headShared, { ...options, firstLabel: 'base', secondLabel: 'head' }) as PairedComparison;
    strategies.push({
      strategy,
      base: summariseOutcomes(strategy, null, baseShared, options),
      head: summariseOutcomes(strategy, null, headShared, options),
      change,
      verdict: 'no significant change',
    });
    const groupNames = [...new Set(headShared.map((outcome) => outcome.group))];
    for (const group of groupNames) {
      const inGroup = sharedTasks.filter((task) => headByTask.get(task)?.group === group);
      const groupChange = comparePaired(
        inGroup.map((task) => baseByTask.get(task) as TaskOutcome),
        inGroup.map((task) => headByTask.get(task) as TaskOutcome),
        { ...options, firstLabel: 'base', secondLabel: 'head' },
      );
      if (groupChange) groups.push({ strategy, group, change: groupChange });
    }
  }
  if (strategies.length === 0) {
    return {
      ok: false,
      error: `no shared tasks: base ${base.dir} and head ${head.dir} have no task scored by the same strategy in both (different suites?)`,
    };
  }
  const adjusted = withHolm(strategies.map((entry) => entry.change));
  strategies = strategies.map((entry, index) => {
    const change = adjusted[index] as PairedComparison;
    const significant = change.test.pValue < REGRESSION_ALPHA;
    const verdict: StrategyChange['verdict'] =
      significant && change.difference.estimate < 0 ? 'regressed' : significant && change.difference.estimate > 0 ? 'improved' : 'no significant change';
    return { ...entry, change, verdict };
  });
  const reasons: string[] = [];
  for (const entry of strategies.filter((candidate) => candidate.verdict === 'regressed')) {
    const { change } = entry;
    reasons.push(
      `${entry.strategy}: success fell from ${percent(change.firstRate)} to ${percent(change.secondRate)} on ${change.tasks} shared tasks ` +
        `(${change.test.method}, p = ${change.test.pValue.toPrecision(3)} < ${REGRESSION_ALPHA})`,
    );
  }
  for (const task of tasks.filter((candidate) => candidate.gating)) {
    reasons.push(
      `${task.strategy} / ${task.task}: stable-pass (${task.base?.successes}/${task.base?.epochs}) became stable-fail (${task.head?.successes}/${task.head?.epochs})`,
    );
  }
  return {
    ok: true,
    report: {
      base: baseOverview,
      head: headOverview,
      configuration: compareConfiguration(base, head),
      strategies,
      groups,
      tasks,
      onlyInBase: baseOverview.strategies.filter((strategy) => !headOutcomes.has(strategy)),
      onlyInHead: headOverview.strategies.filter((strategy) => !baseOutcomes.has(strategy)),
      decision: { regression: reasons.length > 0, reasons },
      settings: {
        confidence: options.confidence ?? DEFAULT_CONFIDENCE,
        resamples: options.resamples ?? DEFAULT_RESAMPLES,
        seed: options.seed ?? DEFAULT_SEED,
        alpha: REGRESSION_ALPHA,
      },
    },
  };
}
