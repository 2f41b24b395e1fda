// The HTML report's data: which episode details are inlined (failures first, spread over cells, within the budget), packing, escaping.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { EpisodeRecord, StoredText, TraceEvent } from '../src/records/index.js';
import { summaryFromRecords, withStatistics } from '../src/report/index.js';
import { buildReportData, type EpisodeDetail } from '../src/report/html/report-data.js';
import { packRows, renderHtmlReport, scriptJson } from '../src/report/html/render-html.js';
import { episodeRecord, runFile } from './support/results-files.js';

const modelCall = (id: number, text: string, sent?: string[]): TraceEvent => ({
  id,
  t_ms: 0,
  type: 'model_call',
  role: 'direct',
  model: 'ollama:m',
  schema: 'action',
  attempt: 1,
  outcome: 'ok',
  text,
  format_warnings: [],
  tokens_in: 1,
  tokens_out: 1,
  duration_ms: 1,
  load_ms: 0,
  ...(sent ? { sent: { messages: sent, options: {} } } : {}),
});

/** Episodes of tasks a, b × epochs 0..2; task a fails in every epoch, b passes; every trace distinct. */
function records(): EpisodeRecord[] {
  const out: EpisodeRecord[] = [];
  for (const task of ['a', 'b']) {
    for (let epoch = 0; epoch < 3; epoch += 1) {
      const fails = task === 'a';
      out.push(
        episodeRecord(task, {
          epoch,
          success: !fails,
          attribution: fails ? { component: 'agent', mode: 'premature_finish', evidence: [0], explanation: 'stopped early' } : null,
          trace: [modelCall(0, `${task}-${epoch} ${'x'.repeat(200)}`, ['h1'])],
        }),
      );
    }
  }
  return out;
}

const texts = new Map<string, StoredText>([['h1', { hash: 'h1', role: 'system', content: 'You are the direct role.' }]]);
const summary = (list: EpisodeRecord[]) => summaryFromRecords(list, ['single-action'], ['direct'], 1);
const decode = (base64: string): EpisodeDetail => JSON.parse(gunzipSync(Buffer.from(base64, 'base64')).toString('utf8')) as EpisodeDetail;

describe('buildReportData', () => {
  it('inlines every failed episode and one epoch of each passing cell, with the messages its calls were sent', () => {
    const list = records();
    const data = buildReportData(list, summary(list), runFile(), texts);
    const inlined = data.episodes.filter((row) => row.detail !== null).map((row) => `${row.task}/${row.epoch}`);
    expect(inlined).toEqual(['a/0', 'a/1', 'a/2', 'b/0']);
    expect(data.omitted).toBe(2);
    const detail = decode(data.details[data.episodes.find((row) => row.task === 'a' && row.epoch === 1)!.detail!]!);
    expect(detail.texts).toEqual({ h1: { role: 'system', content: 'You are the direct role.' } });
    expect(detail.trace).toEqual(list[1]!.trace);
    expect(data.episodes[0]).toMatchObject({ task: 'a', success: false, attribution: 'agent.premature_finish', explanation: 'stopped early', evidence: [0] });
  });

  it('stops at the size budget, keeping the first failure of each cell before the second of any', () => {
    const list = [...records(), ...records().map((r) => ({ ...r, strategy: 'react', key: `${r.key}r`, trace: [modelCall(0, `react ${r.epoch} ${r.task}`)] }))];
    const one = decode(buildReportData(list, summary(list), null, texts).details[0]!);
    expect(one.trace.length).toBe(1);
    const size = buildReportData(list, summary(list), null, texts).details[0]!.length;
    const data = buildReportData(list, summary(list), null, texts, { detailBudgetBytes: 2 * size + 10 });
    const inlined = data.episodes.filter((row) => row.detail !== null).map((row) => `${row.task}/${row.strategy}/${row.epoch}`);
    expect(inlined).toEqual(['a/direct/0', 'a/react/0']);
  });

  it('keeps identical details once', () => {
    const list = records().map((r) => ({ ...r, trace: [modelCall(0, 'same')] }));
    const data = buildReportData(list, summary(list), null, new Map());
    expect(data.details).toHaveLength(1);
    expect(new Set(data.episodes.map((row) => row.detail))).toEqual(new Set([0]));
  });
});

describe('the page', () => {
  it('packs rows by column with one string table', () => {
    const list = records();
    const rows = buildReportData(list, summary(list), null, texts).episodes;
    const packed = packRows(rows);
    const unpacked = Array.from({ length: packed.length }, (_, i) =>
      Object.fromEntries(
        Object.entries(packed.columns).map(([field, column]) => [
          field,
          packed.stringColumns.includes(field) && column[i] !== null ? packed.strings[column[i] as number] : column[i],
        ]),
      ),
    );
    expect(unpacked).toEqual(rows);
  });

  it('cannot be broken out of its script elements by a trace', () => {
    expect(scriptJson({ text: '</script><script>alert(1)</script>\u2028' })).toBe('{"text":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>\\u2028"}');
    const list = [episodeRecord('a', { success: false, outcome: { status: 'finished', reason: '</script><img src=x>' } })];
    const html = renderHtmlReport(buildReportData(list, summary(list), null, new Map()), { d3: '', plot: '', script: '', styles: '' });
    expect(html).not.toContain('</script><img');
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });
});
