// The labelled answer set a suite ships for `stratbench judge-check` (<suite>.judge-answers.yaml): schema and loader.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import type { Check } from './schema.js';
import { schemaIssueErrors, notAMappingError } from './schema-issues.js';
import { sortSuiteErrors, type SuiteError } from './suite-error.js';
import { errorAt, yamlSyntaxErrors, type YamlSource } from './yaml-source.js';

/** One tool call of an answer's context: what the judge is shown as the agent's tool calls. */
const RanCall = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  exit_code: z.number().int().optional().describe('The exit code (run); absent for tools that have none'),
  status: z.string().optional().describe('The tool status (default: success for exit 0 or no exit code, failure otherwise)'),
  output: z.string().default('').describe('What the call printed (its first lines are shown)'),
});

const LabelledAnswer = z.strictObject({
  label: z.enum(['pass', 'fail']).describe('The truth, by hand: does the text meet the rubric, given what the agent ran?'),
  text: z.string().describe('The final answer or stop message, as an agent wrote it'),
  why: z.string().optional().describe('What is wrong with a failing answer (echo, hedge, invented result, …)'),
  check: z.number().int().nonnegative().optional().describe("Index in the task's checks of the judged check this answer is for (default: its only one)"),
  ran: z.array(RanCall).optional().describe("The agent's tool calls for this answer (default: the task's `ran`)"),
});

/** A `<suite>.judge-answers.yaml` file (the README's "Model judge (optional)" section shows one). */
export const JudgeAnswerSet = z.strictObject({
  version: z.literal(1).default(1),
  suite: z.string().min(1).describe("The suite's `name`"),
  tasks: z.record(
    z.string(),
    z.strictObject({
      ran: z.array(RanCall).default([]).describe("What the agent's tool calls printed, shared by the task's answers"),
      answers: z.array(LabelledAnswer).min(1),
    }),
  ),
});
export type JudgeAnswerSet = z.infer<typeof JudgeAnswerSet>;
export type RanCall = z.infer<typeof RanCall>;

/** One labelled answer resolved against its suite: the task, the judged check (its index and rubric), the context. */
export interface LabelledItem {
  task: string;
  prompt: string;
  checkIndex: number;
  rubric: string;
  graded: 'answer' | 'message';
  label: 'pass' | 'fail';
  text: string;
  why?: string;
  ran: RanCall[];
}

export type AnswerSetResult = { ok: true; items: LabelledItem[]; hash: string } | { ok: false; errors: SuiteError[] };

/** `tasks/core.yaml` → `tasks/core.judge-answers.yaml`: where a suite's labelled answers live by default. */
export function answerSetPathFor(suitePath: string): string {
  return suitePath.replace(/\.(ya?ml|json)$/i, '') + '.judge-answers.yaml';
}

/**
 * Parses and validates an answer set against the suite's tasks: YAML syntax, the schema, `suite` naming the suite,
 * every task id in the suite with a judged check, `check` naming one of them (required when the task has several).
 * Every error is `file:line:col  path  message` as the suite loader's. Never throws on bad input.
 */
export function parseAnswerSet(
  text: string,
  file: string,
  suite: { name: string; tasks: ReadonlyArray<{ id: string; prompt: string; expect: 'finish' | 'stop'; checks: readonly Check[] }> },
): AnswerSetResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const source: YamlSource = { file, text, doc, lineCounter };
  if (doc.errors.length > 0) return { ok: false, errors: sortSuiteErrors(yamlSyntaxErrors(source)) };
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, errors: [notAMappingError(source, data)] };
  const parsed = JudgeAnswerSet.safeParse(data);
  if (!parsed.success) return { ok: false, errors: sortSuiteErrors(schemaIssueErrors(source, parsed.error.issues, data)) };
  const errors: SuiteError[] = [];
  if (parsed.data.suite !== suite.name) errors.push(errorAt(source, ['suite'], `answers for suite "${parsed.data.suite}", but the suite is "${suite.name}"`));
  const items: LabelledItem[] = [];
  for (const [taskId, entry] of Object.entries(parsed.data.tasks)) {
    const task = suite.tasks.find((candidate) => candidate.id === taskId);
    const judged = task?.checks.flatMap((check, index) => (check.check === 'judged' ? [index] : [])) ?? [];
    if (task === undefined || judged.length === 0) {
      const why = task === undefined ? 'is not a task of the suite' : 'has no judged check';
      errors.push(errorAt(source, ['tasks', taskId], `task "${taskId}" ${why}`));
      continue;
    }
    entry.answers.forEach((answer, index) => {
      const checkIndex = answer.check ?? (judged.length === 1 ? judged[0] : undefined);
      const check = checkIndex === undefined ? undefined : task.checks[checkIndex];
      if (check === undefined || check.check !== 'judged') {
        const message =
          answer.check === undefined
            ? `task "${taskId}" has ${judged.length} judged checks (checks ${judged.join(', ')}): name one with \`check\``
            : `check ${answer.check} of task "${taskId}" is not a judged check; its judged checks are ${judged.join(', ')}`;
        errors.push(errorAt(source, ['tasks', taskId, 'answers', index, ...(answer.check === undefined ? [] : ['check'])], message));
        return;
      }
      items.push({
        task: taskId,
        prompt: task.prompt,
        checkIndex: checkIndex!,
        rubric: check.rubric,
        graded: check.on ?? (task.expect === 'finish' ? 'answer' : 'message'),
        label: answer.label,
        text: answer.text,
        ...(answer.why === undefined ? {} : { why: answer.why }),
        ran: answer.ran ?? entry.ran,
      });
    });
  }
  if (errors.length > 0) return { ok: false, errors: sortSuiteErrors(errors) };
  return { ok: true, items, hash: createHash('sha256').update(text, 'utf8').digest('hex') };
}

/** Reads and parses an answer set (see parseAnswerSet); an unreadable file is one error naming it and the OS reason. */
export async function loadAnswerSet(file: string, suite: Parameters<typeof parseAnswerSet>[2]): Promise<AnswerSetResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, errors: [{ file, line: 1, col: 1, path: '(file)', message: `cannot read answer set ${file}: ${(error as Error).message}` }] };
  }
  return parseAnswerSet(text, file, suite);
}
