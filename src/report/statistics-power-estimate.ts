// Estimates a power calculation's inputs (discordance, within-task correlation, design effect) from a run's episodes.
import { designEffect } from './statistics-comparison.js';
import { type StatisticsInput, toResultColumns } from './result-columns.js';
import { collectTaskOutcomes, type TaskOutcome } from './statistics-tasks.js';

/** One strategy pair's estimates; `taskCorrelation` is null when no task has two paired epochs. */
export interface PairPowerEstimate {
  first: string;
  second: string;
  /** Tasks with at least one paired scored epoch. */
  tasks: number;
  /** Paired epochs (epoch j of one strategy with epoch j of the other on a task). */
  pairs: number;
  discordance: number;
  taskCorrelation: number | null;
  designEffect: number;
  families: number;
}

/** The pooled estimates `stratbench power --from` plans with: the mean over strategy pairs. */
export interface PowerEstimate {
  pairs: PairPowerEstimate[];
  discordance: number;
  /** null when no pair has a task with two paired epochs (a one-epoch run cannot separate epoch noise). */
  taskCorrelation: number | null;
  designEffect: number;
  /** Mean tasks per family over the run's tasks (1 when no task shares a family). */
  familySize: number;
  tasks: number;
  families: number;
}

/**
 * ICC(1) of one-way ANOVA (Shrout & Fleiss 1979; unequal group sizes with k₀ of Donner 1986): groups are tasks, values
 * the per-epoch differences. ρ̂ = (MSB − MSW) / (MSB + (k₀ − 1) MSW), clamped to [0, 1]. null when there are fewer than
 * two tasks, no task with two values, or no variance at all.
 */
export function intraclassCorrelation(groups: readonly (readonly number[])[]): number | null {
  const used = groups.filter((group) => group.length > 0);
  const total = used.reduce((sum, group) => sum + group.length, 0);
  const t = used.length;
  if (t < 2 || total <= t) return null;
  const grand = used.reduce((sum, group) => sum + group.reduce((a, b) => a + b, 0), 0) / total;
  const means = used.map((group) => group.reduce((a, b) => a + b, 0) / group.length);
  const between = used.reduce((sum, group, i) => sum + group.length * ((means[i] as number) - grand) ** 2, 0) / (t - 1);
  const within = used.reduce((sum, group, i) => sum + group.reduce((inner, value) => inner + (value - (means[i] as number)) ** 2, 0), 0) / (total - t);
  const k0 = (total - used.reduce((sum, group) => sum + group.length ** 2, 0) / total) / (t - 1);
  const denominator = between + (k0 - 1) * within;
  if (!(denominator > 0)) return null;
  return Math.min(1, Math.max(0, (between - within) / denominator));
}

function estimatePair(first: readonly TaskOutcome[], second: readonly TaskOutcome[], labels: [string, string]): PairPowerEstimate | null {
  const secondByTask = new Map(second.map((outcome) => [outcome.task, outcome]));
  const groups: number[][] = [];
  const families: string[] = [];
  for (const a of first) {
    const b = secondByTask.get(a.task);
    const paired = b ? Math.min(a.results.length, b.results.length) : 0;
    if (!b || paired === 0) continue;
    groups.push(a.results.slice(0, paired).map((passed, epoch) => Number(b.results[epoch]) - Number(passed)));
    families.push(a.family);
  }
  if (groups.length === 0) return null;
  const pairs = groups.reduce((sum, group) => sum + group.length, 0);
  const discordant = groups.reduce((sum, group) => sum + group.filter((d) => d !== 0).length, 0);
  const means = groups.map((group) => group.reduce((a, b) => a + b, 0) / group.length);
  return {
    first: labels[0],
    second: labels[1],
    tasks: groups.length,
    pairs,
    discordance: discordant / pairs,
    taskCorrelation: intraclassCorrelation(groups),
    designEffect: designEffect(means, families),
    families: new Set(families).size,
  };
}

/**
 * Per strategy pair (in order of first appearance), from the scored epochs (infrastructure errors left out): the
 * observed per-epoch discordance ψ̂ (share of paired epochs — epoch j with epoch j — on which exactly one side
 * passed), the within-task correlation ρ̂ of the per-epoch differences (intraclassCorrelation), and Kish's design
 * effect of the families (designEffect of the per-task mean differences). Pooled: the mean over pairs (ρ̂ over the
 * pairs that have one). Returns null when fewer than two strategies share a scored task. Takes ResultColumns or an
 * EpisodeResult[].
 */
export function estimatePowerInputs(input: StatisticsInput): PowerEstimate | null {
  const columns = toResultColumns(input);
  const outcomes = [...collectTaskOutcomes(columns).entries()];
  const pairs: PairPowerEstimate[] = [];
  outcomes.forEach(([firstLabel, first], i) => {
    for (const [secondLabel, second] of outcomes.slice(i + 1)) {
      const estimate = estimatePair(first, second, [firstLabel, secondLabel]);
      if (estimate) pairs.push(estimate);
    }
  });
  if (pairs.length === 0) return null;
  const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  const correlations = pairs.flatMap((pair) => (pair.taskCorrelation === null ? [] : [pair.taskCorrelation]));
  const taskFamilies = new Map(columns.tasks.map((task) => [task.id, task.family]));
  const families = new Set(taskFamilies.values()).size;
  return {
    pairs,
    discordance: mean(pairs.map((pair) => pair.discordance)),
    taskCorrelation: correlations.length === 0 ? null : mean(correlations),
    designEffect: mean(pairs.map((pair) => pair.designEffect)),
    familySize: taskFamilies.size / families,
    tasks: taskFamilies.size,
    families,
  };
}
