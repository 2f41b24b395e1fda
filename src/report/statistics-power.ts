// Power of a paired comparison of two strategies: tasks needed for an effect, or the effect detectable with n tasks.
import { normalDistribution, normalQuantile } from './statistics-distributions.js';
import { minimumDetectableEffect } from './statistics-paired-tests.js';

/** Epoch counts `stratbench power` tabulates when none is given. */
export const DEFAULT_POWER_EPOCHS = [1, 2, 3, 5] as const;
/**
 * Assumed share of the per-epoch difference's variance that is between tasks (a task's lasting advantage for one
 * strategy) rather than between epochs of the same task (sampling noise), when no run supplies an estimate. 0.5 is
 * a stated middle, not a finding: `--from DIR` measures it.
 */
export const DEFAULT_TASK_CORRELATION = 0.5;

/** What a power calculation assumes. Rates and effects are fractions (0.05 = 5 percentage points). */
export interface PowerAssumptions {
  /** Probability that in one epoch the two strategies disagree on a task (ψ), in (0, 1]. */
  discordance: number;
  /** Two-sided significance level, in (0, 1). */
  alpha: number;
  /** Power, in (0, 1). */
  power: number;
  /** Within-task correlation ρ of the per-epoch differences (see epochVarianceFactor), in [0, 1]. */
  taskCorrelation: number;
  /** Kish design effect of clustering tasks in families (≥ 1; 1 = independent tasks). */
  designEffect: number;
  /** Mean tasks per family, when known: turns tasks needed into families needed. */
  familySize?: number;
}

/**
 * Pairs (tasks, one epoch, independent) McNemar's test needs to detect a difference `effect` in paired success rates
 * with discordance ψ, two-sided at α with the given power — the normal approximation of Connor 1987 ("Sample size
 * for testing differences in proportions for the paired-sample design", Biometrics 43:207, p. 209; Miettinen 1968):
 *   n = [z₁₋α/₂ √ψ + z₁₋β √(ψ − δ²)]² / δ².
 * Unrounded. Throws RangeError when δ is not in (0, 1] or ψ < δ (an effect δ needs at least δ discordance).
 */
export function pairedSampleSize(input: { effect: number; discordance: number; alpha: number; power: number }): number {
  const { effect, discordance } = input;
  if (!(effect > 0 && effect <= 1)) throw new RangeError(`pairedSampleSize: effect must be in (0, 1], got ${effect}`);
  if (!(discordance >= effect && discordance <= 1)) throw new RangeError(`pairedSampleSize: discordance must be in [effect, 1], got ${discordance}`);
  const zAlpha = normalQuantile(1 - input.alpha / 2);
  const zPower = normalQuantile(input.power);
  const root = zAlpha * Math.sqrt(discordance) + zPower * Math.sqrt(discordance - effect * effect);
  return (root * root) / (effect * effect);
}

/**
 * Power of McNemar's test (Connor 1987's normal approximation, the larger tail) to detect `effect` with `n` effective
 * pairs: Φ((δ√n − z₁₋α/₂ √ψ) / √(ψ − δ²)); 1 when ψ = δ² (no spread under the alternative) and δ√n exceeds the bound.
 */
export function pairedPower(input: { effect: number; discordance: number; alpha: number; n: number }): number {
  const { effect, discordance, n } = input;
  const zAlpha = normalQuantile(1 - input.alpha / 2);
  const spread = Math.sqrt(Math.max(0, discordance - effect * effect));
  const margin = effect * Math.sqrt(n) - zAlpha * Math.sqrt(discordance);
  if (spread === 0) return margin > 0 ? 1 : 0;
  return normalDistribution(margin / spread);
}

/**
 * How much k epochs per task shrink the variance of a task's mean paired difference, relative to one epoch:
 * ρ + (1 − ρ)/k, where ρ is the between-task share of the per-epoch difference's variance (the intraclass
 * correlation of the k epochs of one task). This is Kish's design effect of a cluster of k repeated measurements,
 * 1 + (k − 1)ρ, divided by k (Kish 1965, "Survey Sampling"; Donner & Klar 2000, ch. 5). ρ = 1: epochs add nothing
 * (each task always goes the same way); ρ = 0: each epoch is as good as a new task.
 */
export function epochVarianceFactor(epochs: number, taskCorrelation: number): number {
  return taskCorrelation + (1 - taskCorrelation) / epochs;
}

/**
 * Kish's design effect when families are fully correlated inside (ρ = 1), with unequal sizes m_f: Σ m_f² / Σ m_f —
 * i.e. every family counts as one independent unit (Kish 1965, §5.4). The conservative bound a suite alone gives.
 */
export function familyDesignEffectBound(familySizes: readonly number[]): number {
  const total = familySizes.reduce((sum, m) => sum + m, 0);
  if (total === 0) return 1;
  return Math.max(1, familySizes.reduce((sum, m) => sum + m * m, 0) / total);
}

/** One epoch count's answer: tasks (and families) needed for the effect, or the effect detectable with n tasks. */
export interface PowerRow {
  epochs: number;
  /** Variance factor of epochVarianceFactor at these epochs. */
  epochFactor: number;
  /** Tasks needed (rounded up), when solving for sample size. */
  tasks?: number;
  /** Families needed (tasks / mean family size, rounded up), when the family size is known. */
  families?: number;
  /** Smallest detectable difference (fraction), when solving for the effect; null: not even 1.0. */
  minimumDetectableEffect?: number | null;
  /** Power to detect the given effect with n tasks, when both are given. */
  powerAtEffect?: number;
}

/**
 * Tasks needed for `effect` at each epoch count: ⌈n₁ · (ρ + (1 − ρ)/k) · deff⌉, n₁ from pairedSampleSize. Scaling
 * both variance terms of Connor's formula by the same factor is exact under the model (the test is then on the mean
 * of the per-task mean differences, normal approximation). Families needed: ⌈tasks / mean family size⌉.
 */
export function tasksNeeded(effect: number, assumptions: PowerAssumptions, epochs: readonly number[] = DEFAULT_POWER_EPOCHS): PowerRow[] {
  const single = pairedSampleSize({ effect, ...assumptions });
  return epochs.map((k) => {
    const epochFactor = epochVarianceFactor(k, assumptions.taskCorrelation);
    // Round before ceiling so a value like 23.0000000001 from floating point does not become 24.
    const tasks = Math.ceil(Number((single * epochFactor * assumptions.designEffect).toFixed(9)));
    const families = assumptions.familySize === undefined ? {} : { families: Math.ceil(Number((tasks / assumptions.familySize).toFixed(9))) };
    return { epochs: k, epochFactor, tasks, ...families };
  });
}

/**
 * Minimum detectable effect with `tasks` tasks at each epoch count: minimumDetectableEffect (Connor 1987 solved for
 * δ) at n / (epoch factor × deff) effective pairs. With `effect`, also the power to detect it there (pairedPower).
 */
export function detectableEffects(tasks: number, assumptions: PowerAssumptions, epochs: readonly number[] = DEFAULT_POWER_EPOCHS, effect?: number): PowerRow[] {
  return epochs.map((k) => {
    const epochFactor = epochVarianceFactor(k, assumptions.taskCorrelation);
    const n = tasks / (epochFactor * assumptions.designEffect);
    const detectable = minimumDetectableEffect({ n, discordance: assumptions.discordance, alpha: assumptions.alpha, power: assumptions.power });
    const powerAtEffect =
      effect === undefined ? {} : { powerAtEffect: pairedPower({ effect, discordance: assumptions.discordance, alpha: assumptions.alpha, n }) };
    return { epochs: k, epochFactor, minimumDetectableEffect: detectable, ...powerAtEffect };
  });
}
