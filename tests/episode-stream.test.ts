// Streaming a results folder: scanEpisodes reads episodes.jsonl a line at a time with parseEpisodes' rules, and the
// summary a run, report or merge builds from it keeps a bounded list of failed episodes and one string per task.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUMMARY_LISTED_EPISODES, type EpisodeRecord } from '../src/records/index.js';
import { SummaryBuilder } from '../src/report/run-summary.js';
import { describeCompleteness, DiskWriteError, MatrixPositions, parseEpisodes, scanEpisodes } from '../src/results-folder/index.js';
import { episodeRecord, runFile } from './support/results-files.js';

const file = (text: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'scan-')), 'episodes.jsonl');
  writeFileSync(path, text);
  return path;
};
const line = (task: string, overrides: Partial<EpisodeRecord> = {}): string => JSON.stringify(episodeRecord(task, overrides));

async function scan(path: string, matrix?: Parameters<typeof scanEpisodes>[2]) {
  let seen: string[] = [];
  let starts = 0;
  const result = await scanEpisodes(
    path,
    () => {
      starts += 1;
      seen = [];
      return (record) => {
        seen.push(`${record.task}/${record.epoch}/${record.outcome.status}`);
      };
    },
    matrix,
  );
  return { result, seen, starts };
}

describe('scanEpisodes', () => {
  it('visits every record in file order across 1 MiB chunk boundaries, like parseEpisodes', async () => {
    const text = Array.from({ length: 600 }, (_, i) => `${line(`t${i}`, { outcome: { status: 'finished', reason: 'x'.repeat(4000) } })}\n`).join('');
    expect(text.length).toBeGreaterThan(2 * (1 << 20));
    const { result, seen } = await scan(file(text));
    expect(result).toMatchObject({ ok: true, records: 600, warnings: [], completeBytes: Buffer.byteLength(text) });
    const parsed = parseEpisodes(text);
    expect(parsed.ok && parsed.records.map((r) => `${r.task}/${r.epoch}/${r.outcome.status}`)).toEqual(seen);
  });

  it('keeps multi-byte characters whole where a 1 MiB chunk boundary cuts them, and counts bytes, not characters', async () => {
    // Lines of 3-byte (€) and 4-byte (𝄞) characters at an odd offset: some fall across the chunk boundary.
    const reason = (i: number): string => `${'x'.repeat(i % 3)}${'€𝄞'.repeat(1500)}`;
    const text = Array.from({ length: 300 }, (_, i) => `${line(`t${i}`, { outcome: { status: 'finished', reason: reason(i) } })}\n`).join('');
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 * (1 << 20));
    const reasons: string[] = [];
    const result = await scanEpisodes(file(`${text}\n`), () => (record) => {
      reasons.push(record.outcome.reason);
    });
    expect(result).toMatchObject({ ok: true, records: 300, warnings: [], completeBytes: Buffer.byteLength(text) + 1 });
    expect(reasons).toEqual(Array.from({ length: 300 }, (_, i) => reason(i)));
  });

  it('skips a torn last line with a warning and reports where the complete lines end', async () => {
    const head = `${line('a')}\n\n${line('b')}\n`;
    const { result, seen } = await scan(file(`${head}{"schemaVersion":3,"ke`));
    expect(seen).toEqual(['a/0/finished', 'b/0/finished']);
    expect(result).toMatchObject({ ok: true, completeBytes: Buffer.byteLength(head) });
    expect(result.ok && result.warnings).toEqual([expect.stringMatching(/episodes\.jsonl:4: incomplete last line/)]);
  });

  it('refuses a broken line in the middle, naming file:line', async () => {
    const path = file(`${line('a')}\nnot json\n${line('b')}\n`);
    const { result } = await scan(path);
    expect(result).toEqual({ ok: false, error: expect.stringContaining(`${path}:2: not valid JSON`) });
  });

  it("a disk fault its visitor throws rejects as it is; the visitor's other errors end the scan as the file's", async () => {
    const path = file(`${line('a')}\n${line('b')}\n`);
    // A merge copying lines onto a full disk: the write's error, not "cannot read" the shard being copied.
    const full = new DiskWriteError('/out/episodes.jsonl', 'ENOSPC');
    const copying = scanEpisodes(path, () => (record) => {
      if (record.task === 'b') throw full;
    });
    await expect(copying).rejects.toBe(full);
    const summing = await scanEpisodes(path, () => () => {
      throw new RangeError('epoch out of range');
    });
    expect(summing).toEqual({ ok: false, error: `${path}: cannot read (RangeError: epoch out of range)` });
  });

  it('counts a repeated episode once, the first line, in one pass, naming the repeat', async () => {
    const text = `${line('a')}\n${line('b')}\n${line('a', { outcome: { status: 'stopped', reason: 'r' } })}\n`;
    const cases: [Parameters<typeof scanEpisodes>[2], string][] = [
      [undefined, ' of line 1'],
      [{ tasks: ['a', 'b'], strategies: ['direct'], epochs: 1 }, ''],
    ];
    for (const [matrix, earlier] of cases) {
      const { result, seen, starts } = await scan(file(text), matrix);
      expect(starts).toBe(1);
      expect(seen).toEqual(['a/0/finished', 'b/0/finished']);
      expect(result.ok && result.records).toBe(2);
      expect(result.ok && result.warnings).toEqual([expect.stringContaining(`:3: repeats strategy direct, task a, epoch 0${earlier}; the first line is used`)]);
    }
  });
});

describe('SummaryBuilder at scale', () => {
  it('lists the first SUMMARY_LISTED_EPISODES failures in strategy, task, epoch order and counts them all', () => {
    const builder = new SummaryBuilder(['single-action'], ['direct']);
    const total = SUMMARY_LISTED_EPISODES * 3 + 7;
    for (let epoch = total - 1; epoch >= 0; epoch--) {
      builder.add(episodeRecord('t', { epoch, success: false, checks: [{ check: { check: 'x' }, pass: false, detail: `no ${epoch}` }] }));
    }
    const summary = builder.build();
    expect(summary.failures_total).toBe(total);
    expect(summary.failures).toHaveLength(SUMMARY_LISTED_EPISODES);
    expect(summary.failures.map((f) => f.epoch)).toEqual(Array.from({ length: SUMMARY_LISTED_EPISODES }, (_, i) => i));
    expect(summary.task_results).toEqual([{ strategy: 'direct', task: 't', group: 'single-action', outcomes: 'f'.repeat(total) }]);
    expect(summary.attribution.unattributed).toBe(total);
  });

  it('writes each epoch of a task as one character: s, f, e, and - for an epoch the folder lacks', () => {
    const builder = new SummaryBuilder(['single-action'], ['direct']);
    builder.add(episodeRecord('t', { epoch: 0, success: true }));
    builder.add(episodeRecord('t', { epoch: 3, success: false, outcome: { status: 'error', reason: 'transient_error' } }));
    builder.add(episodeRecord('t', { epoch: 2, success: false }));
    expect(builder.build().task_results).toEqual([{ strategy: 'direct', task: 't', group: 'single-action', outcomes: 's-fe' }]);
  });
});

describe('describeCompleteness on matrix positions', () => {
  it('labels an interrupted shard from bits, without building the matrix', () => {
    const run = { ...runFile(), status: 'interrupted' as const, shard: { index: 1, count: 2 } };
    run.config = { ...run.config, tasks: ['a', 'b'], strategies: ['direct', 'react'], epochs: 3 };
    const positions = new MatrixPositions(run.config);
    // Shard 1 of 2 holds even positions: (epoch, task a, direct) and (epoch, task b, direct); epoch 2 lacks task b.
    for (const cell of [
      { epoch: 0, task: 'a' },
      { epoch: 0, task: 'b' },
      { epoch: 1, task: 'a' },
      { epoch: 1, task: 'b' },
      { epoch: 2, task: 'a' },
    ])
      positions.add({ ...cell, strategy: 'direct' });
    expect(describeCompleteness(run, positions)).toMatchObject({
      status: 'interrupted',
      episodes: 5,
      expected_episodes: 12,
      label: expect.stringContaining('shard 1 of 2, 2 of 3 epochs complete (5 of 6 episodes)'),
    });
  });

  it('names the episodes file a complete run.json disagrees with: episodes.jsonl, or episodes.jsonl.gz for --compress', () => {
    const run = { ...runFile(), status: 'complete' as const };
    run.config = { ...run.config, tasks: ['a', 'b'], strategies: ['direct'], epochs: 1 };
    const positions = new MatrixPositions(run.config);
    positions.add({ epoch: 0, task: 'a', strategy: 'direct' });
    expect(describeCompleteness(run, positions).label).toBe(
      'truncated (episodes.jsonl lacks episodes run.json lists): 0 of 1 epochs complete (1 of 2 episodes)',
    );
    expect(describeCompleteness({ ...run, episodes_format: 'gzip' }, positions).label).toBe(
      'truncated (episodes.jsonl.gz lacks episodes run.json lists): 0 of 1 epochs complete (1 of 2 episodes)',
    );
  });
});

describe('a results folder read in another order, or with a repeated line', () => {
  it('gives the same statistics whatever the order of its lines (a merge of shards equals the unsharded run)', async () => {
    const { SummaryBuilder: Builder } = await import('../src/report/run-summary.js');
    const { withStatistics } = await import('../src/report/run-report.js');
    const records: EpisodeRecord[] = [];
    for (let epoch = 0; epoch < 3; epoch++)
      for (const task of ['a', 'b', 'c', 'd'])
        for (const strategy of ['direct', 'react', 'gated'])
          records.push(episodeRecord(task, { strategy, epoch, success: (epoch + task.charCodeAt(0) + strategy.length) % 3 !== 0 }));
    const summaryOf = (list: EpisodeRecord[]) => {
      const builder = new Builder(['single-action'], ['direct', 'react', 'gated'], ['a', 'b', 'c', 'd']);
      for (const record of list) builder.add(record);
      return withStatistics(builder, 7);
    };
    const forward = summaryOf(records);
    const shuffled = summaryOf([...records.filter((_, i) => i % 2 === 1).reverse(), ...records.filter((_, i) => i % 2 === 0)]);
    expect(shuffled.statistics).toEqual(forward.statistics);
    expect(shuffled.task_results).toEqual(forward.task_results);
  });
});
