// A vitest reporter that prints every test file's duration, slowest first, when a run ends (issue 31 §1: "per-file
// durations printed in CI so the slowest stay visible"). It sits beside the default reporter (vitest.config.ts).
import type { Reporter, TestModule } from 'vitest/node';

/** One file's line: its time importing (collect) plus running its tests and hooks, in ms, as vitest measures them. */
export interface FileDuration {
  /** The file relative to the project root, e.g. `tests/cli.test.ts`. */
  file: string;
  /** The vitest project that ran it (`unit` or `e2e`). */
  project: string;
  /** `collectDuration + duration` of vitest's module diagnostic, ms. */
  ms: number;
  /** The file's state: `passed`, `failed`, `skipped`, `pending`, `queued`. */
  state: string;
}

/** The files of a run, slowest first. */
export function fileDurations(modules: readonly TestModule[]): FileDuration[] {
  return modules
    .map((module) => {
      const diagnostic = module.diagnostic();
      return {
        file: module.relativeModuleId,
        project: module.project.name,
        ms: Math.round(diagnostic.collectDuration + diagnostic.duration),
        state: module.state(),
      };
    })
    .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
}

/** Renders the table: one line per file, `  12.3 s  e2e   tests/x.test.ts`, with the total of the files' own times. */
export function renderFileDurations(rows: readonly FileDuration[]): string {
  const total = rows.reduce((sum, row) => sum + row.ms, 0);
  const width = Math.max(0, ...rows.map((row) => row.project.length));
  const lines = rows.map((row) => {
    const mark = row.state === 'passed' ? '' : `  (${row.state})`;
    return `${(row.ms / 1000).toFixed(1).padStart(7)} s  ${row.project.padEnd(width)}  ${row.file}${mark}`;
  });
  return [`Per-file durations, slowest first (${rows.length} files, ${(total / 1000).toFixed(1)} s summed over workers):`, ...lines, ''].join('\n');
}

export default class FileDurationsReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    if (modules.length > 0) process.stdout.write(`\n${renderFileDurations(fileDurations(modules))}`);
  }
}
