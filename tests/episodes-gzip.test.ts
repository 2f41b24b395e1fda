// episodes.jsonl.gz (`run --compress`, decision 0015): self-delimiting gzip members that gzip -dc and every command
// read; a torn last member counts nothing and `--resume` cuts it off; a folder with both files is refused.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { compressMember } from '../src/results-folder/episode-file.js';
import { EpisodeWriter, GZIP_LEVEL, scanEpisodes } from '../src/results-folder/index.js';
import { episodes, episodesText, ROOT, scratch, startStratbench, stratbench } from './support/cli.js';

const MATRIX = ['--strategies', 'all', '--epochs', '6', '--no-progress'];
const EPISODES = 14 * 5 * 6;
const keyOf = (record: Record<string, unknown>): string => String(record['key']);
const byKey = (records: Array<Record<string, unknown>>) => new Map(records.map((record) => [keyOf(record), record]));

/** The [start, end) byte ranges of the gzip members of `path`, read from each header's "SB" length (not from src/). */
function members(path: string): Array<[number, number]> {
  const bytes = readFileSync(path);
  const ranges: Array<[number, number]> = [];
  for (let offset = 0; offset < bytes.length; ) {
    expect([bytes[offset], bytes[offset + 1], bytes[offset + 3], bytes[offset + 12], bytes[offset + 13]]).toEqual([0x1f, 0x8b, 4, 0x53, 0x42]);
    const length = bytes.readUInt32LE(offset + 16);
    ranges.push([offset, offset + length]);
    offset += length;
  }
  return ranges;
}

/** Lines (episodes) held by the members of `path` that end at or before byte `cut`. */
function linesBefore(path: string, cut: number): number {
  const bytes = readFileSync(path);
  return members(path)
    .filter(([, end]) => end <= cut)
    .reduce((sum, [start, end]) => sum + gunzipSync(bytes.subarray(start, end)).toString('utf8').split('\n').filter(Boolean).length, 0);
}

/** summary.json parsed (it holds no wall-clock field: two runs of one configuration write the same file). */
const summaryOf = (dir: string): unknown => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));

let plain: string;
let compressed: string;
let gz: string;

beforeAll(() => {
  plain = join(scratch(), 'plain');
  compressed = join(scratch(), 'compressed');
  expect(stratbench(['run', ...MATRIX, '--out', plain]).status).toBe(0);
  expect(stratbench(['run', ...MATRIX, '--compress', '--out', compressed]).status).toBe(0);
  gz = join(compressed, 'episodes.jsonl.gz');
});

describe('run --compress', () => {
  it('writes episodes.jsonl.gz only: members of whole lines that gzip -dc reads as the plain run’s episodes', () => {
    expect(readdirSync(compressed).filter((name) => name.startsWith('episodes'))).toEqual(['episodes.jsonl.gz']);
    const ranges = members(gz);
    // 2.9 MB of lines in 1 MiB buffers: at least three members.
    expect(ranges.length).toBeGreaterThanOrEqual(3);
    const bytes = readFileSync(gz);
    for (const [start, end] of ranges) expect(gunzipSync(bytes.subarray(start, end)).toString('utf8').endsWith('\n')).toBe(true);
    const decompressed = spawnSync('gzip', ['-dc', gz], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(decompressed.status).toBe(0);
    const records = decompressed.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { wall_ms: _wall, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return rest;
      });
    expect(records).toHaveLength(EPISODES);
    expect(byKey(records)).toEqual(byKey(episodes(plain)));
    // The point of it: well under 1.5 KB an episode (the plain file is ~7 KB an episode).
    expect(statSync(gz).size / EPISODES).toBeLessThan(1500);
    expect(statSync(join(plain, 'episodes.jsonl')).size / EPISODES).toBeGreaterThan(5000);
  });

  it('the README’s zcat | jq one-liner runs on a real folder and lists its failed episodes', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const oneLiner = /^ *(zcat results\/x\/episodes\.jsonl\.gz \| jq .*)$/m.exec(readme)?.[1];
    expect(oneLiner).toBeDefined();
    const result = spawnSync('sh', ['-c', oneLiner!.replace('results/x', compressed)], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(result.status).toBe(0);
    const listed = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const failed = episodes(plain).filter((record) => record['success'] === false);
    expect(failed.length).toBeGreaterThan(0);
    expect(listed).toHaveLength(failed.length);
    expect(listed[0]).toEqual({
      task: failed[0]!['task'],
      strategy: failed[0]!['strategy'],
      epoch: failed[0]!['epoch'],
      status: (failed[0]!['outcome'] as { status: string }).status,
      blamed: (failed[0]!['attribution'] as { component: string } | null)?.component ?? null,
    });
  });

  it('report, explain, export, compare and the HTML report read it as they read episodes.jsonl', () => {
    expect(readFileSync(join(compressed, 'summary.json'), 'utf8')).toBe(readFileSync(join(plain, 'summary.json'), 'utf8'));
    const reportPlain = stratbench(['report', plain, '--json']);
    const reportGz = stratbench(['report', compressed, '--json']);
    expect(reportGz.status).toBe(0);
    expect(reportGz.stdout).toBe(reportPlain.stdout);
    const failed = episodes(plain).find((record) => record['success'] === false)!;
    const explain = (dir: string) => {
      const result = stratbench(['explain', dir, String(failed['task']), String(failed['strategy']), '--epoch', String(failed['epoch'])]);
      expect(result.status).toBe(0);
      return result.stdout.replace(/\d+ ms/g, '');
    };
    expect(explain(compressed)).toBe(explain(plain));
    const csv = (dir: string) => stratbench(['export', dir, '--format', 'csv', '--out', '-']).stdout.split('\n');
    const [csvPlain, csvGz] = [csv(plain), csv(compressed)];
    expect(csvGz).toHaveLength(EPISODES + 2);
    const keys = (rows: string[]) => rows.map((row) => row.split(',')[0]).sort();
    expect(keys(csvGz)).toEqual(keys(csvPlain));
    const verdict = (head: string) => {
      const compared = stratbench(['compare', plain, head, '--json']);
      expect(compared.status).toBe(0);
      return (JSON.parse(compared.stdout) as { verdict: string; report: object }).verdict;
    };
    expect(verdict(compressed)).toBe(verdict(plain));
    const html = join(scratch(), 'report.html');
    expect(stratbench(['report', compressed, '--html', html]).status).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain(String(failed['task']));
  });

  it('a folder holding both episodes.jsonl and episodes.jsonl.gz is refused by every command, naming both', () => {
    const both = join(scratch(), 'both');
    cpSync(compressed, both, { recursive: true });
    copyFileSync(join(plain, 'episodes.jsonl'), join(both, 'episodes.jsonl'));
    for (const args of [
      ['report', both],
      ['compare', plain, both],
      ['explain', both, 'default-currency', 'direct'],
      ['run', '--resume', both, '--no-progress'],
      ['merge', both, '--out', join(scratch(), 'm')],
    ]) {
      const result = stratbench(args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`${both} holds both episodes.jsonl and episodes.jsonl.gz`);
    }
  });
});

describe('a run killed while writing a gzip member', () => {
  // Where the last member starts, the first member's middle, and so on: the kill can land anywhere.
  const cuts: Array<[string, (ranges: Array<[number, number]>) => number]> = [
    ['inside the last member', (ranges) => Math.floor((ranges.at(-1)![0] + ranges.at(-1)![1]) / 2)],
    ['one byte short of the end', (ranges) => ranges.at(-1)![1] - 1],
    ['exactly at a member boundary', (ranges) => ranges.at(-1)![0]],
    ['inside the next member’s header', (ranges) => ranges.at(-1)![0] + 7],
    ['after a whole header, before any data', (ranges) => ranges.at(-1)![0] + 20],
    ['inside the first member', (ranges) => ranges[0]![0] + 1000],
  ];

  it.each(cuts)(
    'cut %s: complete members count once, the torn one not at all; --resume repairs and finishes equal to an uninterrupted run',
    async (_, where) => {
      const dir = join(scratch(), 'torn');
      cpSync(compressed, dir, { recursive: true });
      rmSync(join(dir, 'summary.json'));
      const path = join(dir, 'episodes.jsonl.gz');
      const ranges = members(path);
      const cut = where(ranges);
      const whole = linesBefore(path, cut);
      const torn = !ranges.some(([, end]) => end === cut);
      truncateSync(path, cut);

      let seen = 0;
      const scanned = await scanEpisodes(path, () => () => {
        seen += 1;
      });
      expect(scanned).toMatchObject({ ok: true, records: whole });
      expect(seen).toBe(whole);
      const report = stratbench(['report', dir, '--json']);
      expect(report.status).toBe(0);
      if (torn) expect(report.stderr).toContain(`warning: ${path}: incomplete last gzip member at byte`);
      else expect(report.stderr).not.toContain('incomplete last gzip member');
      const reported = JSON.parse(report.stdout) as { strategies: Array<{ episodes: number }> };
      expect(reported.strategies.reduce((sum, row) => sum + row.episodes, 0)).toBe(whole);

      const resumed = stratbench(['run', '--resume', dir, '--no-progress']);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`resuming ${dir}: ${whole} finished episode(s) kept${torn ? ', a half-written last gzip member dropped' : ''}`);
      expect(existsSync(join(dir, 'episodes.jsonl'))).toBe(false);
      expect(spawnSync('gzip', ['-t', path]).status).toBe(0);
      const records = episodes(dir);
      expect(new Set(records.map(keyOf)).size).toBe(EPISODES);
      expect(records).toHaveLength(EPISODES);
      expect(byKey(records)).toEqual(byKey(episodes(compressed)));
      expect(summaryOf(dir)).toEqual(summaryOf(compressed));
    },
    60_000,
  );

  it('SIGKILL mid-run, then --resume: every episode exactly once, as in an uninterrupted run', async () => {
    const out = join(scratch(), 'killed');
    const args = ['--strategies', 'all', '--epochs', '40', '--no-progress', '--concurrency', '4'];
    const child = startStratbench(['run', ...args, '--compress', '--out', out]);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const path = join(out, 'episodes.jsonl.gz');
    const started = Date.now();
    while (!(existsSync(path) && statSync(path).size > 150_000)) {
      if (Date.now() - started > 300_000) throw new Error('timed out waiting for episodes');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill('SIGKILL');
    await exited;
    const before = episodes(out).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(40 * 70);
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status, resumed.stderr).toBe(0);
    const records = episodes(out);
    expect(new Set(records.map(keyOf)).size).toBe(40 * 70);
    expect(records).toHaveLength(40 * 70);
    const reference = join(scratch(), 'reference');
    expect(stratbench(['run', ...args, '--out', reference]).status).toBe(0);
    expect(byKey(records)).toEqual(byKey(episodes(reference)));
    expect(summaryOf(out)).toEqual(summaryOf(reference));
  });

  it('a --compress run killed before its first episode resumes into episodes.jsonl.gz (run.json records the format)', () => {
    const out = join(scratch(), 'early');
    expect(stratbench(['run', '--tasks', 'default-currency', '--strategies', 'direct', '--compress', '--no-progress', '--out', out]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ episodes_format: 'gzip' });
    // As a run killed during its start-up leaves the folder: run.json only.
    rmSync(join(out, 'episodes.jsonl.gz'));
    rmSync(join(out, 'summary.json'));
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(readdirSync(out).filter((name) => name.startsWith('episodes.'))).toEqual(['episodes.jsonl.gz']);
    expect(episodes(out)).toHaveLength(1);
  });

  it('a corrupt member before the last is an error naming the file and its byte (exit 2), never a silent loss', () => {
    const dir = join(scratch(), 'corrupt');
    cpSync(compressed, dir, { recursive: true });
    const path = join(dir, 'episodes.jsonl.gz');
    const [, second] = members(path);
    const bytes = readFileSync(path);
    for (let i = second![0] + 100; i < second![0] + 140; i++) bytes[i] = bytes[i]! ^ 0xff;
    writeFileSync(path, bytes);
    for (const args of [
      ['report', dir],
      ['run', '--resume', dir, '--no-progress'],
    ]) {
      const result = stratbench(args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`${path}: byte ${second![0]}: corrupt gzip member`);
    }
  });

  it('an episodes.jsonl.gz gzipped by another tool is read whole, and --resume appends members after it', () => {
    const dir = join(scratch(), 'foreign');
    cpSync(plain, dir, { recursive: true });
    rmSync(join(dir, 'summary.json'));
    const lines = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(dir, 'episodes.jsonl.gz'), gzipSync(`${lines.slice(0, 100).join('\n')}\n`));
    rmSync(join(dir, 'episodes.jsonl'));
    const resumed = stratbench(['run', '--resume', dir, '--no-progress']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('100 finished episode(s) kept');
    const records = episodes(dir);
    expect(records).toHaveLength(EPISODES);
    expect(byKey(records)).toEqual(byKey(episodes(plain)));
  });
});

describe('merge', () => {
  it('keeps shards’ compression: a .gz shard makes a .gz merge; --compress compresses plain shards; plain stays plain', () => {
    const root = scratch();
    const shard = (index: number, compress: boolean) => {
      const out = join(root, `shard-${index}-${compress ? 'gz' : 'plain'}`);
      expect(stratbench(['run', ...MATRIX, '--shard', `${index}/2`, ...(compress ? ['--compress'] : []), '--out', out]).status).toBe(0);
      return out;
    };
    const [gz1, plain1, plain2] = [shard(1, true), shard(1, false), shard(2, false)];
    const cases: Array<[string[], string]> = [
      [[gz1, plain2], 'episodes.jsonl.gz'],
      [[plain1, plain2, '--compress'], 'episodes.jsonl.gz'],
      [[plain1, plain2], 'episodes.jsonl'],
    ];
    for (const [index, [args, file]] of cases.entries()) {
      const out = join(root, `merged-${index}`);
      const merged = stratbench(['merge', ...args, '--out', out]);
      expect(merged.status, merged.stderr).toBe(0);
      expect(readdirSync(out).filter((name) => name.startsWith('episodes'))).toEqual([file]);
      expect(byKey(episodes(out))).toEqual(byKey(episodes(plain)));
      expect(summaryOf(out)).toEqual(summaryOf(plain));
    }
    expect(episodesText(join(root, 'merged-1')).split('\n').filter(Boolean)).toHaveLength(EPISODES);
  });
});

describe('EpisodeWriter with compress', () => {
  it('writes one member per flush, each of whole lines, and waits (backpressure) rather than queueing without bound', async () => {
    const path = join(scratch(), 'episodes.jsonl.gz');
    const writer = new EpisodeWriter(path, { compress: true, maxDelayMs: 60_000 });
    const line = JSON.stringify({ text: 'x'.repeat(3000) });
    let waited = 0;
    for (let i = 0; i < 2000; i++) {
      const pending = writer.writeLine(`${line.slice(0, -2)}${i}"}`);
      if (pending) {
        waited += 1;
        await pending;
      }
    }
    await writer.close();
    const ranges = members(path);
    // 6 MB of lines in 1 MiB buffers.
    expect(ranges.length).toBeGreaterThanOrEqual(6);
    // Nothing yields between writes but the awaits: compression finishes only there, so the 4-member cap was reached.
    expect(waited).toBeGreaterThan(0);
    const text = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter(Boolean);
    expect(text).toHaveLength(2000);
    expect(text.map((l) => (JSON.parse(l) as { text: string }).text.slice(-4))).toEqual(
      Array.from({ length: 2000 }, (_, i) => `${'x'.repeat(4)}${i}`.slice(-4)),
    );
  });

  it('a member deflated past one output chunk (incompressible lines) holds the same deflate bytes as zlib gives in one call', async () => {
    // Random hex per line (xorshift32): deflates to over half its size, past the 256 KiB output chunk, so the member
    // takes several trips (asserted below).
    let seed = 7;
    const noise = (): string => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0).toString(16).padStart(8, '0');
    };
    const lines = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ i, text: Array.from({ length: 32 }, noise).join('') }));
    const raw = Buffer.from(`${lines.join('\n')}\n`);
    for (const [input, pastOneChunk] of [
      [raw, true],
      [Buffer.from(`${lines[0]}\n`.repeat(4000)), false],
    ] as const) {
      const member = await compressMember(input);
      expect(member.length > 256 * 1024).toBe(pastOneChunk);
      // stratbench's 20-byte header, then zlib's deflate data, CRC-32 and length, as gzip writes them after its 10-byte header.
      expect(member.readUInt32LE(16)).toBe(member.length);
      expect(member.subarray(20).equals(gzipSync(input, { level: GZIP_LEVEL }).subarray(10))).toBe(true);
      expect(gunzipSync(member).equals(input)).toBe(true);
    }
  });

  it('refuses a file that is not gzip, naming it (no episode silently dropped)', async () => {
    const path = join(scratch(), 'episodes.jsonl.gz');
    writeFileSync(path, '{"not": "gzip"}\n');
    const scanned = await scanEpisodes(path, () => () => undefined);
    expect(scanned).toEqual({ ok: false, error: `${path}: byte 0: not gzip data (expected a gzip member header)` });
  });
});
