// loadForResume: configuration check, torn last line (whatever its ending), errored episodes re-run, and shard slicing.
import { appendFileSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inShard, loadForResume, parseShard, ResumeError } from '../src/results-folder/index.js';
import { compressMember } from '../src/results-folder/episode-file.js';
import { runFile } from './support/results-files.js';
import { scratch } from './support/cli.js';

const record = (task: string, status: string) => ({
  schemaVersion: 1,
  key: `${task}|direct|0|h`,
  task,
  group: 'g',
  strategy: 'direct',
  epoch: 0,
  seed: 1,
  models: { direct: 'scripted' },
  outcome: { status, reason: status === 'error' ? 'infrastructure:busy' : 'finished' },
  success: status !== 'error',
  expect: 'finish',
  checks: [],
  metrics: { model_calls: {}, tool_calls: 0, replans: 0, tokens_in: 0, tokens_out: 0, model_ms: 0, load_ms: 0, tool_ms: 0 },
  attribution: null,
  wall_ms: 1,
  trace: [],
});

function folder(lines: string): string {
  const dir = join(scratch(), 'run');
  mkdirSync(dir);
  writeFileSync(join(dir, 'run.json'), JSON.stringify(runFile({ config_hash: 'h' })));
  writeFileSync(join(dir, 'episodes.jsonl'), lines);
  return dir;
}

describe('loadForResume', () => {
  it('keeps finished episodes, drops a torn last line and hands errored episodes back to run again', async () => {
    const dir = folder(
      `${JSON.stringify(record('a', 'finished'))}\n${JSON.stringify(record('b', 'error'))}\n${JSON.stringify(record('c', 'stopped'))}\n{"schemaVersion":1,"ke`,
    );
    const loaded = await loadForResume(dir, 'h');
    const kept: string[] = [];
    await loaded.replay((r) => kept.push(r.task));
    expect(kept).toEqual(['a', 'c']);
    expect(loaded.kept).toBe(2);
    expect(loaded).toMatchObject({ droppedTornLine: true, rerunErrors: 1 });
    const left = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(left.map((line) => (JSON.parse(line) as { task: string }).task)).toEqual(['a', 'c']);
  });

  it('a repeated line counts once: kept once, replayed once, and the file rewritten with one line per episode', async () => {
    const a = JSON.stringify(record('a', 'finished'));
    const dir = folder(`${a}\n${JSON.stringify(record('b', 'stopped'))}\n${a}\n${JSON.stringify(record('c', 'finished'))}\n`);
    const loaded = await loadForResume(dir, 'h');
    expect(loaded.kept).toBe(3);
    expect(loaded.warnings).toEqual([expect.stringMatching(/episodes\.jsonl:3: repeats strategy direct, task a, epoch 0.*; the first line is used/)]);
    const replayed: string[] = [];
    await loaded.replay((r) => replayed.push(r.task));
    expect(replayed).toEqual(['a', 'b', 'c']);
    const left = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n');
    expect(left.map((line) => (JSON.parse(line) as { task: string }).task)).toEqual(['a', 'b', 'c']);
  });

  it.each([
    ['ends in a newline', '{"schemaVersion":1,"ke\n'],
    ['ends in newlines and blank lines', '{"schemaVersion":1,"ke\n\n  \n'],
    ['has no newline', '{"schemaVersion":1,"ke'],
  ])('a torn last line that %s is cut off, so the lines appended after it leave a file every reader accepts', async (_, torn) => {
    const whole = `${JSON.stringify(record('a', 'finished'))}\n${JSON.stringify(record('c', 'stopped'))}\n`;
    const dir = folder(`${whole}${torn}`);
    const loaded = await loadForResume(dir, 'h');
    expect(loaded).toMatchObject({ kept: 2, droppedTornLine: true, rerunErrors: 0 });
    expect(readFileSync(join(dir, 'episodes.jsonl'), 'utf8')).toBe(whole);
    // What the resumed run appends, then what every command reads: no line in the middle is torn.
    appendFileSync(join(dir, 'episodes.jsonl'), `${JSON.stringify(record('d', 'finished'))}\n`);
    const again = await loadForResume(dir, 'h');
    expect(again).toMatchObject({ kept: 3, droppedTornLine: false, warnings: [] });
  });

  it('a torn last line that ends in a newline inside a whole gzip member is removed by rewriting episodes.jsonl.gz', async () => {
    const dir = folder('');
    unlinkSync(join(dir, 'episodes.jsonl'));
    const whole = `${JSON.stringify(record('a', 'finished'))}\n${JSON.stringify(record('c', 'stopped'))}\n`;
    writeFileSync(join(dir, 'episodes.jsonl.gz'), await compressMember(Buffer.from(`${whole}{"schemaVersion":1,"ke\n`)));
    const loaded = await loadForResume(dir, 'h');
    expect(loaded).toMatchObject({ kept: 2, droppedTornLine: true, compressed: true });
    expect(gunzipSync(readFileSync(join(dir, 'episodes.jsonl.gz'))).toString('utf8')).toBe(whole);
  });

  it('refuses another configuration and a corrupt middle line', async () => {
    await expect(loadForResume(folder(''), 'other')).rejects.toThrow(ResumeError);
    await expect(loadForResume(folder(`not json\n${JSON.stringify(record('a', 'finished'))}\n`), 'h')).rejects.toThrow(/:1: not valid JSON/);
  });

  it('slices the matrix round-robin by row (task × epoch, all strategies) and validates i/n', () => {
    const shard = parseShard('2/3');
    expect(shard).toEqual({ index: 2, count: 3, unit: 'row' });
    // Two strategies: rows are positions 0–1, 2–3, 4–5, …; shard 2/3 holds rows 1 and 4.
    const positions = Array.from({ length: 12 }, (_, i) => i);
    expect(positions.filter((i) => inShard(i, shard, 2))).toEqual([2, 3, 8, 9]);
    // Every position is in exactly one shard.
    const shards = ['1/3', '2/3', '3/3'].map((text) => parseShard(text));
    for (const position of positions) expect(shards.filter((one) => inShard(position, one, 2))).toHaveLength(1);
    // A shard written before rows (no unit) keeps its every-n-th-episode slice.
    expect(positions.filter((i) => inShard(i, parseShard('2/3', 'episode'), 2))).toEqual([1, 4, 7, 10]);
    expect(() => parseShard('0/3')).toThrow(ResumeError);
    expect(() => parseShard('a/b')).toThrow(ResumeError);
  });
});
