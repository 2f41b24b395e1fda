// Launching Debian's Chromium through playwright-core for the HTML report's tests and bench; loopback and file:// only.
import { existsSync } from 'node:fs';
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
