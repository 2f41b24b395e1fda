// `npx tsx scripts/bench-html-report.ts`: size and load time of the HTML report of a 10,000-episode results folder.
// The folder is built from a real 2-epoch core-suite run: tasks copied ×10 (ids suffixed), epochs repeated, every trace made
// distinct (tool outputs and the clock nudged per copy, so no two details compress to one) and a fifth of the successes
// turned into attributed failures, so the report inlines thousands of failed traces — a worst case for its size.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EpisodeRecord } from '../src/records/index.js';
import { summaryFromRecords } from '../src/report/run-report.js';
import { writeHtmlReport } from '../src/runner/html-commands.js';
import { launchChromium, watchedPage } from '../tests/support/browser.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TASK_COPIES = Number(process.env['BENCH_TASK_COPIES'] ?? 10);
const EPOCHS = Number(process.env['BENCH_EPOCHS'] ?? 15);

const work = mkdtempSync(join(tmpdir(), 'stratbench-html-bench-'));
const small = join(work, 'small');
process.stderr.write(`running the core suite × 2 epochs into ${small}…\n`);
execFileSync(
  process.execPath,
  [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'src/cli.ts'), 'run', '--epochs', '2', '--out', small, '--no-progress'],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const base = readFileSync(join(small, 'episodes.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as EpisodeRecord);
const run = JSON.parse(readFileSync(join(small, 'run.json'), 'utf8')) as Record<string, unknown> & {
  epochs: number;
  config: { epochs: number; tasks: string[] };
};

// Deterministic pseudo-random flips (xorshift), so every bench run builds the same folder.
let state = 0x9e3779b9;
const random = (): number => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
};

const big = join(work, 'big');
mkdirSync(big);
const records: EpisodeRecord[] = [];
for (let copy = 0; copy < TASK_COPIES; copy += 1) {
  for (let epoch = 0; epoch < EPOCHS; epoch += 1) {
    for (const record of base.filter((r) => r.epoch === epoch % 2)) {
      const task = copy === 0 ? record.task : `${record.task}-${copy}`;
      const nudge = copy * EPOCHS + epoch;
      const trace = record.trace.map((event) =>
        event.type === 'tool_call' ? { ...event, t_ms: event.t_ms + nudge, output: `${event.output}\n# run ${nudge}` } : { ...event, t_ms: event.t_ms + nudge },
      );
      const flip = record.success && random() < 0.2;
      records.push({
        ...record,
        task,
        epoch,
        key: `${task}|${record.strategy}|${epoch}|${run['config_hash'] as string}`,
        trace,
        success: flip ? false : record.success,
        attribution: flip
          ? {
              component: 'executor',
              mode: 'bench_flip',
              evidence: [trace[trace.length - 1]?.id ?? 0],
              explanation: 'A success turned into a failure by the bench, to make flaky cells.',
            }
          : record.attribution,
      });
    }
  }
}
writeFileSync(join(big, 'episodes.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
const tasks = [...new Set(records.map((r) => r.task))];
writeFileSync(
  join(big, 'run.json'),
  JSON.stringify({ ...run, epochs: EPOCHS, episodes: records.length, config: { ...run.config, epochs: EPOCHS, tasks } }, null, 2),
);
const groups = (run.config as unknown as { groups: string[] }).groups;
const strategies = run['strategies'] as string[];
let started = performance.now();
const summary = summaryFromRecords(records, groups, strategies, 1);
writeFileSync(join(big, 'summary.json'), JSON.stringify(summary));
process.stderr.write(
  `built ${records.length} episodes (${(statSync(join(big, 'episodes.jsonl')).size / 1e6).toFixed(0)} MB of episodes.jsonl); summary in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);

const file = join(big, 'report.html');
started = performance.now();
const bytes = await writeHtmlReport(big, file);
const buildMs = performance.now() - started;

const browser = await launchChromium();
/** Per load: navigation start → overview rendered (the page's `ready` mark), → DOMContentLoaded (every detail read), and the wall time Playwright saw. */
const loads: Array<{ ready: number; parsed: number; wall: number }> = [];
let interactions = '';
for (let attempt = 0; attempt < 5; attempt += 1) {
  const { page, problems } = await watchedPage(browser);
  const t0 = performance.now();
  await page.goto(`file://${file}`, { waitUntil: 'commit' });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  const wall = performance.now() - t0;
  await page.waitForLoadState('domcontentloaded');
  const marks = await page.evaluate(() => ({
    ready: performance.getEntriesByName('ready')[0]?.startTime ?? Number.NaN,
    parsed: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd,
  }));
  loads.push({ ...marks, wall });
  if (attempt === 0) {
    const t1 = performance.now();
    await page.click('nav a[href="#grid"]');
    await page.waitForSelector('#grid td.cell');
    const gridMs = performance.now() - t1;
    const failed = records.find((r) => !r.success)!;
    const t2 = performance.now();
    await page.goto(`file://${file}#episode/${encodeURIComponent(failed.task)}/${failed.strategy}/${failed.epoch}`);
    await page.waitForSelector('#trace section.event');
    interactions = `grid ${gridMs.toFixed(0)} ms, a failed episode's trace ${(performance.now() - t2).toFixed(0)} ms`;
    if (problems.consoleErrors.length > 0 || problems.requests.length > 0) throw new Error(`page problems: ${JSON.stringify(problems)}`);
  }
  await page.close();
}
await browser.close();
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const list = (key: 'ready' | 'parsed' | 'wall'): string => loads.map((l) => l[key].toFixed(0)).join(', ');
const html = readFileSync(file, 'utf8');
const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!) as { omitted: number };
const details = JSON.parse(/<script type="application\/json" id="report-details">(.*?)<\/script>/s.exec(html)![1]!) as string[];
process.stdout.write(
  [
    `episodes: ${records.length} (${tasks.length} tasks × ${strategies.length} strategies × ${EPOCHS} epochs; ${records.filter((r) => !r.success).length} failed)`,
    `report: ${(bytes / 1024 / 1024).toFixed(1)} MB (${details.length} inlined details, ${data.omitted} episodes not inlined), built in ${(buildMs / 1000).toFixed(1)} s`,
    `Chromium, navigation start → overview charts rendered (interactive): median ${median(loads.map((l) => l.ready)).toFixed(0)} ms (${list('ready')})`,
    `  → every inlined trace read (DOMContentLoaded): median ${median(loads.map((l) => l.parsed)).toFixed(0)} ms (${list('parsed')})`,
    `  wall time seen by Playwright to the rendered overview: median ${median(loads.map((l) => l.wall)).toFixed(0)} ms (${list('wall')})`,
    `then: ${interactions}`,
    `folder: ${big}`,
    '',
  ].join('\n'),
);
