// Parallel plan waves (issue 14 §3): a wave's executor calls reach the server together, and the episodes are the ones
// a sequential run gives.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodesInFlight } from '../src/runner/run-models.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { extractView } from '../src/strategies/prompts.js';
import { startFakeOllama, type FakeChatRequest, type FakeOllama } from './support/fake-ollama-server.js';
import { comparable, records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf, RUN_DEFAULTS } from './support/scripted-over-ollama.js';

let server: FakeOllama;
let inFlight = 0;
let maxInFlight = 0;
/** The task of each request, in the order the server got them. */
let taskOrder: string[] = [];

beforeAll(async () => {
  const answer = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite))));
  server = await startFakeOllama({
    reply: async (request: FakeChatRequest) => {
      inFlight += 1;
      taskOrder.push(extractView(request.messages ?? [])?.task_id ?? '?');
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 40));
      inFlight -= 1;
      return answer(request);
    },
  });
});

afterAll(async () => {
  await server.close();
});

describe('parallel plan waves', () => {
  const run = async (sequentialWaves: boolean, concurrency = 4) => {
    inFlight = 0;
    maxInFlight = 0;
    const out = join(scratch(), `${sequentialWaves ? 'sequential' : 'parallel'}-${concurrency}`);
    const result = await runInProcess(
      {
        out,
        model: 'ollama:qwen3:8b',
        ollamaHost: server.url,
        tasks: 'pre-deploy-check',
        strategies: 'plan-up-front',
        concurrency,
      },
      { sequentialWaves },
    );
    expect(result.code).toBe(0);
    return { records: records(out), maxInFlight };
  };

  it("sends the deploy check's three independent steps to the executor at once, and traces the same episodes as one-at-a-time calls", async () => {
    // One episode, --concurrency 4: only the wave can put more than one call in flight.
    const sequential = await run(true);
    expect(sequential.maxInFlight).toBe(1);
    const parallel = await run(false);
    // The deploy check's plan runs the tests, the linter and the migration status together: three calls in flight.
    expect(parallel.maxInFlight).toBe(3);
    expect(comparable(parallel.records)).toEqual(comparable(sequential.records));
    // --concurrency bounds the calls in flight, the wave's included.
    const bounded = await run(false, 2);
    expect(bounded.maxInFlight).toBe(2);
    expect(comparable(bounded.records)).toEqual(comparable(sequential.records));
    expect(parallel.records.map((record) => [record.task, record.strategy, record.success])).toEqual(
      sequential.records.map((record) => [record.task, record.strategy, record.success]),
    );
  });

  it("keeps more episodes in flight than model calls, so one episode's tools run while another's call waits at the server", async () => {
    expect([1, 2, 8, 16, 64].map(episodesInFlight)).toEqual([2, 3, 10, 20, 80]);
    const tasks = ['checkout-test-script', 'rename-tax-rate'];
    const runOnce = async (name: string) => {
      inFlight = 0;
      maxInFlight = 0;
      taskOrder = [];
      const out = join(scratch(), name);
      const result = await runInProcess({ out, model: 'ollama:qwen3:8b', ollamaHost: server.url, tasks: tasks.join(','), strategies: 'react', concurrency: 1 });
      expect(result.code).toBe(0);
      return { records: records(out), maxInFlight, taskOrder: [...taskOrder] };
    };
    const run = await runOnce('in-flight-1');
    // --concurrency 1: one call at the server at a time ...
    expect(run.maxInFlight).toBe(1);
    // ... but two episodes under way: the second task's first call comes before the first task's last one.
    const first = run.taskOrder[0]!;
    const other = tasks.find((task) => task !== first)!;
    expect(run.taskOrder.indexOf(other)).toBeLessThan(run.taskOrder.lastIndexOf(first));
    expect(new Set(run.taskOrder)).toEqual(new Set(tasks));
    // The episodes are those of an in-process scripted run of the same tasks, whatever the interleaving.
    expect(run.records.map((record) => [record.task, record.success]).sort()).toEqual([
      ['checkout-test-script', true],
      ['rename-tax-rate', true],
    ]);
  });
});
