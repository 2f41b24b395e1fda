// `npx tsx scripts/bench-html-report.ts [--large] [--gz] [--folder DIR] [--cli PATH] [--no-browser]`: how long building the
// HTML report of a 10,000-episode (--large: ~100,000) results folder takes, its peak memory, the page's size, how many
// traces it inlines, and its load time in Chromium.
// The folder is built from a real 2-epoch core-suite run: tasks copied (BENCH_TASK_COPIES, default 10; --large 100, ids
// suffixed), epochs repeated (BENCH_EPOCHS, default 15), every trace made distinct (tool outputs and the clock nudged per
// copy, so no two details compress to one) and a fifth of the successes turned into attributed failures, so the report
// has thousands of failed traces to inline — a worst case for its size. The folder is written one line at a time
// (--gz: episodes.jsonl.gz in stratbench's gzip members), so building a 100k folder needs no more memory than a 10k one.
// The build runs as the user runs it — `node --max-semi-space-size=4 --heap-growing-percent=20 CLI view DIR` (the flags of the shipped entry point; writes
// DIR/report.html) in a child process under `/usr/bin/time -v` —
// so its wall time and peak RSS are the command's own. `--cli PATH` measures another build (e.g. a git worktree of an
// older commit); `--folder DIR` reuses a folder an earlier run built (its path is printed), so builds compare on one folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EpisodeRecord } from '../src/records/index.js';
import { compressMember } from '../src/results-folder/episode-file.js';
import { SummaryBuilder } from '../src/report/run-summary.js';
import { withStatistics } from '../src/report/run-report.js';
import { launchChromium, watchedPage } from '../tests/support/browser.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const LARGE = flag('--large');
const GZ = flag('--gz');
const TASK_COPIES = Number(process.env['BENCH_TASK_COPIES'] ?? (LARGE ? 100 : 10));
const EPOCHS = Number(process.env['BENCH_EPOCHS'] ?? 15);
const CLI = resolve(option('--cli') ?? join(root, 'dist/cli.js'));
const TIME = '/usr/bin/time';

// Deterministic pseudo-random flips (xorshift), so every bench run builds the same folder.
let state = 0x9e3779b9;
const random = (): number => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
};

/** Writes lines to `path` (plain, or gzip members of ~1 MiB as `run --compress` writes them), waiting for the disk. */
function lineWriter(path: string, gz: boolean) {
  const stream = createWriteStream(path);
  let pending: string[] = [];
  let pendingBytes = 0;
  const write = (chunk: Buffer | string) => new Promise<void>((done) => (stream.write(chunk) ? done() : stream.once('drain', done)));
  const flush = async () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    pendingBytes = 0;
    await write(gz ? await compressMember(Buffer.from(text)) : text);
  };
  return {
    async add(line: string) {
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= 1 << 20) await flush();
    },
    async close() {
      await flush();
      await new Promise<void>((done) => stream.end(done));
    },
  };
}

/** Builds the big folder from a small real run; returns its episodes' count, tasks and failures. */
async function buildFolder(big: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'stratbench-html-bench-'));
  const small = join(work, 'small');
  process.stderr.write(`running the core suite × 2 epochs into ${small}…\n`);
  execFileSync(process.execPath, [join(root, 'dist/cli.js'), 'run', '--epochs', '2', '--out', small, '--no-progress'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = readFileSync(join(small, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord);
  const run = JSON.parse(readFileSync(join(small, 'run.json'), 'utf8')) as Record<string, unknown> & {
    config: { epochs: number; tasks: string[]; groups: string[] };
    strategies: string[];
  };
  mkdirSync(big, { recursive: true });
  const writer = lineWriter(join(big, GZ ? 'episodes.jsonl.gz' : 'episodes.jsonl'), GZ);
  const summary = new SummaryBuilder(run.config.groups, run.strategies);
  const tasks: string[] = [];
  let episodes = 0;
  for (let copy = 0; copy < TASK_COPIES; copy += 1) {
    for (const task of run.config.tasks) tasks.push(copy === 0 ? task : `${task}-${copy}`);
    for (let epoch = 0; epoch < EPOCHS; epoch += 1) {
      for (const record of base.filter((r) => r.epoch === epoch % 2)) {
        const task = copy === 0 ? record.task : `${record.task}-${copy}`;
        const nudge = copy * EPOCHS + epoch;
        const trace = record.trace.map((event) =>
          event.type === 'tool_call'
            ? { ...event, t_ms: event.t_ms + nudge, output: `${event.output}\n# run ${nudge}` }
            : { ...event, t_ms: event.t_ms + nudge },
        );
        const flip = record.success && random() < 0.2;
        const copied: EpisodeRecord = {
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
        };
        summary.add(copied);
        episodes += 1;
        await writer.add(`${JSON.stringify(copied)}\n`);
      }
    }
  }
  await writer.close();
  writeFileSync(join(big, 'run.json'), JSON.stringify({ ...run, epochs: EPOCHS, episodes, config: { ...run.config, epochs: EPOCHS, tasks } }, null, 2));
  writeFileSync(join(big, 'summary.json'), JSON.stringify(withStatistics(summary, 1)));
}

const big = option('--folder') ?? join(mkdtempSync(join(tmpdir(), 'stratbench-html-bench-')), 'big');
if (!existsSync(join(big, 'run.json'))) await buildFolder(big);
const episodesFile = existsSync(join(big, 'episodes.jsonl.gz')) ? join(big, 'episodes.jsonl.gz') : join(big, 'episodes.jsonl');
const runFile = JSON.parse(readFileSync(join(big, 'run.json'), 'utf8')) as {
  episodes: number;
  epochs: number;
  strategies: string[];
  config: { tasks: string[] };
};
process.stderr.write(
  `folder ${big}: ${runFile.episodes} episodes, ${(statSync(episodesFile).size / 1e6).toFixed(0)} MB of ${episodesFile.slice(big.length + 1)}\n`,
);

// The build, as the user runs it (`view DIR` writes DIR/report.html and nothing else), in a child process whose wall
// time and peak RSS /usr/bin/time reports.
if (!existsSync(TIME)) throw new Error(`${TIME} is not installed (Debian package "time"): it measures the build's peak RSS`);
const file = join(big, 'report.html');
const timed = spawnSync(TIME, ['-v', process.execPath, '--max-semi-space-size=4', '--heap-growing-percent=20', CLI, 'view', big], {
  encoding: 'utf8',
  env: { ...process.env, FORCE_COLOR: '0' },
});
if (timed.status !== 0) throw new Error(`the build failed (exit ${timed.status}):\n${timed.stderr}`);
const field = (name: string): string => new RegExp(`${name}: (.*)`).exec(timed.stderr)?.[1]?.trim() ?? '?';
const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
  .split(':')
  .reduce((total, part) => total * 60 + Number(part), 0);
const peakMb = Number(field('Maximum resident set size \\(kbytes\\)')) / 1024;

const html = readFileSync(file, 'utf8');
const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!) as {
  omitted: number;
  episodes: { length: number };
};
const details = JSON.parse(/<script type="application\/json" id="report-details">(.*?)<\/script>/s.exec(html)![1]!) as string[];
const rowsBytes = Buffer.byteLength(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
const lines = [
  `episodes: ${runFile.episodes} (${runFile.config.tasks.length} tasks × ${runFile.strategies.length} strategies × ${runFile.epochs} epochs)`,
  `build (${CLI}): ${(wall * 1000).toFixed(0)} ms wall, ${peakMb.toFixed(0)} MB peak RSS`,
  `page: ${(Buffer.byteLength(html) / 1024 / 1024).toFixed(1)} MB (rows and statistics ${(rowsBytes / 1024 / 1024).toFixed(1)} MB); ` +
    `${details.length} inlined details; ${data.episodes.length - data.omitted} episodes' traces inlined, ${data.omitted} not`,
];

if (!flag('--no-browser')) {
  const browser = await launchChromium();
  /** Per load: navigation start → overview rendered (the page's `ready` mark), → DOMContentLoaded (every detail read), and the wall time Playwright saw. */
  const loads: Array<{ ready: number; parsed: number; wall: number }> = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const { page, problems } = await watchedPage(browser);
    const t0 = performance.now();
    await page.goto(`file://${file}`, { waitUntil: 'commit' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
    const wallMs = performance.now() - t0;
    await page.waitForLoadState('domcontentloaded');
    const marks = await page.evaluate(() => ({
      ready: performance.getEntriesByName('ready')[0]?.startTime ?? Number.NaN,
      parsed: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd,
    }));
    loads.push({ ...marks, wall: wallMs });
    if (problems.consoleErrors.length > 0 || problems.requests.length > 0) throw new Error(`page problems: ${JSON.stringify(problems)}`);
    await page.close();
  }
  await browser.close();
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const list = (key: 'ready' | 'parsed' | 'wall'): string => loads.map((l) => l[key].toFixed(0)).join(', ');
  lines.push(
    `Chromium, navigation start → overview rendered (interactive): median ${median(loads.map((l) => l.ready)).toFixed(0)} ms (${list('ready')})`,
    `  → every inlined trace read (DOMContentLoaded): median ${median(loads.map((l) => l.parsed)).toFixed(0)} ms (${list('parsed')})`,
    `  wall time seen by Playwright to the rendered overview: median ${median(loads.map((l) => l.wall)).toFixed(0)} ms (${list('wall')})`,
  );
}
lines.push(`folder: ${big}`, '');
process.stdout.write(lines.join('\n'));
