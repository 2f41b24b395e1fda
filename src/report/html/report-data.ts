// The data an HTML report inlines: run facts, summary and statistics, one compact row per episode, and the
// gzip-compressed details (trace, checks, messages) of the failed episodes and a sample, decoded by the page on demand.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { EpisodeRecord, RunFile, StoredText } from '../../records/index.js';
import type { SummaryFile } from '../run-report.js';

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
  /** Whether the results folder had a messages.jsonl. */
  messages_stored: boolean;
}

export interface ReportDataOptions {
  /** Upper bound on the base64 bytes of inlined details (default 4 MB): failures first, then the sample. */
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
    evidence: record.attribution?.evidence ?? [],
    failing: failing ? failing.detail : null,
    counterfactual: null,
    detail: null,
  };
}

/**
 * The order details are inlined in: every failed or errored episode (interleaved across task × strategy cells, so a
 * budget cut leaves every cell some), then `sample` successful epochs of every cell. Returns record indexes.
 */
function detailOrder(records: readonly EpisodeRecord[], sample: number): number[] {
  const failedByCell = new Map<string, number[]>();
  const successByCell = new Map<string, number[]>();
  records.forEach((record, index) => {
    const cell = `${record.task}|${record.strategy}`;
    const map = record.success ? successByCell : failedByCell;
    map.set(cell, [...(map.get(cell) ?? []), index]);
  });
  const interleave = (lists: number[][]): number[] => {
    const out: number[] = [];
    for (let round = 0; lists.some((list) => round < list.length); round += 1) {
      for (const list of lists) if (round < list.length) out.push(list[round] as number);
    }
    return out;
  };
  const bySort = (list: number[]) => [...list].sort((a, b) => (records[a] as EpisodeRecord).epoch - (records[b] as EpisodeRecord).epoch);
  const failed = interleave([...failedByCell.values()].map(bySort));
  const successes = interleave([...successByCell.values()].map((list) => bySort(list).slice(0, sample)));
  return [...failed, ...successes];
}

/**
 * Builds the report's data from a results folder's records, its summary (with statistics: summary.json or
 * recomputed), run.json (null when absent) and its stored texts (messages.jsonl; empty map when absent). Pure.
 * Details are gzip-compressed and base64-encoded; identical details (the same trace in several epochs) are kept once,
 * and an episode left out by the sample or the budget whose detail equals an inlined one points at it.
 */
export function buildReportData(
  records: readonly EpisodeRecord[],
  summary: SummaryFile,
  run: RunFile | null,
  texts: ReadonlyMap<string, StoredText>,
  options: ReportDataOptions = {},
): ReportData {
  const budget = options.detailBudgetBytes ?? DEFAULT_DETAIL_BUDGET_BYTES;
  const sorted = [...records].sort(
    (a, b) => a.group.localeCompare(b.group) || a.task.localeCompare(b.task) || a.strategy.localeCompare(b.strategy) || a.epoch - b.epoch,
  );
  const rows = sorted.map(rowOf);
  const verdicts = new Map((options.counterfactuals ?? []).map((v) => [`${v.task}|${v.strategy}|${v.epoch}`, v]));
  for (const row of rows) row.counterfactual = verdicts.get(`${row.task}|${row.strategy}|${row.epoch}`) ?? null;
  const details: string[] = [];
  const seen = new Map<string, number>();
  let used = 0;
  const detailJson = (record: EpisodeRecord): string => {
    const detail: EpisodeDetail = {
      outcome: record.outcome,
      checks: record.checks,
      findings: record.findings ?? null,
      models: record.models,
      trace: record.trace,
      texts: textsOf(record, texts),
    };
    return JSON.stringify(detail);
  };
  const keyOf = (json: string): string => createHash('sha256').update(json).digest('hex');
  for (const index of detailOrder(sorted, options.successSamplePerCell ?? 1)) {
    const json = detailJson(sorted[index] as EpisodeRecord);
    const key = keyOf(json);
    let slot = seen.get(key);
    if (slot === undefined) {
      const encoded = gzipSync(json, { level: 9 }).toString('base64');
      if (used + encoded.length > budget) continue;
      used += encoded.length;
      slot = details.push(encoded) - 1;
      seen.set(key, slot);
    }
    (rows[index] as EpisodeRow).detail = slot;
  }
  // An episode left out whose detail equals an inlined one (the same trace in another epoch) shares it.
  rows.forEach((row, index) => {
    if (row.detail === null) row.detail = seen.get(keyOf(detailJson(sorted[index] as EpisodeRecord))) ?? null;
  });
  const { results: _results, failures: _failures, errors: _errors, ...kept } = summary;
  const strategies = run?.strategies ?? [...new Set(records.map((r) => r.strategy))];
  return {
    schemaVersion: 1,
    title: options.title ?? `stratbench — ${run?.suite.name ?? 'results'}`,
    generated_at: (options.now ?? new Date()).toISOString(),
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
    messages_stored: texts.size > 0,
  };
}
