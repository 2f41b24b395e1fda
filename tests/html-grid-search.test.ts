// The HTML report's grid (filters in the URL, chart links, virtualised rows, sticky header, keyboard) and its full-text
// search, in Chromium, on a real core-suite run and on a 646-task folder made by copying that run's records.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBigResultsFolder } from './support/big-results-folder.js';
import {
  axeViolations,
  launchChromium,
  REPORT_ARTIFACTS,
  screenshotBothWidths,
  seriousOf,
  SKIP_BROWSER_TESTS,
  WIDTHS,
  watchedPage,
  type PageProblems,
} from './support/browser.js';
import { scratch, stratbench } from './support/cli.js';

interface Episode {
  task: string;
  group: string;
  strategy: string;
  epoch: number;
  success: boolean;
  attribution: { component: string; mode: string } | null;
  explanation?: string;
  checks: Array<{ pass: boolean; detail: string }>;
  trace: Array<{ id: number; type: string; tool?: string; output?: string }>;
}

const BIG_TASKS = 646;
const readEpisodes = (dir: string): Episode[] =>
  readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Episode);
const tasksWhere = (episodes: Episode[], keep: (e: Episode) => boolean): string[] => [...new Set(episodes.filter(keep).map((e) => e.task))].sort();

describe.skipIf(SKIP_BROWSER_TESTS)('HTML report grid and search in Chromium', () => {
  let small: string;
  let smallFile: string;
  let bigFile: string;
  let smallEpisodes: Episode[];
  let bigEpisodes: Episode[];
  let bigTaskIds: string[];
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    const dir = scratch();
    small = join(dir, 'small');
    const run = stratbench(['run', '--suite', 'tasks/core.yaml', '--epochs', '2', '--out', small, '--no-progress']);
    expect(run.status, run.stderr).toBe(0);
    smallFile = join(dir, 'small.html');
    expect(stratbench(['report', small, '--html', smallFile]).status).toBe(0);
    const big = join(dir, 'big');
    bigTaskIds = writeBigResultsFolder(small, big, BIG_TASKS);
    bigFile = join(dir, 'big.html');
    const report = stratbench(['report', big, '--html', bigFile]);
    expect(report.status, report.stderr).toBe(0);
    smallEpisodes = readEpisodes(small);
    bigEpisodes = readEpisodes(big);
    mkdirSync(REPORT_ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    ({ page, problems } = await watchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const open = async (file: string, hash: string): Promise<void> => {
    await page.goto(`file://${file}${hash}`);
    await page.waitForSelector('body[data-ready="true"]');
  };
  const hash = () => page.evaluate(() => decodeURIComponent(location.hash));
  const count = () => page.locator('#grid-count').textContent();
  const shownTasks = () => page.locator('#grid tbody tr[data-task]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task')).sort());
  const undimmedStrategies = async () =>
    new Set(await page.locator('#grid td.cell:not(.dim)').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-strategy'))));
  /** What the focused element is: a cell as "TASK|STRATEGY", else its tag and text. */
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const cell = el?.closest('td.cell') as HTMLElement | null;
      return cell ? (cell.dataset['key'] ?? '') : `${el?.tagName} ${el?.textContent?.slice(0, 40)}`;
    });
  const frames = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  /** Viewport (not full-page) screenshots at both widths: a virtualised page's full height is mostly spacer. */
  const viewportShots = async (name: string) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await frames();
      await page.screenshot({ path: join(REPORT_ARTIFACTS, `${name}-${width}.png`) });
    }
    await page.setViewportSize({ width: 1400, height: 1000 });
  };

  it('writes every filter change into the URL: a reload restores the filter and its count, Back the previous filter', async () => {
    const flakyReact = tasksWhere(bigEpisodes, (e) => e.strategy === 'react' && !e.success);
    expect(flakyReact.length).toBeGreaterThan(100);
    await open(bigFile, '#grid');
    expect(await count()).toBe(`${BIG_TASKS} task(s) shown`);
    await page.selectOption('select[name="strategy"]', 'react');
    expect(await hash()).toBe('#grid?strategy=react');
    expect(await count()).toBe(`${BIG_TASKS} task(s) shown`);
    await page.selectOption('select[name="outcome"]', 'flaky');
    expect(await hash()).toBe('#grid?strategy=react&outcome=flaky');
    expect(await count()).toBe(`${flakyReact.length} task(s) shown`);
    expect(await undimmedStrategies()).toEqual(new Set(['react']));
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await count()).toBe(`${flakyReact.length} task(s) shown`);
    expect([await page.inputValue('select[name="strategy"]'), await page.inputValue('select[name="outcome"]')]).toEqual(['react', 'flaky']);
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('#grid-count')?.textContent === '646 task(s) shown');
    expect(await hash()).toBe('#grid?strategy=react');
    expect(await page.inputValue('select[name="outcome"]')).toBe('');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('honours the filters a chart links to: strategy + mode, strategy + component, strategy + group (overall: every group), outcome', async () => {
    const missingStep = tasksWhere(smallEpisodes, (e) => e.strategy === 'plan-up-front' && e.attribution?.mode === 'missing_step');
    expect(missingStep.length).toBeGreaterThan(0);
    await open(smallFile, '#grid?strategy=plan-up-front&mode=planner.missing_step');
    expect(await shownTasks()).toEqual(missingStep);
    expect(await count()).toBe(`${missingStep.length} task(s) shown`);
    expect(await undimmedStrategies()).toEqual(new Set(['plan-up-front']));
    expect(await page.inputValue('select[name="mode"]')).toBe('planner.missing_step');
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    await screenshotBothWidths(page, 'grid-filtered');

    await open(smallFile, '#grid?strategy=plan-up-front&component=planner');
    expect(await shownTasks()).toEqual(tasksWhere(smallEpisodes, (e) => e.strategy === 'plan-up-front' && e.attribution?.component === 'planner'));
    await open(smallFile, '#grid?strategy=direct&group=multi-step');
    expect(await shownTasks()).toEqual(tasksWhere(smallEpisodes, (e) => e.group === 'multi-step'));
    await open(smallFile, '#grid?strategy=direct&group=overall');
    expect(await count()).toBe('14 task(s) shown');
    await open(smallFile, '#grid?outcome=any-failure');
    expect(await shownTasks()).toEqual(tasksWhere(smallEpisodes, (e) => !e.success));
    await open(smallFile, '#grid?q=premature');
    expect(await shownTasks()).toEqual(tasksWhere(smallEpisodes, (e) => e.attribution?.mode === 'premature_finish'));
    // a value the report does not have is named, not silently ignored
    await open(smallFile, '#grid?strategy=nope');
    expect(await count()).toBe('0 task(s) shown');
    expect(await page.locator('#grid-problems').textContent()).toBe('No strategy “nope” in this report (direct, react, plan-up-front, plan-replan, gated).');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('is operable by keyboard: Tab reaches the cells, arrows move, Enter and Space open a cell, Tab then reaches its episodes', async () => {
    await open(smallFile, '#grid');
    await page.focus('select[name="strategy"]');
    let presses = 0;
    while (!(await focused()).includes('|') && presses < 20) {
      await page.keyboard.press('Tab');
      presses += 1;
    }
    const [first, second] = (await page.locator('#grid tbody tr[data-task]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task')))) as string[];
    expect(await focused()).toBe(`${first}|direct`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe(`${second}|react`);
    await page.keyboard.press('Enter');
    expect(await hash()).toBe(`#grid?open=${second}|react`);
    expect(await page.locator('#episode-list h2').textContent()).toBe(`${second} × react`);
    expect(await focused()).toBe(`${second}|react`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    expect(await hash()).toBe(`#grid?open=${second}|plan-up-front`);
    expect(await page.locator('#episode-list h2').textContent()).toBe(`${second} × plan-up-front`);
    await page.keyboard.press('Tab'); // the episode list's close button
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('A epoch 0');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#trace section.event');
    expect(await page.locator('#episode-title').textContent()).toBe(`${second} × plan-up-front · epoch 0`);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('keeps a bounded number of rows in the DOM for 646 tasks: scrolling shows later tasks under a sticky header', async () => {
    await open(bigFile, '#grid');
    const inDom = () => page.locator('#grid tbody tr[data-task]').count();
    expect(await inDom()).toBeGreaterThan(10);
    expect(await inDom()).toBeLessThan(100);
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    // the last task on the page: the last group's tasks in numeric order (they share one fixture and no family)
    const lastGroup = (JSON.parse(readFileSync(join(small, 'summary.json'), 'utf8')) as { groups: string[] }).groups.at(-1);
    const groupOf = new Map(smallEpisodes.map((e) => [e.task, e.group]));
    const lastTask = bigTaskIds
      .filter((t) => groupOf.get(t.replace(/-\d+$/, '')) === lastGroup || groupOf.get(t) === lastGroup)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .at(-1)!;
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
    await frames();
    expect(await page.locator(`#grid tr[data-task="${bigTaskIds[0]}"]`).count()).toBe(0);
    const middle = await page.evaluate(() => ({
      thead: document.querySelector('#grid thead th')!.getBoundingClientRect().top,
      group: document.querySelector('#grid tr.group-row td')!.getBoundingClientRect().top,
      header: document.querySelector('#grid thead')!.getBoundingClientRect().height,
    }));
    expect(middle.thead).toBeGreaterThanOrEqual(0);
    expect(middle.thead).toBeLessThan(2);
    expect(Math.abs(middle.group - middle.header)).toBeLessThan(2);
    await viewportShots('grid-big-scrolled');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForSelector(`#grid tr[data-task="${lastTask}"]`);
    expect(await inDom()).toBeLessThan(100);
    // The keyboard reaches every cell: Ctrl+Home and Ctrl+End from a focused cell go to the first and last task.
    await page.focus(`#grid tr[data-task="${lastTask}"] td[data-strategy="react"] button`);
    await page.keyboard.press('Control+Home');
    const firstTask = await page.locator('#grid tbody tr[data-task]').first().getAttribute('data-task');
    expect(await focused()).toBe(`${firstTask}|direct`);
    await page.keyboard.press('Control+End');
    expect(await focused()).toBe(`${lastTask}|gated`);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('works the same on the compare page for #head/grid, writing #head/ routes', async () => {
    const head = join(scratch(), 'head');
    const run = stratbench([
      'run',
      '--suite',
      'tasks/core.yaml',
      '--epochs',
      '2',
      '--model',
      'scripted:faults=planner.guessed_target',
      '--out',
      head,
      '--no-progress',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const compareFile = join(head, 'compare.html');
    const compared = stratbench(['compare', small, head, '--html', compareFile]);
    expect(compared.status, compared.stderr).toBe(0);
    const failing = tasksWhere(readEpisodes(head), (e) => e.strategy === 'plan-up-front' && e.attribution?.mode === 'guessed_target');
    await open(compareFile, '#head/grid?strategy=plan-up-front&mode=planner.guessed_target');
    expect(await shownTasks()).toEqual(failing);
    await page.selectOption('select[name="outcome"]', 'stable-fail');
    expect(await hash()).toBe('#head/grid?strategy=plan-up-front&outcome=stable-fail&mode=planner.guessed_target');
    await page.click(`#grid tr[data-task="${failing[0]}"] td[data-strategy="plan-up-front"]`);
    expect(await page.locator('#episode-list a').first().getAttribute('href')).toBe(`#head/episode/${failing[0]}/plan-up-front/0`);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('finds a task id in the rows at once, before any trace is decoded', async () => {
    await open(smallFile, '#search');
    const found = await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('#search-input')!;
      input.value = 'Rename-Tax-Rate';
      input.form!.requestSubmit();
      return {
        progress: document.querySelector('#search-progress')!.textContent,
        results: Array.from(document.querySelectorAll('#search-results > li')).map(
          (li) => `${li.getAttribute('data-strategy')} ${li.getAttribute('data-epoch')}`,
        ),
        fields: [...new Set(Array.from(document.querySelectorAll('#search-results .field')).map((f) => f.textContent))],
      };
    });
    expect(found.progress).toMatch(/^decoding the traces: 0 of \d+ details…$/);
    expect(found.results).toEqual([
      'direct 0',
      'direct 1',
      'gated 0',
      'gated 1',
      'plan-replan 0',
      'plan-replan 1',
      'plan-up-front 0',
      'plan-up-front 1',
      'react 0',
      'react 1',
    ]);
    expect(found.fields).toEqual(['task']);
    expect(await hash()).toBe('#search?q=Rename-Tax-Rate');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('finds a word of a tool output in the decoded traces and links to the episode at that event', async () => {
    // A word of a failed episode's tool output that no row field (task, group, attribution, explanation, check) contains.
    const rowText = JSON.stringify(smallEpisodes.map((e) => [e.task, e.group, e.attribution, e.explanation, e.checks.map((c) => c.detail)])).toLowerCase();
    const episode = smallEpisodes.find((e) => !e.success && e.trace.some((t) => t.type === 'tool_call'))!;
    const event = episode.trace.find((t) => t.type === 'tool_call')!;
    const word = (event.output!.match(/[A-Za-z]{7,}/g) ?? []).find((w) => !rowText.includes(w.toLowerCase()))!;
    expect(word).toBeTruthy();
    await open(smallFile, `#search?q=${encodeURIComponent(word)}`);
    await page.waitForFunction(() => document.querySelector('#search-progress')?.textContent?.startsWith('Searched'));
    expect(await page.locator('#search-progress').textContent()).toBe(`Searched the traces of all ${smallEpisodes.length} episodes.`);
    const result = page.locator(`#search-results > li[data-task="${episode.task}"][data-strategy="${episode.strategy}"][data-epoch="${episode.epoch}"]`);
    const link = result.locator('a.field').first();
    expect(await link.textContent()).toBe(`${event.tool} output · event #${event.id}`);
    expect((await result.locator('mark').first().textContent())?.toLowerCase()).toBe(word.toLowerCase());
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    await screenshotBothWidths(page, 'search-results');
    await link.click();
    await page.waitForSelector(`#event-${event.id}.targeted`);
    expect(await hash()).toBe(`#episode/${episode.task}/${episode.strategy}/${episode.epoch}/event/${event.id}`);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });
});
