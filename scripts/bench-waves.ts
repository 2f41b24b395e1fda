// `npm run bench:waves`: the deploy check's plan (three independent commands) through a fake Ollama server at 50 ms per
// call, a plan wave's executor calls sent together against one at a time; prints the medians and the ratio (issue 14 §3).
import { join } from 'node:path';
import { ScriptedModel } from '../src/models/scripted.js';
import { extractView } from '../src/strategies/prompts.js';
import { startFakeOllama } from '../tests/support/fake-ollama-server.js';
import { comparable, records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf, RUN_DEFAULTS } from '../tests/support/scripted-over-ollama.js';

const LATENCY_MS = 50;
const ROUNDS = 5;
/** The executor calls of the wave must take at least this many times less wall time together than one at a time. */
const MIN_RATIO = 2.5;

const answer = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite))));
let executorMs = 0;
let executorStarted: number | undefined;
let inFlight = 0;
const server = await startFakeOllama({
  latencyMs: LATENCY_MS,
  reply: (request) => {
    // Wall time of the executor phase: from the first executor request to the last executor reply.
    if (request.messages && extractView(request.messages)?.role === 'executor') {
      executorStarted ??= performance.now();
      inFlight += 1;
      setTimeout(() => {
        inFlight -= 1;
        if (inFlight === 0 && executorStarted !== undefined) {
          executorMs += performance.now() - executorStarted;
          executorStarted = undefined;
        }
      }, LATENCY_MS);
    }
    return answer(request);
  },
});

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function once(sequentialWaves: boolean): Promise<{ wallMs: number; executorMs: number; episodes: unknown }> {
  executorMs = 0;
  const out = join(scratch(), `waves-${sequentialWaves ? 'sequential' : 'parallel'}`);
  const started = performance.now();
  const run = await runInProcess(
    { out, model: 'ollama:qwen3:8b', ollamaHost: server.url, tasks: 'pre-deploy-check', strategies: 'plan-up-front', concurrency: 4 },
    { sequentialWaves },
  );
  if (run.code !== 0) throw new Error(`run exited ${run.code}: ${run.stderr}`);
  return { wallMs: performance.now() - started, executorMs, episodes: comparable(records(out)) };
}

const sequential: number[] = [];
const parallel: number[] = [];
const sequentialWall: number[] = [];
const parallelWall: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const a = await once(true);
  const b = await once(false);
  if (JSON.stringify([...(a.episodes as Map<string, unknown>)]) !== JSON.stringify([...(b.episodes as Map<string, unknown>)]))
    throw new Error('the parallel run traced different episodes');
  sequential.push(a.executorMs);
  parallel.push(b.executorMs);
  sequentialWall.push(a.wallMs);
  parallelWall.push(b.wallMs);
}
await server.close();
const ratio = median(sequential) / median(parallel);
console.log(
  `deploy check, plan-up-front, ${LATENCY_MS} ms per call, ${ROUNDS} rounds (medians):\n` +
    `  executor wave: one at a time ${median(sequential).toFixed(0)} ms, together ${median(parallel).toFixed(0)} ms → ${ratio.toFixed(2)}× less wall time (target ≥ ${MIN_RATIO}×)\n` +
    `  whole episode (planner, wave, reporter; run start-up included): ${median(sequentialWall).toFixed(0)} ms vs ${median(parallelWall).toFixed(0)} ms\n` +
    '  episodes traced identically both ways: yes',
);
process.exitCode = ratio >= MIN_RATIO ? 0 : 1;
