// Lines and cells of a comparison report shared by the text and markdown renderings: header, configuration, per-strategy cells, decision, notes.
import { MIN_EPOCHS_FOR_STABLE_FLIP, type ComparisonReport, type FolderOverview } from '../compare-report.js';
import type { ConfigurationDifference } from '../compare-configuration.js';
import { VERDICT_EXIT_CODES } from '../compare-gate.js';
import { formatChange, formatMinimumDetectableEffect, formatPValue, formatRate, formatTestMethod } from './numbers.js';

function shorten(value: string | null): string {
  if (value === null) return '(none)';
  return /^[0-9a-f]{16,}$/i.test(value) ? value.slice(0, 12) : value;
}

/** The per-strategy columns of a comparison, as the text and markdown tables head them (markdown names Change in full). */
export const STRATEGY_COLUMNS = ['Strategy', 'Tasks', 'Base', 'Head', 'Change', 'Test', 'p', 'p (Holm)', 'MDE', 'Verdict'] as const;

/** One strategy's cells under STRATEGY_COLUMNS: rates with intervals, change, test, p, Holm p, MDE, verdict. */
export function strategyCells(entry: ComparisonReport['strategies'][number]): string[] {
  return [
    entry.strategy,
    String(entry.change.tasks),
    formatRate(entry.base.successRate),
    formatRate(entry.head.successRate),
    formatChange(entry.change.difference),
    formatTestMethod(entry.change),
    formatPValue(entry.change.test.pValue),
    formatPValue(entry.change.adjustedPValue),
    formatMinimumDetectableEffect(entry.change),
    entry.verdict,
  ];
}

/** "results/base: 84 episodes (2 errors), 14 tasks, 3 epochs, strategies direct, react", then a partial folder's label. */
export function describeFolder(folder: FolderOverview): string {
  const errors = folder.errors > 0 ? ` (${folder.errors} error${folder.errors === 1 ? '' : 's'}, excluded)` : '';
  const partial = folder.completeness?.label ? ` — ${folder.completeness.label}` : '';
  return `${folder.dir}: ${folder.episodes} episodes${errors}, ${folder.tasks} tasks, ${folder.epochs} epoch${folder.epochs === 1 ? '' : 's'}, strategies ${folder.strategies.join(', ')}${partial}`;
}

/**
 * The differences of one aspect, one entry per change: fields with the same change share it, under their common
 * prefix ("config.model_specs.{agent,direct,executor}: scripted → scripted:faults=…", not the change once per role).
 */
function describeDifferences(differences: readonly ConfigurationDifference[]): string[] {
  const byChange = new Map<string, string[]>();
  for (const difference of differences) {
    const change = `${shorten(difference.base)} → ${shorten(difference.head)}`;
    const fields = byChange.get(change);
    if (fields === undefined) byChange.set(change, [difference.field]);
    else fields.push(difference.field);
  }
  return [...byChange].map(([change, fields]) => `${joinFields(fields)}: ${change}`);
}

/** `a.b.c`, or `a.b.{c,d}` for fields that differ only in their last part, else the fields separated by commas. */
function joinFields(fields: readonly string[]): string {
  if (fields.length === 1) return fields[0]!;
  const prefix = fields[0]!.slice(0, fields[0]!.lastIndexOf('.') + 1);
  const sameParent = prefix !== '' && fields.every((field) => field.startsWith(prefix) && !field.slice(prefix.length).includes('.'));
  return sameParent ? `${prefix}{${fields.map((field) => field.slice(prefix.length)).join(',')}}` : fields.join(', ');
}

/**
 * One line per configuration aspect, every differing field named: "prompts: DIFFER — prompts.planner: 1a2b… → 3c4d…",
 * "models: same", "options: DIFFER — ollama.options.temperature: 0 → 0.7", then the head's coverage and errors.
 */
export function configurationLines(report: ComparisonReport): string[] {
  const { configuration } = report;
  const aspects = ['suite', 'models', 'prompts', 'options'] as const;
  const lines = aspects.map((aspect) => {
    const sameness = configuration[aspect];
    const details = describeDifferences(configuration.differences.filter((difference) => difference.aspect === aspect));
    const verdict = sameness === 'same' ? 'same' : sameness === 'different' ? 'DIFFER' : 'unknown (run.json incomplete)';
    return `${aspect}: ${verdict}${details.length > 0 ? ` — ${details.join('; ')}` : ''}`;
  });
  if (report.onlyInBase.length > 0) lines.push(`strategies only in base (not compared): ${report.onlyInBase.join(', ')}`);
  if (report.onlyInHead.length > 0) lines.push(`strategies only in head (not compared): ${report.onlyInHead.join(', ')}`);
  const { coverage, errors } = report;
  lines.push(
    coverage.partial
      ? `coverage: PARTIAL — head has ${coverage.covered} of ${coverage.baseEpisodes} base episodes (--allow-partial)`
      : `coverage: head has all ${coverage.baseEpisodes} base episodes`,
  );
  const share = (count: { errors: number; episodes: number; rate: number }): string => `${count.errors}/${count.episodes} (${(count.rate * 100).toFixed(1)}%)`;
  lines.push(`errors: base ${share(errors.base)}, head ${share(errors.head)}; limit ${(errors.maxRate * 100).toFixed(1)}%`);
  return lines;
}

/** The gate's outcome: a headline naming the verdict and its exit code, one line per reason. */
export function decisionLines(report: ComparisonReport): { headline: string; reasons: string[] } {
  const { decision } = report;
  const code = VERDICT_EXIT_CODES[decision.verdict];
  switch (decision.verdict) {
    case 'regressed':
      return { headline: `REGRESSION (exit ${code} with --fail-on-regression)`, reasons: decision.reasons };
    case 'inconclusive':
      return {
        headline: `INCONCLUSIVE: no significant regression, but the comparison could have missed one (exit ${code} with --fail-on-regression)`,
        reasons: decision.inconclusive,
      };
    case 'no regression':
      return { headline: 'no significant regression', reasons: [] };
    default: {
      const unhandled: never = decision.verdict;
      return unhandled;
    }
  }
}

/**
 * `reasons` with those that differ only in the strategy they name ("react: with 14 shared tasks …") joined into one
 * ("direct, react: with 14 shared tasks …"), in first-seen order; other reasons unchanged. For the text output, where
 * six strategies gave six lines of the same sentence.
 */
export function groupedReasons(report: ComparisonReport, reasons: readonly string[]): string[] {
  const names = report.strategies.map((entry) => entry.strategy);
  const groups = new Map<string, string[]>();
  const order: string[] = [];
  for (const reason of reasons) {
    const name = names.find((strategy) => reason.startsWith(`${strategy}: `));
    const key = name === undefined ? `\u0000${reason}` : reason.slice(name.length + 2);
    if (!groups.has(key)) {
      groups.set(key, []);
      order.push(key);
    }
    if (name !== undefined) groups.get(key)!.push(name);
  }
  return order.map((key) => (key.startsWith('\u0000') ? key.slice(1) : `${groups.get(key)!.join(', ')}: ${key}`));
}

/** How the numbers were computed, in a few sentences. */
export function methodNotes(report: ComparisonReport): string[] {
  const { settings } = report;
  const confidence = Math.round(settings.confidence * 100);
  return [
    `Change = head − base on the tasks scored on both sides, in percentage points, with ${confidence}% intervals: Newcombe's paired score interval (one epoch) or a paired cluster bootstrap over tasks (several epochs; B = ${settings.resamples}, seed ${settings.seed}).`,
    `p: McNemar's exact test (one epoch) or the paired cluster sign-flip bootstrap (several epochs); "p (Holm)" is adjusted across strategies. MDE: the smallest change detectable with 80% power at α = ${settings.alpha} (Connor 1987) at this number of tasks, tasks of one family counted as one cluster (design effect Σm²/Σm, as \`power --suite\` counts them).`,
    'With few tasks a bootstrap interval can exclude 0 while p ≥ 0.05: the sign-flip test is exact, the percentile interval approximate; the gate uses p.',
    `Gate: a strategy regresses when its change is negative with unadjusted p < ${settings.alpha}, or a task goes stable-pass → stable-fail with ≥ ${MIN_EPOCHS_FOR_STABLE_FLIP} scored epochs on both sides; the head fails when more than ${(settings.maxErrorRate * 100).toFixed(1)}% of its episodes are infrastructure errors or its errors rise significantly (errors are otherwise excluded from rates). Inconclusive: a strategy whose test cannot reach p < ${settings.alpha} whatever the data (5 or fewer families or tasks: the smallest p is 2/2⁵ = 0.0625), a strategy's MDE above --min-effect ${(settings.minEffect * 100).toFixed(1)} pp, or changed prompts that no model reads.`,
  ];
}
