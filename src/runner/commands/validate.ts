// `stratbench validate [suite]`: proves every task's trajectories score as they should, and warns about the suite.
import { formatSuiteError } from '../../suite/load-suite.js';
import { missingScripts, type MissingScript } from '../../suite/missing-scripts.js';
import { cutLine, DEFAULT_REPORT_WIDTH } from '../../report/formats/fit-width.js';
import type { PromptSet } from '../../strategies/prompts.js';
import { checkPromptContamination, loadPromptsOrThrow, loadSuiteOrThrow, type CommandSuite } from '../load-inputs.js';
import { validateTrajectories, type TaskValidation, type TrajectoryKind, type TrajectoryValidation } from '../replay.js';
import { naiveReplayWarnings, stopReplayWarnings, type NaiveReplayWarning, type StopReplayWarning } from '../stop-replay.js';
import { compositionLines, suiteComposition } from '../suite-composition.js';
import { rememberPassedTasks } from '../run-checks.js';
import { DEFAULT_VALIDATION_CACHE_DIR } from '../validation-cache.js';
import { closeCodeCache, DEFAULT_CODE_CACHE_DIR, openCodeCache } from '../code-cache.js';
import { harnessIdentity } from '../harness-identity.js';

/** The flags of `stratbench validate` (cli.ts). */
export interface ValidateOptions {
  /** `--json`: print one JSON document instead of lines. */
  json?: boolean;
  /**
   * `--prompts`: the role templates folder; with it the prompt contamination check and the scripted stop and naive
   * replays run (the CLI's default: the shipped prompts/; absent here: none of the three runs).
   */
  prompts?: string;
  /** `--wide`: print every ok line in full (default: cut at DEFAULT_REPORT_WIDTH, 120 columns; FAIL lines stay whole). */
  wide?: boolean;
  /**
   * `--validation-cache-dir`: where the tasks that pass run's check (reference succeeds, untouched repository fails) are
   * recorded, so the next `run` does not replay them (default DEFAULT_VALIDATION_CACHE_DIR; null: record nothing).
   */
  validationCacheDir?: string | null;
  /** `--code-cache-dir`: the code cache the replays are served from and kept in (default DEFAULT_CODE_CACHE_DIR). */
  codeCacheDir?: string;
  /** `--no-code-cache` sets it false: no code cache. */
  codeCache?: boolean;
}

/** The suite's warnings, each written to stderr; none changes the exit code. */
interface SuiteWarnings {
  scripts: MissingScript[];
  stops: StopReplayWarning[];
  naive: NaiveReplayWarning[];
}

/**
 * `stratbench validate [--json]`: 0 when every reference succeeds and every counterexample and untouched run
 * fails; 2 otherwise (and for a suite that does not load). With `json`, stdout is one document
 * `{ suite, tasks: [{ id, group, trajectories: TrajectoryValidation[] }], ok, composition, rejected, warnings, missing_scripts, stop_warnings, naive_warnings, prompt_contamination? }`
 * (composition: tasks and families per group × split and per fixture; rejected: the generator's rejects) instead of
 * the lines. With `prompts` (a folder of role templates), the contamination check runs and each finding is a
 * warning on stderr; so is each answer_contains / message_mentions check (`warnings`: a grounded check could judge
 * its claim, see wordCheckWarnings) and each script a task's prompt, memory or reference names that its package.json
 * lacks (`missing_scripts`: `{ task, script, where }`, see missingScripts) and each must-stop task on which no scripted
 * plan strategy stops (`stop_warnings`: `{ task, endings }`, see stopReplayWarnings) and each task with a naive
 * approach the scripted ReAct agent cannot get past (`naive_warnings`: `{ task, ending, detail }`, see
 * naiveReplayWarnings); a warning does not change the exit code.
 */
export async function validateCommand(path: string, options: ValidateOptions = {}): Promise<number> {
  const suite = await loadSuiteOrThrow(path);
  const promptSet = options.prompts === undefined ? undefined : await loadPromptsOrThrow(options.prompts);
  const contamination = promptSet === undefined ? undefined : checkPromptContamination(promptSet, suite.tasks);
  // The replays are served from, and kept in, the code cache; closed again once they are done.
  if (options.codeCache !== false) await openCodeCache(options.codeCacheDir ?? DEFAULT_CODE_CACHE_DIR, await harnessIdentity());
  let tasks: TaskValidation[];
  try {
    tasks = validateTrajectories(suite.tasks);
  } finally {
    closeCodeCache();
  }
  // validate always replays (its lines are the point); what passed run's check is recorded for the next run.
  await rememberPassedTasks(suite.tasks, passedRunCheck(tasks), {
    cacheDir: options.validationCacheDir === undefined ? DEFAULT_VALIDATION_CACHE_DIR : options.validationCacheDir,
  });
  const trajectories = tasks.flatMap((task) => task.trajectories);
  const bad = trajectories.filter((trajectory) => !trajectory.ok);
  const composition = suiteComposition(suite.tasks, suite.groups);
  const warnings = await warnAboutSuite(path, suite, promptSet);
  if (options.json === true) {
    const document = {
      suite: suite.name,
      tasks,
      ok: bad.length === 0,
      composition,
      rejected: suite.rejected,
      warnings: suite.warnings,
      missing_scripts: warnings.scripts,
      stop_warnings: warnings.stops,
      naive_warnings: warnings.naive,
      ...(contamination ? { prompt_contamination: contamination } : {}),
    };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    printTrajectoryLines(tasks, options.wide === true);
    // The summary stays one line: CI logs and docs grep for it.
    process.stdout.write(`\n${validateSummary(trajectories)}\n`);
    process.stdout.write(`\n${compositionLines(composition, suite.rejected).join('\n')}\n`);
  }
  if (bad.length > 0) {
    process.stderr.write(
      `stratbench: ${bad.length} trajectory(ies) do not score as they should (${options.json === true ? 'see "ok": false in the JSON' : 'see FAIL lines'})\n`,
    );
    return 2;
  }
  return 0;
}

/**
 * Writes the suite's warnings to stderr and returns them: substring checks that judge a claim (issue 26 §2), scripts a
 * task names that its repository lacks, must-stop tasks no scripted plan strategy stops on, and naive approaches the
 * scripted ReAct agent cannot get past (issue 27 §4; the last two only with a prompt set).
 */
async function warnAboutSuite(path: string, suite: CommandSuite, promptSet: PromptSet | undefined): Promise<SuiteWarnings> {
  for (const warning of suite.warnings) process.stderr.write(`warning: ${formatSuiteError(warning)}\n`);
  const scripts = missingScripts(suite.tasks);
  for (const missing of scripts)
    process.stderr.write(
      `warning: ${path}: task ${missing.task}: its ${missing.where} names the script ${missing.script}, which its package.json does not define\n`,
    );
  const stops = promptSet === undefined ? [] : await stopReplayWarnings(suite.tasks, promptSet);
  for (const stop of stops)
    process.stderr.write(
      `warning: ${path}: task ${stop.task} must stop, but no scripted plan strategy stops on it (${Object.entries(stop.endings)
        .map(([strategy, status]) => `${strategy} ${status}`)
        .join(', ')}): give its reference a done_when check that fails while the blocker stands\n`,
    );
  const naive = promptSet === undefined ? [] : await naiveReplayWarnings(suite.tasks, promptSet);
  for (const warning of naive)
    process.stderr.write(
      `warning: ${path}: task ${warning.task}: the scripted ReAct agent, trying its naive approach first and then the reference, ends ${warning.ending} (${warning.detail}): the naive approach must fail observably and not open with the reference's first call\n`,
    );
  return { scripts, stops, naive };
}

/**
 * One line per trajectory on stdout. An ok line is cut at 120 columns unless `wide` (its checks' failure texts ran to
 * 1,100 characters); a FAIL line is what the suite's author must read, and stays whole.
 */
function printTrajectoryLines(tasks: readonly TaskValidation[], wide: boolean): void {
  const width = wide ? undefined : DEFAULT_REPORT_WIDTH;
  for (const task of tasks) {
    for (const trajectory of task.trajectories) {
      const line = `${trajectory.ok ? 'ok  ' : 'FAIL'}  ${task.id.padEnd(28)} ${trajectoryLabel(trajectory)} — ${trajectory.detail}`;
      process.stdout.write(`${trajectory.ok ? cutLine(line, width) : line}\n`);
    }
  }
}

/** The ids of the tasks whose reference scores success and whose untouched repository does not: run's check (run-checks.ts). */
function passedRunCheck(tasks: readonly TaskValidation[]): Set<string> {
  const passes = (task: TaskValidation, kind: TrajectoryKind, success: boolean): boolean =>
    task.trajectories.some((trajectory) => trajectory.kind === kind && trajectory.success === success);
  return new Set(tasks.filter((task) => passes(task, 'reference', true) && passes(task, 'untouched', false)).map((task) => task.id));
}

/** A trajectory's label in validate's lines: `reference`, `naive`, `untouched` or `counterexample "name"`. */
const trajectoryLabel = (trajectory: TrajectoryValidation): string =>
  trajectory.kind === 'counterexample' ? `counterexample "${trajectory.name ?? ''}"` : trajectory.kind;

/** validate's closing line: how many trajectories of each kind scored as they should. */
function validateSummary(trajectories: readonly TrajectoryValidation[]): string {
  const count = (kind: TrajectoryKind) => {
    const all = trajectories.filter((t) => t.kind === kind);
    return { all: all.length, ok: all.filter((t) => t.ok).length, failed: all.filter((t) => !t.success).length };
  };
  const [references, counterexamples, untouched, naive] = [count('reference'), count('counterexample'), count('untouched'), count('naive')];
  return (
    `${references.ok}/${references.all} references score success; ` +
    `${counterexamples.ok}/${counterexamples.all} counterexamples are rejected; ` +
    `${untouched.ok}/${untouched.all} untouched repositories (an agent that does nothing) are rejected; ` +
    `${naive.failed}/${naive.all} naive trajectories fail (informational).`
  );
}
