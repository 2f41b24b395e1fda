// The CI gate of `compare`: does the head cover the base's episodes, how many errored, and the three-way verdict.
import { mcnemarExact, minimumDetectableEffect } from './statistics-paired-tests.js';
import type { PairedComparison } from './statistics-comparison.js';
import { familyDesignEffectBound } from './statistics-power.js';
import type { EpisodeResult } from './statistics-tasks.js';
import { cellOf, HEAD_ERROR, matchRows, NOT_IN_HEAD, selectRows } from './compare-input.js';
import { ERROR_STATUS, type ResultColumns } from './result-columns.js';

/** `--max-error-rate`: the share of the head's episodes that may end in an infrastructure `error` (issue 10). */
export const DEFAULT_MAX_ERROR_RATE = 0.05;
/**
 * `--min-effect`: the smallest drop in success rate (a fraction; 0.2 = 20 percentage points) the gate must be able
 * to detect (80% power, α = 0.05) before "no regression" is claimed; a strategy whose minimum detectable effect is
 * larger makes the verdict inconclusive.
 */
export const DEFAULT_MIN_EFFECT = 0.2;

/**
 * Why `minEffect` cannot be a `--min-effect` (null when it can): it must be a fraction above 0 and at most 1. At 0 no
 * number of tasks detects the drop, so the gate would be inconclusive (exit 3) forever.
 */
export function minEffectError(minEffect: number): string | null {
  if (Number.isFinite(minEffect) && minEffect > 0 && minEffect <= 1) return null;
  return `--min-effect must be above 0 and at most 1 (a drop in success rate, 0.2 or 20% = 20 pp), got ${minEffect}: with no drop to detect, no comparison could ever rule a drop out, so the gate would be inconclusive (exit 3) forever`;
}

/** regressed: the gate fails; no regression: it passes; inconclusive: the data cannot tell (too few tasks, prompts unread). */
export type Verdict = 'regressed' | 'no regression' | 'inconclusive';

/** Exit codes of `compare --fail-on-regression` per verdict; 2 stays "unusable input" (incomplete head included). */
export const VERDICT_EXIT_CODES = { regressed: 1, 'no regression': 0, inconclusive: 3 } as const satisfies Record<Verdict, number>;

/** One strategy × task of the base whose epochs the head lacks. */
export interface MissingEpisodes {
  strategy: string;
  task: string;
  epochs: number[];
}

/** Whether the head has an episode (scored or errored) for every strategy × task × epoch of the base. */
export interface Coverage {
  /** Episodes in the base. */
  baseEpisodes: number;
  /** Of those, the ones the head also has. */
  covered: number;
  missing: MissingEpisodes[];
  /** True when the comparison was restricted to the shared episodes (`--allow-partial` with something missing). */
  partial: boolean;
}

/** What coverage reads of an episode (or of a matrix cell run.json lists). */
export type EpisodeCell = Pick<EpisodeResult, 'strategy' | 'task' | 'epoch'>;

/**
 * Which of `cells` the other side has (`has(cell, index)`), the missing ones grouped per strategy × task in order of
 * their first missing cell, epochs sorted. Memory: the missing cells' epochs, never the cells. Pure.
 */
export function coverageOf(cells: Iterable<EpisodeCell>, has: (cell: EpisodeCell, index: number) => boolean): Coverage {
  const missing = new Map<string, MissingEpisodes>();
  let covered = 0;
  let index = 0;
  for (const cell of cells) {
    if (has(cell, index++)) {
      covered += 1;
      continue;
    }
    const group = `${cell.strategy}\u0000${cell.task}`;
    const entry = missing.get(group) ?? { strategy: cell.strategy, task: cell.task, epochs: [] };
    entry.epochs.push(cell.epoch);
    missing.set(group, entry);
  }
  for (const entry of missing.values()) entry.epochs.sort((a, b) => a - b);
  return { baseEpisodes: index, covered, missing: [...missing.values()], partial: false };
}

/** The rows of `columns` as cells, in order (one transient object each). */
function* cellsOf(columns: ResultColumns): Generator<EpisodeCell> {
  for (let i = 0; i < columns.length; i += 1) yield cellOf(columns, i);
}

/** The base's episodes the head lacks, grouped per strategy × task (base order); `matches` from matchRows(base, head). Pure. */
export function headCoverage(base: ResultColumns, head: ResultColumns, matches: Int8Array = matchRows(base, head)): Coverage {
  return coverageOf(cellsOf(base), (_, i) => matches[i] !== NOT_IN_HEAD);
}

/** The base episodes that the head also has (what `--allow-partial` compares). Pure. */
export function sharedEpisodes(base: ResultColumns, head: ResultColumns, matches: Int8Array = matchRows(base, head)): ResultColumns {
  return selectRows(base, (i) => matches[i] !== NOT_IN_HEAD);
}

/** "0, 1, 2" → "0–2"; "0, 2, 3" → "0, 2–3". */
function epochRanges(epochs: readonly number[]): string {
  const parts: string[] = [];
  let start = epochs[0] as number;
  let previous = start;
  for (const epoch of [...epochs.slice(1), Number.NaN]) {
    if (epoch === previous + 1) {
      previous = epoch;
      continue;
    }
    parts.push(start === previous ? String(start) : `${start}–${previous}`);
    start = epoch;
    previous = epoch;
  }
  return parts.join(', ');
}

/**
 * What the head lacks (or, with `wording`, another side), in one line: "head lacks 30 of 210 base episodes: react × fix-flaky-test (epochs 0–2), … and
 * 4 more strategy × task pairs". At most `limit` pairs are named.
 */
export function describeMissing(coverage: Coverage, limit = 8, wording = { lacks: 'head lacks', of: 'base episodes' }): string {
  const missingEpisodes = coverage.baseEpisodes - coverage.covered;
  const named = coverage.missing
    .slice(0, limit)
    .map((entry) => `${entry.strategy} × ${entry.task} (epoch${entry.epochs.length === 1 ? '' : 's'} ${epochRanges(entry.epochs)})`);
  const more = coverage.missing.length - named.length;
  return `${wording.lacks} ${missingEpisodes} of ${coverage.baseEpisodes} ${wording.of}: ${named.join(', ')}${more > 0 ? ` and ${more} more strategy × task pair(s)` : ''}`;
}

export interface ErrorCount {
  errors: number;
  episodes: number;
  /** errors / episodes (0 when there is no episode). */
  rate: number;
}

/** Infrastructure errors on each side, and whether the head's exceed the limit or rose significantly. */
export interface ErrorGate {
  base: ErrorCount;
  head: ErrorCount;
  maxRate: number;
  /** McNemar exact over the episodes both sides have: errored in the base only, in the head only, and p. */
  rise: { baseOnly: number; headOnly: number; pValue: number };
  exceeded: boolean;
  roseSignificantly: boolean;
}

const count = (columns: ResultColumns): ErrorCount => {
  let errors = 0;
  for (let i = 0; i < columns.length; i += 1) if (columns.status[i] === ERROR_STATUS) errors += 1;
  return { errors, episodes: columns.length, rate: columns.length === 0 ? 0 : errors / columns.length };
};

/**
 * Counts `error` episodes on both sides. The head fails the gate when its error rate exceeds `maxRate`, or when its
 * errors rose significantly over the base's: McNemar's exact test on the episodes both sides have (matched on
 * strategy × task × epoch; `matches` from matchRows(base, head)), p < `alpha` with more head-only than base-only
 * errors. Pure.
 */
export function errorGate(base: ResultColumns, head: ResultColumns, maxRate: number, alpha: number, matches: Int8Array = matchRows(base, head)): ErrorGate {
  let baseOnly = 0;
  let headOnly = 0;
  for (let i = 0; i < base.length; i += 1) {
    const match = matches[i];
    if (match === NOT_IN_HEAD) continue;
    const headError = match === HEAD_ERROR;
    const baseError = base.status[i] === ERROR_STATUS;
    if (baseError && !headError) baseOnly += 1;
    if (headError && !baseError) headOnly += 1;
  }
  const pValue = mcnemarExact(baseOnly, headOnly);
  const headCount = count(head);
  return {
    base: count(base),
    head: headCount,
    maxRate,
    rise: { baseOnly, headOnly, pValue },
    exceeded: headCount.rate > maxRate,
    roseSignificantly: headOnly > baseOnly && pValue < alpha,
  };
}

/**
 * What the gate's paired test can show for one strategy, given its design: the tasks it compared and the families
 * they belong to (generated variants of one template are one cluster; a task without a family is its own).
 */
export interface GateDesign {
  /** What the test flips one sign for: `families` when shared tasks share families, else `tasks`. */
  unit: 'families' | 'tasks';
  /** Independent units: families among the shared tasks (each task its own when none share one). */
  units: number;
  /**
   * Kish's design effect the minimum detectable effect takes: the larger of the one observed on the differences
   * (PairedComparison.clustering) and Σ m_f² / Σ m_f over the families' sizes among the shared tasks — the bound
   * `power --suite` uses (every family one unit, familyDesignEffectBound). 1 for independent tasks.
   */
  designEffect: number;
  /** Smallest drop (fraction) detectable with 80% power at α (Connor 1987) at tasks / designEffect pairs; null: not even 1.0. */
  minimumDetectableEffect: number | null;
  /**
   * The smallest p the test can give with this many units, whatever the data: 2 / 2^units for McNemar's exact test
   * and the exact sign-flip test (the observed signs and their mirror image), 1 / (B + 1) for the sampled sign-flip
   * test (Davison & Hinkley 1997, eq. 4.11).
   */
  smallestPValue: number;
  /** smallestPValue < α: some drop could be significant. False with ≤ 5 units at α = 0.05 (2 / 2⁵ = 0.0625). */
  canReachSignificance: boolean;
}

/**
 * The gate's view of one strategy's paired comparison (see GateDesign): `families` holds the family of each shared
 * task, in any order. `resamples` is the sign-flip test's B (exact enumeration when 2^units ≤ B). Pure.
 */
export function gateDesign(change: PairedComparison, families: readonly string[], options: { alpha: number; resamples: number }): GateDesign {
  const sizes = new Map<string, number>();
  for (const family of families) sizes.set(family, (sizes.get(family) ?? 0) + 1);
  const units = sizes.size;
  const designEffect = Math.max(change.clustering?.designEffect ?? 1, familyDesignEffectBound([...sizes.values()]));
  const exact = change.test.method === 'mcnemar-exact' || 2 ** units <= options.resamples;
  const smallestPValue = exact ? Math.min(1, 2 / 2 ** units) : 1 / (options.resamples + 1);
  return {
    unit: units < families.length ? 'families' : 'tasks',
    units,
    designEffect,
    minimumDetectableEffect: minimumDetectableEffect({ n: change.tasks / designEffect, discordance: change.discordance, alpha: options.alpha }),
    smallestPValue,
    canReachSignificance: smallestPValue < options.alpha,
  };
}
