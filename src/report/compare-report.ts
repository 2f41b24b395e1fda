// compareResults(): what changed between a base and a head results folder, and whether it is a regression.
import type { BootstrapOptions } from './statistics-bootstrap.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from './statistics-bootstrap.js';
import { comparePaired, withHolm, type PairedComparison } from './statistics-comparison.js';
import { DEFAULT_CONFIDENCE } from './statistics-intervals.js';
import { summariseOutcomes } from './statistics-summary.js';
import { collectTaskOutcomes, stabilityLabel, type TaskOutcome } from './statistics-tasks.js';
import { describeCompleteness, matrixCells, sliceCells } from '../results-folder/index.js';
import { matchRows, positionsOf, toCompareFolder, wallTimeKey, type CompareFolder, type RecordsFolder } from './compare-input.js';
import type { ResultColumns } from './result-columns.js';
import { compareConfiguration } from './compare-configuration.js';
import {
  DEFAULT_MAX_ERROR_RATE,
  DEFAULT_MIN_EFFECT,
  describeMissing,
  errorGate,
  coverageOf,
  gateDesign,
  headCoverage,
  sharedEpisodes,
} from './compare-gate.js';
import { decide } from './compare-decision.js';
import type { ComparisonReport, FolderOverview, GroupChange, StrategyChange, TaskComparison, TaskSide } from './compare-shapes.js';

export type { ComparisonReport, Decision, FolderOverview, GroupChange, StrategyChange, TaskComparison, TaskSide } from './compare-shapes.js';

/** Significance level of the regression gate (issue 5: α = 0.05). */
export const REGRESSION_ALPHA = 0.05;
/** A stable-pass → stable-fail flip trips the gate only when both sides have at least this many scored epochs. */
export const MIN_EPOCHS_FOR_STABLE_FLIP = 2;

/** What the gate is told besides the bootstrap settings. */
export interface CompareOptions extends BootstrapOptions {
  /** Compare the episodes both folders have when the head lacks some of the base's (default: refuse). */
  allowPartial?: boolean;
  /** Fraction of head episodes that may be infrastructure errors (default DEFAULT_MAX_ERROR_RATE). */
  maxErrorRate?: number;
  /** Smallest drop (fraction) the comparison must be able to detect for "no regression" (default DEFAULT_MIN_EFFECT). */
  minEffect?: number;
}

export type CompareResultsResult = { ok: true; report: ComparisonReport } | { ok: false; error: string };

function overview(folder: CompareFolder, outcomes: Map<string, TaskOutcome[]>): FolderOverview {
  const all = [...outcomes.values()].flat();
  return {
    dir: folder.dir,
    episodes: folder.columns.length,
    errors: all.reduce((sum, outcome) => sum + outcome.errors, 0),
    strategies: [...outcomes.keys()],
    tasks: new Set(all.map((outcome) => outcome.task)).size,
    epochs: Math.max(0, ...all.map((outcome) => outcome.epochs)),
    warnings: folder.warnings,
    completeness: folder.run ? describeCompleteness(folder.run, positionsOf(folder.run, folder.columns)) : null,
  };
}

function side(outcome: TaskOutcome | undefined, folder: CompareFolder): TaskSide | null {
  if (!outcome) return null;
  const wallMs = folder.wallMs?.get(wallTimeKey(outcome.strategy, outcome.task)) ?? 0;
  return { label: stabilityLabel(outcome), successes: outcome.successes, epochs: outcome.epochs, errors: outcome.errors, wallMs };
}

function compareTask(
  strategy: string,
  task: string,
  group: string,
  folders: { base: CompareFolder; head: CompareFolder },
  base?: TaskOutcome,
  head?: TaskOutcome,
): TaskComparison {
  const baseSide = side(base, folders.base);
  const headSide = side(head, folders.head);
  let flip: TaskComparison['flip'] = null;
  let gating = false;
  if (baseSide && headSide && baseSide.epochs > 0 && headSide.epochs > 0 && baseSide.label !== headSide.label) {
    const baseRate = baseSide.successes / baseSide.epochs;
    const headRate = headSide.successes / headSide.epochs;
    flip = headRate < baseRate ? 'worse' : headRate > baseRate ? 'better' : 'changed';
    gating =
      baseSide.label === 'stable-pass' &&
      headSide.label === 'stable-fail' &&
      baseSide.epochs >= MIN_EPOCHS_FOR_STABLE_FLIP &&
      headSide.epochs >= MIN_EPOCHS_FOR_STABLE_FLIP;
  }
  return { strategy, task, group, base: baseSide, head: headSide, flip, gating };
}

/**
 * What a base lacks of the episodes its run.json says it ran — a run that ended `interrupted` or `running` (killed),
 * fewer records than run.json's `episodes` (episodes.jsonl cut short), or a merge missing shards or episodes of a
 * shard — named per strategy × task against the matrix it set out to run (its shard's; a merge's: the whole matrix,
 * every shard). Null when nothing is lacking or there is no run.json.
 */
function baseShortfall(base: CompareFolder): string | null {
  const run = base.run;
  if (run === null) return null;
  const episodes = base.columns.length;
  const short = run.episodes !== undefined && episodes < run.episodes;
  const merged = run.merged_from !== undefined;
  if (!short && !merged && run.status !== 'interrupted' && run.status !== 'running') return null;
  const present = positionsOf(run, base.columns);
  const expected = merged ? matrixCells(run.config) : sliceCells(run);
  const shortfall = coverageOf(expected, (cell) => present.has(present.positionOf(cell)));
  const missingShards = run.missing_shards ?? [];
  const status =
    merged && missingShards.length > 0
      ? `a merge of ${(run.shard_count ?? missingShards.length) - missingShards.length} of ${run.shard_count ?? '?'} shards, missing shard${missingShards.length === 1 ? '' : 's'} ${missingShards.join(', ')}`
      : merged
        ? `a merge, status ${run.status}`
        : `status ${run.status}`;
  const wording = { lacks: `base ${base.dir} lacks`, of: `episodes its run.json lists (${status})` };
  if (shortfall.missing.length > 0) return describeMissing(shortfall, 8, wording);
  const listed = run.episodes ?? 0;
  return short ? `${wording.lacks} ${listed - episodes} of the ${listed} ${wording.of}` : null;
}

/** What to do with a folder that is one shard of a --shard split. */
const MERGE_ADVICE = 'merge the shard folders into one with `stratbench merge DIR… --out DIR` and compare that';
/** The alternative every refusal of an incomplete side offers. */
const PARTIAL_ADVICE = 'or pass --allow-partial to compare only the episodes both have';

/**
 * Why a folder that is one shard of n > 1 (a `run --shard i/n`, not merged) cannot stand for a run: it holds only its
 * slice of the matrix, so a comparison on it sees only those tasks and epochs and could miss a regression on the
 * others (review 6: a shard base turned a regression, exit 1 on the whole base, into exit 3). Null otherwise.
 */
function oneShard(folder: CompareFolder, side: 'base' | 'head'): string | null {
  const shard = folder.run?.shard;
  if (shard === undefined || shard.count <= 1 || folder.run?.merged_from !== undefined) return null;
  const whole = folder.run?.expected_episodes;
  return `${side} ${folder.dir} is shard ${shard.index} of ${shard.count}${whole === undefined ? ` (${folder.columns.length} episodes)` : ` (${folder.columns.length} of the matrix's ${whole} episodes)`}: one shard holds only its slice of the tasks and epochs, so a comparison on it could miss a regression on the others`;
}

/** How to complete a base: merge the missing shards in (a merge), merge a single shard with the others, or resume it (a run). */
function finishAdvice(base: CompareFolder): string {
  const missing = base.run?.missing_shards ?? [];
  if (base.run?.merged_from === undefined && (base.run?.shard?.count ?? 1) > 1) return MERGE_ADVICE;
  if (base.run?.merged_from === undefined) return `finish it with \`stratbench run --resume ${base.dir}\``;
  const count = base.run.shard_count ?? '?';
  const shards = missing.length > 0 ? missing.map((index) => `--shard ${index}/${count}`).join(', ') : 'the shards it lacks';
  return `run ${shards}, or resume the interrupted shard folders, and merge again`;
}

/**
 * Compares two results folders strategy by strategy on their shared tasks (a task shared = scored at least once on
 * each side for that strategy): per strategy and per group, head − base with a 95% interval and a paired test
 * (comparePaired: McNemar exact with one epoch, paired cluster bootstrap with several); every task × strategy with
 * both sides' stability labels and flips; run.json differences (compareConfiguration).
 * Coverage: the head must have an episode (scored or errored) for every strategy × task × epoch of the base, else
 * `{ ok: false }` naming what it lacks — with `allowPartial`, only the base episodes the head has are compared and the
 * report says so.
 * Verdict (decide): `regressed` when some strategy's difference is negative with an unadjusted paired-test p < 0.05 (one
 * test per strategy, no multiplicity correction — the Holm-adjusted p is reported alongside), when some task goes
 * stable-pass → stable-fail with ≥ 2 scored epochs on both sides (with one epoch a single pass → fail is listed as a
 * flip but left to the paired test), or when the head's infrastructure errors exceed `maxErrorRate` or rose
 * significantly over the base's (errorGate); else `inconclusive` when some strategy's design cannot rule out a drop
 * of `minEffect` — its test cannot reach p < 0.05 with so few families or tasks (≤ 5: 2/2⁵ = 0.0625), or its minimum
 * detectable effect, families counted as clusters as `power --suite` counts them (gateDesign), is above it — or
 * when prompts changed that no model of either run reads; else `no regression`.
 * The base must hold every episode its own run.json lists (its shard's; the whole matrix, a merge's included), else `{ ok: false }`
 * naming what it lacks — with `allowPartial`, what it has is compared and a warning says so.
 * Returns `{ ok: false, error }` when the head lacks base episodes or the base its own (without allowPartial), or no
 * strategy or task is shared.
 */
export function compareResults(
  baseFolder: CompareFolder | RecordsFolder,
  headFolder: CompareFolder | RecordsFolder,
  options: CompareOptions = {},
): CompareResultsResult {
  const base = toCompareFolder(baseFolder);
  const head = toCompareFolder(headFolder);
  // A base lacking episodes its own run.json lists (interrupted, or episodes.jsonl cut short) is refused like a short head.
  const baseLacks = baseShortfall(base) ?? oneShard(base, 'base');
  if (baseLacks !== null && options.allowPartial !== true) {
    return {
      ok: false,
      error:
        `${baseLacks}; an incomplete base would hide regressions on what it lacks ` +
        `(${finishAdvice(base)}, or pass --allow-partial to compare only the episodes both have)`,
    };
  }
  // A head that is one shard lacks the base's other shards: say to merge, not to resume a shard that is complete.
  const headShard = oneShard(head, 'head');
  if (headShard !== null && options.allowPartial !== true) {
    return { ok: false, error: `${headShard}; ${MERGE_ADVICE}, ${PARTIAL_ADVICE}` };
  }
  const matches = matchRows(base.columns, head.columns);
  const coverage = headCoverage(base.columns, head.columns, matches);
  if (coverage.missing.length > 0 && options.allowPartial !== true) {
    return {
      ok: false,
      error:
        `${describeMissing(coverage)}; the head must cover every strategy × task × epoch of the base ` +
        `(finish it with \`stratbench run --resume ${head.dir}\`, or pass --allow-partial to compare only the episodes both have)`,
    };
  }
  if (coverage.covered === 0) {
    const describe = (folder: CompareFolder): string =>
      `${folder.dir} has strategies [${folder.columns.strategies.join(', ')}] on ${folder.columns.tasks.length} task(s)`;
    return {
      ok: false,
      error: `nothing to compare: the head has none of the base's ${coverage.baseEpisodes} episodes (base ${describe(base)}, head ${describe(head)}; different suites?)`,
    };
  }
  coverage.partial = coverage.missing.length > 0;
  const baseRecords: ResultColumns = coverage.partial ? sharedEpisodes(base.columns, head.columns, matches) : base.columns;
  const alpha = REGRESSION_ALPHA;
  const maxErrorRate = options.maxErrorRate ?? DEFAULT_MAX_ERROR_RATE;
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const errors = errorGate(baseRecords, head.columns, maxErrorRate, alpha, coverage.partial ? undefined : matches);
  const baseOutcomes = collectTaskOutcomes(baseRecords);
  const headOutcomes = collectTaskOutcomes(head.columns);
  const baseOverview = overview(base, baseOutcomes);
  const headOverview = overview(head, headOutcomes);
  const shared = baseOverview.strategies.filter((strategy) => headOutcomes.has(strategy));
  if (shared.length === 0) {
    return {
      ok: false,
      error: `no strategy in common: base ${base.dir} has [${baseOverview.strategies.join(', ')}], head ${head.dir} has [${headOverview.strategies.join(', ')}]`,
    };
  }
  const strategies: StrategyChange[] = [];
  const groups: GroupChange[] = [];
  const tasks: TaskComparison[] = [];
  // In a partial comparison, a base task the head lacks entirely is still listed (from all the base's episodes).
  const allBaseOutcomes = coverage.partial ? collectTaskOutcomes(base.columns) : baseOutcomes;
  for (const strategy of shared) {
    const baseByTask = new Map((baseOutcomes.get(strategy) ?? []).map((outcome) => [outcome.task, outcome]));
    const headByTask = new Map((headOutcomes.get(strategy) ?? []).map((outcome) => [outcome.task, outcome]));
    const listedByTask = new Map((allBaseOutcomes.get(strategy) ?? []).map((outcome) => [outcome.task, outcome]));
    for (const task of new Set([...listedByTask.keys(), ...headByTask.keys()])) {
      const baseTask = baseByTask.get(task) ?? (headByTask.has(task) ? undefined : listedByTask.get(task));
      const headTask = headByTask.get(task);
      tasks.push(compareTask(strategy, task, (headTask ?? (baseTask as TaskOutcome)).group, { base, head }, baseTask, headTask));
    }
    const sharedTasks = [...baseByTask.keys()].filter((task) => (baseByTask.get(task)?.epochs ?? 0) > 0 && (headByTask.get(task)?.epochs ?? 0) > 0);
    if (sharedTasks.length === 0) continue;
    const baseShared = sharedTasks.map((task) => baseByTask.get(task) as TaskOutcome);
    const headShared = sharedTasks.map((task) => headByTask.get(task) as TaskOutcome);
    const change = comparePaired(baseShared, headShared, { ...options, firstLabel: 'base', secondLabel: 'head' }) as PairedComparison;
    const design = gateDesign(
      change,
      baseShared.map((outcome) => outcome.family),
      { alpha: REGRESSION_ALPHA, resamples: options.resamples ?? DEFAULT_RESAMPLES },
    );
    strategies.push({
      strategy,
      base: summariseOutcomes(strategy, null, baseShared, options),
      head: summariseOutcomes(strategy, null, headShared, options),
      change: { ...change, minimumDetectableEffect: design.minimumDetectableEffect },
      design,
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
  const configuration = compareConfiguration(base, head);
  const warnings: string[] = [];
  if (coverage.partial) warnings.push(`partial comparison (--allow-partial): ${describeMissing(coverage)}; only the episodes both have are compared`);
  if (baseLacks !== null) warnings.push(`partial comparison (--allow-partial): ${baseLacks}; only the episodes both have are compared`);
  const decided = decide(
    strategies.map((entry, index) => ({ ...entry, change: adjusted[index] as PairedComparison })),
    tasks,
    { errors, configuration, warnings, alpha, minEffect, headDir: head.dir },
  );
  return {
    ok: true,
    report: {
      base: baseOverview,
      head: headOverview,
      configuration,
      strategies: decided.strategies,
      groups,
      tasks: decided.tasks,
      onlyInBase: baseOverview.strategies.filter((strategy) => !headOutcomes.has(strategy)),
      onlyInHead: headOverview.strategies.filter((strategy) => !baseOutcomes.has(strategy)),
      coverage,
      errors,
      decision: decided.decision,
      settings: {
        confidence: options.confidence ?? DEFAULT_CONFIDENCE,
        resamples: options.resamples ?? DEFAULT_RESAMPLES,
        seed: options.seed ?? DEFAULT_SEED,
        alpha,
        maxErrorRate,
        minEffect,
      },
    },
  };
}
