// The HTML report of a real core-suite run, opened in Chromium (playwright-core): charts, numbers, grid filter, permalinks, plan diffs, no network.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, REPORT_ARTIFACTS, SKIP_BROWSER_TESTS, watchedPage, type PageProblems } from './support/browser.js';
import { scratch, startStratbench, stratbench } from './support/cli.js';

/** Screenshots of every view, kept as test artifacts (look at them). */
const ARTIFACTS = REPORT_ARTIFACTS;

interface Summary {
  groups: string[];
  strategies: Array<{ strategy: string; successes: number; scored: number; by_group: Record<string, { successes: number; scored: number }> }>;
}

describe.skipIf(SKIP_BROWSER_TESTS)('HTML report in Chromium', () => {
  let dir: string;
  let file: string;
  let summary: Summary;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    dir = join(scratch(), 'run');
    const run = stratbench(['run', '--suite', 'tasks/core.yaml', '--epochs', '2', '--out', dir, '--no-progress']);
    expect(run.status, run.stderr).toBe(0);
    file = join(dir, 'report.html');
    const report = stratbench(['report', dir, '--html', file]);
    expect(report.status, report.stderr).toBe(0);
    summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    ({ page, problems } = await watchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const open = async (hash: string): Promise<void> => {
    await page.goto(`file://${file}${hash}`);
    await page.waitForSelector('body[data-ready="true"]');
  };
  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  it('renders the overview with the success numbers of summary.json, one bar per strategy × group and overall', async () => {
    await open('#overview');
    await shot('overview');
    for (const s of summary.strategies) {
      const row = page.locator(`#success-table tr[data-strategy="${s.strategy}"]`);
      const cells = await row.locator('td').allTextContents();
      expect(cells.slice(0, summary.groups.length)).toEqual(summary.groups.map((g) => `${s.by_group[g]!.successes}/${s.by_group[g]!.scored}`));
      expect(cells[summary.groups.length]).toMatch(new RegExp(`^${s.successes}/${s.scored} · `));
    }
    const bars = await page.locator('figure.chart').first().locator('g[data-mark="bar"] rect').count();
    expect(bars).toBe(summary.strategies.length * (summary.groups.length + 1));
    expect(await page.locator('#comparisons tbody tr').count()).toBe((summary.strategies.length * (summary.strategies.length - 1)) / 2);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('filters the grid by outcome, and a cell opens its episodes', async () => {
    await open('#grid');
    const rows = () => page.locator('#grid tbody tr[data-task]').count();
    expect(await rows()).toBe(14);
    // tasks sit under group, then fixture (× family) headings; every core task starts from the shop fixture
    expect(await page.locator('#grid tr.subgroup-row').allTextContents()).toEqual(summary.groups.map(() => 'fixture shop'));
    await page.selectOption('select[name="fixture"]', 'shop');
    expect(await rows()).toBe(14);
    await page.selectOption('select[name="outcome"]', 'stable-fail');
    const failing = await rows();
    expect(failing).toBeGreaterThan(0);
    expect(failing).toBeLessThan(14);
    const undimmed = await page.locator('#grid td.cell:not(.dim)').evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-label')));
    expect(new Set(undimmed)).toEqual(new Set(['stable-fail']));
    await page.click('#grid tr[data-task="rename-tax-rate"] td[data-strategy="direct"]');
    const links = page.locator('#episode-list a');
    expect(await links.count()).toBe(2);
    await shot('grid-filtered');
    await links.first().click();
    await page.waitForSelector('#trace section.event');
    expect(await page.locator('#episode-title').textContent()).toBe('rename-tax-rate × direct · epoch 0');
    expect(await page.locator('#attribution code').textContent()).toMatch(/^agent\./);
    expect(await page.locator('section.event.attributed').count()).toBeGreaterThan(0);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('opens the episode and event a permalink names, and shows a plan revision with struck and added steps', async () => {
    await open('#episode/seed-demo-data/plan-replan/0/event/6');
    await page.waitForSelector('#trace section.event');
    expect(await page.locator('#episode-title').textContent()).toBe('seed-demo-data × plan-replan · epoch 0');
    const target = page.locator('#event-6');
    expect(await target.getAttribute('class')).toMatch(/\btargeted\b/);
    expect(await target.isVisible()).toBe(true);
    await shot('plan-revision');
    const revision = page.locator('section.event.plan_revision').first();
    expect(await revision.locator('li.step[data-mark="removed"] del').allTextContents()).toEqual([expect.stringMatching(/^s2 /)]);
    expect(await revision.locator('li.step[data-mark="added"]').evaluateAll((steps) => steps.map((s) => s.getAttribute('data-step')))).toEqual([
      'r1.1',
      'r1.2',
      'r1.3',
      'r1.4',
    ]);
    expect(await revision.locator('.diff-summary').textContent()).toBe('diff: 4 added, 1 removed, 0 revised');
    // A permalink on the page leads to its event.
    await page.click('#event-3 a.permalink');
    await page.waitForFunction(() => document.getElementById('event-3')?.classList.contains('targeted'));
    expect(page.url()).toMatch(/#episode\/seed-demo-data\/plan-replan\/0\/event\/3$/);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('compare --html shows the changes, the flipped tasks with both traces and the configuration differences', async () => {
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
    const compareFile = join(dir, 'compare.html');
    const compared = stratbench(['compare', dir, head, '--html', compareFile]);
    expect(compared.status, compared.stderr).toBe(0);
    await page.goto(`file://${compareFile}`);
    await page.waitForSelector('body[data-ready="true"]');
    await shot('compare');
    expect(await page.locator('#verdict').textContent()).toBe('Verdict: regressed');
    expect(await page.locator('#compare-strategies tbody tr').count()).toBe(summary.strategies.length);
    expect(await page.locator('#config-diff').textContent()).toContain('scripted:faults=planner.guessed_target');
    const flip = page.locator('#flips tbody tr').filter({ hasText: 'default-currency' }).filter({ hasText: 'plan-up-front' });
    await flip.locator('a', { hasText: 'head trace' }).click();
    await page.waitForSelector('#trace section.event');
    expect(await page.locator('#episode-title').textContent()).toBe('default-currency × plan-up-front · epoch 0');
    expect(await page.locator('#attribution code').textContent()).toBe('planner.guessed_target');
    await page.goBack();
    await page.waitForSelector('#flips');
    await page
      .locator('#flips tbody tr')
      .filter({ hasText: 'default-currency' })
      .filter({ hasText: 'plan-up-front' })
      .locator('a', { hasText: 'base trace' })
      .click();
    await page.waitForSelector('#trace section.event');
    expect(await page.locator('#episode-result').textContent()).toBe('success');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('view writes report.html beside the results and prints its file:// URL; --serve serves it on 127.0.0.1', async () => {
    const viewed = stratbench(['view', dir]);
    expect(viewed.status, viewed.stderr).toBe(0);
    expect(viewed.stdout.trim()).toBe(`file://${join(dir, 'report.html')}`);
    const server = startStratbench(['view', dir, '--serve']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
          if (match) resolve(match[0]);
        });
        server.once('exit', (code) => reject(new Error(`view --serve exited ${code}`)));
      });
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<script type="application/json" id="report-data">');
    } finally {
      server.kill('SIGTERM');
    }
  });
});
