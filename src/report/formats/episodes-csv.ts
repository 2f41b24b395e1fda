// The CSV export: one row per episode (keys, ending, success, infrastructure error, costs, attribution,
// counterfactual verdict, how to open its trace), formatted by d3-dsv and neutralised against formula injection.
import { csvFormatRow } from 'd3';
import type { EpisodeRecord } from '../../records/index.js';
import type { CounterfactualVerdict } from '../html/report-data.js';

/**
 * The header, in column order. Units: *_ms in milliseconds (model_ms and load_ms real model time, tool_ms simulated
 * tool time, wall_ms the episode's real time), tokens as the backend counted them. `success` is 1 or 0 (0 for an
 * error episode, which is not a strategy failure: `error` names its infrastructure kind).
 */
export const CSV_COLUMNS = [
  'key',
  'task',
  'group',
  'family',
  'fixture',
  'strategy',
  'epoch',
  'seed',
  'models',
  'status',
  'reason',
  'expect',
  'success',
  'error',
  'model_calls',
  'model_calls_by_role',
  'tool_calls',
  'tokens_in',
  'tokens_out',
  'model_ms',
  'load_ms',
  'tool_ms',
  'wall_ms',
  'replans',
  'failed_checks',
  'first_failing_check',
  'attribution_component',
  'attribution_mode',
  'attribution_first_event',
  'attribution_explanation',
  'counterfactual',
  'counterfactual_agrees',
  'answer',
  'message',
  'trace',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
export type CsvCell = string | number;

/** Where the row's values come from besides the record: the run's counterfactual verdicts and the folder's path. */
export interface EpisodeCsvContext {
  /** counterfactual.json's verdict of this episode, when the run made one. */
  counterfactual?: CounterfactualVerdict | null;
  /** The results folder as the user named it: the `trace` column is the explain command that prints the episode. */
  dir: string;
}

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection": =, +, -, @, tab, carriage
 * return). Text cells starting with one get a leading apostrophe, which spreadsheets show as text; numbers are left
 * alone (a negative number is data, not a formula).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell that is a plain number (`-1`, `+0.5`, `-2e3`): a spreadsheet reads it as that number, never a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A text cell as written: prefixed with `'` when it would start a formula. A plain number written as text (a task
 * answer of `-1`) is data and stays as it is (issue 29: `-1` came back from DuckDB as the text `'-1`). Pure.
 */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/** The infrastructure kind of an error episode (`infrastructure:<kind>` → kind, a harness bug → harness_error); '' otherwise. */
function errorKind(record: EpisodeRecord): string {
  if (record.outcome.status !== 'error') return '';
  return record.outcome.reason.startsWith('infrastructure:') ? record.outcome.reason.slice('infrastructure:'.length) : record.outcome.reason;
}

const byRole = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([role, value]) => `${role}=${value}`)
    .join(';');

/** A shell word for the `trace` command: bare when safe, else single-quoted. */
const shellWord = (word: string): string => (/^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** One episode's values by column (before neutralisation). Pure. */
export function episodeCsvValues(record: EpisodeRecord, context: EpisodeCsvContext): Record<CsvColumn, CsvCell> {
  const failed = record.checks.filter((check) => !check.pass);
  const verdict = context.counterfactual ?? null;
  const { metrics, attribution } = record;
  return {
    key: record.key,
    task: record.task,
    group: record.group,
    family: record.family ?? '',
    fixture: record.fixture ?? '',
    strategy: record.strategy,
    epoch: record.epoch,
    seed: record.seed,
    models: byRole(record.models),
    status: record.outcome.status,
    reason: record.outcome.reason,
    expect: record.expect,
    success: record.success ? 1 : 0,
    error: errorKind(record),
    model_calls: Object.values(metrics.model_calls).reduce((sum, n) => sum + n, 0),
    model_calls_by_role: byRole(metrics.model_calls),
    tool_calls: metrics.tool_calls,
    tokens_in: metrics.tokens_in,
    tokens_out: metrics.tokens_out,
    model_ms: metrics.model_ms,
    load_ms: metrics.load_ms,
    tool_ms: metrics.tool_ms,
    wall_ms: record.wall_ms,
    replans: metrics.replans,
    failed_checks: failed.length,
    first_failing_check: failed[0]?.detail ?? '',
    attribution_component: attribution?.component ?? '',
    attribution_mode: attribution?.mode ?? '',
    attribution_first_event: attribution?.evidence[0] ?? '',
    attribution_explanation: attribution?.explanation ?? '',
    counterfactual: verdict ? (verdict.counterfactual ?? 'none') : '',
    counterfactual_agrees: verdict === null || verdict.agrees === null ? '' : verdict.agrees ? 1 : 0,
    answer: record.outcome.answer ?? '',
    message: record.outcome.message ?? '',
    trace: ['stratbench', 'explain', context.dir, record.task, record.strategy, '--epoch', String(record.epoch)].map(shellWord).join(' '),
  };
}

/** One CSV line (RFC 4180: CRLF-terminated, quoted where needed), text cells neutralised. Pure. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${csvFormatRow(cells.map((cell) => (typeof cell === 'number' ? cell : neutraliseCell(cell))))}\r\n`;
}

/**
 * The CSV, line by line (header first), so a writer can stream it without holding the whole text. Records keep the
 * folder's order. `verdicts`: counterfactual.json's episodes (empty when the run made none). Pure.
 */
export function* episodesCsvLines(
  records: Iterable<EpisodeRecord>,
  dir: string,
  verdicts: readonly CounterfactualVerdict[] = [],
): Generator<string, void, undefined> {
  const byEpisode = new Map(verdicts.map((verdict) => [`${verdict.task}|${verdict.strategy}|${verdict.epoch}`, verdict]));
  yield csvLine(CSV_COLUMNS);
  for (const record of records) {
    const values = episodeCsvValues(record, { dir, counterfactual: byEpisode.get(`${record.task}|${record.strategy}|${record.epoch}`) ?? null });
    yield csvLine(CSV_COLUMNS.map((column) => values[column]));
  }
}
