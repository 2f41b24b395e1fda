// The data an HTML report inlines: run facts, summary and statistics, one compact row per episode, and the
// gzip-compressed details (trace, checks, messages) of the failed episodes and a sample, decoded by the page on demand.
import type { EpisodeRecord, RunFile, StoredText } from '../../records/index.js';
import type { SummaryFile } from '../run-report.js';
import { DetailSelection, detailFingerprint } from './detail-selection.js';

/** One episode as the overview and the grid read it (no trace). `detail`: index into ReportData.details, or null when not inlined. */
export interface EpisodeRow {
  task: string;
  group: string;
  /** The template family of a generated task; null for a hand-written one. */
  family: string | null;
  /** The suite's shared repository fixture the task starts from; null in folders written before it was recorded. */
  fixture: string | null;
  strategy: string;
  epoch: number;
  success: boolean;
  status: string;
  reason: string;
  expect: string;
  model_calls: number;
  tool_calls: number;
  replans: number;
  tokens: number;
  model_ms: number;
  /** component.mode of a failed episode's attribution. */
  attribution: string | null;
  explanation: string | null;
  evidence: number[];
  /** The first failing check's detail, when a check failed. */
  failing: string | null;
  /** The counterfactual verdict (run --counterfactual) of a failed plan-strategy episode, when there is one. */
  counterfactual: CounterfactualVerdict | null;
  detail: number | null;
}

/** One entry of counterfactual.json, as far as the report shows it. */
export interface CounterfactualVerdict {
  task: string;
  strategy: string;
  epoch: number;
  /** The first role whose replacement by the scripted reference made the episode succeed; null when none did. */
  counterfactual: string | null;
  replaced: Record<string, boolean>;
  agrees: boolean | null;
}

/** What one inlined episode detail holds once decompressed (JSON). */
export interface EpisodeDetail {
  outcome: EpisodeRecord['outcome'];
  checks: EpisodeRecord['checks'];
  findings: EpisodeRecord['findings'] | null;
  models: EpisodeRecord['models'];
  trace: EpisodeRecord['trace'];
  /** The stored texts the trace's model calls reference (hash → {role, content}); empty when the folder has none. */
  texts: Record<string, { role: string; content: string }>;
}

export interface ReportData {
  schemaVersion: 1;
  title: string;
  generated_at: string;
  run: {
    suite: string | null;
    epochs: number | null;
    seed: number | null;
    config_hash: string | null;
    models: Record<string, string>;
    started_at: string | null;
    notes: string[];
  };
  groups: string[];
  strategies: string[];
  summary: Omit<SummaryFile, 'results' | 'failures' | 'errors'>;
  episodes: EpisodeRow[];
  /** base64 of gzip(JSON EpisodeDetail); identical details are stored once. */
  details: string[];
  /** Episodes whose detail is not inlined (successful episodes beyond the sample, or past the size budget). */
  omitted: number;
  /** Successful episodes of each task × strategy cell inlined besides the failures (ReportDataOptions.successSamplePerCell). */
  success_sample_per_cell: number;
  /** Whether the results folder had a messages.jsonl. */
  messages_stored: boolean;
}

export interface ReportDataOptions {
  /**
   * Upper bound on the base64 bytes of inlined details (default 4 MB): failures first, then the sample, inlined in that
   * order until the first detail that does not fit.
   */
  detailBudgetBytes?: number;
  /** Successful episodes inlined per task × strategy cell besides the failures (default 1: its first epoch). */
  successSamplePerCell?: number;
  title?: string;
  now?: Date;
  /** counterfactual.json's episodes, when the run has one. */
  counterfactuals?: readonly CounterfactualVerdict[];
}

export const DEFAULT_DETAIL_BUDGET_BYTES = 4 * 1024 * 1024;

function textsOf(record: EpisodeRecord, texts: ReadonlyMap<string, StoredText>): EpisodeDetail['texts'] {
  const out: EpisodeDetail['texts'] = {};
  for (const event of record.trace) {
    if (event.type !== 'model_call') continue;
    for (const hash of [...(event.sent?.messages ?? []), ...(event.thinking ? [event.thinking] : [])]) {
      const stored = texts.get(hash);
      if (stored) out[hash] = { role: stored.role, content: stored.content };
    }
  }
  return out;
}

/** What the page shows of one episode beyond its row (what an inlined detail holds, and what `view --serve` returns). Pure. */
export function episodeDetailOf(record: EpisodeRecord, texts: ReadonlyMap<string, StoredText>): EpisodeDetail {
  return {
    outcome: record.outcome,
    checks: record.checks,
    findings: record.findings ?? null,
    models: record.models,
    trace: record.trace,
    texts: textsOf(record, texts),
  };
}

/** The evidence of every row without an attribution: one shared empty list (a 100k-episode run has ~60k). */
const NO_EVIDENCE: number[] = [];

const modelCalls = (record: EpisodeRecord): number => Object.values(record.metrics.model_calls).reduce((sum, n) => sum + n, 0);

function rowOf(record: EpisodeRecord): EpisodeRow {
  const failing = record.checks.find((check) => !check.pass);
  return {
    task: record.task,
    group: record.group,
    family: record.family ?? null,
    fixture: record.fixture ?? null,
    strategy: record.strategy,
    epoch: record.epoch,
    success: record.success,
    status: record.outcome.status,
    reason: record.outcome.reason,
    expect: record.expect,
    model_calls: modelCalls(record),
    tool_calls: record.metrics.tool_calls,
    replans: record.metrics.replans,
    tokens: record.metrics.tokens_in + record.metrics.tokens_out,
    model_ms: record.metrics.model_ms,
    attribution: record.attribution ? `${record.attribution.component}.${record.attribution.mode}` : null,
    explanation: record.attribution?.explanation ?? null,
    evidence: record.attribution?.evidence ?? NO_EVIDENCE,
    failing: failing ? failing.detail : null,
    counterfactual: null,
    detail: null,
  };
}

/**
 * The order details are inlined in: every failed or errored episode (interleaved across task × strategy cells, so a
 * budget cut leaves every cell some), then `sample` successful epochs of every cell. Returns indexes into `rows`.
 */
function detailOrder(rows: readonly EpisodeRow[], sample: number): number[] {
  const failedByCell = new Map<string, number[]>();
  const successByCell = new Map<string, number[]>();
  rows.forEach((row, index) => {
    const cell = `${row.task}|${row.strategy}`;
    const map = row.success ? successByCell : failedByCell;
    const list = map.get(cell);
    if (list) list.push(index);
    else map.set(cell, [index]);
  });
  const interleave = (lists: number[][]): number[] => {
    const out: number[] = [];
    for (let round = 0; lists.some((list) => round < list.length); round += 1) {
      for (const list of lists) if (round < list.length) out.push(list[round] as number);
    }
    return out;
  };
  const byEpoch = (list: number[]) => [...list].sort((a, b) => (rows[a] as EpisodeRow).epoch - (rows[b] as EpisodeRow).epoch);
  const failed = interleave([...failedByCell.values()].map(byEpoch));
  const successes = interleave([...successByCell.values()].map((list) => byEpoch(list).slice(0, sample)));
  return [...failed, ...successes];
}

const byRowOrder = (a: EpisodeRow, b: EpisodeRow): number =>
  a.group.localeCompare(b.group) || a.task.localeCompare(b.task) || a.strategy.localeCompare(b.strategy) || a.epoch - b.epoch;

/**
 * Builds a report's data from a folder's records in two passes over them, holding no record: `add` each record
 * (file order; keeps its row and a fingerprint of its detail), `plan()`, then while `nextBatch()` names file
 * positions, read those records again and `offer(position, record)` each (see DetailSelection), then `build`. Memory: one row per episode (strings interned) and about the
 * detail budget. Pure (no I/O).
 */
export class ReportDataBuilder {
  private readonly rows: EpisodeRow[] = [];
  private fingerprints = new Uint32Array(1024);
  private readonly strings = new Map<string, string>();
  private selection: DetailSelection | null = null;
  private readonly verdicts: Map<string, CounterfactualVerdict>;
  /** File positions whose verdict came from ReportDataOptions.counterfactuals. */
  private readonly givenVerdicts: number[] = [];

  constructor(
    private readonly texts: ReadonlyMap<string, StoredText>,
    private readonly options: ReportDataOptions = {},
  ) {
    this.verdicts = new Map((options.counterfactuals ?? []).map((v) => [`${v.task}|${v.strategy}|${v.epoch}`, v]));
  }

  private intern<T extends string | null>(text: T): T {
    if (text === null) return text;
    const known = this.strings.get(text);
    if (known !== undefined) return known as T;
    this.strings.set(text, text);
    return text;
  }

  /**
   * Adds the next record in file order with its own counterfactual verdict (null: none — then the one of
   * ReportDataOptions.counterfactuals, if any, is shown); returns its file position.
   */
  add(record: EpisodeRecord, ownVerdict: CounterfactualVerdict | null = null): number {
    const row = rowOf(record);
    for (const field of ['task', 'group', 'family', 'fixture', 'strategy', 'status', 'reason', 'expect', 'attribution', 'explanation', 'failing'] as const) {
      (row as unknown as Record<string, string | null>)[field] = this.intern(row[field]);
    }
    const given = ownVerdict ? null : (this.verdicts.get(`${row.task}|${row.strategy}|${row.epoch}`) ?? null);
    row.counterfactual = ownVerdict ?? given;
    const index = this.rows.push(row) - 1;
    if (given) this.givenVerdicts.push(index);
    if (index >= this.fingerprints.length) {
      const grown = new Uint32Array(this.fingerprints.length * 2);
      grown.set(this.fingerprints);
      this.fingerprints = grown;
    }
    this.fingerprints[index] = detailFingerprint(record);
    return index;
  }

  /** Episodes added. */
  get episodes(): number {
    return this.rows.length;
  }

  /** Ranks the candidates for inlining (failures first, then the sample); call once, after the last `add`. */
  plan(): void {
    // Ranked over the rows in the page's order, so cells take turns in that order.
    const sorted = this.rows.map((_, index) => index).sort((a, b) => byRowOrder(this.rows[a] as EpisodeRow, this.rows[b] as EpisodeRow));
    const order = detailOrder(
      sorted.map((index) => this.rows[index] as EpisodeRow),
      this.options.successSamplePerCell ?? 1,
    ).map((at) => sorted[at] as number);
    this.selection = new DetailSelection(
      Int32Array.from(order),
      this.options.detailBudgetBytes ?? DEFAULT_DETAIL_BUDGET_BYTES,
      this.fingerprints,
      this.rows.length,
    );
  }

  private planned(): DetailSelection {
    if (this.selection === null) throw new Error('ReportDataBuilder: plan() comes before nextBatch/offer/build');
    return this.selection;
  }

  /** The file positions (ascending) whose records to read again and `offer` next, or null when done (see DetailSelection). */
  nextBatch(): number[] | null {
    return this.planned().nextBatch();
  }

  /** The record at file position `position`, read again (one of nextBatch's). */
  offer(position: number, record: EpisodeRecord): void {
    this.planned().offer(position, JSON.stringify(episodeDetailOf(record, this.texts)));
  }

  /**
   * The report's data: rows sorted by group, task, strategy, epoch, each pointing at its inlined detail (an episode
   * whose detail equals an inlined one points at it too). `summary` with statistics (summary.json or recomputed);
   * `run` null without run.json; `strategies` when there is no run.json: those of the records, in order of appearance.
   * `ownVerdictsOnly`: drop the verdicts of ReportDataOptions.counterfactuals (the records carry their own).
   */
  build(summary: SummaryFile, run: RunFile | null, options: { ownVerdictsOnly?: boolean } = {}): ReportData {
    if (options.ownVerdictsOnly === true) for (const index of this.givenVerdicts) (this.rows[index] as EpisodeRow).counterfactual = null;
    const { details, slotOf } = this.planned().finish();
    this.rows.forEach((row, index) => {
      const slot = slotOf[index] as number;
      row.detail = slot >= 0 ? slot : null;
    });
    const rows = [...this.rows].sort(byRowOrder);
    const { results: _results, failures: _failures, errors: _errors, ...kept } = summary;
    const strategies = run?.strategies ?? [...new Set(this.rows.map((r) => r.strategy))];
    return {
      schemaVersion: 1,
      title: this.options.title ?? `stratbench — ${run?.suite.name ?? 'results'}`,
      generated_at: (this.options.now ?? new Date()).toISOString(),
      run: {
        suite: run?.suite.name ?? null,
        epochs: run?.epochs ?? null,
        seed: run?.seed ?? null,
        config_hash: run?.config_hash ?? null,
        models: run?.models ?? {},
        started_at: run?.started_at ?? null,
        notes: Object.values(run?.model_notes ?? {}),
      },
      groups: summary.groups,
      strategies,
      summary: kept,
      episodes: rows,
      details,
      omitted: rows.filter((row) => row.detail === null).length,
      success_sample_per_cell: this.options.successSamplePerCell ?? 1,
      messages_stored: this.texts.size > 0,
    };
  }
}

/**
 * Builds the report's data from records in memory (see ReportDataBuilder, which `reportDataOf` feeds from a folder
 * one line at a time), its summary (with statistics: summary.json or recomputed), run.json (null when absent) and
 * its stored texts (messages.jsonl; empty map when absent). Details are gzip-compressed and base64-encoded; identical
 * details (the same trace in several epochs) are kept once, and an episode left out by the sample or the budget whose
 * detail equals an inlined one points at it. Pure.
 */
export function buildReportData(
  records: readonly EpisodeRecord[],
  summary: SummaryFile,
  run: RunFile | null,
  texts: ReadonlyMap<string, StoredText>,
  options: ReportDataOptions = {},
): ReportData {
  const builder = new ReportDataBuilder(texts, options);
  for (const record of records) builder.add(record);
  builder.plan();
  for (let batch = builder.nextBatch(); batch !== null; batch = builder.nextBatch()) {
    for (const position of batch) builder.offer(position, records[position] as EpisodeRecord);
  }
  return builder.build(summary, run);
}
