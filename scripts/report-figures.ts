// Issue 30's closing figures for one build of the HTML report: page sizes, build wall time and peak RSS, load times,
// axe-core counts, sideways scrolling, grid filter-change times and how many traces the page can show — one markdown table.
//
//   npm run bench:report -- --build DIR --work DIR [--label NAME] [--beside FILE.md] [--out FILE.md] [--skip 100k,10k,browser]
//
// Before and after (the same --work, so both builds read the same folders):
//   git worktree add /tmp/wt-base a7f110e && ln -s "$PWD/node_modules" /tmp/wt-base/node_modules && (cd /tmp/wt-base && npx tsc -p tsconfig.build.json)
//   npm run bench:report -- --build /tmp/wt-base --work /tmp/rf-work --out /tmp/report-figures-before.md
//   npm run build && npm run bench:report -- --build . --work /tmp/rf-work --beside /tmp/report-figures-before.md --out /tmp/report-figures.md
//
// --build  a checkout with dist/ built (`npx tsc -p tsconfig.build.json`); every command runs as `node DIR/dist/cli.js …`.
// --work   where the results folders live, made once and reused by every later run (so two builds read the SAME folders):
//          core (run --suite tasks/core.yaml --epochs 3, by the first build given), t646 (646 tasks × 5 strategies × 3
//          epochs = 9,690 episodes), t646-head (t646 with 15% of plan-replan's successes turned into failures: the compare
//          page's head), e10k (200 tasks × 5 × 10 epochs), e100k (2,000 tasks × 5 × 10; 0.8 GB of episodes.jsonl). The
//          synthetic folders copy the core run's records with suffixed task ids, each copy's trace made distinct and a
//          fifth of the successes turned into attributed failures (as scripts/bench-html-report.ts does); summary.json is
//          computed by this checkout's summaryFromRecords. WORK/NAME.figures.json keeps what the script opens in each.
//          Pages and screenshots (core and compare views, 1440 and 800 px) go to WORK/pages/LABEL/.
// --label  the build's column heading (default: its `git rev-parse --short HEAD`).
// --beside an earlier output of this script: its value columns are printed left of this build's, row by row.
// --out    also write the table to this file.
// --skip   figures to leave out: 100k, 10k, browser (builds and sizes only).
//
// Builds run one at a time under `/usr/bin/time -f '%e %M'` (wall s; peak RSS from wait4), 10 min timeout for the 100k
// page, 5 min for the others; a timed-out build is killed (its whole process group) and reported with the peak RSS
// sampled so far (VmHWM). The page is driven only through what the old build (a7f110e) has too: URL hash routes,
// body[data-ready="true"] after each render (reset to "false" before each action), the 'ready' performance mark and the
// grid's <select name="outcome"> (`#grid?outcome=…` is tried and reported; used when there is no select). Times in the
// page run from the action to the end of the first frame rendered after the last DOM mutation (layout included).
// Axe: axe-core 4.14.1 through tests/support/browser.ts, rules counted by impact, serious and critical ones as id×nodes.
// No figure is asserted: a failed measurement prints its error in its cell. Exit 0 with the table; 2 for bad usage or a
// build without dist/; 1 when the folders cannot be made or Chromium cannot start; 130/143 interrupted.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import type { EpisodeRecord } from '../src/records/index.js';
import { summaryFromRecords } from '../src/report/run-report.js';
import { type AxeViolation, axeViolations, launchChromium, watchedPage } from '../tests/support/browser.js';

const USAGE = 'usage: npx tsx scripts/report-figures.ts --build DIR --work DIR [--label NAME] [--beside FILE.md] [--out FILE.md] [--skip 100k,10k,browser]';
const options = {
  build: { type: 'string' },
  work: { type: 'string' },
  label: { type: 'string' },
  beside: { type: 'string' },
  out: { type: 'string' },
  skip: { type: 'string' },
} as const;
let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values'];
try {
  values = parseArgs({ options }).values;
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (values.build === undefined || values.work === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const BUILD = resolve(values.build);
const WORK = resolve(values.work);
const CLI = join(BUILD, 'dist/cli.js');
if (!existsSync(CLI)) {
  process.stderr.write(`${CLI} is missing: build ${BUILD} first (npx tsc -p tsconfig.build.json)\n`);
  process.exit(2);
}
if (!existsSync('/usr/bin/time')) {
  process.stderr.write('/usr/bin/time is missing (Debian package "time"): it measures the builds\' peak RSS\n');
  process.exit(2);
}
const skip = new Set((values.skip ?? '').split(',').filter(Boolean));
const LABEL = values.label ?? gitLabel(BUILD);
const PAGES = join(WORK, 'pages', LABEL);
mkdirSync(PAGES, { recursive: true });
const log = (line: string): boolean => process.stderr.write(`[report-figures] ${line}\n`);
const rows: Array<[string, string]> = [];
const put = (figure: string, value: string): void => {
  rows.push([figure, value]);
  log(`${figure}: ${value}`);
};
const errorText = (error: unknown): string => `error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200)}`;
const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function gitLabel(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return basename(dir);
  }
}

// ---- child processes: one at a time, timed, killed as a group on timeout or interrupt ---------------------------------
const running = new Set<ChildProcess>();
const killGroup = (child: ChildProcess): void => {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
};
// An error outside a figure (a folder that cannot be made, no Chromium): one line, no child left running.
process.on('uncaughtException', (error) => {
  for (const child of running) killGroup(child);
  process.stderr.write(`report-figures: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) killGroup(child);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

interface Timed {
  code: number | string;
  seconds: number;
  peakMb: number;
  stderr: string;
}

/** Peak RSS (VmHWM, MB) of the processes under `pid` so far: the figure a timed-out build leaves. */
function sampledPeak(pid: number): number {
  let peak = 0;
  const visit = (at: number): void => {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${at}/status`, 'utf8'))?.[1];
      peak = Math.max(peak, Number(kb ?? 0) / 1024);
      for (const child of readFileSync(`/proc/${at}/task/${at}/children`, 'utf8').split(' ').filter(Boolean)) visit(Number(child));
    } catch {
      // the process ended between two reads
    }
  };
  visit(pid);
  return peak;
}

/** `node BUILD/dist/cli.js args` under /usr/bin/time: exit code ('timeout' past `timeoutMs`), wall s, peak RSS MB. */
async function timedCli(args: string[], timeoutMs: number): Promise<Timed> {
  const timeFile = join(PAGES, '.time');
  rmSync(timeFile, { force: true });
  const child = spawn('/usr/bin/time', ['-o', timeFile, '-f', '%e %M', process.execPath, CLI, ...args], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, sampledPeak(child.pid!))), 500);
  const started = performance.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, timeoutMs);
  const code = await new Promise<number | string>((done) => child.on('close', (exit, signal) => done(exit ?? signal ?? 'unknown')));
  clearTimeout(timer);
  clearInterval(sampler);
  running.delete(child);
  const seconds = (performance.now() - started) / 1000;
  const [wall, kb] = existsSync(timeFile) ? readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ') : [];
  if (timedOut) return { code: 'timeout', seconds, peakMb: peak, stderr };
  return { code, seconds: Number(wall ?? seconds), peakMb: kb === undefined ? peak : Number(kb) / 1024, stderr };
}

// ---- the results folders (made once into --work) ---------------------------------------------------------------------
interface EpisodeRef {
  task: string;
  strategy: string;
  epoch: number;
}
/** What this script remembers of a folder it made (WORK/NAME.figures.json): sizes and the episodes it opens. */
interface FolderFacts {
  episodes: number;
  tasks: number;
  failed: number;
  /** About 30 episodes spread evenly over the folder, opened to see whether the page shows their trace. */
  sample: EpisodeRef[];
  /** An episode whose trace has a plan_revision event (core only). */
  revised?: EpisodeRef;
  /** The failed episode with the most tool output (core only; every failure's trace is inlined): long code blocks. */
  longest?: EpisodeRef;
}

const factsFile = (name: string): string => join(WORK, `${name}.figures.json`);
const readFacts = (name: string): FolderFacts => JSON.parse(readFileSync(factsFile(name), 'utf8')) as FolderFacts;
const readRecords = (dir: string): EpisodeRecord[] =>
  readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord);

function evenSample<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).slice(0, count);
}

const refOf = ({ task, strategy, epoch }: EpisodeRef): EpisodeRef => ({ task, strategy, epoch });

async function coreFolder(): Promise<void> {
  const dir = join(WORK, 'core');
  if (existsSync(join(dir, 'run.json')) && existsSync(factsFile('core'))) {
    if (readFacts('core').longest === undefined) writeFileSync(factsFile('core'), JSON.stringify(coreFacts(readRecords(dir)), null, 2));
    return;
  }
  rmSync(`${dir}.partial`, { recursive: true, force: true });
  log(`running the core suite × 3 epochs into ${dir} with ${BUILD}…`);
  const ran = await timedCli(['run', '--suite', join(BUILD, 'tasks/core.yaml'), '--epochs', '3', '--out', `${dir}.partial`, '--no-progress'], 600_000);
  if (ran.code !== 0) throw new Error(`the core run exited ${ran.code}: ${ran.stderr.slice(-500)}`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(`${dir}.partial`, dir);
  writeFileSync(factsFile('core'), JSON.stringify(coreFacts(readRecords(dir)), null, 2));
}

function coreFacts(records: EpisodeRecord[]): FolderFacts {
  const revised = records.find((r) => r.epoch === 0 && r.trace.some((event) => event.type === 'plan_revision'));
  const output = (r: EpisodeRecord): number => r.trace.reduce((sum, event) => sum + (event.type === 'tool_call' ? String(event.output ?? '').length : 0), 0);
  const longest = records.filter((r) => !r.success).sort((a, b) => output(b) - output(a))[0];
  return {
    episodes: records.length,
    tasks: new Set(records.map((r) => r.task)).size,
    failed: records.filter((r) => !r.success).length,
    sample: evenSample(records.map(refOf), 30),
    ...(revised ? { revised: refOf(revised) } : {}),
    ...(longest ? { longest: refOf(longest) } : {}),
  };
}

/** Deterministic pseudo-random numbers in [0, 1) (xorshift32), so every machine builds the same folders. */
function xorshift(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/**
 * Writes NAME: `taskCount` tasks (the core tasks, then copies suffixed -c1, -c2, …) × the core run's strategies ×
 * `epochs` epochs (epoch e replays the core run's epoch e mod 3), streamed to disk; summary.json from the same stream.
 * `regress`: the share of plan-replan successes turned into failures on top (the compare page's head).
 */
function syntheticFolder(name: string, taskCount: number, epochs: number, regress = 0): void {
  const dir = join(WORK, name);
  if (existsSync(join(dir, 'summary.json')) && existsSync(factsFile(name))) return;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  log(`writing ${name}: ${taskCount} tasks × ${epochs} epochs…`);
  const core = join(WORK, 'core');
  const base = readRecords(core);
  const run = JSON.parse(readFileSync(join(core, 'run.json'), 'utf8')) as Record<string, unknown> & {
    config: { tasks: string[]; groups: string[] };
    strategies: string[];
    config_hash: string;
    seed: number;
  };
  const coreTasks = run.config.tasks;
  const tasks = Array.from({ length: taskCount }, (_, i) => {
    const copy = Math.floor(i / coreTasks.length);
    const task = coreTasks[i % coreTasks.length]!;
    return { task, id: copy === 0 ? task : `${task}-c${copy}`, copy };
  });
  const byKey = new Map(base.map((r) => [`${r.task}|${r.strategy}|${r.epoch}`, r]));
  const random = xorshift(0x9e3779b9);
  const flipHead = xorshift(0x2545f491);
  // Written synchronously in 1 MB batches: the generator feeds summaryFromRecords, and 100k records (~0.8 GB) must not queue in memory.
  const out = openSync(join(partial, 'episodes.jsonl'), 'w');
  let batch = '';
  const refs: EpisodeRef[] = [];
  let failed = 0;
  function* records(): Generator<EpisodeRecord> {
    for (const { task, id, copy } of tasks) {
      for (const strategy of run.strategies) {
        for (let epoch = 0; epoch < epochs; epoch += 1) {
          const record = byKey.get(`${task}|${strategy}|${epoch % 3}`);
          if (!record) continue;
          const nudge = copy * epochs + epoch;
          const trace = record.trace.map((event) =>
            event.type === 'tool_call'
              ? { ...event, t_ms: event.t_ms + nudge, output: `${event.output}\n# copy ${nudge}` }
              : { ...event, t_ms: event.t_ms + nudge },
          );
          const flip = record.success && random() < 0.2;
          const regressed = !flip && record.success && strategy === 'plan-replan' && flipHead() < regress;
          const success = record.success && !flip && !regressed;
          const episode: EpisodeRecord = {
            ...record,
            task: id,
            epoch,
            key: `${id}|${strategy}|${epoch}|${run.config_hash}`,
            trace,
            success,
            attribution:
              flip || regressed
                ? {
                    component: 'executor',
                    mode: regressed ? 'figures_regression' : 'figures_flip',
                    evidence: [trace[trace.length - 1]?.id ?? 0],
                    explanation: 'A success turned into a failure by scripts/report-figures.ts, to make flaky cells.',
                  }
                : record.attribution,
          };
          if (!success) failed += 1;
          refs.push({ task: id, strategy, epoch });
          batch += `${JSON.stringify(episode)}\n`;
          if (batch.length > 1_000_000) {
            writeSync(out, batch);
            batch = '';
          }
          yield episode;
        }
      }
    }
  }
  const summary = summaryFromRecords(records(), run.config.groups, run.strategies, run.seed);
  writeSync(out, batch);
  closeSync(out);
  writeFileSync(join(partial, 'summary.json'), JSON.stringify(summary));
  const ids = tasks.map((t) => t.id);
  writeFileSync(join(partial, 'run.json'), JSON.stringify({ ...run, epochs, episodes: refs.length, config: { ...run.config, epochs, tasks: ids } }, null, 2));
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  const facts: FolderFacts = { episodes: refs.length, tasks: ids.length, failed, sample: evenSample(refs, 30) };
  writeFileSync(factsFile(name), JSON.stringify(facts, null, 2));
}

// ---- building the pages -----------------------------------------------------------------------------------------------
interface Built {
  name: string;
  file: string;
  ok: boolean;
}

/** Builds one page with `args` (its output file last), puts its size and build figures in the table. */
async function buildPage(name: string, what: string, args: string[], file: string, timeoutMs: number, okCodes: number[] = [0]): Promise<Built> {
  rmSync(file, { force: true });
  log(`building the ${what} page…`);
  const ran = await timedCli(args, timeoutMs);
  const ok = typeof ran.code === 'number' && okCodes.includes(ran.code) && existsSync(file);
  const rss = `${n(ran.peakMb)} MB peak RSS`;
  if (ok) {
    const bytes = statSync(file).size;
    put(`page size · ${what}`, `${n(bytes)} B (${mb(bytes)})`);
    put(`page build · ${what}`, `${(ran.seconds * 1000).toFixed(0)} ms wall, ${rss}`);
  } else {
    put(`page size · ${what}`, '—');
    const why =
      ran.code === 'timeout'
        ? `killed after ${(timeoutMs / 60_000).toFixed(0)} min (timeout), ${rss} sampled so far`
        : `exit ${ran.code} after ${ran.seconds.toFixed(1)} s, ${rss}: ${ran.stderr.trim().split('\n').pop()?.slice(0, 200) ?? ''}`;
    put(`page build · ${what}`, why);
  }
  return { name, file, ok };
}

// ---- in the page ------------------------------------------------------------------------------------------------------
// Plain JavaScript sources (not TypeScript closures) so that no compiler helper leaks into page.evaluate.

/**
 * Resets body[data-ready], performs `action` (select an option of select[name=…], or set location.hash), then waits
 * for data-ready="true" and a frame without DOM mutations. Resolves to the ms (performance.now()) from the action to
 * the end of the first frame rendered after the last mutation, style and layout included.
 */
const SETTLE = `async ({ action, timeoutMs }) => {
  let mutated = false;
  const observer = new MutationObserver((records) => {
    if (records.some((r) => !(r.target === document.body && r.attributeName === 'data-ready'))) mutated = true;
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  if (action) document.body.dataset.ready = 'false';
  const t0 = performance.now();
  if (action && action.select) {
    const element = document.querySelector('select[name="' + action.select + '"]');
    if (!element) throw new Error('no select[name="' + action.select + '"] on the page');
    element.value = action.value;
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (action && action.hash !== undefined) {
    if (location.hash === action.hash) throw new Error('already at ' + action.hash);
    location.hash = action.hash;
  }
  return new Promise((resolve, reject) => {
    // candidate: the end of the first frame rendered after the last mutation — a message posted from its rAF callback
    // runs once that frame's style, layout and paint are done.
    let candidate = null;
    let pending = false;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      candidate = performance.now();
      pending = false;
    };
    const deadline = setTimeout(() => {
      observer.disconnect();
      reject(new Error('no settled render within ' + timeoutMs + ' ms (data-ready=' + document.body.dataset.ready + ')'));
    }, timeoutMs);
    const frame = () => {
      const ready = document.body.dataset.ready === 'true';
      if (mutated || (candidate === null && !pending)) {
        mutated = false;
        pending = true;
        channel.port2.postMessage(0);
      } else if (ready && !pending) {
        clearTimeout(deadline);
        observer.disconnect();
        channel.port1.close();
        resolve(candidate - t0);
        return;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}`;

/** The page data's count of rows with an inlined detail (old layout: packed columns, or rows as objects). */
const DATA_TRACES = `(() => {
  const element = document.getElementById('report-data');
  if (!element) return { total: null, withDetail: null, extra: {} };
  const data = JSON.parse(element.textContent);
  const sources = data.episodes ? [data] : [data.base, data.head].filter(Boolean);
  let total = null;
  let withDetail = null;
  for (const source of sources) {
    const episodes = source.episodes;
    const present = (d) => d !== null && d !== undefined;
    if (episodes && episodes.columns && Array.isArray(episodes.columns.detail)) {
      total = (total || 0) + episodes.length;
      withDetail = (withDetail || 0) + episodes.columns.detail.filter(present).length;
    } else if (Array.isArray(episodes)) {
      total = (total || 0) + episodes.length;
      withDetail = (withDetail || 0) + episodes.filter((e) => present(e.detail)).length;
    }
  }
  const extra = {};
  for (const [key, value] of Object.entries(data)) if (/trace|detail|omit|serve/i.test(key) && (typeof value !== 'object' || value === null)) extra[key] = value;
  return { total, withDetail, extra };
})()`;

/** What the episode view shows: trace events, and otherwise the sentence standing in for them. */
const EPISODE_SHOWN = `(() => ({
  events: document.querySelectorAll('section.event').length,
  missing: /^No episode /.test((document.querySelector('main .problem') || {}).textContent || ''),
  note: ((document.querySelector('#not-inlined, .trace-unavailable, main .problem') || {}).textContent || '').trim(),
}))()`;

const GRID_SHAPE = `(() => {
  const grid = document.getElementById('grid') || document.querySelector('[role=grid], table.grid');
  return {
    height: grid ? grid.getBoundingClientRect().height : null,
    documentHeight: document.scrollingElement.scrollHeight,
    rows: grid ? grid.querySelectorAll('tr, [role=row]').length : 0,
    cells: grid ? grid.querySelectorAll('td.cell, [role=gridcell]').length : 0,
    shown: ((document.getElementById('grid-count') || {}).textContent || '').trim(),
  };
})()`;

const SIDEWAYS = `(() => ({ scrollWidth: document.scrollingElement.scrollWidth, clientWidth: document.scrollingElement.clientWidth }))()`;

const PAGE_TIMEOUT_MS = 300_000;
const problems = { requests: [] as string[], consoleErrors: [] as string[], loads: 0 };
const scrolls: string[] = [];

/** How long a page that threw an uncaught error may still take to render before the wait for it gives up (ms). */
const AFTER_PAGE_ERROR_MS = 15_000;
/** Per page: a promise rejected AFTER_PAGE_ERROR_MS after its first uncaught error (a page that threw may never render). */
const pageFailures = new WeakMap<Page, Promise<never>>();

function failureOf(page: Page): Promise<never> {
  let failure = pageFailures.get(page);
  if (!failure) {
    failure = new Promise<never>((_, reject) =>
      page.once('pageerror', (error) => {
        setTimeout(() => reject(new Error(`the page threw "${error.message}" and did not render within ${AFTER_PAGE_ERROR_MS / 1000} s`)), AFTER_PAGE_ERROR_MS);
      }),
    );
    failure.catch(() => undefined);
    pageFailures.set(page, failure);
  }
  return failure;
}

/** `work` on `page`, or the page's uncaught error when it threw and then did not finish within AFTER_PAGE_ERROR_MS. */
const unlessBroken = <T>(page: Page, work: Promise<T>): Promise<T> => Promise.race([work, failureOf(page)]);

async function settle(page: Page, action: { select: string; value: string } | { hash: string } | null = null): Promise<number> {
  return unlessBroken(page, page.evaluate(`(${SETTLE})(${JSON.stringify({ action, timeoutMs: PAGE_TIMEOUT_MS })})`));
}

/** A fresh page `width` px wide at file://FILE#hash, rendered; its problems are added to the totals when closed. */
/** Pages that threw and never rendered (file → why): their other views are not tried again. */
const brokenPages = new Map<string, string>();

async function open(browser: Browser, file: string, hash: string, width = 1440): Promise<{ page: Page; wallMs: number; close: () => Promise<void> }> {
  const broken = brokenPages.get(file);
  if (broken !== undefined) throw new Error(broken);
  const watched = await watchedPage(browser);
  problems.loads += 1;
  const close = async (): Promise<void> => {
    problems.requests.push(...watched.problems.requests);
    problems.consoleErrors.push(...watched.problems.consoleErrors.map((e) => `${basename(file)}${hash}: ${e}`));
    watched.problems.requests.length = 0;
    watched.problems.consoleErrors.length = 0;
    await watched.page.close();
  };
  try {
    failureOf(watched.page);
    await watched.page.setViewportSize({ width, height: 900 });
    const started = performance.now();
    await watched.page.goto(`${pathToFileURL(file).href}${hash}`, { waitUntil: 'commit', timeout: PAGE_TIMEOUT_MS });
    await unlessBroken(watched.page, watched.page.waitForSelector('body[data-ready="true"]', { timeout: PAGE_TIMEOUT_MS }));
    const wallMs = performance.now() - started;
    await settle(watched.page);
    return { page: watched.page, wallMs, close };
  } catch (error) {
    await close();
    if (error instanceof Error && error.message.startsWith('the page threw')) brokenPages.set(file, error.message);
    throw error;
  }
}

const episodeRoute = (ref: EpisodeRef): string => `#episode/${encodeURIComponent(ref.task)}/${encodeURIComponent(ref.strategy)}/${ref.epoch}`;

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

async function loadTimes(browser: Browser, built: Built, what: string): Promise<void> {
  const loads = statSync(built.file).size < 30 * 1024 * 1024 ? 3 : 1;
  const marks: number[] = [];
  const walls: number[] = [];
  for (let i = 0; i < loads; i += 1) {
    const { page, wallMs, close } = await open(browser, built.file, '');
    marks.push(await page.evaluate(`performance.getEntriesByName('ready')[0]?.startTime ?? NaN`));
    walls.push(wallMs);
    await close();
  }
  const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
  put(
    `load to data-ready · ${what}`,
    `${median(marks).toFixed(0)} ms median 'ready' mark (${list(marks)}); wall ${median(walls).toFixed(0)} ms (${list(walls)}), ${loads} load(s)`,
  );
}

const impactCounts = (violations: readonly AxeViolation[]): string => {
  const count = (impact: string): number => violations.filter((v) => v.impact === impact).length;
  const serious = violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}×${v.nodes}`)
    .join(', ');
  return `${count('critical')} critical, ${count('serious')} serious, ${count('moderate')} moderate, ${count('minor')} minor${serious ? ` (${serious})` : ''}`;
};

/** How a grid filter is set on this build: the grid's select[name="outcome"] when it has one, else `#grid?outcome=…`. */
interface FilterMethod {
  kind: 'select' | 'url';
  /** What the output says about it. */
  note: string;
}

async function filterMethod(browser: Browser, file: string): Promise<FilterMethod> {
  const { page, close } = await open(browser, file, '#grid?outcome=stable-fail');
  const seen = (await page.evaluate(
    `(() => ({ grid: !!document.querySelector('#grid, [role=grid], table.grid'), select: (document.querySelector('select[name="outcome"]') || {}).value ?? null }))()`,
  )) as { grid: boolean; select: string | null };
  await close();
  const url = seen.grid && seen.select === 'stable-fail' ? 'honoured' : seen.grid && seen.select === null ? 'grid shown, no select to confirm' : 'not honoured';
  const probe = await open(browser, file, '#grid');
  const hasSelect = await probe.page.evaluate(`!!document.querySelector('select[name="outcome"]')`);
  await probe.close();
  if (hasSelect) return { kind: 'select', note: `select[name="outcome"] set + change event (URL #grid?outcome=…: ${url})` };
  if (url !== 'not honoured') return { kind: 'url', note: `URL #grid?outcome=… (${url}; no select[name="outcome"])` };
  throw new Error('the grid has no select[name="outcome"] and does not read #grid?outcome=…');
}

const outcomeAction = (method: FilterMethod, outcome: string) =>
  method.kind === 'select' ? { select: 'outcome', value: outcome } : { hash: outcome ? `#grid?outcome=${outcome}` : '#grid' };

interface View {
  label: string;
  file: string;
  hash: string;
  outcome?: string;
  /** Full-page screenshots at both widths into PAGES/shots (skipped for the tall 646-task grid). */
  shots: boolean;
}

/** Axe counts and sideways scrolling of one view at 1440 and 800 px. */
async function axeView(browser: Browser, view: View, method: FilterMethod | null): Promise<void> {
  for (const width of [1440, 800]) {
    const figure = `axe · ${view.label} @${width}`;
    try {
      const { page, close } = await open(browser, view.file, view.hash, width);
      try {
        if (view.outcome !== undefined) {
          if (!method) throw new Error('no way to set the outcome filter');
          await settle(page, outcomeAction(method, view.outcome));
        }
        put(figure, impactCounts(await axeViolations(page)));
        const { scrollWidth, clientWidth } = (await page.evaluate(SIDEWAYS)) as { scrollWidth: number; clientWidth: number };
        if (width === 800) scrolls.push(`${view.label}: ${scrollWidth > clientWidth ? `yes (${scrollWidth} > ${clientWidth} px)` : 'no'}`);
        if (view.shots) {
          mkdirSync(join(PAGES, 'shots'), { recursive: true });
          await page.screenshot({
            path: join(PAGES, 'shots', `${view.label.replace(/[^a-z0-9]+/gi, '-')}-${width}.png`),
            fullPage: true,
            timeout: PAGE_TIMEOUT_MS,
          });
        }
      } finally {
        await close();
      }
    } catch (error) {
      put(figure, errorText(error));
    }
  }
}

/** ≥ 10 outcome-filter changes on the grid (alternating with "all"), timed in the page; then the grid's DOM size. */
async function filterTimes(browser: Browser, file: string, method: FilterMethod, what: string): Promise<void> {
  const { page, close } = await open(browser, file, '#overview');
  try {
    const openMs = await settle(page, { hash: '#grid' });
    put(`grid view opened from #overview · ${what}`, `${openMs.toFixed(0)} ms`);
    const outcomes = ['stable-fail', '', 'flaky', '', 'any-failure', '', 'stable-pass', '', 'stable-fail', 'flaky', 'any-failure', ''];
    const times: number[] = [];
    for (const outcome of outcomes) times.push(await settle(page, outcomeAction(method, outcome)));
    put(
      `grid filter change · ${what}`,
      `median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${times.length} changes (${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
    type Shape = { height: number | null; documentHeight: number; rows: number; cells: number; shown: string };
    const wide = (await page.evaluate(GRID_SHAPE)) as Shape;
    await page.setViewportSize({ width: 800, height: 900 });
    await settle(page);
    const narrow = (await page.evaluate(GRID_SHAPE)) as Shape;
    const tall = (shape: Shape): string => `grid ${shape.height === null ? '—' : n(shape.height)} px tall (page ${n(shape.documentHeight)} px)`;
    put(
      `grid DOM, unfiltered · ${what}`,
      `${tall(wide)} at 1440 px, ${tall(narrow)} at 800 px; ${n(wide.rows)} rows and ${n(wide.cells)} cells in the DOM${wide.shown ? `, "${wide.shown}"` : ''}`,
    );
  } finally {
    await close();
  }
}

/** Traces the page can show: rows with an inlined detail per its data, and the sampled episodes opened one by one. */
async function traceReach(browser: Browser, built: Built, facts: FolderFacts, what: string): Promise<void> {
  const { page, close } = await open(browser, built.file, '#overview');
  try {
    const data = (await page.evaluate(DATA_TRACES)) as { total: number | null; withDetail: number | null; extra: Record<string, unknown> };
    const extra = Object.entries(data.extra)
      .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
      .join(', ');
    const fromData =
      data.total === null
        ? `page data: no per-row detail index${extra ? ` (${extra})` : ''}`
        : `page data: ${n(data.withDetail ?? 0)} of ${n(data.total)} rows have a detail (${((100 * (data.withDetail ?? 0)) / data.total).toFixed(1)}%)${extra ? `; ${extra}` : ''}`;
    let shown = 0;
    const notes = new Map<string, number>();
    for (const ref of facts.sample) {
      await settle(page, { hash: episodeRoute(ref) });
      const seen = (await page.evaluate(EPISODE_SHOWN)) as { events: number; missing: boolean; note: string };
      if (seen.events > 0) shown += 1;
      else {
        const note = seen.missing
          ? 'episode not found by its route'
          : seen.note
              .split(ref.task)
              .join('TASK')
              .split(ref.strategy)
              .join('STRATEGY')
              .replace(/--epoch \d+/g, '--epoch N')
              .slice(0, 240) || 'no trace and no note';
        notes.set(note, (notes.get(note) ?? 0) + 1);
      }
    }
    const others = [...notes].map(([note, count]) => `${count}× "${note}"`).join('; ');
    put(`traces reachable · ${what}`, `${fromData}; opened ${facts.sample.length} spread episodes: ${shown} show a trace${others ? `, ${others}` : ''}`);
  } finally {
    await close();
  }
}

// ---- the run ----------------------------------------------------------------------------------------------------------
const startedAt = new Date();
const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
mkdirSync(WORK, { recursive: true });
await coreFolder();
syntheticFolder('t646', 646, 3);
syntheticFolder('t646-head', 646, 3, 0.15);
if (!skip.has('10k')) syntheticFolder('e10k', 200, 10);
if (!skip.has('100k')) syntheticFolder('e100k', 2000, 10);

const folders = [
  { name: 'core', timeoutMs: 300_000 },
  { name: 't646', timeoutMs: 300_000 },
  ...(skip.has('10k') ? [] : [{ name: 'e10k', timeoutMs: 300_000 }]),
  ...(skip.has('100k') ? [] : [{ name: 'e100k', timeoutMs: 600_000 }]),
].map(({ name, timeoutMs }) => {
  const facts = readFacts(name);
  const what = `${name} (${n(facts.tasks)} tasks × 5 strategies, ${n(facts.episodes)} episodes, ${n(facts.failed)} failed)`;
  return { name, timeoutMs, facts, what };
});
const built = new Map<string, Built & { what: string; facts: FolderFacts }>();
for (const folder of folders) {
  const file = join(PAGES, `${folder.name}.html`);
  const page = await buildPage(folder.name, folder.what, ['report', join(WORK, folder.name), '--html', file], file, folder.timeoutMs);
  built.set(folder.name, { ...page, what: folder.what, facts: folder.facts });
}
const compareFile = join(PAGES, 'compare.html');
const compareWhat = 'compare t646 → t646-head';
// compare exits 1 when head regressed (it does: 15% of plan-replan's successes turned into failures) and still writes the page.
const compared = await buildPage(
  'compare',
  compareWhat,
  ['compare', join(WORK, 't646'), join(WORK, 't646-head'), '--html', compareFile],
  compareFile,
  300_000,
  [0, 1],
);

if (!skip.has('browser')) {
  const browser = await launchChromium();
  try {
    put('browser', `Chromium ${browser.version()}`);
    for (const page of [...built.values(), { ...compared, what: compareWhat }]) {
      if (!page.ok) continue;
      try {
        await loadTimes(browser, page, page.what);
      } catch (error) {
        put(`load to data-ready · ${page.what}`, errorText(error));
      }
    }
    const core = built.get('core')!;
    const t646 = built.get('t646')!;
    let method: FilterMethod | null = null;
    try {
      if (!core.ok) throw new Error('no core page');
      method = await filterMethod(browser, core.file);
      put('grid filter method', method.note);
    } catch (error) {
      put('grid filter method', errorText(error));
    }
    const revised = core.facts.revised;
    const views: View[] = [
      { label: 'core overview', file: core.file, hash: '#overview', shots: true },
      { label: 'core grid', file: core.file, hash: '#grid', shots: true },
      { label: 'core grid outcome=stable-fail', file: core.file, hash: '#grid', outcome: 'stable-fail', shots: true },
      ...(revised
        ? [
            {
              label: `core episode with a plan revision (${revised.task} × ${revised.strategy} #${revised.epoch})`,
              file: core.file,
              hash: episodeRoute(revised),
              shots: true,
            },
          ]
        : []),
      ...(core.facts.longest
        ? [
            {
              label: `core failed episode with the most tool output (${core.facts.longest.task} × ${core.facts.longest.strategy} #${core.facts.longest.epoch})`,
              file: core.file,
              hash: episodeRoute(core.facts.longest),
              shots: true,
            },
          ]
        : []),
      { label: '646 grid', file: t646.file, hash: '#grid', shots: false },
      { label: '646 grid outcome=stable-fail', file: t646.file, hash: '#grid', outcome: 'stable-fail', shots: false },
      { label: 'compare first view', file: compareFile, hash: '', shots: true },
    ];
    for (const view of views) {
      if (!existsSync(view.file)) put(`axe · ${view.label}`, 'no page');
      else await axeView(browser, view, method);
    }
    put('scrolls sideways at 800 px', scrolls.join('; ') || '—');
    try {
      if (!t646.ok || !method) throw new Error('no 646-task page or no filter method');
      await filterTimes(browser, t646.file, method, t646.what);
    } catch (error) {
      put(`grid filter change · ${t646.what}`, errorText(error));
    }
    for (const page of built.values()) {
      try {
        if (!page.ok) throw new Error('no page');
        await traceReach(browser, page, page.facts, page.what);
      } catch (error) {
        put(`traces reachable · ${page.what}`, errorText(error));
      }
    }
    const firsts = (list: string[]): string => [...new Set(list)].slice(0, 3).join(' | ').slice(0, 400);
    put(
      'network requests (all page loads)',
      `${problems.requests.length} in ${problems.loads} loads${problems.requests.length ? `: ${firsts(problems.requests)}` : ''}`,
    );
    put(
      'console errors (all page loads)',
      `${problems.consoleErrors.length} in ${problems.loads} loads${problems.consoleErrors.length ? `: ${firsts(problems.consoleErrors)}` : ''}`,
    );
  } finally {
    await browser.close();
  }
}

// ---- the table --------------------------------------------------------------------------------------------------------
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const splitRow = (line: string): string[] =>
  line
    .replace(/^\|/, '')
    .replace(/\|\s*$/, '')
    .split(/(?<!\\)\|/)
    .map((part) => part.trim());
let headers = ['figure', LABEL];
let table = rows.map(([figure, value]) => [figure, cell(value)]);
if (values.beside !== undefined) {
  const lines = readFileSync(values.beside, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('|'));
  const [head, , ...body] = lines.map(splitRow);
  if (head?.[0] !== 'figure') throw new Error(`${values.beside} holds no table of this script (a first column "figure")`);
  const earlier = new Map(body.map((row) => [row[0]!, row.slice(1)]));
  const blank = head.slice(1).map(() => '—');
  headers = ['figure', ...head.slice(1), LABEL];
  table = [
    ...table.map(([figure, value]) => [figure!, ...(earlier.get(figure!) ?? blank), value!]),
    ...body.filter((row) => !rows.some(([figure]) => figure === row[0])).map((row) => [...row, '—']),
  ];
}
const text = [
  `| ${headers.join(' | ')} |`,
  `| ${headers.map(() => '---').join(' | ')} |`,
  ...table.map((row) => `| ${row.join(' | ')} |`),
  '',
  `${LABEL}: ${BUILD} (node ${process.version}), folders in ${WORK}, pages in ${PAGES}; ${startedAt.toISOString()}, load average ${loadAverage} at start, ` +
    `${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} min in all.`,
  '',
].join('\n');
process.stdout.write(text);
if (values.out !== undefined) writeFileSync(values.out, text);
