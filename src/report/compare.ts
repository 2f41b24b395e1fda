// `stratbench compare BASE HEAD`: read both results folders, compare them, render, write files, choose the exit code.
import { writeFile } from 'node:fs/promises';
import { makeFolder } from '../files/make-folder.js';
import { dirname } from 'node:path';
import { compareResults, type ComparisonReport } from './compare-report.js';
import { minEffectError, VERDICT_EXIT_CODES } from './compare-gate.js';
import { renderCompareText } from './compare-table.js';
import { DEFAULT_REPORT_WIDTH } from './formats/fit-width.js';
import { renderJUnit } from './formats/junit.js';
import { renderMarkdown } from './formats/markdown.js';
import { readCompareFolder } from './compare-input.js';
import { asDiskWriteError, DISK_FAULT_EXIT_CODE, diskFaultCode, removePartialFile } from '../results-folder/index.js';

export interface RunCompareOptions {
  /** Exit with the verdict's code (VERDICT_EXIT_CODES: 1 regressed, 3 inconclusive, 0 no regression); otherwise 0. */
  failOnRegression: boolean;
  /** Compare only the episodes both folders have when the head lacks some of the base's (default: exit 2). */
  allowPartial?: boolean;
  /** See CompareOptions. */
  maxErrorRate?: number;
  minEffect?: number;
  /** stdout is one JSON document `{ verdict, exitCode, report }` instead of the tables. */
  json?: boolean;
  /** Also write the markdown rendering here (folders are created). */
  markdownFile?: string;
  /** Also write the JUnit XML here (folders are created). */
  junitFile?: string;
  /** Colour the tables (pass process.stdout.isTTY). */
  color: boolean;
  /** Print every column of the per-strategy table; without it the table fits DEFAULT_REPORT_WIDTH (120) columns. */
  wide?: boolean;
  /** Bootstrap seed and resamples; defaults 1 and 10,000. */
  seed?: number;
  resamples?: number;
}

export interface RunCompareResult {
  /**
   * 0: no regression (or not gating); 1: regressed, 3: inconclusive (with failOnRegression); 2: unusable input
   * (unreadable folder, a head lacking base episodes or a base lacking its own — a merge missing a shard — without
   * allowPartial, nothing shared) or unwritable output; 5: the disk refused the markdown or JUnit file (ENOSPC, EROFS…).
   */
  exitCode: 0 | 1 | 2 | 3 | 5;
  /** The text report (tables). */
  stdout: string;
  /** Warnings (e.g. a torn last line skipped) and errors, one per line. */
  stderr: string;
  /** The report, when the input was usable. */
  report?: ComparisonReport;
}

/** Writes one output file; resolves null, or the problem: `disk` when the disk refused the write (exit 5, decision 0033). */
async function writeOutput(path: string, text: string): Promise<{ message: string; disk: boolean } | null> {
  try {
    await makeFolder(dirname(path));
    await writeFile(path, text, 'utf8');
    return null;
  } catch (error) {
    await removePartialFile(path);
    if (diskFaultCode(error) !== undefined) return { message: (asDiskWriteError(error, path) as Error).message, disk: true };
    return {
      message: `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}`,
      disk: false,
    };
  }
}

/**
 * The whole `stratbench compare` command minus argument parsing: reads BASE and HEAD one episode at a time into result columns (readCompareFolder), compares
 * them (compareResults), renders the text report for stdout, writes the markdown and JUnit files when asked, and
 * picks the exit code. Never throws for bad input: an unreadable or malformed folder, or folders with no shared task,
 * give exit 2 and a message on stderr naming the folder (and file and line); a markdown or JUnit file the disk refuses
 * (ENOSPC, EROFS, EIO…) gives exit 5 (DISK_FAULT_EXIT_CODE) naming it.
 */
export async function runCompare(baseDir: string, headDir: string, options: RunCompareOptions): Promise<RunCompareResult> {
  const stderr: string[] = [];
  const fail = (message: string): RunCompareResult => ({
    exitCode: 2,
    stdout: options.json === true ? `${JSON.stringify({ verdict: null, exitCode: 2, error: message }, null, 2)}\n` : '',
    stderr: [...stderr, `stratbench compare: ${message}`].map((line) => `${line}\n`).join(''),
  });
  const badMinEffect = options.minEffect === undefined ? null : minEffectError(options.minEffect);
  if (badMinEffect !== null) return fail(badMinEffect);
  const [base, head] = await Promise.all([readCompareFolder(baseDir), readCompareFolder(headDir)]);
  if (!base.ok) return fail(`cannot use BASE ${baseDir}: ${base.error}`);
  if (!head.ok) return fail(`cannot use HEAD ${headDir}: ${head.error}`);
  for (const warning of base.warnings) stderr.push(`warning: base: ${warning}`);
  for (const warning of head.warnings) stderr.push(`warning: head: ${warning}`);
  const settings = {
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
    ...(options.allowPartial === undefined ? {} : { allowPartial: options.allowPartial }),
    ...(options.maxErrorRate === undefined ? {} : { maxErrorRate: options.maxErrorRate }),
    ...(options.minEffect === undefined ? {} : { minEffect: options.minEffect }),
  };
  const compared = compareResults(base, head, settings);
  if (!compared.ok) return fail(compared.error);
  const { report } = compared;
  const writes: Promise<{ message: string; disk: boolean } | null>[] = [];
  if (options.markdownFile) writes.push(writeOutput(options.markdownFile, renderMarkdown(report)));
  if (options.junitFile) writes.push(writeOutput(options.junitFile, renderJUnit(report)));
  const writeErrors = (await Promise.all(writes)).filter((error) => error !== null);
  const exitCode = options.failOnRegression ? VERDICT_EXIT_CODES[report.decision.verdict] : 0;
  const stdout =
    options.json === true
      ? `${JSON.stringify({ verdict: report.decision.verdict, exitCode, report }, null, 2)}\n`
      : renderCompareText(report, { color: options.color, ...(options.wide === true ? {} : { maxWidth: DEFAULT_REPORT_WIDTH }) });
  if (writeErrors.some((error) => error.disk)) {
    const message = `the disk refused a write: ${writeErrors.map((error) => error.message).join('; ')}`;
    return { ...fail(message), exitCode: DISK_FAULT_EXIT_CODE, stdout, report };
  }
  if (writeErrors.length > 0) return { ...fail(writeErrors.map((error) => error.message).join('; ')), stdout, report };
  for (const warning of report.decision.warnings) stderr.push(`warning: ${warning}`);
  return { exitCode, stdout, stderr: stderr.map((line) => `${line}\n`).join(''), report };
}
