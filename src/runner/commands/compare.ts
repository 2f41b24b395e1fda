// `stratbench compare BASE HEAD`: what changed between two results folders, and as a CI gate whether it regressed.
import { runCompare } from '../../report/compare.js';
import { useColor } from '../terminal.js';

/** The flags of `stratbench compare` (cli.ts); shares in 0–1 (the CLI also reads `5%`). */
export interface CompareCommandOptions {
  /** `--fail-on-regression`: exit with the verdict (1 regressed, 3 inconclusive, 0 no regression); without it 0 unless the input is unusable. */
  failOnRegression?: boolean;
  /** `--allow-partial`: compare the episodes both folders have when the head lacks some of the base's (default: exit 2). */
  allowPartial?: boolean;
  /** `--max-error-rate`: the head fails above this share of infrastructure errors (the CLI's default 0.05; absent here: DEFAULT_MAX_ERROR_RATE). */
  maxErrorRate?: number;
  /** `--min-effect`: the smallest drop the gate must be able to detect to say "no regression" (the CLI's default 0.2; absent: DEFAULT_MIN_EFFECT). */
  minEffect?: number;
  /** `--json`: one JSON document `{ verdict, exitCode, report }` instead of tables. */
  json?: boolean;
  /** `--markdown FILE`: also write the comparison as markdown (a CI step summary). */
  markdown?: string;
  /** `--junit FILE`: also write JUnit XML, one test case per task × strategy. */
  junit?: string;
  /** `--wide`: every column of the per-strategy table (default: fit 120 columns). */
  wide?: boolean;
  /** `--html FILE`: also write the comparison as one self-contained HTML page (not when the input is unusable). */
  html?: string;
}

/**
 * `stratbench compare BASE HEAD`: exit 0 no regression (or not gating), 1 regressed and 3 inconclusive (with
 * `failOnRegression`), 2 unusable input — a head lacking base episodes without `allowPartial` included. The HTML page
 * (`html`) is written after the text, unless the exit code is 2; it throws UsageError for folders it cannot compare
 * or a file it cannot write.
 */
export async function compareCommand(base: string, head: string, options: CompareCommandOptions): Promise<number> {
  const result = await runCompare(base, head, {
    wide: options.wide === true,
    failOnRegression: options.failOnRegression === true,
    allowPartial: options.allowPartial === true,
    ...(options.maxErrorRate === undefined ? {} : { maxErrorRate: options.maxErrorRate }),
    ...(options.minEffect === undefined ? {} : { minEffect: options.minEffect }),
    json: options.json === true,
    ...(options.markdown ? { markdownFile: options.markdown } : {}),
    ...(options.junit ? { junitFile: options.junit } : {}),
    color: useColor(process.stdout),
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (options.html && result.exitCode !== 2) {
    const { writeCompareHtml } = await import('../html-commands.js');
    await writeCompareHtml(base, head, options.html, {
      allowPartial: options.allowPartial === true,
      ...(options.maxErrorRate === undefined ? {} : { maxErrorRate: options.maxErrorRate }),
      ...(options.minEffect === undefined ? {} : { minEffect: options.minEffect }),
    });
  }
  return result.exitCode;
}
