// Several hosts for one model, end to end over loopback fake servers (Ollama and OpenAI-compatible): failover, comeback, preflight, all down.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../src/models/scripted.js';
import type { EpisodeRecord, HostStats } from '../src/records/index.js';
import { CLI, ROOT } from './support/cli.js';
import { scriptedOpenAIReply, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai-server.js';
import { startFakeOllama, type FakeOllama } from './support/fake-ollama-server.js';
import { comparable, modelCalls, records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf, RUN_DEFAULTS } from './support/scripted-over-ollama.js';

/** Short backoff so a down host is probed again within the run; a small budget so "all down" ends quickly. */
const RETRY = { baseMs: 20, maxMs: 40, totalMs: 5_000 };
const EPISODES = 14 * 5;

let servers: Array<FakeOllama | FakeOpenAI> = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

let scripted: ScriptedModel;
const baseline = new Map<string, Map<string, unknown>>();
beforeAll(async () => {
  scripted = new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite)));
});

/** A scripted fake Ollama server that closes itself (every connection, in-flight calls too) at chat call `killAt`. */
async function ollamaHost(options: { killAt?: number; digest?: string } = {}): Promise<FakeOllama> {
  const reply = scriptedOllamaReply(scripted);
  const holder: { server?: FakeOllama } = {};
  const server = await startFakeOllama({
    latencyMs: 5,
    ...(options.digest ? { models: [{ name: 'qwen3:8b', digest: options.digest }] } : {}),
    reply: (request, { index }) => {
      if (index === options.killAt) {
        void holder.server?.close();
        return { hang: true };
      }
      return reply(request);
    },
  });
  holder.server = server;
  servers.push(server);
  return server;
}

async function openaiHost(options: { killAt?: number; roots?: Record<string, string> } = {}): Promise<FakeOpenAI> {
  const reply = scriptedOpenAIReply(scripted);
  const holder: { server?: FakeOpenAI } = {};
  const server = await startFakeOpenAI({
    latencyMs: 5,
    ...(options.roots ? { roots: options.roots } : {}),
    reply: (request, { index }) => {
      if (index === options.killAt) {
        void holder.server?.close();
        return { hang: true };
      }
      return reply(request);
    },
  });
  holder.server = server;
  servers.push(server);
  return server;
}

const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { model_hosts?: Record<string, HostStats[]>; status: string };

/** Every episode exactly once, none errored, and the same as the single-host run of the protocol. */
function expectSameAsOneHost(list: EpisodeRecord[], protocol: string): void {
  const keys = list.map((record) => record.key);
  expect(new Set(keys).size).toBe(EPISODES);
  expect(keys).toHaveLength(EPISODES);
  expect(list.filter((record) => record.outcome.status === 'error')).toEqual([]);
  expect(comparable(list)).toEqual(baseline.get(protocol));
}

/** The single-host run of a protocol (computed once per protocol). */
async function oneHostRun(protocol: 'ollama' | 'openai'): Promise<void> {
  if (baseline.has(protocol)) return;
  const out = join(scratch(), `one-${protocol}`);
  const options =
    protocol === 'ollama'
      ? { model: 'ollama:qwen3:8b', ollamaHost: (await ollamaHost()).url }
      : { model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: (await openaiHost()).url };
  const run = await runInProcess({ out, concurrency: 4, ...options });
  expect(run.code).toBe(0);
  // One host: no pool, run.json as before.
  expect(runJson(out).model_hosts).toBeUndefined();
  baseline.set(protocol, comparable(records(out)));
}

/** `stratbench <args>` from the built CLI, without blocking this process's event loop (the fake servers live here). */
function cli(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status) => resolve({ status, stderr }));
  });
}

describe('several Ollama hosts', () => {
  it('a host killed mid-run: its in-flight calls complete on the other, every episode once, results as with one host, per-host figures in run.json', async () => {
    await oneHostRun('ollama');
    const [a, b] = [await ollamaHost(), await ollamaHost({ killAt: 20 })];
    const out = join(scratch(), 'killed');
    const run = await runInProcess({ out, model: 'ollama:qwen3:8b', ollamaHost: `${a.url},${b.url}`, concurrency: 4 }, { ollama: { retry: RETRY } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`host down: ${b.url}`);
    const list = records(out);
    expectSameAsOneHost(list, 'ollama');
    const [statsA, statsB] = runJson(out).model_hosts?.['ollama:qwen3:8b'] ?? [];
    expect(statsA).toMatchObject({ url: a.url, failures: 0, marked_down: 0 });
    expect(statsB).toMatchObject({ url: b.url, marked_down: 1 });
    // The killed call and those in flight with it failed on b and were answered by a.
    expect(statsB!.failures).toBeGreaterThanOrEqual(1);
    expect(statsB!.calls).toBeGreaterThan(0);
    expect(statsB!.calls).toBeLessThanOrEqual(20);
    expect(statsA!.calls + statsB!.calls).toBe(modelCalls(list).length);
    expect(statsA!.mean_latency_ms).toBeGreaterThan(0);
    expect(statsA!.median_latency_ms).toBeGreaterThan(0);
    expect(a.chatCalls().length).toBe(statsA!.calls);
  });

  it('a host that comes back is probed after its backoff and used again', async () => {
    await oneHostRun('ollama');
    const a = await ollamaHost();
    // b resets every connection from its 9th chat call on (in-flight calls too), for 100 ms; then it answers again.
    let downSince: number | undefined;
    const reply = scriptedOllamaReply(scripted);
    const b = await startFakeOllama({
      latencyMs: 5,
      available: () => downSince === undefined || performance.now() - downSince > 100,
      reply: (request, { index }) => {
        if (index === 8) {
          downSince = performance.now();
          return { destroy: true };
        }
        return reply(request);
      },
    });
    servers.push(b);
    const out = join(scratch(), 'back');
    const run = await runInProcess({ out, model: 'ollama:qwen3:8b', ollamaHost: `${a.url},${b.url}`, concurrency: 4 }, { ollama: { retry: RETRY } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`host down: ${b.url}`);
    expect(run.stderr).toContain(`host up: ${b.url} (answered the probe)`);
    expectSameAsOneHost(records(out), 'ollama');
    const statsB = runJson(out).model_hosts?.['ollama:qwen3:8b']?.[1];
    expect(statsB).toMatchObject({ url: b.url, marked_down: 1 });
    // Answered before it went down (8) and after it came back.
    expect(statsB!.calls).toBeGreaterThan(8);
    // Probes while it was down were refused; the one after 100 ms answered.
    expect(b.calls.filter((call) => call.path === '/api/version').length).toBeGreaterThanOrEqual(2);
  });

  it('a host serving another digest of the model is refused before any episode: exit 2 naming the host', async () => {
    const a = await ollamaHost();
    const b = await ollamaHost({ digest: `sha256:${'9'.repeat(64)}` });
    const out = join(scratch(), 'digest');
    const run = await cli(['run', '--model', 'ollama:qwen3:8b', '--ollama-host', `${a.url},${b.url}`, '--out', out, '--no-progress']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `stratbench: Ollama at ${b.url} serves "qwen3:8b" with digest sha256:${'9'.repeat(64)}, but ${a.url} serves digest sha256:${'8'.repeat(64)}`,
    );
    expect(b.chatCalls()).toEqual([]);
  });

  it('an unreachable host at start is refused: exit 2 naming it', async () => {
    const a = await ollamaHost();
    const dead = await ollamaHost();
    await dead.close();
    const run = await cli(['run', '--model', 'ollama:qwen3:8b', '--ollama-host', `${a.url},${dead.url}`, '--out', join(scratch(), 'dead'), '--no-progress']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`stratbench: cannot reach Ollama at ${dead.url}`);
  });

  it('every host down: the remaining episodes end as infrastructure errors (not failures), and run --resume completes them', async () => {
    await oneHostRun('ollama');
    const [a, b] = [await ollamaHost({ killAt: 10 }), await ollamaHost({ killAt: 10 })];
    const out = join(scratch(), 'all-down');
    const run = await runInProcess(
      { out, model: 'ollama:qwen3:8b', ollamaHost: `${a.url},${b.url}`, concurrency: 4, maxErrorRate: 1 },
      { ollama: { retry: { baseMs: 200, maxMs: 400, totalMs: 100 } } },
    );
    expect(run.code).toBe(0);
    const first = records(out);
    const errored = first.filter((record) => record.outcome.status === 'error');
    expect(errored.length).toBeGreaterThan(EPISODES / 2);
    expect(errored.every((record) => record.outcome.reason.startsWith('infrastructure:') && record.attribution === null && record.checks.length === 0)).toBe(
      true,
    );
    expect(errored[0]!.outcome.message).toContain('every host of ollama:qwen3:8b is down');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      errors: unknown[];
      strategies: Array<{ episodes: number; scored: number; errors: number }>;
    };
    expect(summary.errors).toHaveLength(errored.length);
    expect(summary.strategies.reduce((sum, s) => sum + s.scored, 0)).toBe(EPISODES - errored.length);

    const [c, d] = [await ollamaHost(), await ollamaHost()];
    const resumed = await runInProcess({ resume: out, ollamaHost: `${c.url},${d.url}` }, { ollama: { retry: RETRY } }, new Set(['resume', 'ollamaHost']));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`${errored.length} errored episode(s) to run again`);
    expectSameAsOneHost(records(out), 'ollama');
    expect(runJson(out).status).toBe('complete');
  });
});

describe('several OpenAI-compatible servers', () => {
  it('a server killed mid-run: its calls complete on the other, every episode once, results as with one server', async () => {
    await oneHostRun('openai');
    const [a, b] = [await openaiHost(), await openaiHost({ killAt: 20 })];
    const out = join(scratch(), 'openai-killed');
    const run = await runInProcess({ out, model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: `${a.url},${b.url}`, concurrency: 4 }, { openai: { retry: RETRY } });
    expect(run.code).toBe(0);
    expectSameAsOneHost(records(out), 'openai');
    const [statsA, statsB] = runJson(out).model_hosts?.['openai:Qwen/Qwen3-8B'] ?? [];
    expect(statsA).toMatchObject({ url: a.url, failures: 0, marked_down: 0 });
    expect(statsB).toMatchObject({ url: b.url, marked_down: 1 });
    expect(statsB!.failures).toBeGreaterThanOrEqual(1);
    expect(statsA!.calls + statsB!.calls).toBe(modelCalls(records(out)).length);
  });

  it('a server listing another checkpoint (root) for the model id is refused: exit 2 naming it', async () => {
    const a = await openaiHost();
    const b = await openaiHost({ roots: { 'Qwen/Qwen3-8B': '/models/qwen3-8b-awq' } });
    const run = await cli([
      'run',
      '--model',
      'openai:Qwen/Qwen3-8B',
      '--openai-base-url',
      `${a.url},${b.url}`,
      '--out',
      join(scratch(), 'root'),
      '--no-progress',
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `stratbench: the OpenAI-compatible server at ${b.url} serves "Qwen/Qwen3-8B" with root /models/qwen3-8b-awq, but ${a.url} serves root Qwen/Qwen3-8B`,
    );
  });
});
