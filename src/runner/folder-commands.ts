// The commands that read results folders instead of running episodes: report, merge, compare.
import { writeFile } from 'node:fs/promises';
import { makeFolder } from '../files/make-folder.js';
import { dirname, join } from 'node:path';
import { readResultsFolder } from '../report/results-folder.js';
import { runCompare } from '../report/compare.js';
import { renderRunReport, renderRunReportMarkdown, summaryFromRecords, withStatistics, type RunHeader } from '../report/run-report.js';
import type { EpisodeRecord } from './record.js';
import { mergeFolders, ResumeError } from './resume.js';
import { prepareOutputFolder, writeJsonFile, OutputFolderError } from './results-writer.js';
import { UsageError } from './commands.js';

function headerFrom(run: Record<string, unknown> | null, records: readonly EpisodeRecord[]): { header: RunHeader; groups: string[]; strategies: string[]; seed: number } {
  const config = (run?.['config'] ?? {}) as Record<string, unknown>;
  const seen = <T>(values: T[]): T[] => [...new Set(values)];
  const strategies = Array.isArray(run?.['strategies']) ? (run['strategies'] as string[]) : seen(records.map((r) => r.strategy));
  const groups = Array.isArray(config['groups']) ? (config['groups'] as string[]) : seen(records.map((r) => r.group));
  const notes = Object.values((run?.['model_notes'] ?? {}) as Record<string, string>);
  const suite = (run?.['suite'] ?? {}) as { name?: string };
  return {
    header: {
      ...(suite.name ? { suiteName: suite.name } : {}),
      tasks: seen(records.map((r) => r.task)).length,
      strategies,
      ...(typeof run?.['epochs'] === 'number' ? { epochs: run['epochs'] } : {}),
      models: (run?.['models'] ?? {}) as Record<string, string>,
      notes,
    },
    groups,
    strategies,
    seed: typeof run?.['seed'] === 'number' ? run['seed'] : 1,
  };
}

/** `stratbench report DIR`: re-prints the run's tables from its files; nothing runs. Exit 2 for an unusable folder. */
export async function reportCommand(dir: string, options: { markdown?: string; json?: boolean }): Promise<number> {
  const folder = await readResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  for (const warning of folder.warnings) process.stderr.write(`warning: ${warning}\n`);
  const { header, groups, strategies, seed } = headerFrom(folder.run as Record<string, unknown> | null, folder.records);
  const summary = withStatistics(summaryFromRecords(folder.records, groups, strategies), seed);
  if (options.markdown) {
    try {
      await makeFolder(dirname(options.markdown));
      await writeFile(options.markdown, renderRunReportMarkdown(summary, header));
    } catch (error) {
      throw new UsageError(`cannot write ${options.markdown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  process.stdout.write(options.json ? `${JSON.stringify(summary, null, 2)}\n` : renderRunReport(summary, header, process.stdout.isTTY === true));
  return 0;
}

/** `stratbench merge DIR… --out OUT`: combines shard folders of one configuration. Exit 2 when they differ. */
export async function mergeCommand(dirs: string[], out: string): Promise<number> {
  try {
    // Everything is read and checked before the output folder is created: a refused merge leaves nothing.
    const { records, run, missingShards } = await mergeFolders(dirs);
    await prepareOutputFolder(out, { fresh: true });
    await writeFile(join(out, 'episodes.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const { header, groups, strategies, seed } = headerFrom(run, records);
    const summary = withStatistics(summaryFromRecords(records, groups, strategies), seed);
    const { shard: _shard, timing: _timing, ...rest } = run;
    const status = missingShards.length === 0 ? 'complete' : 'partial';
    await writeJsonFile(join(out, 'run.json'), { ...rest, status, episodes: records.length, merged_from: dirs, ...(missingShards.length ? { missing_shards: missingShards } : {}) });
    await writeJsonFile(join(out, 'summary.json'), summary, { compact: true });
    process.stdout.write(renderRunReport(summary, header, process.stdout.isTTY === true));
    process.stderr.write(`merged ${records.length} episode(s) from ${dirs.length} folder(s) into ${out}\n`);
    if (missingShards.length > 0) process.stderr.write(`warning: shard(s) ${missingShards.join(', ')} not given: the merged run is partial\n`);
    return 0;
  } catch (error) {
    if (error instanceof ResumeError || error instanceof OutputFolderError) throw new UsageError(error.message);
    throw error;
  }
}

/** `stratbench compare BASE HEAD`: exit 0, 1 (regression with --fail-on-regression) or 2 (unusable input). */
export async function compareCommand(base: string, head: string, options: { failOnRegression?: boolean; markdown?: string; junit?: string }): Promise<number> {
  const result = await runCompare(base, head, {
    failOnRegression: options.failOnRegression === true,
    ...(options.markdown ? { markdownFile: options.markdown } : {}),
    ...(options.junit ? { junitFile: options.junit } : {}),
    color: process.stdout.isTTY === true,
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}
