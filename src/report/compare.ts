// `stratbench compare BASE HEAD`: read both results folders, compare them, render, write files, choose the exit code.
import { writeFile } from 'node:fs/promises';
import { makeFolder } from '../files/make-folder.js';
import { dirname } from 'node:path';
import { compareResults, type ComparisonReport } from './compare-report.js';
import { renderCompareText } from './compare-table.js';
import { renderJUnit } from './formats/junit.js';
import { renderMarkdown } from './formats/markdown.js';
import { readResultsFolder } from '../results-folder/index.js';

export interface RunCompareOptions {
  /** Exit 1 when the comparison finds a regression (see compareResults for the rule); otherwise exit 0. */
  failOnRegression: boolean;
  /** Also write the markdown rendering here (folders are created). */
  markdownFile?: string;
  /** Also write the JUnit XML here (folders are created). */
  junitFile?: string;
  /** Colour the tables (pass process.stdout.isTTY). */
  color: boolean;
  /** Bootstrap seed and resamples; defaults 1 and 10,000. */
  seed?: number;
  resamples?: number;
}

export interface RunCompareResult {
  /** 0: no regression (or not gating); 1: regression with failOnRegression; 2: unusable input or unwritable output. */
  exitCode: 0 | 1 | 2;
  /** The text report (tables). */
  stdout: string;
  /** Warnings (e.g. a torn last line skipped) and errors, one per line. */
  stderr: string;
  /** The report, when the input was usable. */
  report?: ComparisonReport;
}

async function writeOutput(path: string, text: string): Promise<string | null> {
  try {
    await makeFolder(dirname(path));
    await writeFile(path, text, 'utf8');
    return null;
  } catch (error) {
    return `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}`;
  }
}

/**
 * The whole `stratbench compare` command minus argument parsing: reads BASE and HEAD (readResultsFolder), compares
 * them (compareResults), renders the text report for stdout, writes the markdown and JUnit files when asked, and
 * picks the exit code. Never throws for bad input: an unreadable or malformed folder, or folders with no shared task,
 * give exit 2 and a message on stderr naming the folder (and file and line).
 */
export async function runCompare(baseDir: string, headDir: string, options: RunCompareOptions): Promise<RunCompareResult> {
  const stderr: string[] = [];
  const fail = (message: string): RunCompareResult => ({
    exitCode: 2,
    stdout: '',
    stderr: [...stderr, `stratbench compare: ${message}`].map((line) => `${line}\n`).join(''),
  });
  const [base, head] = await Promise.all([readResultsFolder(baseDir), readResultsFolder(headDir)]);
  if (!base.ok) return fail(`cannot use BASE ${baseDir}: ${base.error}`);
  if (!head.ok) return fail(`cannot use HEAD ${headDir}: ${head.error}`);
  for (const warning of base.warnings) stderr.push(`warning: base: ${warning}`);
  for (const warning of head.warnings) stderr.push(`warning: head: ${warning}`);
  const bootstrap = {
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.resamples === undefined ? {} : { resamples: options.resamples }),
  };
  const compared = compareResults(base, head, bootstrap);
  if (!compared.ok) return fail(compared.error);
  const { report } = compared;
  const writes: Promise<string | null>[] = [];
  if (options.markdownFile) writes.push(writeOutput(options.markdownFile, renderMarkdown(report)));
  if (options.junitFile) writes.push(writeOutput(options.junitFile, renderJUnit(report)));
  const writeErrors = (await Promise.all(writes)).filter((error): error is string => error !== null);
  const stdout = renderCompareText(report, { color: options.color });
  if (writeErrors.length > 0) return { ...fail(writeErrors.join('; ')), stdout, report };
  const exitCode = options.failOnRegression && report.decision.regression ? 1 : 0;
  return { exitCode, stdout, stderr: stderr.map((line) => `${line}\n`).join(''), report };
}
