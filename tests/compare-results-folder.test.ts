// readResultsFolder() and parseEpisodes(): torn last lines, malformed lines with their numbers, run.json handling.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEpisodes, readResultsFolder } from '../src/results-folder/index.js';
import { SCHEMA_VERSION } from '../src/records/index.js';
import { episodeRecord, runFile } from './support/results-files.js';

/** One episodes.jsonl line, written as a version-1 folder (before the records schema) would hold it. */
function line(task: string, epoch = 0, strategy = 'direct'): string {
  return JSON.stringify(episodeRecord(task, { schemaVersion: 1, key: `${task}|${strategy}|${epoch}|cfg`, strategy, epoch }));
}

describe('parseEpisodes', () => {
  it('reads one record per line and ignores blank lines', () => {
    const parsed = parseEpisodes(`${line('a')}\n\n${line('b')}\n`);
    expect(parsed.ok && parsed.records.map((record) => record.task)).toEqual(['a', 'b']);
    expect(parsed.ok && parsed.warnings).toEqual([]);
  });

  it('skips a torn last line with a warning, with or without a final newline', () => {
    for (const text of [`${line('a')}\n${line('b').slice(0, 40)}`, `${line('a')}\n${line('b').slice(0, 40)}\n`]) {
      const parsed = parseEpisodes(text);
      expect(parsed).toEqual({
        ok: true,
        records: [JSON.parse(line('a'))],
        warnings: ['episodes.jsonl:2: incomplete last line (a run interrupted while writing?) — skipped'],
      });
    }
  });

  it('accepts a complete last line without a final newline', () => {
    const parsed = parseEpisodes(`${line('a')}\n${line('b')}`);
    expect(parsed.ok && parsed.records).toHaveLength(2);
  });

  it('rejects a broken line in the middle, naming its number', () => {
    const parsed = parseEpisodes(`${line('a')}\n{"task": "b", oops\n${line('c')}\n`, 'run/episodes.jsonl');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/^run\/episodes\.jsonl:2: not valid JSON \(/);
  });

  it('rejects a complete line that is not an episode record, even the last one', () => {
    const parsed = parseEpisodes(`${line('a')}\n${JSON.stringify({ ...JSON.parse(line('b')), epoch: -1 })}\n`);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toContain('episodes.jsonl:2: not a valid episode record');
    expect(!parsed.ok && parsed.error).toContain('epoch');
  });

  it('warns about a repeated strategy, task and epoch', () => {
    const parsed = parseEpisodes(`${line('a')}\n${line('a')}\n${line('a', 1)}\n`);
    expect(parsed.ok && parsed.warnings).toEqual(['episodes.jsonl:2: repeats strategy direct, task a, epoch 0 of line 1; the first line is used']);
  });
});

describe('readResultsFolder', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'stratbench-folder-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function folder(name: string, files: Record<string, string>): Promise<string> {
    const dir = join(root, name);
    await mkdir(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
    return dir;
  }

  it('reads run.json, keeping unknown fields', async () => {
    const run = { ...runFile(), extra: { any: true } };
    const dir = await folder('good', { 'episodes.jsonl': `${line('a')}\n`, 'run.json': JSON.stringify(run) });
    const result = await readResultsFolder(dir);
    expect(result).toEqual({ ok: true, dir, run, records: [JSON.parse(line('a'))], warnings: [] });
  });

  it('warns when run.json is missing', async () => {
    const dir = await folder('no-run', { 'episodes.jsonl': `${line('a')}\n` });
    const result = await readResultsFolder(dir);
    expect(result.ok && result.run).toBeNull();
    expect(result.ok && result.warnings).toEqual([`${join(dir, 'run.json')}: missing — models, prompts and suite cannot be compared`]);
  });

  it('fails on a run.json that is not JSON or has the wrong shape', async () => {
    const notJson = await folder('bad-run', { 'episodes.jsonl': `${line('a')}\n`, 'run.json': '{"schemaVersion": 1,' });
    expect(await readResultsFolder(notJson)).toMatchObject({ ok: false, error: expect.stringContaining(`${join(notJson, 'run.json')}: not valid JSON`) });
    const wrongShape = await folder('odd-run', { 'episodes.jsonl': `${line('a')}\n`, 'run.json': '{"models": {"planner": 3}}' });
    expect(await readResultsFolder(wrongShape)).toMatchObject({
      ok: false,
      error: expect.stringContaining(`${join(wrongShape, 'run.json')}: no schemaVersion`),
    });
    const badModels = await folder('odd-models', { 'episodes.jsonl': `${line('a')}\n`, 'run.json': JSON.stringify({ ...runFile(), models: { planner: 3 } }) });
    const error = await readResultsFolder(badModels);
    expect(error.ok).toBe(false);
    expect(!error.ok && error.error.split('\n').slice(0, 3)).toEqual([
      `${join(badModels, 'run.json')}: not a valid run.json (schemaVersion ${SCHEMA_VERSION})`,
      '✖ Invalid input: expected string, received number',
      '  → at models.planner',
    ]);
  });

  it('fails on a missing folder, a file instead of a folder, and a missing episodes.jsonl', async () => {
    expect(await readResultsFolder(join(root, 'absent'))).toEqual({ ok: false, error: `${join(root, 'absent')}: no such file` });
    const file = join(await folder('files', { 'x.txt': 'x' }), 'x.txt');
    expect(await readResultsFolder(file)).toEqual({ ok: false, error: `${file}: not a folder` });
    const empty = await folder('empty', {});
    expect(await readResultsFolder(empty)).toEqual({ ok: false, error: `${join(empty, 'episodes.jsonl')}: no such file` });
  });
});
