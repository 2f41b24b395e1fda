// §6 the response cache end to end: a re-run costs no model call, epochs stay independent, errors are never cached.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../src/models/scripted.js';
import { startFakeOllama, type FakeOllama } from './support/fake-ollama-server.js';
import { comparable, modelCalls, records, RUN_DEFAULTS, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf } from './support/scripted-over-ollama.js';

const NO_WAIT = { ollama: { clock: { sleep: async () => undefined } } };
const SUBSET = { tasks: 'default-currency,fix-checkout-test,push-read-only-token', strategies: 'all' };

let server: FakeOllama;
let failing = false;
/** The first cached run: its chat calls and its records. */
let first: { calls: number; out: string };
const cacheDir = join(scratch(), 'cache');

beforeAll(async () => {
  const scripted = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite))));
  server = await startFakeOllama({ reply: (body) => (failing ? { status: 503, body: { error: 'server busy' } } : scripted(body)) });
});
afterAll(async () => {
  await server.close();
});

/** Runs SUBSET through the fake server; returns the chat calls it made and its results folder. */
async function cachedRun(options: Record<string, unknown>, exitCode = 0): Promise<{ calls: number; out: string; all: number }> {
  const chatBefore = server.chatCalls().length;
  const allBefore = server.calls.length;
  const out = join(scratch(), 'run');
  const run = await runInProcess({ ...SUBSET, model: 'ollama:qwen3:8b', ollamaHost: server.url, cache: true, cacheDir, out, ...options }, NO_WAIT);
  expect(run.code).toBe(exitCode);
  return { calls: server.chatCalls().length - chatBefore, out, all: server.calls.length - allBefore };
}

describe('§6 --cache', () => {
  it('re-running an unchanged configuration makes zero chat calls and gives the same results', async () => {
    first = await cachedRun({});
    expect(first.calls).toBeGreaterThan(0);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.json'))).toHaveLength(first.calls);
    expect(modelCalls(records(first.out)).some((event) => event.cached)).toBe(false);

    const again = await cachedRun({});
    expect(again.calls).toBe(0);
    // Only the preflight, which learns the digest the cache is keyed by: GET /api/version and GET /api/tags.
    expect(server.calls.slice(-again.all).map((call) => `${call.method} ${call.path}`)).toEqual(['GET /api/version', 'GET /api/tags']);
    expect(comparable(records(again.out))).toEqual(comparable(records(first.out)));
    const events = modelCalls(records(again.out));
    expect(events.every((event) => event.cached === true && event.duration_ms === 0)).toBe(true);
    expect(events).toHaveLength(first.calls);
  });

  it('a different epoch is a different key: epoch 0 comes from the cache, epoch 1 asks the server', async () => {
    const twoEpochs = await cachedRun({ epochs: 2 });
    expect(twoEpochs.calls).toBe(first.calls);
    const list = records(twoEpochs.out);
    expect(modelCalls(list.filter((record) => record.epoch === 0)).every((event) => event.cached === true)).toBe(true);
    expect(modelCalls(list.filter((record) => record.epoch === 1)).some((event) => event.cached)).toBe(false);
  });

  it('different options are different keys (temperature 0.5 misses every entry)', async () => {
    const warmer = await cachedRun({ temperature: 0.5 });
    expect(warmer.calls).toBe(first.calls);
  });

  it('never caches an infrastructure error: after a 503 run, a healthy run asks the server for every reply', async () => {
    const fresh = join(scratch(), 'fresh-cache');
    failing = true;
    try {
      // Every episode errored: the run exits 4 (issue 10 §3).
      const broken = await cachedRun({ cacheDir: fresh }, 4);
      expect(records(broken.out).every((record) => record.outcome.status === 'error')).toBe(true);
    } finally {
      failing = false;
    }
    expect(existsSync(fresh) ? readdirSync(fresh) : []).toEqual([]);
    const healthy = await cachedRun({ cacheDir: fresh });
    expect(healthy.calls).toBe(first.calls);
    expect(comparable(records(healthy.out))).toEqual(comparable(records(first.out)));
  });
});
