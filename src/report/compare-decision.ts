// The gate's decision from a comparison: per-strategy verdicts, flip labels that agree with it, and the reasons.
import type { ConfigurationComparison } from './compare-configuration.js';
import type { ErrorGate, GateDesign, Verdict } from './compare-gate.js';
import type { Decision, StrategyChange, TaskComparison } from './compare-shapes.js';

const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
const points = (effect: number): string => `${(effect * 100).toFixed(1)} pp`;

/** What decide() reads besides the strategies and tasks. */
export interface DecisionInput {
  errors: ErrorGate;
  configuration: ConfigurationComparison;
  /** Warnings already known (a partial comparison). */
  warnings: string[];
  alpha: number;
  minEffect: number;
  /** The head folder, named in the advice of an error-rate failure. */
  headDir: string;
}

/**
 * Why `entry`'s design leaves the gate unable to rule out a drop of `minEffect` (null when it can): first a test that
 * cannot reach p < α whatever the data (too few families or tasks), else a minimum detectable effect above minEffect.
 */
export function designShortfall(entry: Pick<StrategyChange, 'strategy' | 'change' | 'design'>, alpha: number, minEffect: number): string | null {
  const { design, change } = entry;
  if (!design.canReachSignificance) return unreachable(entry.strategy, change.tasks, design, alpha);
  const detectable = design.minimumDetectableEffect;
  if (detectable !== null && detectable <= minEffect) return null;
  const families = design.designEffect > 1 ? ` in ${design.units} families (design effect ${design.designEffect.toFixed(1)})` : '';
  return (
    `${entry.strategy}: with ${change.tasks} shared tasks${families} the smallest detectable drop is ${detectable === null ? 'over 100 pp' : points(detectable)}, ` +
    `above --min-effect ${points(minEffect)} (more ${design.unit === 'families' ? 'families' : 'tasks'} lower it)`
  );
}

function unreachable(strategy: string, tasks: number, design: GateDesign, alpha: number): string {
  const smallest = design.smallestPValue.toPrecision(3);
  const exact = design.smallestPValue === Math.min(1, 2 / 2 ** design.units);
  const bound = exact ? `2/2^${design.units} = ${smallest}` : smallest;
  const what =
    design.unit === 'families'
      ? `the ${tasks} shared tasks are variants of ${design.units} families and the paired test flips one sign per family`
      : `the paired test has ${tasks} shared task${tasks === 1 ? '' : 's'}`;
  return `${strategy}: ${what}, so its p cannot fall below ${bound} ≥ α = ${alpha}: not even a 100 pp drop could be significant (at least ${Math.ceil(Math.log2(2 / alpha) + 1e-9)} ${design.unit === 'families' ? 'families' : 'tasks'} are needed)`;
}

/**
 * The verdict, per strategy and overall. A strategy is `regressed` when its change is negative with unadjusted
 * p < α or one of its tasks is a gating flip (stable-pass → stable-fail); `improved` when positive with p < α;
 * `inconclusive` when its design cannot rule out a drop of minEffect (designShortfall); else `no significant change`.
 * A task's flip for the worse is labelled `regressed` only when it is part of a regression (a gating flip, or a
 * worse flip of a strategy whose paired test found a significant drop); otherwise `worse`. Overall: `regressed`
 * when a strategy regressed or the head's infrastructure errors failed the error gate; else `inconclusive` when a
 * strategy is, or prompts changed that no model reads; else `no regression`. Pure.
 */
export function decide(
  strategies: readonly StrategyChange[],
  tasks: readonly TaskComparison[],
  input: DecisionInput,
): { strategies: StrategyChange[]; tasks: TaskComparison[]; decision: Decision } {
  const { alpha, minEffect, errors } = input;
  const droppedSignificantly = new Set<string>();
  const judged = strategies.map((entry): StrategyChange => {
    const { change } = entry;
    const significant = change.test.pValue < alpha;
    const gatingFlip = tasks.some((task) => task.gating && task.strategy === entry.strategy);
    if (significant && change.difference.estimate < 0) droppedSignificantly.add(entry.strategy);
    const verdict: StrategyChange['verdict'] =
      (significant && change.difference.estimate < 0) || gatingFlip
        ? 'regressed'
        : significant && change.difference.estimate > 0
          ? 'improved'
          : designShortfall(entry, alpha, minEffect) !== null
            ? 'inconclusive'
            : 'no significant change';
    return { ...entry, verdict };
  });
  const labelled = tasks.map((task): TaskComparison => {
    const partOfRegression = task.gating || (task.flip === 'worse' && droppedSignificantly.has(task.strategy));
    return partOfRegression ? { ...task, flip: 'regressed' } : task;
  });

  const reasons: string[] = [];
  for (const entry of judged.filter((candidate) => droppedSignificantly.has(candidate.strategy))) {
    const { change } = entry;
    reasons.push(
      `${entry.strategy}: success fell from ${percent(change.firstRate)} to ${percent(change.secondRate)} on ${change.tasks} shared tasks ` +
        `(${change.test.method}, p = ${change.test.pValue.toPrecision(3)} < ${alpha})`,
    );
  }
  for (const task of labelled.filter((candidate) => candidate.gating)) {
    reasons.push(
      `${task.strategy} / ${task.task}: stable-pass (${task.base?.successes}/${task.base?.epochs}) became stable-fail (${task.head?.successes}/${task.head?.epochs})`,
    );
  }
  const errorShare = (count: { errors: number; episodes: number; rate: number }): string => `${count.errors} of ${count.episodes} (${percent(count.rate)})`;
  if (errors.exceeded) {
    reasons.push(
      `head errors: ${errorShare(errors.head)} episodes ended in an infrastructure error, above --max-error-rate ${percent(errors.maxRate)}; ` +
        `its success rates stand on too few episodes (once the model server is back, \`stratbench run --resume ${input.headDir}\` runs them again)`,
    );
  } else if (errors.roseSignificantly) {
    reasons.push(
      `head errors rose: ${errorShare(errors.base)} in the base, ${errorShare(errors.head)} in the head ` +
        `(McNemar exact on the same episodes, p = ${errors.rise.pValue.toPrecision(3)} < ${alpha})`,
    );
  }

  const warnings = [...input.warnings];
  const inconclusive: string[] = [];
  const { configuration } = input;
  if (configuration.promptRolesChanged.length > 0 && configuration.promptRolesRead.length === 0) {
    const message =
      `prompts differ (${configuration.promptRolesChanged.join(', ')}) but no role whose prompt changed is served by a model that reads prompts ` +
      '(the scripted stand-in replays recorded trajectories): this comparison says nothing about the prompt change; run both sides with a real model, e.g. --model ollama:qwen3:8b';
    warnings.push(message);
    inconclusive.push(message);
  }
  for (const entry of judged) {
    const shortfall = designShortfall(entry, alpha, minEffect);
    if (shortfall !== null) inconclusive.push(shortfall);
  }
  const verdict: Verdict = reasons.length > 0 ? 'regressed' : inconclusive.length > 0 ? 'inconclusive' : 'no regression';
  return { strategies: judged, tasks: labelled, decision: { verdict, regression: verdict === 'regressed', reasons, inconclusive, warnings } };
}
