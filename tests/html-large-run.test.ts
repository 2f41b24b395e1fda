// The HTML report of a large run: built by streaming, the page says which traces it holds, and `view --serve` serves
// every other trace from the results folder (plain and .gz), in Chromium, under a CSP that allows only 'self'.
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../src/records/index.js';
import { compressMember } from '../src/results-folder/episode-file.js';
import { FILE_CSP, SERVED_CSP } from '../src/report/html/render-html.js';
import { readReportFolder } from '../src/runner/html-report-folder.js';
import { axeViolations, launchChromium, screenshotBothWidths, seriousOf, SKIP_BROWSER_TESTS, watchedPage } from './support/browser.js';
import { scratch, startStratbench, stratbench } from './support/cli.js';

/** The detail budget of the served folders: a few traces only, so most are not in the file. */
const BUDGET = '20k';

let small: string;
let base: EpisodeRecord[];
let run: Record<string, unknown> & { config: { tasks: string[]; epochs: number }; strategies: string[] };

/** Writes a folder of `copies` × the small run's episodes, task ids suffixed `-N` (copy 0 keeps its ids); returns its records' JSON lines. */
function copiedFolder(dir: string, copies: number, options: { gz?: 'ours' | 'foreign' } = {}): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  const tasks: string[] = [];
  for (let copy = 0; copy < copies; copy += 1) {
    for (const task of run.config.tasks) tasks.push(copy === 0 ? task : `${task}-${copy}`);
    for (const record of base) {
      const task = copy === 0 ? record.task : `${record.task}-${copy}`;
      lines.push(JSON.stringify({ ...record, task, key: `${task}|${record.strategy}|${record.epoch}|${run['config_hash'] as string}` }));
    }
  }
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...run, episodes: lines.length, config: { ...run.config, tasks } }, null, 2));
  const text = lines.map((line) => `${line}\n`).join('');
  if (options.gz === undefined) {
    writeFileSync(join(dir, 'episodes.jsonl'), text);
    return Promise.resolve(lines);
  }
  if (options.gz === 'foreign') {
    writeFileSync(join(dir, 'episodes.jsonl.gz'), gzipSync(text));
    return Promise.resolve(lines);
  }
  // stratbench's members, ~64 KiB of lines each, so a folder has many.
  return (async () => {
    const members: Buffer[] = [];
    for (let at = 0; at < lines.length; at += 8)
      members.push(
        await compressMember(
          Buffer.from(
            lines
              .slice(at, at + 8)
              .map((l) => `${l}\n`)
              .join(''),
          ),
        ),
      );
    writeFileSync(join(dir, 'episodes.jsonl.gz'), Buffer.concat(members));
    return lines;
  })();
}

/** `view DIR --serve` on port 0 with the small budget; resolves with its URL once it prints it. */
async function serve(dir: string): Promise<{ url: string; child: ChildProcess }> {
  process.env['STRATBENCH_HTML_DETAIL_BUDGET'] = BUDGET;
  const child = startStratbench(['view', dir, '--serve', '--port', '0']);
  delete process.env['STRATBENCH_HTML_DETAIL_BUDGET'];
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (found) resolve(found[0]);
    });
    child.once('exit', (code) => reject(new Error(`view --serve exited ${code}: ${err}`)));
  });
  return { url, child };
}

const children: ChildProcess[] = [];
const episodeOf = (lines: string[], index: number) => JSON.parse(lines[index] as string) as EpisodeRecord;
const pageData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!) as {
    omitted: number;
    episodes: { length: number; columns: Record<string, unknown[]>; strings: string[] };
  };
/** The rows of a page's packed data whose trace is not inlined, as task/strategy/epoch. */
function omittedRows(html: string): Array<{ task: string; strategy: string; epoch: number; success: boolean }> {
  const { episodes } = pageData(html);
  const out = [];
  for (let i = 0; i < episodes.length; i += 1) {
    if (episodes.columns['detail']![i] !== null) continue;
    out.push({
      task: episodes.strings[episodes.columns['task']![i] as number]!,
      strategy: episodes.strings[episodes.columns['strategy']![i] as number]!,
      epoch: episodes.columns['epoch']![i] as number,
      success: episodes.columns['success']![i] as boolean,
    });
  }
  return out;
}
const getJson = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

beforeAll(() => {
  small = join(scratch(), 'small');
  const ran = stratbench(['run', '--suite', 'tasks/core.yaml', '--epochs', '2', '--out', small, '--no-progress']);
  expect(ran.status, ran.stderr).toBe(0);
  base = readFileSync(join(small, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord);
  run = JSON.parse(readFileSync(join(small, 'run.json'), 'utf8')) as typeof run;
});

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

describe('a 20k-episode folder', () => {
  it('is read by streaming into every episode row, failures inlined first within the budget', async () => {
    const dir = join(scratch(), 'big');
    const lines = await copiedFolder(dir, 143); // 143 × 140 = 20,020 episodes
    const folder = await readReportFolder(dir);
    expect(lines).toHaveLength(20_020);
    const records = Array.from({ length: 143 }, (_, copy) => base.map((r) => ({ ...r, task: copy === 0 ? r.task : `${r.task}-${copy}` }))).flat();
    const rows = folder.data.episodes;
    expect(rows).toHaveLength(20_020);
    expect(new Set(rows.map((r) => `${r.task}|${r.strategy}|${r.epoch}`))).toEqual(new Set(records.map((r) => `${r.task}|${r.strategy}|${r.epoch}`)));
    const inlined = rows.filter((r) => r.detail !== null);
    expect(folder.data.omitted).toBe(rows.length - inlined.length);
    // Every copy's traces are the small run's, so equal details are shared: one inlined copy per distinct trace.
    const failed = rows.filter((r) => !r.success);
    expect(failed.every((r) => r.detail !== null)).toBe(true);
    expect(folder.data.details.length).toBeLessThanOrEqual(base.length);
    // The statistics come from the streaming summary (the folder has no summary.json).
    const successes = folder.data.summary.strategies.reduce((sum, s) => sum + s.successes, 0);
    expect(successes).toBe(records.filter((r) => r.success).length);
  });

  it('with a small budget inlines the first failures of every cell before any second one, and no success', async () => {
    const dir = join(scratch(), 'distinct');
    mkdirSync(dir);
    // Distinct traces (nudged times), so nothing is shared.
    const lines = (await copiedFolder(dir, 20)).map((line, i) => {
      const record = JSON.parse(line) as EpisodeRecord;
      return JSON.stringify({ ...record, trace: record.trace.map((e) => ({ ...e, t_ms: e.t_ms + i })) });
    });
    writeFileSync(join(dir, 'episodes.jsonl'), lines.map((l) => `${l}\n`).join(''));
    const folder = await readReportFolder(dir, { detailBudgetBytes: 60_000 });
    const inlined = folder.data.episodes.filter((r) => r.detail !== null);
    expect(inlined.length).toBeGreaterThan(10);
    expect(inlined.every((r) => !r.success)).toBe(true);
    // Cells take turns: no cell has a second failure inlined while another failing cell has none.
    expect(new Set(inlined.map((r) => `${r.task}|${r.strategy}`)).size).toBe(inlined.length);
    expect(folder.data.details.join('').length).toBeLessThanOrEqual(60_000);
  });
});

describe.skipIf(SKIP_BROWSER_TESTS)('view --serve of a folder whose traces are mostly not in the file', () => {
  let dir: string;
  let lines: string[];
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = join(scratch(), 'served');
    lines = await copiedFolder(dir, 20); // 2,800 episodes
    // Distinct traces, so the budget decides.
    lines = lines.map((line, i) => {
      const record = JSON.parse(line) as EpisodeRecord;
      return JSON.stringify({ ...record, trace: record.trace.map((e) => ({ ...e, t_ms: e.t_ms + i })) });
    });
    writeFileSync(join(dir, 'episodes.jsonl'), lines.map((l) => `${l}\n`).join(''));
    const served = await serve(dir);
    children.push(served.child);
    url = served.url;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the file says how many traces it holds and which, and an omitted episode says why and how to read it', async () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain(`content="${FILE_CSP}"`);
    const data = pageData(html);
    const total = data.episodes.length;
    const inFile = total - data.omitted;
    expect(data.omitted).toBeGreaterThan(total / 2);
    const { page, problems } = await watchedPage(browser);
    await page.goto(`file://${join(dir, 'report.html')}#overview`);
    await page.waitForSelector('body[data-ready="true"]');
    const note = await page.locator('#trace-coverage').textContent();
    expect(note).toMatch(
      new RegExp(
        `^${inFile.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} traces are in this file \\(failures first, as many as the file's size budget holds: \\d+ of \\d+ failures\\); the other ${(total - inFile).toLocaleString('en-US')} open when served \\(stratbench view DIR --serve\\)\\.$`,
      ),
    );
    await screenshotBothWidths(page, 'large-run-overview');
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    const omitted = omittedRows(html)[0]!;
    await page.goto(`file://${join(dir, 'report.html')}#episode/${encodeURIComponent(omitted.task)}/${omitted.strategy}/${omitted.epoch}`);
    await page.waitForSelector('#not-inlined');
    expect(await page.locator('#not-inlined').textContent()).toMatch(
      new RegExp(
        `^This trace is not in this file \\(${inFile} of ${total.toLocaleString('en-US')} traces are: failures first, .*\\); open this report with stratbench view DIR --serve to read every trace, or stratbench explain DIR ${omitted.task} ${omitted.strategy} --epoch ${omitted.epoch}\\.$`,
      ),
    );
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
    await page.close();
  });

  it('serves the page under a CSP that allows only its own origin, and an omitted trace opens with its checks and events', async () => {
    const response = await fetch(url);
    expect(response.headers.get('content-security-policy')).toBe(SERVED_CSP);
    const html = await response.text();
    expect(html).toContain(`content="${SERVED_CSP}"`);
    expect(SERVED_CSP).toBe(`${FILE_CSP}; connect-src 'self'`);
    const omitted = omittedRows(html).find((row) => !row.success)!;
    const record = lines
      .map((line) => JSON.parse(line) as EpisodeRecord)
      .find((r) => r.task === omitted.task && r.strategy === omitted.strategy && r.epoch === omitted.epoch)!;
    const { page, problems } = await watchedPage(browser);
    const origin = new URL(url).origin;
    await page.unroute('**/*');
    const requests: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(origin)) requests.push(r.url());
    });
    await page.goto(`${url}#overview`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#trace-coverage').textContent()).toMatch(
      /^Every trace is available: \d+ of 2,800 are in this file, the other [\d,]+ are read from the results folder by this server when opened\.$/,
    );
    await page.goto(`${url}#episode/${encodeURIComponent(omitted.task)}/${omitted.strategy}/${omitted.epoch}`);
    await page.waitForSelector('#trace section.event');
    expect(await page.locator('#trace section.event').count()).toBe(record.trace.length);
    expect(await page.locator('#checks li').count()).toBe(record.checks.length);
    expect(await page.locator('#not-inlined').count()).toBe(0);
    await screenshotBothWidths(page, 'large-run-served-episode');
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(requests).toEqual([]);
    // Any other origin is refused by the CSP.
    const refused = await page.evaluate(() =>
      fetch('http://127.0.0.2:9/').then(
        () => 'fetched',
        () => 'refused',
      ),
    );
    expect(refused).toBe('refused');
    await page.close();
  });

  it('answers an unknown episode with 404, another Host with 403, and a changed folder with 409', async () => {
    expect(await getJson(`${url}episode?task=nope&strategy=react&epoch=0`)).toEqual({
      status: 404,
      body: { error: `no episode nope × react epoch 0 in ${dir}` },
    });
    const port = Number(new URL(url).port);
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/', headers: { host: `attacker.example:${port}` } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
    appendFileSync(join(dir, 'episodes.jsonl'), '\n');
    const first = episodeOf(lines, 0);
    const changed = await getJson(`${url}episode?task=${first.task}&strategy=${first.strategy}&epoch=${first.epoch}`);
    expect(changed.status).toBe(409);
    expect(changed.body['error']).toBe(`${join(dir, 'episodes.jsonl')} changed since this page was built; run \`stratbench view ${dir} --serve\` again`);
    // The page says so where the trace would be.
    const omitted = omittedRows(await (await fetch(url)).text())[0]!;
    const { page } = await watchedPage(browser);
    await page.unroute('**/*');
    await page.goto(`${url}#episode/${encodeURIComponent(omitted.task)}/${omitted.strategy}/${omitted.epoch}`);
    await page.waitForSelector('#not-inlined');
    expect(await page.locator('#not-inlined').textContent()).toBe(
      `This trace is not in this file, and the server could not read it: ${changed.body['error'] as string}. ` +
        `stratbench explain DIR ${omitted.task} ${omitted.strategy} --epoch ${omitted.epoch} prints it.`,
    );
    await page.close();
  });
});

describe('view --serve failure paths', () => {
  it('answers 500 naming the file for a line that is no longer an episode (same size and time)', async () => {
    const dir = join(scratch(), 'corrupt');
    const lines = await copiedFolder(dir, 1);
    const file = join(dir, 'episodes.jsonl');
    utimesSync(file, 1_000_000_000, 1_000_000_000);
    const served = await serve(dir);
    children.push(served.child);
    const record = episodeOf(lines, 3);
    const start = lines.slice(0, 3).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    const handle = openSync(file, 'r+');
    writeSync(handle, Buffer.alloc(Buffer.byteLength(lines[3]!), 'x'), 0, Buffer.byteLength(lines[3]!), start);
    closeSync(handle);
    utimesSync(file, 1_000_000_000, 1_000_000_000);
    const { status, body } = await getJson(`${served.url}episode?task=${record.task}&strategy=${record.strategy}&epoch=${record.epoch}`);
    expect(status).toBe(500);
    expect(body['error']).toMatch(
      new RegExp(`^cannot read this episode from ${file.replace(/[.]/g, '\\.')} \\(.+\\); run \`stratbench view ${dir} --serve\` again$`),
    );
    served.child.kill('SIGTERM');
  });

  it('refuses a detail budget that is not a size, before reading the folder (exit 2)', () => {
    process.env['STRATBENCH_HTML_DETAIL_BUDGET'] = 'lots';
    const result = stratbench(['view', small]);
    delete process.env['STRATBENCH_HTML_DETAIL_BUDGET'];
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('STRATBENCH_HTML_DETAIL_BUDGET=lots: expected a number of bytes such as 4000000, 512k or 4M');
  });
});

describe('view --serve of a .gz folder', () => {
  for (const kind of ['ours', 'foreign'] as const) {
    it(`serves any episode's trace from episodes.jsonl.gz (${kind === 'ours' ? "stratbench's members" : 'one stream gzipped by another tool'})`, async () => {
      const dir = join(scratch(), `gz-${kind}`);
      const lines = await copiedFolder(dir, 4, { gz: kind });
      const served = await serve(dir);
      children.push(served.child);
      for (const index of [0, 7, 8, 300, lines.length - 1]) {
        const record = episodeOf(lines, index);
        const { status, body } = await getJson(`${served.url}episode?task=${record.task}&strategy=${record.strategy}&epoch=${record.epoch}`);
        expect(status).toBe(200);
        expect({ trace: body['trace'], checks: body['checks'], outcome: body['outcome'] }).toEqual({
          trace: record.trace,
          checks: record.checks,
          outcome: record.outcome,
        });
      }
      served.child.kill('SIGTERM');
    });
  }
});
