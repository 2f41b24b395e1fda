// `stratbench judge-check`: grades a suite's labelled answers with a judge and prints its agreement and Cohen's κ.
import { loadSuiteFile, formatSuiteError } from '../../suite/load-suite.js';
import { answerSetPathFor, loadAnswerSet, type LabelledItem } from '../../suite/judge-answers.js';
import { formatAgreement, judgeAgreement, type Agreement } from '../../report/judge-agreement.js';
import type { JudgeCalibration } from '../../records/index.js';
import type { JudgeToolCall } from '../../models/types.js';
import { firstOutputLines, type Judge } from '../judge.js';
import { buildJudge, DEFAULT_CALIBRATION_DIR, storeCalibration, type JudgeBackends } from '../judge-setup.js';
import { ollamaRunConfig, type OllamaDependencies } from '../ollama-setup.js';
import { openaiRunConfig, type OpenAIDependencies } from '../openai-setup.js';
import { UsageError } from '../usage-error.js';
import type { BackendOptions } from '../backend-options.js';

/** Per rubric (task × judged check) and overall, as `--json` prints it. */
export interface JudgeCheckReport {
  suite: string;
  judge: string;
  prompt_sha256: string | null;
  answers: string;
  rubrics: Array<{ task: string; check: number; rubric: string } & Agreement>;
  overall: Agreement;
  /** Every answer the judge got wrong: the label, the verdict and its reason. */
  disagreements: Array<{ task: string; check: number; label: 'pass' | 'fail'; verdict: 'pass' | 'fail'; reason: string; why?: string; text: string }>;
  calibration_file: string | null;
}

/** The tool calls of a labelled answer as the judge sees an episode's (firstOutputLines; status from the exit code if not given). */
function toolCallsOf(item: LabelledItem): JudgeToolCall[] {
  return item.ran.map((call) => ({
    tool: call.tool,
    args: call.args,
    status: call.status ?? (call.exit_code === undefined || call.exit_code === 0 ? 'success' : 'failure'),
    ...(call.exit_code === undefined ? {} : { exit_code: call.exit_code }),
    output: firstOutputLines(call.output),
  }));
}

/** Grades every item with `judge`, one at a time, in file order. Throws JudgeFailure when the judge cannot answer. */
export async function gradeAnswerSet(
  items: readonly LabelledItem[],
  judge: Judge,
): Promise<Array<LabelledItem & { verdict: 'pass' | 'fail'; reason: string }>> {
  const graded: Array<LabelledItem & { verdict: 'pass' | 'fail'; reason: string }> = [];
  for (const item of items) {
    const toolCalls = toolCallsOf(item);
    const verdict = await judge.grade({
      role: 'judge',
      task_id: item.task,
      prompt: item.prompt,
      rubric: item.rubric,
      graded: item.graded,
      text: item.text,
      tool_calls: toolCalls,
      tool_calls_omitted: 0,
    });
    graded.push({ ...item, verdict: verdict.verdict, reason: verdict.reason });
  }
  return graded;
}

/** The flags of `stratbench judge-check` (cli.ts), with the backend flags its judge model reads (BackendOptions). */
export interface JudgeCheckOptions extends BackendOptions {
  /** `--suite`: the suite with judged checks (the CLI's default: the package's tasks/core.yaml). */
  suite?: string;
  /** `--judge`: the judge model spec, `scripted`, `ollama:<model>` or `openai:<model>` (required). */
  judge?: string;
  /** `--answers`: the labelled answer set (default: the suite's file name with .judge-answers.yaml, answerSetPathFor). */
  answers?: string;
  /** `--json`: one JSON document instead of lines. */
  json?: boolean;
  /** `--prompts`: the folder holding judge.md (the CLI's default: the shipped prompts/). */
  prompts?: string;
  /** `--calibration-dir`: where the measurement is kept (default DEFAULT_CALIBRATION_DIR, .stratbench-cache/judge-calibration). */
  calibrationDir?: string;
  /** `--no-record` sets it false: do not keep the measurement. */
  record?: boolean;
}

/**
 * `stratbench judge-check --suite PATH --judge MODEL [--answers FILE] [--json]`: loads the suite and its labelled
 * answers (default `<suite>.judge-answers.yaml`), grades each with the judge, prints per rubric and overall n,
 * agreement, Cohen's κ ± SE (95% CI), false passes and fails, and stores the measurement in the calibration folder
 * (`run --judge` records it in run.json). Returns 0. Throws UsageError (exit 2) for a suite or answer set that does not
 * load (errors as file:line:col), an unknown judge; ConfigurationError (exit 2) for a judge server or model that is not
 * there; JudgeFailure when the judge fails mid-way (nothing is stored).
 */
export async function judgeCheckCommand(
  given: JudgeCheckOptions,
  deps: { ollama?: OllamaDependencies; openai?: OpenAIDependencies } = {},
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  const options: Record<string, unknown> = { ...given };
  const suitePath = String(options['suite']);
  if (typeof options['judge'] !== 'string') throw new UsageError('judge-check needs --judge MODEL (scripted, ollama:<model>, openai:<model>)');
  const spec = options['judge'];
  const loaded = await loadSuiteFile(suitePath);
  if (!loaded.ok) throw new UsageError(`${suitePath}: ${loaded.errors.length} error(s)\n${loaded.errors.map(formatSuiteError).join('\n')}`);
  const answersPath = typeof options['answers'] === 'string' ? options['answers'] : answerSetPathFor(suitePath);
  const answers = await loadAnswerSet(answersPath, { name: loaded.suite.name, tasks: loaded.tasks });
  if (!answers.ok) throw new UsageError(`${answersPath}: ${answers.errors.length} error(s)\n${answers.errors.map(formatSuiteError).join('\n')}`);
  if (answers.items.length === 0) throw new UsageError(`${answersPath}: no labelled answer`);
  const ollama = ollamaRunConfig(options);
  const backends: JudgeBackends = {
    ollama,
    openai: openaiRunConfig(options, ollama.options),
    ...(deps.ollama ? { ollamaDeps: deps.ollama } : {}),
    ...(deps.openai ? { openaiDeps: deps.openai } : {}),
  };
  const { judge } = await buildJudge(spec, String(options['prompts']), backends);
  const graded = await gradeAnswerSet(answers.items, judge);
  const groups = new Map<string, typeof graded>();
  for (const item of graded) {
    const key = `${item.task}#${item.checkIndex}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const overall = judgeAgreement(graded);
  const calibration: JudgeCalibration = {
    suite_hash: loaded.hash,
    judge: spec,
    prompt_sha256: judge.promptSha256,
    answers: answersPath,
    answers_sha256: answers.hash,
    measured_at: new Date().toISOString(),
    ...overall,
  };
  const calibrationDir = typeof options['calibrationDir'] === 'string' ? options['calibrationDir'] : DEFAULT_CALIBRATION_DIR;
  const file = options['record'] === false ? null : await storeCalibration(calibrationDir, calibration);
  const report: JudgeCheckReport = {
    suite: loaded.suite.name,
    judge: spec,
    prompt_sha256: judge.promptSha256,
    answers: answersPath,
    rubrics: [...groups.values()].map((items) => ({ task: items[0]!.task, check: items[0]!.checkIndex, rubric: items[0]!.rubric, ...judgeAgreement(items) })),
    overall,
    disagreements: graded
      .filter((item) => item.label !== item.verdict)
      .map((item) => ({
        task: item.task,
        check: item.checkIndex,
        label: item.label,
        verdict: item.verdict,
        reason: item.reason,
        ...(item.why === undefined ? {} : { why: item.why }),
        text: item.text,
      })),
    calibration_file: file,
  };
  if (options['json'] === true) {
    out.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `judge ${spec}${judge.promptSha256 === null ? '' : ` (prompt ${judge.promptSha256.slice(0, 8)})`} on ${answersPath}: ${graded.length} labelled answers`,
    ...report.rubrics.map((rubric) => `  ${`${rubric.task} [check ${rubric.check}]`.padEnd(36)} n ${String(rubric.n).padStart(3)}  ${formatAgreement(rubric)}`),
    `  ${'overall'.padEnd(36)} n ${String(overall.n).padStart(3)}  ${formatAgreement(overall)}`,
    ...(report.disagreements.length > 0 ? ['disagreements:'] : []),
    ...report.disagreements.map(
      (item) => `  ${item.task}: labelled ${item.label}, judged ${item.verdict}${item.why ? ` (${item.why})` : ''}: ${JSON.stringify(item.text.slice(0, 90))}`,
    ),
    file === null ? 'not recorded (--no-record)' : `recorded in ${file} (run --judge ${spec} on this suite records it in run.json)`,
  ];
  out.write(`${lines.join('\n')}\n`);
  return 0;
}
