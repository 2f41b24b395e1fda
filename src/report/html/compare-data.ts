// The data of the compare page: the decision in one sentence with its reasons grouped by kind, per-strategy and
// per-group changes (numbers for the forest plot, text for the tables), flipped tasks split regressed / improved with
// each side's failure mode, changed prompts as line diffs, configuration differences.
import { structuredPatch } from 'diff';
import type { RunFile } from '../../records/index.js';
import type { ComparisonReport, StrategyChange, TaskComparison } from '../compare-report.js';
import { formatPValue } from '../formats/numbers.js';
import type { PairedComparison } from '../statistics-comparison.js';
import { pageData, renderHtmlPage, type HtmlAssets } from './render-html.js';
import type { EpisodeRow, ReportData } from './report-data.js';

/** One row of the changes tables and one point of the forest plot; rates and differences are fractions (0.12 = 12 pp). */
export interface ChangeRow {
  strategy: string;
  /** null on a strategy's overall row. */
  group: string | null;
  tasks: number;
  base_rate: number;
  head_rate: number;
  /** head − base with its 95% interval (fractions). */
  estimate: number;
  lower: number;
  upper: number;
  /**
   * The smallest drop detectable with 80% power at α = 0.05: on a strategy row the gate's (StrategyChange.design, families
   * counted as clusters), on a group row that group's own; null when not even 1.0 (100 pp) is.
   */
  mde: number | null;
  /** The gate's p: the paired test's unadjusted p (change.test.pValue), what the CLI prints and `--fail-on-regression` decides on. */
  p: number;
  /** Holm-adjusted across strategies (shown, not used by the gate); null on group rows. */
  p_holm: number | null;
  /** p < α (0.05). */
  significant: boolean;
  /** The gate's verdict on a strategy row; on a group row 'dropped' / 'rose' (p < α) or 'no significant change'. */
  verdict: string;
  /** The same numbers as the CLI prints them: "57.1%", "−57.1", "[−85.7, −28.6]", "0.008" (formatPValue). */
  text: { base: string; head: string; delta: string; interval: string; p: string; p_holm: string; mde: string };
}

/** One side of a flipped task: its label, the epoch the page opens, and the attributed failures of its failed epochs. */
export interface FlipSide {
  /** "stable-fail (0/2)". */
  label: string;
  epoch: number;
  /** Distinct `component.mode` of the side's failed (scored) epochs, "unattributed" for a failure without one; [] when every epoch passed. */
  failures: string[];
}

/** A task × strategy whose stability label changed. `kind`: regressed (flip regressed or worse), improved (better), changed (same rate). */
export interface FlipRow {
  kind: 'regressed' | 'improved' | 'changed';
  /** The comparison's flip label (TaskComparison.flip) and whether it trips the gate. */
  direction: NonNullable<TaskComparison['flip']>;
  gating: boolean;
  task: string;
  strategy: string;
  group: string;
  base: FlipSide;
  head: FlipSide;
}

/** One kind of reason behind the decision, its lines as the CLI prints them. */
export interface ReasonGroup {
  kind: 'regression' | 'gating-flip' | 'error-rate' | 'inconclusive' | 'warning';
  /** "Significant drops", "Gating flips (stable-pass → stable-fail)", … */
  label: string;
  items: string[];
}

/** A role whose prompt template differs between the runs: a unified line diff when both run.json kept the texts. */
export interface PromptChange {
  role: string;
  base_sha256: string | null;
  head_sha256: string | null;
  /** False when either run.json lacks `prompt_texts` (written before it was recorded): only the hashes are known. */
  recorded: boolean;
  /** Hunks with 3 lines of context (jsdiff structuredPatch); each line's kind and text without its marker. */
  hunks: Array<{ header: string; lines: Array<{ kind: 'added' | 'removed' | 'context'; text: string }> }>;
  added: number;
  removed: number;
}

export interface CompareData {
  title: string;
  verdict: string;
  /** The decision in one sentence (decisionSentence). */
  sentence: string;
  reasons: ReasonGroup[];
  alpha: number;
  min_effect: number;
  strategies: ChangeRow[];
  groups: ChangeRow[];
  flips: FlipRow[];
  prompts: PromptChange[];
  configuration: Array<{ field: string; base: string; head: string }>;
}

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;
const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(100 * x).toFixed(1)}`;
const points = (x: number): string => `${Math.abs(100 * x).toFixed(1)} pp`;

function changeRow(change: PairedComparison, fields: Pick<ChangeRow, 'strategy' | 'group' | 'mde' | 'p_holm' | 'verdict'>, alpha: number): ChangeRow {
  const { difference } = change;
  const p = change.test.pValue;
  return {
    ...fields,
    tasks: change.tasks,
    base_rate: change.firstRate,
    head_rate: change.secondRate,
    estimate: difference.estimate,
    lower: difference.lower,
    upper: difference.upper,
    p,
    significant: p < alpha,
    text: {
      base: percent(change.firstRate),
      head: percent(change.secondRate),
      delta: signed(difference.estimate),
      interval: `[${signed(difference.lower)}, ${signed(difference.upper)}]`,
      p: formatPValue(p),
      p_holm: fields.p_holm === null ? '—' : formatPValue(fields.p_holm),
      mde: fields.mde === null ? '> 100 pp' : points(fields.mde),
    },
  };
}

/** The epoch to show for one side of a flip: its first failed epoch when it failed at all, else its first epoch. */
export function epochToShow(rows: readonly EpisodeRow[], task: string, strategy: string): number {
  const cell = rows.filter((row) => row.task === task && row.strategy === strategy).sort((a, b) => a.epoch - b.epoch);
  return (cell.find((row) => !row.success && row.status !== 'error') ?? cell[0])?.epoch ?? 0;
}

function flipSide(rows: readonly EpisodeRow[], task: TaskComparison, side: NonNullable<TaskComparison['base']>): FlipSide {
  const failed = rows.filter((row) => row.task === task.task && row.strategy === task.strategy && !row.success && row.status !== 'error');
  return {
    label: `${side.label} (${side.successes}/${side.epochs})`,
    epoch: epochToShow(rows, task.task, task.strategy),
    failures: [...new Set(failed.map((row) => row.attribution ?? 'unattributed'))],
  };
}

const FLIP_KIND = { regressed: 'regressed', worse: 'regressed', better: 'improved', changed: 'changed' } as const satisfies Record<
  NonNullable<TaskComparison['flip']>,
  FlipRow['kind']
>;

/** The decision's reasons, warnings and inconclusive lines by kind, in the order a reader needs them; empty kinds left out. */
export function groupReasons(report: ComparisonReport): ReasonGroup[] {
  const gating = report.tasks.filter((task) => task.gating).map((task) => `${task.strategy} / ${task.task}: `);
  const groups: Record<ReasonGroup['kind'], string[]> = { regression: [], 'gating-flip': [], 'error-rate': [], inconclusive: [], warning: [] };
  for (const reason of report.decision.reasons) {
    const kind = reason.startsWith('head errors') ? 'error-rate' : gating.some((prefix) => reason.startsWith(prefix)) ? 'gating-flip' : 'regression';
    groups[kind].push(reason);
  }
  groups.inconclusive = [...report.decision.inconclusive];
  groups.warning = report.decision.warnings.filter((warning) => !report.decision.inconclusive.includes(warning));
  const labels: Record<ReasonGroup['kind'], string> = {
    regression: 'Significant drops',
    'gating-flip': 'Gating flips (stable-pass → stable-fail)',
    'error-rate': 'Infrastructure error rate',
    inconclusive: 'Inconclusive designs',
    warning: 'Warnings',
  };
  return (Object.keys(groups) as ReasonGroup['kind'][])
    .filter((kind) => groups[kind].length > 0)
    .map((kind) => ({ kind, label: labels[kind], items: groups[kind] }));
}

const names = (list: readonly string[]): string => (list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`);
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * The decision in one sentence, on the gate's p (the unadjusted paired test, change.test.pValue): e.g. "Regressed:
 * plan-replan dropped 71.4 pp (p = 0.002, the gate's test); gated regressed on 4 stable-pass → stable-fail tasks
 * (p = 0.125); react rose 28.6 pp (p = 0.125, not significant); 1 other strategy shows no significant change." Pure.
 */
export function decisionSentence(report: ComparisonReport): string {
  const { decision, settings } = report;
  const alpha = settings.alpha;
  const byP = [...report.strategies].sort((a, b) => a.change.test.pValue - b.change.test.pValue);
  const p = (entry: StrategyChange): string => formatPValue(entry.change.test.pValue);
  const dropped = byP.filter((entry) => entry.change.test.pValue < alpha && entry.change.difference.estimate < 0);
  const flipOnly = byP.filter((entry) => entry.verdict === 'regressed' && !dropped.includes(entry));
  const rose = byP.filter((entry) => entry.verdict === 'improved');
  const mentioned = new Set([...dropped, ...flipOnly, ...rose]);
  const others = report.strategies.filter((entry) => !mentioned.has(entry));
  const parts: string[] = [];
  if (dropped.length > 0) {
    parts.push(
      dropped
        .map((entry, i) => `${entry.strategy} dropped ${points(entry.change.difference.estimate)} (p = ${p(entry)}${i === 0 ? ", the gate's test" : ''})`)
        .join(', '),
    );
  }
  for (const entry of flipOnly) {
    const flips = report.tasks.filter((task) => task.gating && task.strategy === entry.strategy).length;
    parts.push(
      `${entry.strategy} regressed on ${plural(flips, 'task', 'tasks')} gone stable-pass → stable-fail (its change ${signed(entry.change.difference.estimate)} pp, p = ${p(entry)})`,
    );
  }
  if (report.errors.exceeded)
    parts.push(`the head's infrastructure errors (${percent(report.errors.head.rate)}) exceed --max-error-rate ${percent(report.errors.maxRate)}`);
  else if (report.errors.roseSignificantly) parts.push(`the head's infrastructure errors rose (p = ${formatPValue(report.errors.rise.pValue)})`);
  if (decision.verdict !== 'regressed') parts.push(`no strategy dropped significantly (the gate's test, p < ${alpha})`);
  for (const entry of rose) parts.push(`${entry.strategy} rose ${points(entry.change.difference.estimate)} (p = ${p(entry)})`);
  const inconclusive = others.filter((entry) => entry.verdict === 'inconclusive').map((entry) => entry.strategy);
  if (others.length > 0) {
    const unsure =
      inconclusive.length === 0
        ? ''
        : inconclusive.length === others.length
          ? `, too few tasks to rule out a ${points(settings.minEffect)} drop`
          : ` (${names(inconclusive)}: too few tasks to rule out a ${points(settings.minEffect)} drop)`;
    const verb = others.length === 1 ? 'shows' : 'show';
    parts.push(
      `${plural(others.length, mentioned.size > 0 ? 'other strategy' : 'strategy', mentioned.size > 0 ? 'other strategies' : 'strategies')} ${verb} no significant change${unsure}`,
    );
  }
  if (decision.verdict === 'inconclusive' && report.configuration.promptRolesChanged.length > 0 && report.configuration.promptRolesRead.length === 0) {
    parts.push(`the changed prompts (${names(report.configuration.promptRolesChanged)}) are read by no model of either run`);
  }
  const head = { regressed: 'Regressed', inconclusive: 'Inconclusive', 'no regression': 'No regression' }[decision.verdict];
  return `${head}: ${parts.filter(Boolean).join('; ')}.`;
}

/** The roles whose prompt differs, each with a line diff of the two templates when both run.json kept them. Pure. */
export function promptChanges(report: ComparisonReport, runs: { base: RunFile | null; head: RunFile | null }): PromptChange[] {
  return report.configuration.promptRolesChanged.map((role) => {
    const before = runs.base?.prompt_texts?.[role];
    const after = runs.head?.prompt_texts?.[role];
    const change: PromptChange = {
      role,
      base_sha256: runs.base?.prompts[role] ?? null,
      head_sha256: runs.head?.prompts[role] ?? null,
      recorded: before !== undefined && after !== undefined,
      hunks: [],
      added: 0,
      removed: 0,
    };
    if (!change.recorded) return change;
    for (const hunk of structuredPatch(`base/${role}.md`, `head/${role}.md`, before as string, after as string, undefined, undefined, { context: 3 }).hunks) {
      const lines = hunk.lines
        .filter((line) => !line.startsWith('\\'))
        .map((line) => ({ kind: line[0] === '+' ? ('added' as const) : line[0] === '-' ? ('removed' as const) : ('context' as const), text: line.slice(1) }));
      change.added += lines.filter((line) => line.kind === 'added').length;
      change.removed += lines.filter((line) => line.kind === 'removed').length;
      change.hunks.push({ header: `@@ −${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, lines });
    }
    return change;
  });
}

/**
 * Builds the compare page's data from compareResults' report, both folders' report data and both run.json (null when
 * absent; their `prompt_texts` give the prompt diffs). Flips: regressed/worse → regressed, better → improved, changed →
 * changed, in the comparison's order. Pure.
 */
export function buildCompareData(
  report: ComparisonReport,
  base: ReportData,
  head: ReportData,
  runs: { base: RunFile | null; head: RunFile | null } = { base: null, head: null },
): CompareData {
  const alpha = report.settings.alpha;
  const holm = new Map(report.strategies.map((s) => [s.strategy, s.change.adjustedPValue]));
  const groupVerdict = (change: PairedComparison): string =>
    change.test.pValue < alpha ? (change.difference.estimate < 0 ? 'dropped' : 'rose') : 'no significant change';
  const flips = report.tasks
    .filter((task) => task.flip !== null && task.base !== null && task.head !== null)
    .map(
      (task): FlipRow => ({
        kind: FLIP_KIND[task.flip as NonNullable<TaskComparison['flip']>],
        direction: task.flip as NonNullable<TaskComparison['flip']>,
        gating: task.gating,
        task: task.task,
        strategy: task.strategy,
        group: task.group,
        base: flipSide(base.episodes, task, task.base as NonNullable<TaskComparison['base']>),
        head: flipSide(head.episodes, task, task.head as NonNullable<TaskComparison['head']>),
      }),
    );
  return {
    title: `stratbench compare — ${report.base.dir} → ${report.head.dir}`,
    verdict: report.decision.verdict,
    sentence: decisionSentence(report),
    reasons: groupReasons(report),
    alpha,
    min_effect: report.settings.minEffect,
    strategies: report.strategies.map((s) =>
      changeRow(
        s.change,
        { strategy: s.strategy, group: null, mde: s.design.minimumDetectableEffect, p_holm: holm.get(s.strategy) ?? null, verdict: s.verdict },
        alpha,
      ),
    ),
    groups: report.groups.map((g) =>
      changeRow(
        g.change,
        { strategy: g.strategy, group: g.group, mde: g.change.minimumDetectableEffect, p_holm: null, verdict: groupVerdict(g.change) },
        alpha,
      ),
    ),
    flips,
    prompts: promptChanges(report, runs),
    configuration: report.configuration.differences.map((d) => ({ field: d.field, base: d.base ?? '(absent)', head: d.head ?? '(absent)' })),
  };
}

/** The compare page: the comparison plus both runs' rows and details, so flipped tasks open either side's trace. Pure. */
export function renderCompareHtml(comparison: CompareData, base: ReportData, head: ReportData, assets: HtmlAssets): string {
  const basePage = pageData(base);
  const headPage = pageData(head);
  return renderHtmlPage(
    { title: comparison.title, comparison, base: basePage.page, head: headPage.page },
    { base: basePage.details, head: headPage.details },
    comparison.title,
    assets,
    'compare',
  );
}
