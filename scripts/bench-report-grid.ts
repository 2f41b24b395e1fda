// `npx tsx scripts/bench-report-grid.ts [COMMIT]`: how long a grid filter change takes in Chromium on a 646-task × 5-strategy
// report (a real 2-epoch core-suite run's records copied with suffixed task ids). Each change: performance.now() from the
// select's change event to the next animation frame (the view rebuilt, before paint) and to the frame after it (painted);
// median of 12 changes. With COMMIT, the same page is also built with that commit's page script and styles, side by side.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderHtmlReport, type HtmlAssets } from '../src/report/html/render-html.js';
import { loadHtmlAssets, reportDataOf } from '../src/runner/html-commands.js';
import { writeBigResultsFolder } from '../tests/support/big-results-folder.js';
import { launchChromium, watchedPage } from '../tests/support/browser.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TASKS = Number(process.env['BENCH_TASKS'] ?? 646);
const baseCommit = process.argv[2];

/** The filter changes measured, in order: [select name, value]. Only group, outcome and mode, which every grid version has. */
const CHANGES: Array<[string, string]> = [
  ['outcome', 'flaky'],
  ['outcome', 'any-failure'],
  ['group', 'multi-step'],
  ['outcome', ''],
  ['mode', 'agent.premature_finish'],
  ['group', ''],
  ['mode', 'planner.missing_step'],
  ['outcome', 'stable-fail'],
  ['mode', ''],
  ['outcome', 'stable-pass'],
  ['group', 'single-action'],
  ['outcome', ''],
];

/** The page script and styles as they were at `commit` (its SCRIPT_PARTS and STYLE_PARTS), with today's d3 and Plot. */
function assetsAt(commit: string, today: HtmlAssets): HtmlAssets {
  const show = (path: string) => execFileSync('git', ['show', `${commit}:${path}`], { cwd: root, encoding: 'utf8' });
  const commands = show('src/runner/html-commands.ts');
  const parts = (name: string) => [...(new RegExp(`${name} = \\[([^\\]]*)\\]`).exec(commands)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1] as string);
  const scripts = parts('SCRIPT_PARTS').map((part) => show(`src/report/html-assets/${part}.js`));
  const styles = parts('STYLE_PARTS').map((part) => show(`src/report/html-assets/${part}.css`));
  if (scripts.length === 0) throw new Error(`no SCRIPT_PARTS in ${commit}'s src/runner/html-commands.ts`);
  return { ...today, script: `(() => {\n'use strict';\n${scripts.join('\n')}\n})();\n`, styles: styles.join('\n') };
}

const work = mkdtempSync(join(tmpdir(), 'stratbench-grid-bench-'));
const small = join(work, 'small');
process.stderr.write(`running the core suite × 2 epochs into ${small}…\n`);
execFileSync(
  process.execPath,
  [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'src/cli.ts'), 'run', '--epochs', '2', '--out', small, '--no-progress'],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const big = join(work, 'big');
writeBigResultsFolder(small, big, TASKS);
const data = await reportDataOf(big);
const today = await loadHtmlAssets();
const pages: Array<[string, string]> = [['this tree', join(work, 'grid.html')]];
writeFileSync(pages[0]![1], renderHtmlReport(data, today));
if (baseCommit) {
  pages.push([baseCommit, join(work, 'grid-base.html')]);
  writeFileSync(pages[1]![1], renderHtmlReport(data, assetsAt(baseCommit, today)));
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const browser = await launchChromium();
const lines = [`${TASKS} tasks × ${data.strategies.length} strategies, ${data.episodes.length} episodes; ${CHANGES.length} filter changes each`];
for (const [label, file] of pages) {
  const { page, problems } = await watchedPage(browser);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`file://${file}#grid`);
  await page.waitForSelector('#grid td.cell', { timeout: 120_000 });
  const frame: number[] = [];
  const painted: number[] = [];
  const counts: string[] = [];
  for (const [name, value] of CHANGES) {
    const measured = await page.evaluate(
      ([name, value]) =>
        new Promise<{ frame: number; painted: number; count: string }>((done) => {
          const select = document.querySelector<HTMLSelectElement>(`select[name="${name}"]`)!;
          const t0 = performance.now();
          select.value = value as string;
          select.dispatchEvent(new Event('change', { bubbles: true }));
          requestAnimationFrame(() => {
            const frame = performance.now() - t0;
            // a task queued from the frame runs after it has been painted
            const channel = new MessageChannel();
            channel.port1.onmessage = () => done({ frame, painted: performance.now() - t0, count: document.querySelector('#grid-count')?.textContent ?? '' });
            channel.port2.postMessage(null);
          });
        }),
      [name, value],
    );
    frame.push(measured.frame);
    painted.push(measured.painted);
    counts.push(measured.count.replace(/ task\(s\) shown/, ''));
  }
  const rows = await page.locator('#grid tr').count();
  if (problems.consoleErrors.length > 0 || problems.requests.length > 0) throw new Error(`page problems: ${JSON.stringify(problems)}`);
  lines.push(
    `${label}: filter change → next frame median ${median(frame).toFixed(0)} ms (${frame.map((x) => x.toFixed(0)).join(', ')}); ` +
      `→ painted median ${median(painted).toFixed(0)} ms; tasks shown ${counts.join(', ')}; <tr> in the DOM at the end: ${rows}`,
  );
  await page.close();
}
await browser.close();
process.stdout.write(`${lines.join('\n')}\nfolder: ${big}\n`);
