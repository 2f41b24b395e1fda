// Prose lines of a comparison report shared by the text and markdown renderings: header, configuration, decision, notes.
import { MIN_EPOCHS_FOR_STABLE_FLIP, type ComparisonReport, type ConfigurationDifference, type FolderOverview } from '../compare-report.js';

function shorten(value: string | null): string {
  if (value === null) return '(none)';
  return /^[0-9a-f]{16,}$/i.test(value) ? value.slice(0, 12) : value;
}

/** "results/base: 84 episodes (2 errors), 14 tasks, 3 epochs, strategies direct, react". */
export function describeFolder(folder: FolderOverview): string {
  const errors = folder.errors > 0 ? ` (${folder.errors} error${folder.errors === 1 ? '' : 's'}, excluded)` : '';
  return `${folder.dir}: ${folder.episodes} episodes${errors}, ${folder.tasks} tasks, ${folder.epochs} epoch${folder.epochs === 1 ? '' : 's'}, strategies ${folder.strategies.join(', ')}`;
}

function describeDifference(difference: ConfigurationDifference): string {
  return `${difference.field}: ${shorten(difference.base)} → ${shorten(difference.head)}`;
}

/** One line per configuration aspect: "prompts differ: prompts.planner: 1a2b… → 3c4d…", "models same", … */
export function configurationLines(report: ComparisonReport): string[] {
  const { configuration } = report;
  const aspects = [
    ['suite', configuration.suite, 'suite.'],
    ['models', configuration.models, 'models.'],
    ['prompts', configuration.prompts, 'prompts.'],
  ] as const;
  const lines = aspects.map(([name, sameness, prefix]) => {
    const details = configuration.differences.filter((difference) => difference.field.startsWith(prefix)).map(describeDifference);
    const verdict = sameness === 'same' ? 'same' : sameness === 'different' ? 'DIFFER' : 'unknown (run.json incomplete)';
    return `${name}: ${verdict}${details.length > 0 ? ` — ${details.join('; ')}` : ''}`;
  });
  const epochs = configuration.differences.find((difference) => difference.field === 'epochs');
  if (epochs) lines.push(`epochs: ${describeDifference(epochs).replace('epochs: ', '')}`);
  if (report.onlyInBase.length > 0) lines.push(`strategies only in base (not compared): ${report.onlyInBase.join(', ')}`);
  if (report.onlyInHead.length > 0) lines.push(`strategies only in head (not compared): ${report.onlyInHead.join(', ')}`);
  return lines;
}

/** The gate's outcome: a headline and one line per reason. */
export function decisionLines(report: ComparisonReport): { headline: string; reasons: string[] } {
  return report.decision.regression
    ? { headline: 'REGRESSION', reasons: report.decision.reasons }
    : { headline: 'no significant regression', reasons: [] };
}

/** How the numbers were computed, in a few sentences. */
export function methodNotes(report: ComparisonReport): string[] {
  const { settings } = report;
  const confidence = Math.round(settings.confidence * 100);
  return [
    `Change = head − base on the tasks scored on both sides, in percentage points, with ${confidence}% intervals: Newcombe's paired score interval (one epoch) or a paired cluster bootstrap over tasks (several epochs; B = ${settings.resamples}, seed ${settings.seed}).`,
    `p: McNemar's exact test (one epoch) or the paired cluster sign-flip bootstrap (several epochs); "p (Holm)" is adjusted across strategies. MDE: the smallest change detectable with 80% power at α = ${settings.alpha} (Connor 1987) at this number of tasks.`,
    'With few tasks a bootstrap interval can exclude 0 while p ≥ 0.05: the sign-flip test is exact, the percentile interval approximate; the gate uses p.',
    `Gate: a strategy regresses when its change is negative with unadjusted p < ${settings.alpha}, or a task goes stable-pass → stable-fail with ≥ ${MIN_EPOCHS_FOR_STABLE_FLIP} scored epochs on both sides. Infrastructure errors are excluded.`,
  ];
}
