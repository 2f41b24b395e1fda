// The HTML report's overview in Chromium: an honest headline (tie vs a significant lead), the forest plot, pass^k at 1, 3 and
// 10 epochs, unclipped labels, one colour per strategy across reports, charts that open the filtered grid, axe and screenshots.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord } from '../src/records/index.js';
import { summaryFromRecords } from '../src/report/run-report.js';
import {
  axeViolations,
  launchChromium,
  SKIP_BROWSER_TESTS,
  screenshotBothWidths,
  seriousOf,
  watchedPage,
  WIDTHS,
  type PageProblems,
} from './support/browser.js';
import { scratch, stratbench } from './support/cli.js';

/** A core-suite run of `epochs` epochs with its report.html; returns the report's path. */
function coreRun(root: string, epochs: number): string {
  const dir = join(root, `epochs-${epochs}`);
  const run = stratbench(['run', '--suite', 'tasks/core.yaml', '--epochs', String(epochs), '--out', dir, '--no-progress']);
  expect(run.status, run.stderr).toBe(0);
  const report = stratbench(['report', dir, '--html', join(dir, 'report.html')]);
  expect(report.status, report.stderr).toBe(0);
  return join(dir, 'report.html');
}

/**
 * `strategies` of a 3-epoch core run with every task copied four times (ids suffixed), so the paired tests have 56 tasks
 * and the scripted model's differences become significant; summary.json recomputed from the records.
 */
function copiedRun(root: string, from: string, name: string, strategies: string[]): string {
  const dir = join(root, name);
  mkdirSync(dir);
  const base = readFileSync(join(from, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord)
    .filter((r) => strategies.includes(r.strategy));
  const run = JSON.parse(readFileSync(join(from, 'run.json'), 'utf8')) as Record<string, unknown> & { config: { groups: string[] } & Record<string, unknown> };
  const records = [0, 1, 2, 3].flatMap((copy) =>
    base.map((r) => {
      const task = copy === 0 ? r.task : `${r.task}-${copy}`;
      return { ...r, task, key: `${task}|${r.strategy}|${r.epoch}|${run['config_hash'] as string}` };
    }),
  );
  const tasks = [...new Set(records.map((r) => r.task))];
  writeFileSync(join(dir, 'episodes.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileSync(join(dir, 'run.json'), JSON.stringify({ ...run, strategies, episodes: records.length, config: { ...run.config, strategies, tasks } }));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summaryFromRecords(records, run.config.groups, strategies, 1)));
  const report = stratbench(['report', dir, '--html', join(dir, 'report.html')]);
  expect(report.status, report.stderr).toBe(0);
  return join(dir, 'report.html');
}

/**
 * A folder of 120 epochs (react and plan-up-front, epoch 0 of a core run repeated; every seventh epoch fails a third of the
 * tasks, so pass^k falls with k): the pass^k axis of a long run.
 */
function manyEpochsRun(root: string, from: string): string {
  const dir = join(root, 'epochs-120');
  mkdirSync(dir);
  const strategies = ['react', 'plan-up-front'];
  const base = readFileSync(join(from, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord)
    .filter((r) => strategies.includes(r.strategy) && r.epoch === 0);
  const run = JSON.parse(readFileSync(join(from, 'run.json'), 'utf8')) as Record<string, unknown> & { config: { groups: string[] } & Record<string, unknown> };
  const records = Array.from({ length: 120 }, (_, epoch) =>
    base.map((r, i) => ({
      ...r,
      epoch,
      success: r.success && !(epoch % 7 === 3 && i % 3 === 0),
      key: `${r.task}|${r.strategy}|${epoch}|${run['config_hash'] as string}`,
    })),
  ).flat();
  writeFileSync(join(dir, 'episodes.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileSync(
    join(dir, 'run.json'),
    JSON.stringify({ ...run, strategies, epochs: 120, episodes: records.length, config: { ...run.config, strategies, epochs: 120 } }),
  );
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summaryFromRecords(records, run.config.groups, strategies, 1)));
  const report = stratbench(['report', dir, '--html', join(dir, 'report.html')]);
  expect(report.status, report.stderr).toBe(0);
  return join(dir, 'report.html');
}

describe.skipIf(SKIP_BROWSER_TESTS)('HTML report overview in Chromium', () => {
  const reports: Record<'epochs1' | 'epochs3' | 'epochs10' | 'epochs120' | 'lead' | 'tie' | 'single', string> = {
    epochs1: '',
    epochs3: '',
    epochs10: '',
    epochs120: '',
    lead: '',
    tie: '',
    single: '',
  };
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    const root = scratch();
    reports.epochs1 = coreRun(root, 1);
    reports.epochs3 = coreRun(root, 3);
    reports.epochs10 = coreRun(root, 10);
    reports.epochs120 = manyEpochsRun(root, join(root, 'epochs-10'));
    reports.lead = copiedRun(root, join(root, 'epochs-3'), 'lead', ['direct', 'plan-up-front', 'react']);
    reports.tie = copiedRun(root, join(root, 'epochs-3'), 'tie', ['direct', 'react', 'plan-replan']);
    const single = join(root, 'single');
    const run = stratbench(['run', '--suite', 'tasks/core.yaml', '--strategies', 'react', '--out', single, '--no-progress']);
    expect(run.status, run.stderr).toBe(0);
    expect(stratbench(['report', single, '--html', join(single, 'report.html')]).status).toBe(0);
    reports.single = join(single, 'report.html');
    browser = await launchChromium();
    ({ page, problems } = await watchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const open = async (file: string, hash = '#overview'): Promise<void> => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`file://${file}${hash}`);
    await page.waitForSelector('body[data-ready="true"]');
  };
  /** The comparisons table's "p (Holm)" cell of the pair {a, b}, as the page prints it. */
  const holmP = async (a: string, b: string): Promise<string> => {
    const rows = await page
      .locator('#comparisons tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    const row = rows.find((cells) => (cells[0] === a && cells[1] === b) || (cells[0] === b && cells[1] === a));
    if (!row) throw new Error(`no comparison of ${a} and ${b}`);
    return row[7]!;
  };
  /** Each strategy's (or component's) fill in a chart's bars, read from the bars' titles ("NAME · …"). */
  const fills = (figure: string) =>
    page.locator(`${figure} g[data-mark="bar"] rect`).evaluateAll((rects) => {
      const out: Record<string, string[]> = {};
      for (const rect of rects) {
        const title = rect.querySelector('title')?.textContent ?? '';
        const name = title.split(' · ')[0]!;
        const fill = rect.getAttribute('fill')!;
        out[name] = [...new Set([...(out[name] ?? []), fill])];
      }
      return out;
    });

  it('says which strategies tie with the best, with the Holm-adjusted p of the comparisons table, when no lead is significant', async () => {
    await open(reports.epochs3);
    const text = await page.locator('#headline').textContent();
    const p = {
      'plan-replan': await holmP('react', 'plan-replan'),
      gated: await holmP('react', 'gated'),
      'plan-up-front': await holmP('react', 'plan-up-front'),
      direct: await holmP('react', 'direct'),
    };
    expect(p).toEqual({ 'plan-replan': '1.0', gated: '1.0', 'plan-up-front': '0.22', direct: '0.078' });
    expect(text).toMatch(
      new RegExp(
        `^react, plan-replan, gated, plan-up-front and direct tie for the highest overall success \\(react 100%; plan-replan 100%, p = ${p['plan-replan']}; gated 100%, p = ${p.gated}; plan-up-front 57%, p = ${p['plan-up-front']}; direct 43%, p = ${p.direct}; Holm-adjusted p against react\\)\\. No best strategy is named: react's lead is not significant\\. p: Holm-adjusted`,
      ),
    );
    expect(text).not.toContain('Highest overall success');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('says two strategies tie and names the significantly lower one, in one sentence', async () => {
    await open(reports.tie);
    const text = await page.locator('#headline').textContent();
    const direct = await holmP('react', 'direct');
    expect(Number(direct)).toBeLessThan(0.05);
    expect(text).toMatch(
      new RegExp(
        `^react and plan-replan tie for the highest overall success \\(100% vs 100%, p = ${await holmP('react', 'plan-replan')}, Holm-adjusted\\); direct is lower \\(43%, p = ${direct}\\)\\. No best strategy is named`,
      ),
    );
  });

  it('gives one strategy its success without a comparison', async () => {
    await open(reports.single);
    expect(await page.locator('#headline').textContent()).toMatch(/^Overall success of react: 100% \[\d+%, 100%\]\. Intervals: /);
    expect(await page.locator('#forest-plot').count()).toBe(0);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('names the best strategy when it beats every other one, with the p of the comparisons table', async () => {
    await open(reports.lead);
    const text = await page.locator('#headline').textContent();
    const direct = await holmP('react', 'direct');
    const planUpFront = await holmP('react', 'plan-up-front');
    expect(Number(direct)).toBeLessThan(0.05);
    expect(Number(planUpFront)).toBeLessThan(0.05);
    expect(text).toMatch(
      new RegExp(
        `^react has the highest overall success \\(100% \\[\\d+%, 100%\\]\\) and beats every other strategy: plan-up-front 57% \\(p = ${planUpFront}\\), direct 43% \\(p = ${direct}\\)\\.`,
      ),
    );
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('draws one point per paired comparison in the forest plot, significant ones marked in words', async () => {
    await open(reports.lead);
    const forest = page.locator('#forest-plot');
    expect(await forest.locator('g[data-mark="dot"] :is(circle, path)').count()).toBe(3);
    expect(await forest.locator('g[data-mark="y-axis tick label"] text').allTextContents()).toEqual([
      'plan-up-front − direct',
      'react − direct',
      'react − plan-up-front',
    ]);
    const notes = await forest.locator('g[data-mark="text"] text').allTextContents();
    expect(notes.filter((n) => n.startsWith('significant, p = '))).toEqual([
      `significant, p = ${await holmP('react', 'direct')}`,
      `significant, p = ${await holmP('react', 'plan-up-front')}`,
    ]);
    await open(reports.epochs3);
    expect(await page.locator('#forest-plot g[data-mark="dot"] :is(circle, path)').count()).toBe(10);
    expect(await page.locator('#forest-plot svg').getAttribute('aria-label')).toMatch(/^Forest plot of 10 paired differences: /);
  });

  it('labels the pass^k axis with distinct integers at 1, 3, 10 and 120 epochs (no dots past 20); one epoch shows a dot per strategy and why', async () => {
    const tickLabels = () => page.locator('#pass-k g[data-mark="x-axis tick label"] text').allTextContents();
    await open(reports.epochs1);
    expect(await page.locator('#pass-k figcaption').textContent()).toBe(
      'pass^k — pass^k needs ≥ 2 epochs; this run has 1, so only pass^1 (= success) with its 95% interval',
    );
    expect(await tickLabels()).toEqual(['direct', 'react', 'plan-up-front', 'plan-replan', 'gated']);
    expect(await page.locator('#pass-k g[data-mark="dot"] circle').count()).toBe(5);
    expect(await page.locator('#pass-k').textContent()).not.toContain('⚠');
    await open(reports.epochs3);
    expect(await tickLabels()).toEqual(['1', '2', '3']);
    await open(reports.epochs10);
    expect(await tickLabels()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    await open(reports.epochs120);
    expect(await tickLabels()).toEqual(['10', '20', '30', '40', '50', '60', '70', '80', '90', '100', '110', '120']);
    expect(await page.locator('#pass-k g[data-mark="dot"]').count()).toBe(0);
    await open(reports.epochs10);
    // Lines ending at the same pass^10 share one label, so none hides behind another.
    expect((await page.locator('#pass-k g[data-mark="text"] text').allTextContents()).sort()).toEqual(['direct', 'plan-up-front', 'react, plan-replan, gated']);
  });

  it('gives each strategy one colour in every report, none shared with the components', async () => {
    await open(reports.epochs3);
    const core = await fills('#success-chart');
    const components = await fills('#failures-component');
    await open(reports.lead);
    const lead = await fills('#success-chart');
    expect(core).toEqual({ direct: ['#0072B2'], react: ['#E69F00'], 'plan-up-front': ['#009E73'], 'plan-replan': ['#CC79A7'], gated: ['#D55E00'] });
    expect(lead).toEqual({ direct: core['direct'], react: core['react'], 'plan-up-front': core['plan-up-front'] });
    // component bars are titled "STRATEGY · COMPONENT: …": their fills, by strategy, are the components' colours
    const componentFills = new Set(Object.values(components).flat());
    expect(componentFills).toEqual(new Set(['#99DDFF', '#77AADD']));
    expect(
      Object.values(core)
        .flat()
        .filter((fill) => componentFills.has(fill)),
    ).toEqual([]);
  });

  it('opens the grid filtered to a bar when it is clicked, and by keyboard through the "show in grid" links', async () => {
    await open(reports.epochs3);
    await page
      .locator('#success-chart g[data-mark="bar"] rect')
      .filter({ has: page.locator('title', { hasText: /^react · multi-step:/ }) })
      .click();
    await page.waitForFunction(() => location.hash.startsWith('#grid'));
    expect(new URL(page.url()).hash).toBe('#grid?strategy=react&group=multi-step');
    await open(reports.epochs3);
    await page
      .locator('#failures-component g[data-mark="bar"] rect')
      .filter({ has: page.locator('title', { hasText: /^direct · agent:/ }) })
      .click();
    await page.waitForFunction(() => location.hash.startsWith('#grid'));
    expect(new URL(page.url()).hash).toBe('#grid?strategy=direct&component=agent');
    await open(reports.epochs3);
    await page
      .locator('#failures-mode g[data-mark="bar"] rect')
      .filter({ has: page.locator('title', { hasText: /^plan-up-front · planner\.missing_step:/ }) })
      .click();
    await page.waitForFunction(() => location.hash.startsWith('#grid'));
    expect(new URL(page.url()).hash).toBe('#grid?strategy=plan-up-front&mode=planner.missing_step');
    await open(reports.epochs3);
    await page.locator('#cost-model_calls g[data-mark="dot"] circle').first().click();
    await page.waitForFunction(() => location.hash.startsWith('#grid'));
    expect(new URL(page.url()).hash).toBe('#grid?strategy=direct');
    // keyboard: focus the success chart's "Show in grid", open it with Enter, Tab to its first link, follow it with Enter
    await open(reports.epochs3);
    await page.locator('#success-chart details summary').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('direct · single-action: 12/12 (100%)');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => location.hash.startsWith('#grid'));
    expect(new URL(page.url()).hash).toBe('#grid?strategy=direct&group=single-action');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('has no clipped chart text, no sideways scrolling and no serious axe violation at 1440 and 800 px; screenshots at 1, 3 and 10 epochs', async () => {
    // tie and single draw the same charts as lead and epochs1
    for (const [name, file] of Object.entries(reports).filter(([key]) => key !== 'tie' && key !== 'single')) {
      await open(file);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const layout = await page.evaluate(() => {
          const clipped: string[] = [];
          for (const svg of Array.from(document.querySelectorAll('figure.chart svg'))) {
            const frame = svg.getBoundingClientRect();
            for (const text of Array.from(svg.querySelectorAll('text'))) {
              const box = text.getBoundingClientRect();
              if (
                box.width > 0 &&
                (box.left < frame.left - 0.5 || box.right > frame.right + 0.5 || box.top < frame.top - 0.5 || box.bottom > frame.bottom + 0.5)
              ) {
                clipped.push(text.textContent ?? '');
              }
            }
          }
          return { clipped, sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth };
        });
        expect({ name, width, ...layout }).toEqual({ name, width, clipped: [], sideways: false });
        expect({ name, width, serious: seriousOf(await axeViolations(page)) }).toEqual({ name, width, serious: [] });
      }
      if (name.startsWith('epochs') && name !== 'epochs120')
        expect(await screenshotBothWidths(page, `overview-${name.replace('epochs', 'epochs-')}`)).toHaveLength(2);
    }
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });
});
