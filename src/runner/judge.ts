// The judge role: grades a `judged` check's text against its rubric, with a model (one repair attempt) or the scripted rule.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseReply } from '../models/parse-reply.js';
import { InfrastructureError, type ChatModel, type ChatOptions, type JudgeToolCall, type JudgeView } from '../models/types.js';
import { scriptedVerdict, type Verdict } from '../scoring/judge/scripted-judge.js';
import { renderMessages, type PromptTemplate } from '../strategies/prompts.js';
import type { TraceEvent } from '../records/index.js';

/** The judge's reply schema: `{ verdict: "pass" | "fail", reason }` (structured output, like every role's reply). */
export const JudgeVerdict = z.strictObject({
  verdict: z.enum(['pass', 'fail']).describe('pass: the text meets the rubric; fail: it does not'),
  reason: z.string().min(1).describe('One or two sentences: what in the text (and in the tool calls) decided it'),
});

/** Tool calls the judge is shown (the first ones; the rest are counted in `tool_calls_omitted`). */
export const JUDGE_MAX_TOOL_CALLS = 24;
/** Lines of a tool call's output the judge is shown, and a cap on their characters. */
export const JUDGE_OUTPUT_LINES = 8;
export const JUDGE_OUTPUT_CHARS = 800;

/** The first JUDGE_OUTPUT_LINES non-blank lines of an output, at most JUDGE_OUTPUT_CHARS characters (cut with "…"). */
export function firstOutputLines(output: string): string {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const shown = lines.slice(0, JUDGE_OUTPUT_LINES).join('\n');
  const cut = shown.length > JUDGE_OUTPUT_CHARS ? `${shown.slice(0, JUDGE_OUTPUT_CHARS)}…` : shown;
  return lines.length > JUDGE_OUTPUT_LINES ? `${cut}\n… ${lines.length - JUDGE_OUTPUT_LINES} more line(s)` : cut;
}

/** The agent's tool calls of a trace as the judge sees them: tool, args, status, exit code, first lines of output. */
export function judgeToolCalls(events: readonly TraceEvent[]): { tool_calls: JudgeToolCall[]; tool_calls_omitted: number } {
  const calls = events.flatMap((event) =>
    event.type === 'tool_call'
      ? [
          {
            tool: event.tool,
            args: event.args,
            status: event.status,
            ...(event.exit_code === undefined ? {} : { exit_code: event.exit_code }),
            output: firstOutputLines(event.output),
          },
        ]
      : [],
  );
  return { tool_calls: calls.slice(0, JUDGE_MAX_TOOL_CALLS), tool_calls_omitted: Math.max(0, calls.length - JUDGE_MAX_TOOL_CALLS) };
}

/** Why a judge could not give a verdict: always infrastructure, never the agent's failure. */
export class JudgeFailure extends InfrastructureError {
  constructor(
    message: string,
    /** `invalid_reply`: the reply failed the verdict schema after the repair attempt; else the backend's kind. */
    readonly judgeKind: InfrastructureError['kind'] | 'invalid_reply',
    options?: { cause?: unknown },
  ) {
    super(message, judgeKind === 'invalid_reply' ? 'other' : judgeKind, options);
  }
}

/** A judge: its model spec and name, its prompt's sha256 (null for the scripted judge, which has no prompt), and `grade`. */
export interface Judge {
  spec: string;
  name: string;
  promptSha256: string | null;
  /** True for the scripted judge: its verdicts are the in-code ones scoring already made (no call). */
  scripted: boolean;
  /** Throws JudgeFailure (infrastructure) or CallInterrupted (the run was interrupted); never for a `fail` verdict. */
  grade(view: JudgeView, options?: { epoch?: number; seed?: number }): Promise<Verdict>;
}

/** The scripted judge (`--judge scripted`): scriptedVerdict, no model, no prompt. */
export function scriptedJudge(): Judge {
  return { spec: 'scripted', name: 'scripted', promptSha256: null, scripted: true, grade: async (view) => scriptedVerdict(view.rubric, view.text) };
}

/**
 * A judge backed by `model` (Ollama or OpenAI-compatible) with prompt `template` (`{{schema}}` filled in; the view is
 * the user message as for every role). A reply that fails JudgeVerdict gets one repair attempt carrying the error; a
 * second failure throws JudgeFailure `invalid_reply`. A backend's InfrastructureError (unreachable, 5xx, timeout, …)
 * is rethrown as JudgeFailure naming the judge; CallInterrupted passes through.
 */
export function modelJudge(spec: string, model: ChatModel, template: PromptTemplate, chatOptions: ChatOptions): Judge {
  return {
    spec,
    name: model.name,
    promptSha256: template.sha256,
    scripted: false,
    grade: async (view, options = {}) => {
      let repair: { text: string; error: string } | undefined;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const currentRepair = repair;
        let text: string;
        let doneReason: string | undefined;
        try {
          const response = await model.chat({
            role: 'judge',
            schemaName: 'verdict',
            schema: JudgeVerdict,
            view,
            messages: () => renderMessages(template, view, JudgeVerdict, '', currentRepair),
            options: { ...chatOptions, ...(options.seed === undefined ? {} : { seed: options.seed }) },
            epoch: options.epoch ?? 1,
            ...(currentRepair ? { repair: currentRepair } : {}),
          });
          text = response.text;
          doneReason = response.done_reason;
        } catch (error) {
          if (error instanceof InfrastructureError) {
            throw new JudgeFailure(`judge ${spec}: ${error.message}`, error.kind, { cause: error });
          }
          throw error;
        }
        const parsed = parseReply(text, JudgeVerdict, doneReason);
        if (parsed.ok) return parsed.value;
        const problem = `${parsed.failure}: ${parsed.error}`;
        if (attempt === 2)
          throw new JudgeFailure(`judge ${spec}: its reply still failed the verdict schema after a repair attempt (${problem})`, 'invalid_reply');
        repair = { text, error: problem };
      }
      throw new Error('unreachable');
    },
  };
}

/** The judge prompt shipped with stratbench (prompts/judge.md), read when `--prompts DIR` has no judge.md. */
export const JUDGE_PROMPT_FILE = 'judge.md';

/**
 * The judge's prompt template: `<promptsDir>/judge.md`, else `<defaultDir>/judge.md` (a prompts folder written before
 * the judge existed has none), with its sha256 (recorded in run.json and the calibration record, as every role's).
 * Throws Error naming the file when neither can be read.
 */
export async function loadJudgePrompt(promptsDir: string, defaultDir: string): Promise<PromptTemplate & { path: string }> {
  for (const dir of promptsDir === defaultDir ? [defaultDir] : [promptsDir, defaultDir]) {
    const path = join(dir, JUDGE_PROMPT_FILE);
    const template = await readFile(path, 'utf8').catch(() => undefined);
    if (template !== undefined) return { template, sha256: createHash('sha256').update(template).digest('hex'), path };
  }
  throw new Error(`cannot read the judge prompt ${join(promptsDir, JUDGE_PROMPT_FILE)} (nor ${join(defaultDir, JUDGE_PROMPT_FILE)})`);
}
