// The data of the compare page: per-strategy and per-group changes with intervals, flipped tasks, configuration differences.
import type { ComparisonReport } from '../compare-report.js';
import type { PairedComparison } from '../statistics-comparison.js';
import { pageData, renderHtmlPage, type HtmlAssets } from './render-html.js';
import type { EpisodeRow, ReportData } from './report-data.js';

/** One row of the changes tables, formatted for display (rates in %, differences in percentage points). */
export interface ChangeRow {
  strategy: string;
  group?: string;
  base: string;
  head: string;
  delta: string;
  interval: string;
  p: string;
  significant: boolean;
  verdict?: string;
}

/** A task × strategy whose stability label changed, with the epoch of each side's trace to open. */
export interface FlipRow {
  task: string;
  strategy: string;
  group: string;
  direction: string;
  base_label: string;
  head_label: string;
  base_epoch: number;
  head_epoch: number;
}

export interface CompareData {
  title: string;
  verdict: string;
  reasons: string[];
  warnings: string[];
  strategies: ChangeRow[];
  groups: ChangeRow[];
  flips: FlipRow[];
  configuration: Array<{ field: string; base: string; head: string }>;
}

const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;
const points = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(100 * x).toFixed(1)}`;

function changeRow(change: PairedComparison, p: number, extra: Partial<ChangeRow>): ChangeRow {
  return {
    strategy: change.first,
    base: `${percent(change.firstRate)} (${change.tasks} tasks)`,
    head: percent(change.secondRate),
    delta: points(change.difference.estimate),
    interval: `[${points(change.difference.lower)}, ${points(change.difference.upper)}]`,
    p: p.toPrecision(2),
    significant: p < 0.05,
    ...extra,
  };
}

/** The epoch to show for one side of a flip: its first failed epoch when it failed at all, else its first epoch. */
function epochToShow(rows: readonly EpisodeRow[], task: string, strategy: string): number {
  const cell = rows.filter((row) => row.task === task && row.strategy === strategy).sort((a, b) => a.epoch - b.epoch);
  return (cell.find((row) => !row.success && row.status !== 'error') ?? cell[0])?.epoch ?? 0;
}

/** Builds the compare page's data from compareResults' report and both folders' report data. Pure. */
export function buildCompareData(report: ComparisonReport, base: ReportData, head: ReportData): CompareData {
  return {
    title: `stratbench compare — ${report.base.dir} → ${report.head.dir}`,
    verdict: report.decision.verdict,
    reasons: [...report.decision.reasons, ...report.decision.inconclusive],
    warnings: report.decision.warnings,
    strategies: report.strategies.map((s) => changeRow(s.change, s.change.adjustedPValue, { strategy: s.strategy, verdict: s.verdict })),
    groups: report.groups.map((g) => changeRow(g.change, g.change.test.pValue, { strategy: g.strategy, group: g.group })),
    flips: report.tasks
      .filter((t) => t.flip !== null && t.base !== null && t.head !== null)
      .map((t) => ({
        task: t.task,
        strategy: t.strategy,
        group: t.group,
        direction: t.flip as string,
        base_label: `${t.base!.label} (${t.base!.successes}/${t.base!.epochs})`,
        head_label: `${t.head!.label} (${t.head!.successes}/${t.head!.epochs})`,
        base_epoch: epochToShow(base.episodes, t.task, t.strategy),
        head_epoch: epochToShow(head.episodes, t.task, t.strategy),
      })),
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
