// Launching Debian's Chromium through playwright-core for the HTML report's tests and bench; loopback and file:// only.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser (`.ci/run` installs it); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Set to 1 to skip the browser tests on a machine without Chromium (README, "Reading results in a browser"). */
export const SKIP_BROWSER_TESTS = process.env['STRATBENCH_SKIP_BROWSER_TESTS'] === '1';

/** The flags of ../shared/LIBRARIES.md: no sandbox or GPU, and no background traffic into the closed network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium; throws a message saying how to install it (or skip) when it is not there. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: the HTML report's browser tests need it. ` +
        'Install it with `apt-get update && apt-get install -y chromium` (as .ci/run does), point CHROMIUM_PATH at another build, ' +
        'or set STRATBENCH_SKIP_BROWSER_TESTS=1 to skip these tests.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS });
}

/** What a page did that a report must never do: console errors, uncaught exceptions, requests for anything but file: and data: URLs. */
export interface PageProblems {
  consoleErrors: string[];
  requests: string[];
}

/**
 * A new page that records console errors and page errors, and aborts (and records) every request whose URL is
 * not file: or data: — a self-contained report makes none.
 */
export async function watchedPage(browser: Browser): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: PageProblems = { consoleErrors: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) await route.continue();
    else {
      problems.requests.push(url);
      await route.abort();
    }
  });
  return { page, problems };
}

/**
 * Where screenshots of the report are kept as test artefacts: STRATBENCH_TEST_ARTIFACTS, else `test-artifacts/report`
 * in the repository (git-ignored; CI keeps the folder). Created on first use.
 */
export const REPORT_ARTIFACTS = process.env['STRATBENCH_TEST_ARTIFACTS'] ?? join(dirname(fileURLToPath(import.meta.url)), '../../test-artifacts/report');

/** The two widths every view is looked at: a laptop (1440 px) and a narrow window (800 px). */
export const WIDTHS = [1440, 800] as const;

/**
 * Screenshots the page at 1440 and 800 px wide (full page), as `<name>-1440.png` and `<name>-800.png` in
 * REPORT_ARTIFACTS, and puts the viewport back. Returns the files written.
 */
export async function screenshotBothWidths(page: Page, name: string): Promise<string[]> {
  mkdirSync(REPORT_ARTIFACTS, { recursive: true });
  const before = page.viewportSize();
  const files: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const path = join(REPORT_ARTIFACTS, `${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    files.push(path);
  }
  if (before) await page.setViewportSize(before);
  return files;
}

/** One axe-core rule broken on a page, with how many nodes break it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: number;
  /** The first few offending nodes' selectors and axe's summary of the first, to say what to fix. */
  example: string;
}

const AXE_SOURCE = (() => {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
})();

/**
 * Runs axe-core (WCAG 2.0/2.1/2.2 A and AA rules and axe's best practices) on the page as it is now and returns
 * its violations. The page's CSP forbids eval, not inline scripts added by the test's own addScriptTag.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      example: `${v.nodes
        .slice(0, 3)
        .map((n) => JSON.stringify(n.target))
        .join(' ')} — ${v.nodes[0]?.failureSummary ?? ''}`.slice(0, 600),
    }));
  });
}

/** The violations axe rates serious or critical (the report must have none). */
export const seriousOf = (violations: readonly AxeViolation[]): AxeViolation[] => violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
