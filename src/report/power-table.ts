// The `stratbench power` answer as a value and as text: tasks (or families) needed per epoch count, or the MDE.
import { DEFAULT_REPORT_WIDTH, fitTable, wrapLine } from './formats/fit-width.js';
import type { PowerEstimate } from './statistics-power-estimate.js';
import type { PowerAssumptions, PowerRow } from './statistics-power.js';

/** Where an assumption's value came from. */
export type PowerSource = 'flag' | 'run' | 'suite' | 'default';

/** A power calculation's question, assumptions and answer (the `--json` document). Effects are fractions. */
export interface PowerReport {
  /** tasks-needed: how many tasks `effect` needs; detectable-effect: what n tasks can detect. */
  mode: 'tasks-needed' | 'detectable-effect';
  effect: number | null;
  tasks: number | null;
  assumptions: PowerAssumptions;
  sources: { discordance: PowerSource; taskCorrelation: PowerSource; designEffect: PowerSource; tasks?: PowerSource };
  rows: PowerRow[];
  /** Present with --from: the per-pair estimates the assumptions were pooled from. */
  estimate?: PowerEstimate;
  notes: string[];
}

const points = (fraction: number): string => `${(fraction * 100).toFixed(1)} pp`;

/** The model and its assumptions, printed under the table and carried in the JSON. */
export function powerNotes(mode: PowerReport['mode']): string[] {
  return [
    "One epoch: McNemar's test, normal approximation of Connor 1987 (Biometrics 43:207): n = [z₁₋α/₂ √ψ + z₁₋β √(ψ − δ²)]² / δ², where ψ is the probability that the two strategies disagree on a task in one epoch and δ the difference in success rates.",
    "k epochs: the comparison is on each task's mean difference over k epochs, whose variance is (ψ − δ²)(ρ + (1 − ρ)/k) — Kish's design effect of k repeated measurements with within-task correlation ρ, divided by k — so n_k = n₁ (ρ + (1 − ρ)/k). Epochs only shrink the within-task (between-epoch) share 1 − ρ: at ρ = 1 they add nothing, at ρ = 0 an epoch is worth a task.",
    'Families: tasks are multiplied by the design effect (Kish 1965; Miller 2024, "Adding Error Bars to Evals"); families needed = tasks / mean family size. A suite alone gives the bound Σm²/Σm (a family\'s variants fully correlated); --from DIR measures it.',
    'Assumed: tasks independent draws from the tasks you care about; epochs independent given the task; the same ρ with and without the effect; the normal approximation (with fewer than about 10 expected discordant tasks the exact test needs more). stratbench itself tests several epochs with a paired sign-flip test on the same per-task differences: these figures plan, they do not replace the test.',
    ...(mode === 'detectable-effect'
      ? ['MDE: the smallest difference detectable with that power at α (Connor 1987 solved for δ) with n / ((ρ + (1 − ρ)/k) × design effect) effective tasks.']
      : []),
  ];
}

function sourceLabel(source: PowerSource): string {
  return source === 'flag' ? 'given' : source === 'default' ? 'assumed' : `from the ${source}`;
}

/** The text answer: one line of assumptions, a table with a row per epoch count, and the notes. */
export function renderPowerText(report: PowerReport): string {
  const a = report.assumptions;
  const question =
    report.mode === 'tasks-needed'
      ? `Tasks a paired comparison of two strategies needs to detect ${points(report.effect as number)}`
      : `Smallest difference a paired comparison of two strategies on ${report.tasks} tasks can detect`;
  const assumptions = [
    `discordance ψ ${a.discordance.toFixed(3)} (${sourceLabel(report.sources.discordance)})`,
    `α ${a.alpha} two-sided`,
    `power ${(a.power * 100).toFixed(0)}%`,
    `within-task correlation ρ ${a.taskCorrelation.toFixed(2)} (${sourceLabel(report.sources.taskCorrelation)})`,
    `design effect ${a.designEffect.toFixed(2)} (${sourceLabel(report.sources.designEffect)})`,
    ...(a.familySize === undefined ? [] : [`${a.familySize.toFixed(2)} tasks per family`]),
  ];
  const head =
    report.mode === 'tasks-needed'
      ? ['Epochs', 'Tasks needed', ...(a.familySize === undefined ? [] : ['Families needed'])]
      : ['Epochs', 'MDE', ...(report.effect === null ? [] : [`Power at ${points(report.effect)}`])];
  const rows = report.rows.map((row) =>
    report.mode === 'tasks-needed'
      ? [String(row.epochs), String(row.tasks), ...(row.families === undefined ? [] : [String(row.families)])]
      : [
          String(row.epochs),
          row.minimumDetectableEffect === null || row.minimumDetectableEffect === undefined ? '> 100 pp' : points(row.minimumDetectableEffect),
          ...(row.powerAtEffect === undefined ? [] : [`${(row.powerAtEffect * 100).toFixed(0)}%`]),
        ],
  );
  const estimate = report.estimate === undefined ? [] : wrapLine(estimateLine(report.estimate), DEFAULT_REPORT_WIDTH, '    ');
  const table = fitTable(head, rows, { style: { head: [], border: [] } });
  // Lines wrapped at spaces to 120 columns (DEFAULT_REPORT_WIDTH); the JSON keeps each note whole.
  const notes = report.notes.flatMap((note) => wrapLine(note, DEFAULT_REPORT_WIDTH, '  '));
  return `${[question, ...wrapLine(`  ${assumptions.join(' · ')}`, DEFAULT_REPORT_WIDTH, '    '), ...estimate, table, '', ...notes].join('\n')}\n`;
}

function estimateLine(estimate: PowerEstimate): string {
  const pairs = estimate.pairs.map(
    (pair) =>
      `${pair.first}/${pair.second} ψ ${pair.discordance.toFixed(3)}, ρ ${pair.taskCorrelation === null ? '–' : pair.taskCorrelation.toFixed(2)}, deff ${pair.designEffect.toFixed(2)}`,
  );
  return `  from the run (${estimate.tasks} tasks, ${estimate.families} families; mean over ${estimate.pairs.length} strategy pair${estimate.pairs.length === 1 ? '' : 's'}): ${pairs.join('; ')}`;
}
