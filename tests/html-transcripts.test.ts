// The HTML report's transcripts in Chromium: model calls as chats, JSON state as folding trees, tool outputs folded
// with their exit code, and test and lint output formatted line by line.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../src/models/scripted.js';
import type { EpisodeRecord, StoredText, TraceEvent } from '../src/records/index.js';
import { formatStylish } from '../src/sim-repo/lint/format-stylish.js';
import { renderTestRun } from '../src/sim-repo/test-output.js';
import { extractView } from '../src/strategies/prompts.js';
import { axeViolations, launchChromium, SKIP_BROWSER_TESTS, screenshotBothWidths, seriousOf, watchedPage, type PageProblems } from './support/browser.js';
import { scratch, stratbench } from './support/cli.js';
import { okReply, startFakeOllama, type FakeChatRequest, type FakeOllama } from './support/fake-ollama-server.js';
import { records, runInProcess, scriptedOllamaReply, scriptedTasksOf, RUN_DEFAULTS } from './support/scripted-over-ollama.js';

type ModelCall = Extract<TraceEvent, { type: 'model_call' }>;
type ToolCall = Extract<TraceEvent, { type: 'tool_call' }>;

/** Two lines of thinking on every reply, naming how many messages the call was sent. */
const thinkingFor = (request: FakeChatRequest): string => `I read ${request.messages?.length ?? 0} messages.\nThe state says what to do next.`;
/** The gate's first reply: text that only looks like JSON (it does not parse), so the call is repaired. */
const BROKEN_GATE_REPLY = '{"route": "plan"';

describe.skipIf(SKIP_BROWSER_TESTS)('transcripts in the HTML report (Chromium)', () => {
  let server: FakeOllama;
  let modelDir: string;
  let toolDir: string;
  let kindsDir: string;
  let textlessDir: string;
  let browser: Browser;
  let page: Page;
  let problems: PageProblems;
  let texts: Map<string, StoredText>;
  let modelRecords: EpisodeRecord[];

  beforeAll(async () => {
    // A real-protocol model: the scripted model served over the Ollama API, with thinking and one broken gate reply.
    const scripted = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite))));
    server = await startFakeOllama({
      reply: (request) => {
        if (request.messages?.length === 2 && extractView(request.messages)?.role === 'gate') return okReply(BROKEN_GATE_REPLY);
        const reply = scripted(request);
        if ('body' in reply) (reply.body as { message: { thinking?: string } }).message.thinking = thinkingFor(request);
        return reply;
      },
    });
    modelDir = join(scratch(), 'model');
    const run = await runInProcess({
      out: modelDir,
      model: 'ollama:qwen3:8b',
      ollamaHost: server.url,
      tasks: 'fix-checkout-test',
      strategies: 'plan-replan,gated',
    });
    expect(run.code, run.stderr).toBe(0);
    modelRecords = records(modelDir);
    texts = new Map(
      readFileSync(join(modelDir, 'messages.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as StoredText)
        .map((text) => [text.hash, text]),
    );
    // The scripted stand-in for tool outputs: a failing test run of 32 lines, passing runs and a lint error.
    toolDir = join(scratch(), 'tools');
    const tools = stratbench(['run', '--tasks', 'checkout-tests-status,pre-deploy-check', '--strategies', 'react', '--out', toolDir, '--no-progress']);
    expect(tools.status, tools.stderr).toBe(0);
    // The same folder with the other kinds the sandbox's formatters print: a suite that does not load, skipped tests,
    // lint warnings and a parse error without a rule.
    kindsDir = join(scratch(), 'kinds');
    cpSync(toolDir, kindsDir, { recursive: true });
    const episodesFile = join(kindsDir, 'episodes.jsonl');
    const rewritten = readFileSync(episodesFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => {
        const record = JSON.parse(line) as EpisodeRecord;
        if (record.task !== 'pre-deploy-check') return line;
        for (const event of record.trace) {
          if (event.type !== 'tool_call') continue;
          if (event.args['cmd'] === 'pnpm test') event.output = OTHER_TEST_RUN;
          if (event.args['cmd'] === 'pnpm lint') event.output = OTHER_LINT;
        }
        return JSON.stringify(record);
      });
    writeFileSync(episodesFile, `${rewritten.join('\n')}\n`);
    // The model run's folder without its messages.jsonl: the calls reference texts the report cannot have.
    textlessDir = join(scratch(), 'textless');
    cpSync(modelDir, textlessDir, { recursive: true });
    rmSync(join(textlessDir, 'messages.jsonl'));
    for (const dir of [modelDir, toolDir, kindsDir, textlessDir]) {
      const report = stratbench(['report', dir, '--html', join(dir, 'report.html')]);
      expect(report.status, report.stderr).toBe(0);
    }
    browser = await launchChromium();
    ({ page, problems } = await watchedPage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (dir: string, hash: string): Promise<void> => {
    await page.goto(`file://${join(dir, 'report.html')}${hash}`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForSelector('#trace section.event');
  };
  const modelCallsOf = (task: string, strategy: string): ModelCall[] =>
    modelRecords.find((r) => r.task === task && r.strategy === strategy)!.trace.filter((e): e is ModelCall => e.type === 'model_call');
  const eventSection = (id: number): Locator => page.locator(`#event-${id}`);

  it('shows a model call as a chat: system (folded, first line and length), user, assistant, then the reply, with role labels in order', async () => {
    await open(modelDir, '#episode/fix-checkout-test/gated/0');
    const [broken, repaired] = modelCallsOf('fix-checkout-test', 'gated').filter((e) => e.role === 'gate');
    expect([broken!.attempt, repaired!.attempt]).toEqual([1, 2]);
    const sent = repaired!.sent!.messages.map((hash) => texts.get(hash)!);
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);

    const call = eventSection(repaired!.id);
    expect(await call.locator('.event-head').textContent()).toMatch(/^model call · gate · ollama:qwen3:8b · attempt 2 · ok · /);
    expect(await call.locator('.chat .bubble-role').allTextContents()).toEqual(['system', 'user', 'assistant', 'user', 'assistant · reply']);
    const system = call.locator('details.bubble.system');
    expect(await system.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    const firstLine = sent[0]!.content.split('\n')[0]!;
    expect(await system.locator('summary').textContent()).toBe(`system ${firstLine} · ${sent[0]!.content.length.toLocaleString('en-US')} characters`);
    expect(await system.locator('pre').isVisible()).toBe(false);
    // The rejected reply the repair was sent, and the first call's reply: they only look like JSON, so they stay text.
    expect(await call.locator('.bubble.assistant:not(.reply) .prose').textContent()).toBe(BROKEN_GATE_REPLY);
    expect(await call.locator('.bubble.user').nth(1).textContent()).toBe(`user${sent[3]!.content}`);
    expect(await eventSection(broken!.id).locator('.reply pre.reply-text').textContent()).toBe(BROKEN_GATE_REPLY);
    expect(await eventSection(broken!.id).locator('.reply .json-tree').count()).toBe(0);
    // The repaired reply is JSON: a tree, with the raw text one click away.
    expect(await call.locator('.reply .json-tree .json-key').allTextContents()).toEqual(['route']);
    await call.locator('.reply details.raw > summary').click();
    expect(await call.locator('.reply details.raw pre').textContent()).toBe(repaired!.text);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('folds the thinking, and says so in one quiet line where no messages were stored or the folder lacks them', async () => {
    await open(modelDir, '#episode/fix-checkout-test/plan-replan/0');
    const planner = modelCallsOf('fix-checkout-test', 'plan-replan')[0]!;
    const thinking = eventSection(planner.id).locator('details.thinking');
    expect(await thinking.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await thinking.locator('summary').textContent()).toBe('thinking (2 lines)');
    expect(await thinking.locator('pre').isVisible()).toBe(false);
    await thinking.locator('summary').click();
    expect(await thinking.locator('pre').textContent()).toBe(texts.get(planner.thinking!)!.content);

    // A folder without messages.jsonl: each missing message and the thinking say they are not in the report.
    await open(textlessDir, '#episode/fix-checkout-test/plan-replan/0');
    const missing = eventSection(planner.id);
    expect(await missing.locator('.chat > p.hint').allTextContents()).toEqual([
      '2 messages sent to the planner · temperature 0, seed ' +
        String(planner.sent!.options['seed']) +
        ', num_ctx 8192, think false, keep_alive 30m, structured_output format',
      ...planner.sent!.messages.map((hash, i) => `[message ${i + 1} (${hash}) is not in this report: the results folder has no messages.jsonl]`),
    ]);
    expect(await missing.locator('details.thinking summary').textContent()).toBe('thinking (not in this report)');
    expect(await missing.locator('.reply .json-tree').count()).toBe(1);

    await open(toolDir, '#episode/checkout-tests-status/react/0');
    const hints = await page.locator('section.event.model_call .chat > p.hint').allTextContents();
    expect(hints.length).toBeGreaterThan(0);
    expect(new Set(hints)).toEqual(
      new Set([
        'No messages stored for this call (the scripted stand-in reads the role’s view and is sent none; real models’ messages are kept in messages.jsonl).',
      ]),
    );
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('renders the JSON state as a tree whose keys show and whose nodes fold and unfold by keyboard', async () => {
    await open(modelDir, '#episode/fix-checkout-test/plan-replan/0');
    const replanner = modelCallsOf('fix-checkout-test', 'plan-replan').find((e) => e.role === 'replanner')!;
    const state = texts.get(replanner.sent!.messages[1]!)!.content;
    const view = JSON.parse(state.slice(state.indexOf('\n') + 1, state.lastIndexOf('```'))) as Record<string, unknown>;
    const user = eventSection(replanner.id).locator('.bubble.user');
    expect(await user.locator('.fence-info').textContent()).toBe('json state');
    const topKeys = await user
      .locator('.json-tree > li > details > ul > li')
      .evaluateAll((items) => items.map((li) => li.querySelector('.json-key')?.textContent));
    expect(topKeys).toEqual(Object.keys(view));
    expect(await user.locator('.json-tree > li > details > summary > .json-count').textContent()).toBe(`{${Object.keys(view).length} keys}`);

    // The plan object is large: folded, its count in view; Enter on its summary unfolds it, Enter again folds it.
    const plan = user
      .locator('.json-tree > li > details > ul > li')
      .filter({ has: page.locator(':scope > details > summary > .json-key', { hasText: /^plan$/ }) });
    const planSummary = plan.locator(':scope > details > summary');
    const goalKey = plan.locator('.json-key', { hasText: /^goal$/ });
    expect(await planSummary.textContent()).toMatch(/^plan: \{5 keys\}/);
    expect(await goalKey.isVisible()).toBe(false);
    await planSummary.focus();
    await page.keyboard.press('Enter');
    expect(await goalKey.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await goalKey.isVisible()).toBe(false);

    // A long string (the failing step's output in the history) is clipped; "show all" by keyboard shows it formatted.
    const history = user
      .locator('.json-tree > li > details > ul > li')
      .filter({ has: page.locator(':scope > details > summary > .json-key', { hasText: /^history$/ }) });
    await history.locator(':scope > details > summary').focus();
    await page.keyboard.press('Enter');
    const second = history.locator(':scope > details > ul > li').nth(1);
    await second.locator(':scope > details > summary').focus();
    await page.keyboard.press('Enter');
    const output = second.locator('li.json-leaf').filter({ has: page.locator(':scope > .json-key', { hasText: /^output$/ }) });
    const button = output.locator('button.show-all');
    expect(await button.textContent()).toMatch(/^show all \([\d,]+ characters, 32 lines\)$/);
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await output.locator('pre .line.fail').first().textContent()).toBe('FAIL ❯ tests/checkout.test.js (1 test | 1 failed)');
    await screenshotBothWidths(page, 'transcript-model-calls');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('folds a long tool output showing its first and last lines, with tool, status, exit code and line count in its summary', async () => {
    await open(toolDir, '#episode/checkout-tests-status/react/0');
    const run = records(toolDir)
      .find((r) => r.task === 'checkout-tests-status')!
      .trace.find((e): e is ToolCall => e.type === 'tool_call' && e.args['cmd'] === 'pnpm test:checkout')!;
    const lines = run.output.split('\n');
    expect(lines).toHaveLength(32);
    const section = eventSection(run.id);
    expect(await section.locator('.event-head').textContent()).toMatch(/^tool call · run · failure · exit 1 · nonzero_exit · 32 lines · /);
    expect(await section.locator('.json-tree').textContent()).toBe('cmd: "pnpm test:checkout"');
    const full = section.locator('details.output-full');
    expect(await full.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await full.locator('summary').textContent()).toBe('show all 32 lines · exit 1');
    const preview = section.locator('.preview pre');
    expect(await linesOf(preview.nth(0))).toEqual(lines.slice(0, 8));
    expect(await linesOf(preview.nth(1))).toEqual(lines.slice(-8));
    expect(await section.locator('.preview .elided').textContent()).toBe('… 16 lines not shown …');
    await full.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await section.locator('.preview').isVisible()).toBe(false);
    expect(await linesOf(full.locator('pre'))).toEqual(lines);

    // The failing run: its counts on top, the failing test marked, the diff and the summary classed.
    expect(await section.locator('.output-summary').textContent()).toBe('vitest Tests: 1 failed (1) · Test Files: 1 failed (1)');
    expect(await full.locator('.line.fail').allTextContents()).toEqual([
      'FAIL ❯ tests/checkout.test.js (1 test | 1 failed)',
      'FAIL   × tests/checkout.test.js > checkout > totals a three-item order with VAT',
      'FAIL FAIL  tests/checkout.test.js > checkout > totals a three-item order with VAT',
    ]);
    expect(await full.locator('.line.error').allTextContents()).toEqual(['ERRORAssertionError: expected 107.07 to be 107.09 // Object.is equality']);
    expect(await full.locator('.line.expected').allTextContents()).toEqual(['- Expected', '- 107.09']);
    expect(await full.locator('.line.received').allTextContents()).toEqual(['+ Received', '+ 107.07']);
    expect(await full.locator('.line.summary-fail').allTextContents()).toEqual(['FAIL Test Files  1 failed (1)', 'FAIL      Tests  1 failed (1)']);
    // Every scrollable pre takes focus and has a name.
    expect(
      await page.locator('#trace pre').evaluateAll((pres) => pres.filter((p) => p.getAttribute('tabindex') !== '0' || !p.getAttribute('aria-label')).length),
    ).toBe(0);
    await screenshotBothWidths(page, 'transcript-tool-outputs');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('marks the lint error line and its rule, and mutes passing tests', async () => {
    await open(toolDir, '#episode/pre-deploy-check/react/0');
    const lint = page.locator('section.event.tool_call').filter({ has: page.locator('.json-tree', { hasText: 'cmd: "pnpm lint"' }) });
    expect(await lint.locator('.event-head').textContent()).toMatch(/^tool call · run · failure · exit 1 · nonzero_exit · 7 lines · /);
    expect(await lint.locator('.output-summary').textContent()).toBe('ESLint 1 error, 0 warnings');
    const error = lint.locator('.line.error');
    expect(await error.count()).toBe(1);
    expect(await error.locator('.marker').textContent()).toBe('ERROR');
    expect(await error.locator('.loc').textContent()).toBe('9:9');
    expect(await error.locator('.message').textContent()).toBe("'discount' is assigned a value but never used");
    expect(await error.locator('.rule').textContent()).toBe('no-unused-vars');
    expect(await lint.locator('.line.file').textContent()).toBe('/repo/src/orders/checkout-service.js');
    const passing = page.locator('section.event.tool_call').filter({ has: page.locator('.json-tree', { hasText: 'cmd: "pnpm test"' }) });
    expect(await passing.locator('.output-summary').textContent()).toBe('vitest Tests: 4 passed (4) · Test Files: 4 passed (4)');
    expect(await passing.locator('.line.pass').allTextContents()).toEqual(
      ['cart', 'checkout', 'invoice', 'pricing'].map((name) => ` ✓ tests/${name}.test.js (1 test)`),
    );
    expect(await passing.locator('.line.fail, .line.error').count()).toBe(0);
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('formats the other kinds the sandbox prints: a suite that does not load, skipped tests, lint warnings, a parse error without a rule', async () => {
    await open(kindsDir, '#episode/pre-deploy-check/react/0');
    const test = page.locator('section.event.tool_call').filter({ has: page.locator('.json-tree', { hasText: 'cmd: "pnpm test"' }) });
    expect(await test.locator('.output-summary').textContent()).toBe('vitest Tests: 1 failed | 1 passed | 1 skipped (3) · Test Files: 2 failed (2)');
    await test.locator('details.output-full > summary').click();
    const full = test.locator('details.output-full pre');
    expect(await full.locator('.line.fail').allTextContents()).toEqual([
      'FAIL ❯ tests/broken.test.js (0 tests)',
      'FAIL ❯ tests/cart.test.js (3 tests | 1 failed | 1 skipped)',
      'FAIL   × tests/cart.test.js > cart > removes',
      'FAIL FAIL  tests/broken.test.js [ tests/broken.test.js ]',
      'FAIL FAIL  tests/cart.test.js > cart > removes',
    ]);
    expect(await full.locator('.line.error').allTextContents()).toEqual([
      'ERRORSyntaxError: unexpected token in expression',
      'ERRORAssertionError: expected [ 1, 2 ] to deeply equal [ 1 ]',
    ]);
    expect(await full.locator('.line.muted .marker', { hasText: 'skip' }).count()).toBe(1);
    expect(await full.locator('.line.caret').count()).toBe(1);
    expect(await full.locator('.line.received').allTextContents()).toEqual(['+ Received', '+ [', '+   1,', '+   2,', '+ ]']);

    const lint = page.locator('section.event.tool_call').filter({ has: page.locator('.json-tree', { hasText: 'cmd: "pnpm lint"' }) });
    expect(await lint.locator('.output-summary').textContent()).toBe('ESLint 2 errors, 1 warning');
    const rows = await lint.locator('.line.error, .line.warn').evaluateAll((lines) =>
      lines.map((line) => ({
        kind: line.className,
        loc: line.querySelector('.loc')?.textContent,
        message: line.querySelector('.message')?.textContent,
        rule: line.querySelector('.rule')?.textContent ?? null,
      })),
    );
    expect(rows).toEqual([
      { kind: 'line warn', loc: '1:10', message: "'x' is defined but never used", rule: 'no-unused-vars' },
      { kind: 'line error', loc: '12:7', message: "Expected '===' and instead saw '=='", rule: 'eqeqeq' },
      { kind: 'line error', loc: '3:15', message: 'Parsing error: Unexpected token )', rule: null },
    ]);
    expect(await lint.locator('.line.summary-fail').textContent()).toBe('FAIL✖ 3 problems (2 errors, 1 warning)');
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });

  it('has no serious or critical axe violation on either episode view, folds open or closed, and no time overlaps its header at 800 px', async () => {
    // The model-call-heavy and the tool-output-heavy episode as they open, then every view with every fold open.
    for (const [dir, hash, asOpened] of [
      [modelDir, '#episode/fix-checkout-test/plan-replan/0', true],
      [toolDir, '#episode/checkout-tests-status/react/0', true],
      [modelDir, '#episode/fix-checkout-test/gated/0', false],
      [kindsDir, '#episode/pre-deploy-check/react/0', false],
    ] as const) {
      for (const width of [1440, 800]) {
        await page.setViewportSize({ width, height: 900 });
        await open(dir, hash);
        if (asOpened) expect(seriousOf(await axeViolations(page)), `${hash} at ${width} px`).toEqual([]);
        await page.evaluate(() => {
          document.querySelectorAll('#trace details').forEach((details) => {
            (details as HTMLDetailsElement).open = true;
          });
          document.querySelectorAll<HTMLButtonElement>('#trace button.show-all').forEach((button) => {
            button.click();
          });
        });
        expect(seriousOf(await axeViolations(page)), `${hash} at ${width} px, every fold open`).toEqual([]);
        const overlaps = await page.locator('#trace section.event').evaluateAll((sections) =>
          sections.flatMap((section) => {
            const head = section.querySelector('.event-head')!.getBoundingClientRect();
            const meta = section.querySelector('.event-meta')!.getBoundingClientRect();
            const apart = meta.left >= head.right || meta.right <= head.left || meta.top >= head.bottom || meta.bottom <= head.top;
            return apart ? [] : [section.id];
          }),
        );
        expect(overlaps, `${hash} at ${width} px`).toEqual([]);
        const trace = await page.locator('#trace').evaluate((element) => [element.scrollWidth, element.clientWidth]);
        expect(trace[0], `${hash} at ${width} px: the trace scrolls sideways`).toBeLessThanOrEqual(trace[1]!);
      }
    }
    await page.setViewportSize({ width: 1400, height: 1000 });
    expect(problems).toEqual({ consoleErrors: [], requests: [] });
  });
});

/** The lines of a formatted output as a reader copies them: each line's text without its marker gutter. */
function linesOf(pre: Locator): Promise<string[]> {
  return pre.locator('.line').evaluateAll((lines) =>
    lines.map((line) =>
      Array.from(line.childNodes)
        .filter((node) => !(node as Element).classList?.contains('marker'))
        .map((node) => node.textContent)
        .join(''),
    ),
  );
}

/** What the sandbox's vitest reporter prints for a suite that does not load beside a file with a failed and a skipped test. */
const OTHER_TEST_RUN = `> vitest run --exclude tests/payments.test.js --exclude tests/e2e\n${renderTestRun(
  [
    {
      file: 'tests/broken.test.js',
      tests: [],
      error: { name: 'SyntaxError', message: 'unexpected token in expression', stack: '', location: { file: 'tests/broken.test.js', line: 2, column: 18 } },
    },
    {
      file: 'tests/cart.test.js',
      tests: [
        { id: 'tests/cart.test.js > cart > adds', file: 'tests/cart.test.js', path: ['cart', 'adds'], state: 'passed' },
        {
          id: 'tests/cart.test.js > cart > removes',
          file: 'tests/cart.test.js',
          path: ['cart', 'removes'],
          state: 'failed',
          error: { name: 'AssertionError', message: 'expected [ 1, 2 ] to deeply equal [ 1 ]', stack: '', expected: '[\n  1,\n]', actual: '[\n  1,\n  2,\n]' },
        },
        { id: 'tests/cart.test.js > cart > later', file: 'tests/cart.test.js', path: ['cart', 'later'], state: 'skipped' },
      ],
    },
  ],
  (path) => (path === 'tests/broken.test.js' ? 'import { total } from "../src/cart.js";\nexport const y = ;\n' : undefined),
)}`;

/** What the sandbox's ESLint prints (stylish) for a warning, an error with its rule, and a parse error (no rule). */
const OTHER_LINT = `> eslint src tests\n\n${formatStylish([
  {
    filePath: '/repo/src/a.js',
    messages: [
      { ruleId: 'no-unused-vars', severity: 1, message: "'x' is defined but never used.", line: 1, column: 10 },
      { ruleId: 'eqeqeq', severity: 2, message: "Expected '===' and instead saw '=='.", line: 12, column: 7 },
    ],
    errorCount: 1,
    fatalErrorCount: 0,
    warningCount: 1,
    fixableErrorCount: 1,
    fixableWarningCount: 0,
  },
  {
    filePath: '/repo/src/b.js',
    messages: [{ ruleId: null, severity: 2, fatal: true, message: 'Parsing error: Unexpected token )', line: 3, column: 15 }],
    errorCount: 1,
    fatalErrorCount: 1,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
  },
])}`;
