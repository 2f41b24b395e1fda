// The scripted model served over the Ollama protocol: a fake-server reply handler that reads the view back out of the messages.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScriptedModel, type ScriptedTask } from '../../src/models/scripted.js';
import { runCommand, type RunDependencies } from '../../src/runner/commands/run.js';
import type { EpisodeRecord } from '../../src/records/index.js';
import type { TraceEvent } from '../../src/records/index.js';
import { extractView } from '../../src/strategies/prompts.js';
import { loadSuiteFile } from '../../src/suite/load-suite.js';
import { okReply, startFakeOllama, type FakeChatRequest, type FakeModel, type FakeOllama, type FixtureReply } from './fake-ollama-server.js';

/**
 * Counters of a reply: no tokens (like the in-process scripted model) and no durations, so the backend
 * records the wall-clock time of each exchange as its model time (what bench:ollama reads).
 */
const NO_COST = { total_duration: undefined, load_duration: undefined, prompt_eval_count: 0, eval_count: 0 };

/** `{"action":"tool","tool":…,"args":…}` or `{"tool":…,"args":…}`: a reply that is one tool call. */
function asToolCall(value: unknown): { name: string; arguments: unknown } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.tool !== 'string') return undefined;
  if ('action' in record && record.action !== 'tool') return undefined;
  return { name: record.tool, arguments: record.args ?? {} };
}

/**
 * A reply handler for `startFakeOllama` that answers as `model` would in process: it extracts the view
 * from the request's messages (`extractView`), asks `model.decide(view)` and sends the value as JSON
 * content. When the request offers `tools` and asks for no `format` (native tool calling of an action
 * role), a tool-call value is sent in `message.tool_calls` instead, as a tool-trained model would.
 * A request without messages (a warm-up) gets an empty reply; one without a state block gets HTTP 400.
 */
export function scriptedOllamaReply(model: ScriptedModel): (request: FakeChatRequest) => FixtureReply {
  return (request) => {
    const fields = { ...NO_COST, model: request.model };
    if (!request.messages || request.messages.length === 0) return okReply('', fields);
    const view = extractView(request.messages);
    if (view === undefined) return { status: 400, body: { error: 'no ```json state block in the messages' } };
    const value = model.decide(view);
    const call = Array.isArray(request.tools) && request.format === undefined ? asToolCall(value) : undefined;
    if (call !== undefined) {
      const reply = okReply('', fields) as { status: number; body: { message: Record<string, unknown> } };
      reply.body.message = { role: 'assistant', content: '', tool_calls: [{ function: call }] };
      return reply;
    }
    return okReply(typeof value === 'string' ? value : JSON.stringify(value), fields);
  };
}

/** The trajectories of every task of a suite file, as the scripted model reads them. Throws when the suite does not load. */
export async function scriptedTasksOf(suitePath: string): Promise<ScriptedTask[]> {
  const loaded = await loadSuiteFile(suitePath);
  if (!loaded.ok) throw new Error(`${suitePath} does not load: ${loaded.errors.length} error(s)`);
  return loaded.tasks.map((task) => ({ id: task.id, reference: task.reference, naive: task.naive }));
}

export interface ScriptedOllamaOptions {
  /** Task suite whose trajectories the scripted model plays. */
  suitePath: string;
  /** Delay before each /api/chat reply, ms (default 0). */
  latencyMs?: number;
  /** Models the server lists (default: qwen3:8b). */
  models?: FakeModel[];
  /** Keep each request's body in `calls` (default true; see FakeOllamaOptions.keepBodies). */
  keepBodies?: boolean;
}

/** Starts a fake Ollama server on 127.0.0.1 whose every chat reply comes from the scripted model. */
export async function startScriptedOllama(options: ScriptedOllamaOptions): Promise<FakeOllama> {
  const model = new ScriptedModel(await scriptedTasksOf(options.suitePath));
  return startFakeOllama({
    reply: scriptedOllamaReply(model),
    ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
    ...(options.models ? { models: options.models } : {}),
    ...(options.keepBodies !== undefined ? { keepBodies: options.keepBodies } : {}),
  });
}

/** The `run` options the CLI would pass by default (commander fills these in); tests override what they need. */
export const RUN_DEFAULTS: Record<string, unknown> = {
  suite: fileURLToPath(new URL('../../tasks/core.yaml', import.meta.url)),
  strategies: 'all',
  epochs: 1,
  concurrency: 8,
  seed: 1,
  model: 'scripted',
  prompts: fileURLToPath(new URL('../../prompts', import.meta.url)),
  progress: false,
  format: 'table',
};

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `stratbench run` in this process (`runCommand` with RUN_DEFAULTS and `options`; `explicit` names the
 * options given "on the command line", which `--resume` does not replace), collecting what it
 * writes to stdout and stderr instead of printing it. Rethrows what `runCommand` throws (UsageError,
 * ConfigurationError) after restoring the streams.
 */
export async function runInProcess(
  options: Record<string, unknown>,
  deps: RunDependencies = {},
  explicit: ReadonlySet<string> = new Set(),
): Promise<InProcessRun> {
  const out: string[] = [];
  const err: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const collect = (into: string[]) =>
    ((chunk: string | Uint8Array) => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = collect(out);
  process.stderr.write = collect(err);
  try {
    const code = await runCommand({ ...RUN_DEFAULTS, ...options }, explicit, deps);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
}

/** A fresh temporary folder. */
export const scratch = (): string => mkdtempSync(join(tmpdir(), 'stratbench-ollama-'));

/** task|strategy|epoch of a record (records arrive in completion order). */
export const cellOf = (record: EpisodeRecord): string => `${record.task}|${record.strategy}|${record.epoch}`;

/** `<dir>/episodes.jsonl` parsed, sorted by task|strategy|epoch. */
export function records(dir: string): EpisodeRecord[] {
  return readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EpisodeRecord)
    .sort((a, b) => cellOf(a).localeCompare(cellOf(b)));
}

/** A model call as the strategy saw it (what the model said), without backend, cost, cache and timing fields. */
function comparableEvent(event: TraceEvent): unknown {
  if (event.type !== 'model_call') return event;
  const { id, t_ms, role, schema, attempt, outcome, value, error } = event;
  return { id, t_ms, type: event.type, role, schema, attempt, outcome, value, error };
}

/** Everything an episode did and how it scored, keyed by task|strategy|epoch; model names, model cost and wall time left out. */
export function comparable(list: readonly EpisodeRecord[]): Map<string, unknown> {
  return new Map(
    list.map((record) => [
      cellOf(record),
      {
        seed: record.seed,
        outcome: record.outcome,
        success: record.success,
        checks: record.checks,
        attribution: record.attribution,
        metrics: { ...record.metrics, tokens_in: 0, tokens_out: 0, model_ms: 0, load_ms: 0 },
        trace: record.trace.map(comparableEvent),
      },
    ]),
  );
}

/** The tool calls of an episode in order: [tool, args, status]. */
export const toolCalls = (record: EpisodeRecord): unknown[] =>
  record.trace.flatMap((event) => (event.type === 'tool_call' ? [[event.tool, event.args, event.status]] : []));

/** The model_call events of some episodes. */
export const modelCalls = (list: readonly EpisodeRecord[]): Array<Extract<TraceEvent, { type: 'model_call' }>> =>
  list.flatMap((record) => record.trace.flatMap((event) => (event.type === 'model_call' ? [event] : [])));
