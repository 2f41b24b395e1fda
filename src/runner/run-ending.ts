// How a run ends: the report on stdout, the results folder and warnings on stderr, and the exit code.
import { SCRIPTED_NOTICE } from '../models/scripted.js';
import type { EpisodeRecord, RunJudge } from '../records/index.js';
import { formatAgreement } from '../report/judge-agreement.js';
import { renderRunReport } from '../report/index.js';
import { judgeLine } from './judge-setup.js';
import { ollamaHeaderNote } from './ollama-setup.js';
import { openaiHeaderNote } from './openai-setup.js';
import { ERRORED_RUN_EXIT_CODE, erroredRunWarning } from './run-checks.js';
import type { RunIdentity } from './run-description.js';
import type { RunModels } from './run-models.js';
import type { RunSelection } from './run-selection.js';
import type { runMatrix } from './run-suite.js';
import { useColor } from './terminal.js';

/** `run --max-error-rate`: above this share of infrastructure-error episodes the run exits ERRORED_RUN_EXIT_CODE. */
export const DEFAULT_RUN_MAX_ERROR_RATE = 0.05;

/** What the end of a run reads of its preparation. */
export interface RunEnding {
  options: Record<string, unknown>;
  selection: Pick<RunSelection, 'suite' | 'tasks' | 'strategies'>;
  models: Pick<RunModels, 'ollamaInfo' | 'openaiInfo'>;
  identity: Pick<RunIdentity, 'epochs' | 'modelNames' | 'anyScripted'>;
  outDir: string;
  judgeRecord: RunJudge | undefined;
}

/** The matrix's summary and how many episodes overflowed the context window on their first model call. */
export interface MatrixOutcome {
  summary: Awaited<ReturnType<typeof runMatrix>>;
  firstCallOverflows: number;
}

/**
 * Prints the report (table or `--format json`), the folder and the warnings; returns the exit code: 130 / 143 when a
 * signal interrupted the run (128 + its number, as a shell reports it), ERRORED_RUN_EXIT_CODE 4 when more than
 * `--max-error-rate` of the episodes were infrastructure errors, else 0.
 */
export function reportRun(run: RunEnding, outcome: MatrixOutcome, stoppedBy: NodeJS.Signals | undefined): number {
  const { options, selection, models, identity, outDir } = run;
  const { summary, firstCallOverflows } = outcome;
  const header = {
    suiteName: selection.suite.name,
    tasks: selection.tasks.length,
    strategies: selection.strategies,
    epochs: identity.epochs,
    models: identity.modelNames,
    completeness: summary.completeness.label,
    notes: [
      ...(identity.anyScripted ? [SCRIPTED_NOTICE] : []),
      ...(run.judgeRecord ? [judgeLine(run.judgeRecord, formatAgreement)] : []),
      ...(models.ollamaInfo ? [ollamaHeaderNote(models.ollamaInfo)] : []),
      ...(models.openaiInfo ? [openaiHeaderNote(models.openaiInfo)] : []),
    ],
  };
  if (options['format'] === 'json') process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else process.stdout.write(renderRunReport(summary, header, useColor(process.stdout), { wide: options['wide'] === true }));
  process.stderr.write(`results: ${outDir}\n`);
  if (firstCallOverflows > 0) process.stderr.write(`stratbench: warning: ${firstCallOverflowWarning(firstCallOverflows)}\n`);
  if (summary.interrupted) {
    process.stderr.write(`interrupted after ${summary.ran} new episode(s); continue with: stratbench run --resume ${outDir}\n`);
    return stoppedBy === 'SIGTERM' ? 143 : 130;
  }
  const episodeCount = summary.strategies.reduce((sum, entry) => sum + entry.episodes, 0);
  const maxErrorRate = typeof options['maxErrorRate'] === 'number' ? options['maxErrorRate'] : DEFAULT_RUN_MAX_ERROR_RATE;
  const errored = erroredRunWarning(episodeCount, summary.errors_total ?? summary.errors.length, maxErrorRate, outDir);
  if (errored !== null) {
    process.stderr.write(`stratbench: ${errored}\n`);
    return ERRORED_RUN_EXIT_CODE;
  }
  return 0;
}

/** Whether an episode ended context_exceeded on its first model call: no history had grown, the prompt alone did not fit. */
export function overflowedAtFirstCall(record: EpisodeRecord): boolean {
  if (record.outcome.status !== 'budget_exhausted' || record.outcome.reason !== 'context_exceeded') return false;
  return Object.values(record.metrics.model_calls).reduce((sum, calls) => sum + calls, 0) <= 1;
}

/**
 * The end-of-run warning for episodes whose first prompt overflowed (review 6): a context window smaller than the
 * harness's own first prompt is a configuration to fix, though the episodes still count as the strategies' failures.
 */
export function firstCallOverflowWarning(episodes: number): string {
  return `${episodes} episode(s) ended context_exceeded on their first model call: the context window is smaller than the first prompt, so every strategy fails before it acts (raise --num-ctx, or serve the model with a longer context); they count as the strategies' failures`;
}
