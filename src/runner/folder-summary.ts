// A results folder summarised as `report` and `merge` print it: its summary with statistics and the run header.
import type { RunCompleteness, RunFile } from '../records/index.js';
import { judgeLine } from './judge-setup.js';
import { formatAgreement } from '../report/judge-agreement.js';
import { describeCompleteness, MatrixPositions, openResultsFolder, scanEpisodes } from '../results-folder/index.js';
import { withStatistics, SummaryBuilder, type RunHeader, type SummaryFile } from '../report/index.js';
import { checkPairs } from './pairs-check.js';
import { UsageError } from './usage-error.js';

/**
 * The header of a folder's report (suite, tasks of the matrix, strategies, models, notes, completeness), its groups,
 * strategies and seed, from run.json where the folder has one, else from the episodes summarised in `builder`.
 */
export function headerFrom(
  run: RunFile | null,
  builder: SummaryBuilder,
  positions: MatrixPositions | undefined,
): { header: RunHeader; groups: string[]; strategies: string[]; seed: number; completeness?: RunCompleteness } {
  const completeness = run && positions ? describeCompleteness(run, positions) : undefined;
  const summary = builder.build();
  const strategies = run?.strategies ?? summary.strategies.map((s) => s.strategy);
  const groups = run?.config.groups ?? summary.groups;
  return {
    header: {
      ...(run ? { suiteName: run.suite.name, epochs: run.epochs } : {}),
      // The matrix's tasks (a shard or an interrupted run holds episodes of fewer; the completeness line says so).
      tasks: run?.config.tasks.length ?? builder.tasks,
      strategies,
      models: run?.models ?? {},
      notes: [...Object.values(run?.model_notes ?? {}), ...(run?.judge ? [judgeLine(run.judge, formatAgreement)] : [])],
      completeness: completeness?.label ?? null,
    },
    groups,
    strategies,
    seed: run?.seed ?? 1,
    ...(completeness ? { completeness } : {}),
  };
}

/**
 * Reads a results folder one episode at a time into its summary (SummaryBuilder) and the matrix cells it holds:
 * memory does not grow with the traces, only by a few bytes an episode. Throws UsageError (exit 2) for an
 * unusable folder, naming the file and the problem.
 */
export async function summariseFolder(dir: string, pairs?: [string, string][]): Promise<{ summary: SummaryFile; header: RunHeader; run: RunFile | null }> {
  const folder = await openResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  const { run } = folder;
  let builder = new SummaryBuilder(run?.config.groups ?? [], run?.strategies ?? [], run?.config.tasks ?? []);
  let positions = run ? new MatrixPositions(run.config) : undefined;
  const scanned = await scanEpisodes(
    folder.episodesPath,
    () => {
      builder = new SummaryBuilder(run?.config.groups ?? [], run?.strategies ?? [], run?.config.tasks ?? []);
      positions = run ? new MatrixPositions(run.config) : undefined;
      return (record) => {
        builder.add(record);
        positions?.add(record);
      };
    },
    run?.config,
  );
  if (!scanned.ok) throw new UsageError(`cannot read results folder ${dir}: ${scanned.error}`);
  for (const warning of [...scanned.warnings, ...folder.warnings]) process.stderr.write(`warning: ${warning}\n`);
  const { header, seed, completeness, strategies } = headerFrom(run, builder, positions);
  checkPairs(strategies, pairs);
  return { summary: { ...withStatistics(builder, seed, pairs), ...(completeness ? { completeness } : {}) }, header, run };
}
