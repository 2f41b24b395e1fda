// The compare page in Chromium on a real regression: forest plot with the MDE band, the decision on the gate's p, folded
// reasons, flips split regressed / improved with each side's failure mode, the side-by-side pair view, the prompt diff.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium, screenshotBothWidths, seriousOf, SKIP_BROWSER_TESTS, watchedPage, type PageProblems } from './support/browser.js';
import { ROOT, scratch, stratbench } from './support/cli.js';
import { readResultsFolder } from '../src/results-folder/index.js';
import { compareResults } from '../src/report/compare-report.js';
import { buildCompareData, decisionSentence, renderCompareHtml } from '../src/report/html/compare-data.js';
import { loadHtmlAssets, reportDataOf } from '../src/runner/html-commands.js';

/** The line appended to the head's planner prompt. */
const EDITED_LINE = 'Prefer reading a file before editing it.';

interface JsonReport {
  strategies: Array<{ strategy: string; verdict: string; change: { adjustedPValue: number; test: { pValue: number }; difference: { estimate: number } } }>;
  tasks: Array<{ flip: string | null; gating: boolean; strategy: string; task: string }>;
  decision: { verdict: string; inconclusive: string[]; warnings: string[] };
}

/** The CLI's cells of one strategy's row in `stratbench compare`'s per-strategy table (Strategy, Base, Head, Change, p, Verdict). */
function cliRow(text: string, strategy: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith(`│ ${strategy} `));
  if (!line) throw new Error(`no row for ${strategy} in:\n${text}`);
  return line
    .split('│')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

const formatP = (p: number): string => (p < 0.001 ? '<0.001' : p.toFixed(3));

describe.skipIf(SKIP_BROWSER_TESTS)('compare page in Chromium', () => {
  let dir: string;
  let file: string;
  let oldFile: string;
  let report: JsonReport;
  let cliText: string;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;

  beforeAll(async () => {
    dir = scratch();
    // base: the agent of direct/ReAct finishes early; head: the planner guesses its target and the planner prompt gained a line.
    const prompts = join(dir, 'prompts');
    cpSync(join(ROOT, 'prompts'), prompts, { recursive: true });
    writeFileSync(join(prompts, 'planner.md'), `${readFileSync(join(prompts, 'planner.md'), 'utf8')}${EDITED_LINE}\n`);
    const run = (out: string, model: string, extra: string[] = []) => {
      const result = stratbench(['run', '--suite', 'tasks/core.yaml', '--epochs', '2', '--model', model, ...extra, '--out', join(dir, out), '--no-progress']);
      expect(result.status, result.stderr).toBe(0);
    };
    run('base', 'scripted:faults=agent.premature_finish');
    run('head', 'scripted:faults=planner.guessed_target', ['--prompts', prompts]);
    const cli = stratbench(['compare', join(dir, 'base'), join(dir, 'head')]);
    expect(cli.status, cli.stderr).toBe(0);
    cliText = cli.stdout;
    report = (JSON.parse(stratbench(['compare', join(dir, 'base'), join(dir, 'head'), '--json']).stdout) as { report: JsonReport }).report;
    file = join(dir, 'compare.html');
    const html = stratbench(['compare', join(dir, 'base'), join(dir, 'head'), '--html', file]);
    expect(html.status, html.stderr).toBe(0);
    // A base written before run.json kept prompt texts.
    cpSync(join(dir, 'base'), join(dir, 'old-base'), { recursive: true });
    const runFile = join(dir, 'old-base', 'run.json');
    const { prompt_texts: _texts, ...old } = JSON.parse(readFileSync(runFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(runFile, JSON.stringify(old));
    oldFile = join(dir, 'compare-old.html');
    const oldHtml = stratbench(['compare', join(dir, 'old-base'), join(dir, 'head'), '--html', oldFile]);
    expect(oldHtml.status, oldHtml.stderr).toBe(0);
    browser = await launchChromium();
    ({ page, problems } = await watchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
  });

  const open = async (target: string, hash: string, ready = 'body[data-ready="true"]'): Promise<void> => {
    await page.goto(`file://${target}${hash}`);
    await page.waitForSelector(ready);
  };

  it('run keeps each role prompt text in run.json', () => {
    const run = JSON.parse(readFileSync(join(dir, 'head', 'run.json'), 'utf8')) as { prompt_texts: Record<string, string> };
    expect(run.prompt_texts['planner']).toBe(readFileSync(join(dir, 'prompts', 'planner.md'), 'utf8'));
    expect(Object.keys(run.prompt_texts).sort()).toEqual(['agent', 'direct', 'executor', 'gate', 'planner', 'replanner', 'reporter']);
  });

  it('shows the decision on the gate’s p, the reasons folded with counts, and a forest plot with the MDE band', async () => {
    await open(file, '');
    expect(await page.locator('#verdict').textContent()).toBe('Verdict: regressed');
    // The sentence names the strongest drop with the p the CLI prints for it.
    const [, , , change, cliP] = cliRow(cliText, 'plan-replan');
    const drop = (change as string).split(' ')[0]?.replace('-', '');
    const sentence = await page.locator('#decision-sentence').textContent();
    expect(sentence).toMatch(new RegExp(`^Regressed: plan-replan dropped ${drop} pp \\(p = ${cliP}, the gate's test\\)`));
    expect(sentence).toContain('gated regressed on 4 tasks gone stable-pass → stable-fail');
    // The table's p is the gate's, the CLI's; Holm's sits in its own column.
    for (const s of report.strategies) {
      const row = page.locator(`#compare-strategies tr[data-strategy="${s.strategy}"]`);
      expect(await row.locator('td.gate-p').textContent()).toBe(cliRow(cliText, s.strategy)[4]);
      expect(await row.locator('td.holm-p').textContent()).toBe(formatP(s.change.adjustedPValue));
    }
    expect(await page.locator('#compare-strategies thead th').allTextContents()).toEqual([
      'strategy',
      'base',
      'head',
      'Δ (pp)',
      '95% interval',
      'MDE (gate)',
      "p (the gate's test)",
      'p (Holm, not used by the gate)',
      'verdict',
    ]);
    // Reasons: one fold per kind, closed, the count in each summary.
    const drops = report.strategies.filter((s) => s.change.test.pValue < 0.05 && s.change.difference.estimate < 0).length;
    const gating = report.tasks.filter((t) => t.gating).length;
    expect(await page.locator('#reasons details.reason-group > summary').allTextContents()).toEqual([
      `Significant drops (${drops})`,
      `Gating flips (stable-pass → stable-fail) (${gating})`,
      `Inconclusive designs (${report.decision.inconclusive.length})`,
    ]);
    expect(await page.locator('#reasons details[open]').count()).toBe(0);
    expect(await page.locator('#reasons details[data-kind="gating-flip"] li').count()).toBe(gating);
    // Keyboard: a fold opens with Enter.
    await page.focus('#reasons details[data-kind="regression"] > summary');
    await page.keyboard.press('Enter');
    expect(await page.locator('#reasons details[data-kind="regression"]').getAttribute('open')).toBe('');
    // Forest plot: one point and one MDE band per strategy, the chart labelled for assistive technology.
    const forest = page.locator('figure.forest').first();
    expect(await forest.locator('g.forest-point > *').count()).toBe(report.strategies.length);
    expect(await forest.locator('g.forest-mde > rect').count()).toBe(report.strategies.length);
    expect(await forest.locator('g.forest-note > text').allTextContents()).toEqual(
      report.strategies.map((s) => `${s.verdict} · p ${cliRow(cliText, s.strategy)[4]}`),
    );
    expect(await forest.locator('svg[role="img"]').first().getAttribute('aria-label')).toMatch(/^Forest plot of head minus base success per strategy: direct /);
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    await page.waitForFunction(() => (document.querySelector('figure.forest svg')?.getBoundingClientRect().width ?? 9999) <= 760);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(800);
    await screenshotBothWidths(page, 'compare-view');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('splits flipped tasks into regressed and improved, with the failure component and mode on each side', async () => {
    await open(file, '#compare');
    const regressed = report.tasks.filter((t) => t.flip === 'regressed' || t.flip === 'worse').length;
    const improved = report.tasks.filter((t) => t.flip === 'better').length;
    expect(await page.locator('#flips-regressed-heading').textContent()).toBe(`Regressed (${regressed})`);
    expect(await page.locator('#flips-improved-heading').textContent()).toBe(`Improved (${improved})`);
    expect(await page.locator('#flips-regressed tbody tr').count()).toBe(regressed);
    expect(await page.locator('#flips-improved tbody tr').count()).toBe(improved);
    const cells = (table: string, task: string, strategy: string) =>
      page.locator(`#flips-${table} tr[data-task="${task}"][data-strategy="${strategy}"] td`).allInnerTexts();
    expect((await cells('regressed', 'default-currency', 'plan-up-front')).slice(1, 3)).toEqual([
      'stable-pass (2/2)\n— (passed)',
      'stable-fail (0/2)\nplanner · guessed_target',
    ]);
    expect((await cells('improved', 'seed-demo-data', 'react')).slice(1, 3)).toEqual([
      'stable-fail (0/2)\nagent · premature_finish',
      'stable-pass (2/2)\n— (passed)',
    ]);
    // Keyboard: the side-by-side link opens the pair view.
    await page.focus('#flips-regressed tr[data-task="rename-tax-rate"][data-strategy="plan-up-front"] a.pair-link');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#pair[data-loaded="true"]');
    expect(page.url()).toMatch(/#pair\/rename-tax-rate\/plan-up-front$/);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('shows base and head traces side by side, aligned by step, with the final plans’ diff', async () => {
    await open(file, '#pair/rename-tax-rate/plan-up-front', '#pair[data-loaded="true"]');
    expect(await page.locator('#pair-title').textContent()).toBe('rename-tax-rate × plan-up-front: base and head side by side');
    // Every step row holds the same step's events in both columns.
    const rows = await page.locator('#pair-trace .pair-row.step-row').evaluateAll((elements) =>
      elements.map((row) => ({
        step: row.getAttribute('data-step'),
        base: Array.from(row.querySelectorAll('.pair-cell.base section.event'), (s) => s.getAttribute('data-step')),
        head: Array.from(row.querySelectorAll('.pair-cell.head section.event'), (s) => s.getAttribute('data-step')),
      })),
    );
    const both = rows.filter((row) => row.base.length > 0 && row.head.length > 0);
    expect(both.map((row) => row.step)).toEqual(['s1', 's2', 's3', 's4', 's5']);
    for (const row of rows) for (const step of [...row.base, ...row.head]) expect(step).toBe(row.step);
    // The head's guessed step has no counterpart in the base.
    expect(rows.filter((row) => row.base.length === 0).map((row) => row.step)).toEqual(['s0']);
    expect(await page.locator('#plan-diff .diff-summary').textContent()).toBe('final plans, base → head: 1 added, 0 removed, 1 revised');
    expect(
      await page
        .locator('#plan-diff li.step[data-mark="added"]')
        .evaluateAll((s) => s.map((li) => `${li.getAttribute('data-step')} ${li.querySelector('.mark')?.textContent}`)),
    ).toEqual(['s0 added']);
    expect(await page.locator('#plan-diff li.step[data-mark="revised"] .mark').allTextContents()).toEqual(['revised']);
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(800);
    await screenshotBothWidths(page, 'compare-pair');
    // A task neither run has: each column says so.
    await open(file, '#pair/no-such-task/react', '#pair[data-loaded="true"]');
    expect(await page.locator('#pair-trace .pair-cell p.problem').allTextContents()).toEqual([
      'The base run has no episode of no-such-task × react.',
      'The head run has no episode of no-such-task × react.',
    ]);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('shows the trace viewer’s notice in a column whose trace the page lacks', async () => {
    const [base, head] = await Promise.all([readResultsFolder(join(dir, 'base')), readResultsFolder(join(dir, 'head'))]);
    if (!base.ok || !head.ok) throw new Error('cannot read the folders');
    const compared = compareResults(base, head);
    if (!compared.ok) throw new Error(compared.error);
    const [baseData, headData] = await Promise.all([reportDataOf(join(dir, 'base')), reportDataOf(join(dir, 'head'))]);
    // The head's shown epoch of this flip is left out of the page (as a budget cut leaves successful epochs out).
    for (const row of headData.episodes) if (row.task === 'rename-tax-rate' && row.strategy === 'plan-up-front') row.detail = null;
    const cut = join(dir, 'compare-cut.html');
    writeFileSync(
      cut,
      renderCompareHtml(buildCompareData(compared.report, baseData, headData, { base: base.run, head: head.run }), baseData, headData, await loadHtmlAssets()),
    );
    await open(cut, '#pair/rename-tax-rate/plan-up-front', '#pair[data-loaded="true"]');
    expect(await page.locator('#pair-trace .pair-cell.base section.event').count()).toBeGreaterThan(0);
    // In the head's column: no event, the notice saying how to see that episode.
    expect(await page.locator('#pair-trace .pair-cell.head section.event').count()).toBe(0);
    expect(await page.locator('#pair-trace .pair-cell.head').textContent()).toContain('rename-tax-rate');
    expect(await page.locator('#plan-diff').textContent()).toBe('No plan diff: one side’s trace is not in this page.');
    // The same folders against themselves: nothing dropped, and 14 tasks cannot rule out a 20 pp drop.
    const same = compareResults(base, base);
    if (!same.ok) throw new Error(same.error);
    expect(decisionSentence(same.report)).toBe(
      "Inconclusive: no strategy dropped significantly (the gate's test, p < 0.05); 5 strategies show no significant change, too few tasks to rule out a 20.0 pp drop.",
    );
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('renders the changed prompt as a line diff, and the two hashes for a run.json without texts', async () => {
    await open(file, '#compare');
    const planner = page.locator('#prompts .prompt-change[data-role="planner"]');
    expect(await planner.locator('h3').textContent()).toBe('planner prompt: 1 line added, 0 removed');
    expect(await planner.locator('.diff-line.added').allTextContents()).toEqual([`+${EDITED_LINE}`]);
    expect(await planner.locator('.diff-line.removed').count()).toBe(0);
    expect(await planner.locator('.diff-line.context').count()).toBeGreaterThan(0);
    await open(oldFile, '#compare');
    const old = page.locator('#prompts .prompt-change[data-role="planner"]');
    expect(await old.locator('.prompt-unrecorded').textContent()).toContain('The texts were not recorded');
    const base = JSON.parse(readFileSync(join(dir, 'base', 'run.json'), 'utf8')) as { prompts: Record<string, string> };
    const head = JSON.parse(readFileSync(join(dir, 'head', 'run.json'), 'utf8')) as { prompts: Record<string, string> };
    expect(await old.locator('ul.hashes li').allTextContents()).toEqual([`base ${base.prompts['planner']}`, `head ${head.prompts['planner']}`]);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });
});
