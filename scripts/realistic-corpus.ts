// Runs the realistic reply corpus (tests/fixtures/realistic-corpus.ts) through a fake Ollama server and the real `run` command path.
import { startFakeOllama, okReply, type FakeChatRequest, type FixtureReply } from '../tests/support/fake-ollama-server.js';
import { records, runInProcess, scratch } from '../tests/support/scripted-over-ollama.js';
import { REALISTIC_CORPUS, type CorpusEpisode } from '../tests/fixtures/realistic-corpus.js';
import { extractView } from '../src/strategies/prompts.js';
import type { EpisodeRecord } from '../src/records/index.js';
import type { Trial } from './attribution-trial.js';
import { replayCounterfactuals } from '../src/runner/counterfactual-replay.js';
import type { EpisodeCounterfactual } from '../src/records/index.js';
import { loadSuiteFile } from '../src/suite/load-suite.js';
import { loadPromptSet } from '../src/runner/prompt-files.js';
import { toolDescriptionsForPrompt } from '../src/tools/index.js';
import { ROLES, type ChatModel, type Role } from '../src/models/types.js';
import { RUN_DEFAULTS } from '../tests/support/scripted-over-ollama.js';

/** One corpus episode as it ran: the record and the trial attribution is scored on (`truth.event` from the expected role call). */
export interface CorpusRun {
  episode: CorpusEpisode;
  record: EpisodeRecord | undefined;
  trial: Trial;
  /** Why the episode could not be measured (no record, succeeded, the expected call never happened); absent when measured. */
  problem?: string;
  /** The counterfactual replay of a failed episode. */
  counterfactual?: EpisodeCounterfactual;
}

/**
 * The environment a counterfactual replay of a corpus runs in: the shipped prompts, and for every role a model that
 * refuses to be called (a replay answers from the trace and the oracle; a model call would be a harness bug).
 */
export async function replayEnvironment(configHash: string) {
  const unused: ChatModel = { name: 'unused', deterministic: true, chat: () => Promise.reject(new Error('a counterfactual replay called a model')) };
  return {
    models: Object.fromEntries(ROLES.map((role) => [role, unused])) as Record<Role, ChatModel>,
    prompts: await loadPromptSet(String(RUN_DEFAULTS['prompts'])),
    toolDescriptions: toolDescriptionsForPrompt(),
    chatOptions: () => ({ temperature: 0 }),
    options: { lookupMissAsResult: false },
    configHash,
  };
}

/**
 * Adds the counterfactual replay to every failed run: each role the episode used swapped for the reference oracle,
 * the others replayed from the recorded trace (no model is called). Throws when the core suite does not load.
 */
export async function addCounterfactuals(runs: CorpusRun[]): Promise<void> {
  const loaded = await loadSuiteFile(String(RUN_DEFAULTS['suite']));
  if (!loaded.ok) throw new Error('the core suite does not load');
  const env = await replayEnvironment('realistic-corpus');
  for (const run of runs) {
    const task = loaded.tasks.find((t) => t.id === run.episode.task);
    if (!run.record || !run.trial.failed || !task) continue;
    const options = { lookupMissAsResult: run.episode.strategy === 'plan-replan-lookup' };
    run.counterfactual = await replayCounterfactuals(run.record, task, { ...env, options });
  }
}

const DEFAULT_REPORT = { answer: 'Here is what the run did: the steps above ran; see their results.' };

/** The reply of `episode` to one request: the role's next reply (the last repeats), or the defaults for executor and reporter. */
export function replier(episode: Pick<CorpusEpisode, 'id' | 'replies'>): (request: FakeChatRequest) => FixtureReply {
  const counts = new Map<string, number>();
  return (request) => {
    if (!request.messages || request.messages.length === 0) return okReply('');
    const view = extractView(request.messages) as { role: string; step?: { tool: string; args: Record<string, unknown> | null } } | undefined;
    if (view === undefined) return { status: 400, body: { error: 'no state block' } };
    const n = counts.get(view.role) ?? 0;
    counts.set(view.role, n + 1);
    const list = episode.replies[view.role as keyof CorpusEpisode['replies']];
    let value: unknown;
    if (list && list.length > 0) value = list[Math.min(n, list.length - 1)];
    else if (view.role === 'executor' && view.step) value = { tool: view.step.tool, args: view.step.args ?? {} };
    else if (view.role === 'reporter') value = DEFAULT_REPORT;
    else return { status: 500, body: { error: `corpus episode ${episode.id} has no reply for ${view.role}` } };
    return okReply(typeof value === 'string' ? value : JSON.stringify(value), { model: request.model });
  };
}

/** The n-th (0-based) model call of a role in a trace. */
export const nthCall = (record: EpisodeRecord, role: string, n: number): number | undefined =>
  record.trace.filter((e) => e.type === 'model_call' && e.role === role)[n]?.id;

/**
 * Runs every corpus episode (or those named) as `stratbench run --model ollama:qwen3:8b --tasks T --strategies S`
 * against a fake server on 127.0.0.1 that answers from the episode's replies. Throws if the server cannot start.
 */
/**
 * One corpus episode through `stratbench run` in process, every role served by the fake Ollama at `serverUrl` (which
 * replays the episode's replies): its exit code, results folder and stderr. `suite`: the suite file (default: the core suite).
 */
export async function runServed(
  serverUrl: string,
  episode: { strategy: string; task: string },
  suite?: string,
): Promise<{ code: number; out: string; stderr: string }> {
  const out = `${scratch()}/run`;
  const result = await runInProcess({
    ...(suite === undefined ? {} : { suite }),
    out,
    model: 'ollama:qwen3:8b',
    ollamaHost: serverUrl,
    strategies: episode.strategy,
    tasks: episode.task,
    concurrency: 1,
    progress: false,
  });
  return { code: result.code, out, stderr: result.stderr };
}

export async function runRealisticCorpus(ids?: readonly string[]): Promise<CorpusRun[]> {
  let current: ((request: FakeChatRequest) => FixtureReply) | undefined;
  const server = await startFakeOllama({ reply: (request) => (current ? current(request) : okReply('')) });
  const runs: CorpusRun[] = [];
  try {
    for (const episode of REALISTIC_CORPUS.filter((e) => !ids || ids.includes(e.id))) {
      current = replier(episode);
      const { code, out, stderr } = await runServed(server.url, episode);
      const record = code === 0 ? records(out)[0] : undefined;
      const event = record ? nthCall(record, episode.expected.first.role, episode.expected.first.call) : undefined;
      const failed = record !== undefined && !record.success && record.outcome.status !== 'error';
      const problem =
        record === undefined
          ? `the run exited ${code}: ${stderr.trim().split('\n').slice(-1)[0] ?? ''}`
          : record.outcome.status === 'error'
            ? `error: ${record.outcome.message ?? record.outcome.reason}`
            : !failed
              ? 'the episode succeeded'
              : event === undefined
                ? `no model call ${episode.expected.first.role}#${episode.expected.first.call} in the trace`
                : undefined;
      runs.push({
        episode,
        record,
        trial: {
          key: episode.id,
          fault: episode.source,
          task: episode.task,
          strategy: episode.strategy,
          struck: event !== undefined,
          failed,
          truth: { component: episode.expected.component, mode: episode.expected.mode, event: event ?? -1 },
          attribution: record?.attribution ?? null,
        },
        ...(problem ? { problem } : {}),
      });
    }
  } finally {
    await server.close();
  }
  return runs;
}
