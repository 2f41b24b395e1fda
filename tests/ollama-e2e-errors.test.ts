// Infrastructure errors end to end: a server that only answers 503, or stops answering, gives `error` episodes, exit 4.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../src/runner/usage-error.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { startFakeOllama, type FakeChatRequest, type FakeOllama, type FixtureReply } from './support/fake-ollama-server.js';
import { RUN_DEFAULTS, records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf } from './support/scripted-over-ollama.js';

/** No real backoff waits: the retry loop's sleep returns at once (the bounds on attempts still hold). */
const NO_WAIT = { ollama: { clock: { sleep: async () => undefined } } };
const BUSY: FixtureReply = { status: 503, body: { error: 'server busy, please try again.  maximum pending requests exceeded' } };

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('§4 infrastructure errors over HTTP end the episode as error', () => {
  it('503 forever: every episode is an error after the bounded retries, the table lists them apart and the run exits 4 (it used to exit 0)', async () => {
    server = await startFakeOllama({ reply: () => BUSY });
    const out = join(scratch(), 'busy');
    const run = await runInProcess(
      // --wide: the errored-episode lines in full (by default they wrap at 120 columns).
      { out, model: 'ollama:qwen3:8b', ollamaHost: server.url, tasks: 'default-currency,fix-checkout-test', strategies: 'direct,plan-replan', wide: true },
      NO_WAIT,
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('stratbench: 4 of 4 episodes (100.0%) ended in an infrastructure error, above --max-error-rate 5.0%');
    const list = records(out);
    expect(list.map((record) => [record.task, record.strategy, record.outcome.status, record.outcome.reason, record.success])).toEqual([
      ['default-currency', 'direct', 'error', 'infrastructure:busy', false],
      ['default-currency', 'plan-replan', 'error', 'infrastructure:busy', false],
      ['fix-checkout-test', 'direct', 'error', 'infrastructure:busy', false],
      ['fix-checkout-test', 'plan-replan', 'error', 'infrastructure:busy', false],
    ]);
    expect(list.every((record) => record.checks.length === 0 && record.attribution === null)).toBe(true);
    expect(list[0]?.outcome.message).toMatch(/failed after 4 attempts .*HTTP 503: server busy/);
    // Four attempts per episode (DEFAULT_RETRY_POLICY), then the episode ends: bounded, never a crash.
    expect(server.chatCalls()).toHaveLength(4 * 4);

    expect(run.stdout).toContain('Errored episodes, not counted as failures (4):');
    expect(run.stdout).toMatch(
      /direct\s+default-currency\s+epoch 0\s+infrastructure:busy — Ollama chat with qwen3:8b at http:\/\/127\.0\.0\.1:\d+ failed after 4 attempts/,
    );
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      errors: unknown[];
      strategies: Array<{ strategy: string; scored: number; errors: number }>;
    };
    expect(summary.errors).toHaveLength(4);
    expect(summary.strategies.map((s) => [s.strategy, s.scored, s.errors])).toEqual([
      ['direct', 0, 2],
      ['plan-replan', 0, 2],
    ]);
  });

  it('a server that stops answering: --timeout-ms aborts each call, the episode ends as error (timeout)', async () => {
    const scripted = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite))));
    // The first call answers (the model is loaded, so later calls get the short timeout), then nothing.
    server = await startFakeOllama({ reply: (body, { index }) => (index === 0 ? scripted(body) : { hang: true }) });
    const out = join(scratch(), 'hang');
    const started = performance.now();
    const run = await runInProcess(
      { out, model: 'ollama:qwen3:8b', ollamaHost: server.url, tasks: 'fix-checkout-test', strategies: 'react', timeoutMs: 150 },
      NO_WAIT,
    );
    expect(run.code).toBe(4);
    expect(records(out).map((record) => [record.outcome.status, record.outcome.reason])).toEqual([['error', 'infrastructure:timeout']]);
    const calls = server.chatCalls();
    expect(calls).toHaveLength(1 + 4);
    expect(calls.slice(1).every((call) => call.aborted)).toBe(true);
    // Five calls at the 150 ms timeout, not the 300 s load timeout: a bound far from both, whatever the load.
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it('--resume after an outage re-runs the errored episodes with the Ollama flags of the first run', async () => {
    const scripted = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite))));
    let busy = true;
    server = await startFakeOllama({ reply: (body) => (busy ? BUSY : scripted(body)) });
    const out = join(scratch(), 'resumed');
    const flags = {
      model: 'ollama:qwen3:8b',
      ollamaHost: server.url,
      tasks: 'default-currency,fix-checkout-test',
      strategies: 'react',
      toolCalling: 'native',
      temperature: 0.3,
    };
    expect((await runInProcess({ out, ...flags }, NO_WAIT)).code).toBe(4);
    expect(records(out).map((record) => record.outcome.status)).toEqual(['error', 'error']);

    busy = false;
    const before = server.chatCalls().length;
    // Nothing but --resume "on the command line": RUN_DEFAULTS (scripted, json, …) give way to run.json.
    const resumed = await runInProcess({ resume: out }, NO_WAIT);
    expect(resumed.code).toBe(0);
    expect(records(out).map((record) => [record.task, record.outcome.status, record.success])).toEqual([
      ['default-currency', 'finished', true],
      ['fix-checkout-test', 'finished', true],
    ]);
    const bodies = server
      .chatCalls()
      .slice(before)
      .map((call) => call.body as FakeChatRequest);
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.every((body) => body.model === 'qwen3:8b' && body.options?.temperature === 0.3 && Array.isArray(body.tools))).toBe(true);

    // A different option given explicitly is a different configuration: refused before any episode.
    const refused = runInProcess({ resume: out, temperature: 0.9 }, NO_WAIT, new Set(['temperature']));
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(/another configuration/);
  });
});
