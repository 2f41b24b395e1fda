// The shapes of a base-versus-head comparison (what compareResults() returns and decide() reads).
import type { RunCompleteness } from '../records/index.js';
import type { ConfigurationComparison } from './compare-configuration.js';
import type { Coverage, ErrorGate, GateDesign, Verdict } from './compare-gate.js';
import type { PairedComparison } from './statistics-comparison.js';
import type { RateSummary } from './statistics-summary.js';
import type { StabilityLabel } from './statistics-tasks.js';

/** One folder's side of a comparison: its counts, the strategies it ran and its warnings. */
export interface FolderOverview {
  dir: string;
  episodes: number;
  errors: number;
  strategies: string[];
  tasks: number;
  /** Most scored epochs of any task × strategy. */
  epochs: number;
  warnings: string[];
  /** How much of its run.json's matrix the folder holds (null without run.json); its label marks a partial folder. */
  completeness: RunCompleteness | null;
}

/** One strategy's change on the tasks both folders scored: base = first, head = second. */
export interface StrategyChange {
  strategy: string;
  base: RateSummary;
  head: RateSummary;
  /**
   * change.adjustedPValue is Holm-adjusted across strategies (shown; the gate uses change.test.pValue);
   * change.minimumDetectableEffect is the gate's, design.minimumDetectableEffect (families as clusters).
   */
  change: PairedComparison;
  /** What the gate's test can show with these tasks and families (see gateDesign). */
  design: GateDesign;
  /**
   * regressed: a significant drop or a gating flip; improved: a significant rise; inconclusive: the design cannot
   * rule out a drop of --min-effect (too few families or tasks); else no significant change (see decide).
   */
  verdict: 'regressed' | 'improved' | 'inconclusive' | 'no significant change';
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
  /** Wall time of the side's episodes of this task × strategy (errors included), ms; 0 when unknown. */
  wallMs: number;
}

/**
 * One task × strategy from either folder. `flip` is set when both sides are scored and their labels differ: by the
 * success rates, `worse`, `better` or `changed` (same rate); a worse flip that is part of the regression the gate
 * found (a gating flip, or in a strategy with a significant drop) is `regressed` — never under another verdict.
 */
export interface TaskComparison {
  strategy: string;
  task: string;
  group: string;
  base: TaskSide | null;
  head: TaskSide | null;
  flip: 'regressed' | 'worse' | 'better' | 'changed' | null;
  /** A stable-pass → stable-fail flip with ≥ MIN_EPOCHS_FOR_STABLE_FLIP scored epochs on both sides. */
  gating: boolean;
}

export interface Decision {
  verdict: Verdict;
  /** verdict === 'regressed'. */
  regression: boolean;
  /** Why it regressed: one line per strategy drop, gating flip or error-rate failure. */
  reasons: string[];
  /**
   * Why it is inconclusive (when not regressed): a test that cannot reach p < 0.05 with so few families or tasks,
   * detectable effects above --min-effect, prompts no model reads.
   */
  inconclusive: string[];
  /** Things a reader of the verdict must know: a partial comparison, changed prompts no model reads. */
  warnings: string[];
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
  coverage: Coverage;
  errors: ErrorGate;
  decision: Decision;
  settings: { confidence: number; resamples: number; seed: number; alpha: number; maxErrorRate: number; minEffect: number };
}
