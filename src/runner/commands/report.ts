// `stratbench report DIR`: re-prints a results folder's tables (or markdown, JSON, CSV) and writes its HTML page; nothing runs.
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeFolder } from '../../files/make-folder.js';
import { renderRunReport, renderRunReportMarkdown } from '../../report/index.js';
import { removePartialFile } from '../../results-folder/index.js';
import { summariseFolder } from '../folder-summary.js';
import { useColor } from '../terminal.js';
import { outputWriteError, UsageError } from '../usage-error.js';

/** The flags of `stratbench report` (cli.ts). Files are written (their folders made) besides what stdout prints. */
export interface ReportOptions {
  /** `--markdown FILE`: also write the report as markdown; `-` prints only the markdown on stdout. */
  markdown?: string;
  /** `--json`: print the summary JSON instead of tables. */
  json?: boolean;
  /** `--wide`: every column, per-group statistics row and failed episode (default: fit 120 columns). */
  wide?: boolean;
  /** `--html FILE`: also write the self-contained HTML report. */
  html?: string;
  /** `--csv FILE`: also write one CSV row per episode (as `export --format csv`); `-` prints only the CSV on stdout. */
  csv?: string;
  /** `--pairs`: the strategy pairs the statistics compare (parsePairs; default: every pair up to 6 strategies). */
  pairs?: [string, string][];
}

/**
 * `stratbench report DIR`: the CSV first (`--csv`), then the text report, then the HTML page (`--html`): the page is
 * built last, after the text report's streaming pass has let go of its memory — the two in turn peak at ~210 MB on a
 * 100k-episode run, the page first at ~280 MB (npm run bench:report). Returns 0. Throws UsageError (exit 2) for an
 * unusable folder and for two outputs that would both take stdout (`--csv -` with `--json` or `--markdown -`).
 */
export async function reportCommand(dir: string, options: ReportOptions): Promise<number> {
  refuseSharedStdout(options);
  if (options.csv) {
    const { writeEpisodesCsv } = await import('../episode-exports.js');
    await writeEpisodesCsv(dir, options.csv);
    if (options.csv === '-') {
      await writeHtml(dir, options.html);
      return 0;
    }
  }
  await printReport(dir, options);
  await writeHtml(dir, options.html);
  return 0;
}

/** Throws UsageError when two of `--csv -`, `--markdown -` and `--json` would print on stdout. */
function refuseSharedStdout(options: ReportOptions): void {
  if (options.csv === '-' && options.json === true) {
    throw new UsageError('--csv - prints only the CSV on stdout, so --json has nowhere to go: give --csv a file (--csv episodes.csv), or leave one out');
  }
  const stdoutTaken = [options.csv === '-' ? '--csv -' : '', options.markdown === '-' ? '--markdown -' : '', options.json === true ? '--json' : ''].filter(
    Boolean,
  );
  if (options.markdown === '-' && stdoutTaken.length > 1) {
    throw new UsageError(`${stdoutTaken.join(' and ')} would all print on stdout: give --markdown a file (--markdown report.md), or leave one out`);
  }
}

/** The run's tables from its files (or the markdown alone with `--markdown -`, the summary JSON with `--json`). */
async function printReport(dir: string, options: ReportOptions): Promise<void> {
  const { summary, header } = await summariseFolder(dir, options.pairs);
  if (options.markdown === '-') {
    // "-": the markdown alone on stdout (as `--csv -`), e.g. into a CI step summary.
    process.stdout.write(renderRunReportMarkdown(summary, header));
    return;
  }
  if (options.markdown) {
    try {
      await makeFolder(dirname(options.markdown));
      await writeFile(options.markdown, renderRunReportMarkdown(summary, header));
    } catch (error) {
      await removePartialFile(options.markdown);
      throw outputWriteError(options.markdown, error);
    }
  }
  process.stdout.write(
    options.json ? `${JSON.stringify(summary, null, 2)}\n` : renderRunReport(summary, header, useColor(process.stdout), { wide: options.wide === true }),
  );
}

/** `--html FILE`: the report's page (loaded only when asked: the page's modules are large). */
async function writeHtml(dir: string, file: string | undefined): Promise<void> {
  if (!file) return;
  const { writeHtmlReport } = await import('../html-commands.js');
  await writeHtmlReport(dir, file);
}
