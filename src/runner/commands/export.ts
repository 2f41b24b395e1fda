// `stratbench export DIR --format csv|atif --out PATH`: a results folder written for other tools.
import { writeAtifTrajectories, writeEpisodesCsv, type ExportFormat } from '../episode-exports.js';
import { UsageError } from '../usage-error.js';

/** The flags of `stratbench export` (cli.ts; both required there). */
export interface ExportOptions {
  /** `--format`: `csv`, one row per episode, or `atif`, one Harbor trial folder per episode (ATIF-v1.6). */
  format: ExportFormat;
  /** `--out`: csv: the file (`-` for stdout); atif: a new or empty folder. */
  out: string;
}

/**
 * `stratbench export DIR --format csv|atif --out PATH`: prints what it wrote on stderr; returns 0. Throws UsageError
 * (exit 2) for an unusable folder, `--format atif --out -`, or an output that cannot be written.
 */
export async function exportCommand(dir: string, options: ExportOptions): Promise<number> {
  if (options.format === 'csv') {
    const rows = await writeEpisodesCsv(dir, options.out);
    if (options.out !== '-') process.stderr.write(`wrote ${rows} episode row(s) to ${options.out}\n`);
    return 0;
  }
  if (options.out === '-') throw new UsageError('--format atif writes one trial folder per episode into a folder; --out - (stdout) is for --format csv');
  const { trials, files, missingTexts } = await writeAtifTrajectories(dir, options.out);
  process.stderr.write(`wrote ${trials} trial folder(s) with ${files} ATIF trajectory file(s) to ${options.out} (<trial>/agent/trajectory.json)\n`);
  if (missingTexts > 0) {
    process.stderr.write(
      `warning: ${missingTexts} episode(s) reference messages or thinking that ${dir}/messages.jsonl lacks (a damaged line, ` +
        `or a run killed by an older stratbench); their trajectories lack those texts; their verdicts stand (scored when each episode ended)\n`,
    );
  }
  return 0;
}
