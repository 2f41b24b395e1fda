// The host pool on its own: least-loaded dispatch, per-host caps, failover, down-marking with backoff and probe, all down.
import { describe, expect, it } from 'vitest';
import { createHostPool, defaultHostConcurrency, type PoolHost } from '../src/models/host-pool.js';
import { resolveOllamaHosts } from '../src/models/ollama-host.js';
import { UsageError } from '../src/runner/usage-error.js';
import { ollamaRunConfig } from '../src/runner/ollama-setup.js';
import { openaiRunConfig } from '../src/runner/openai-setup.js';
import { InfrastructureError, type ChatModel, type ChatRequest, type ChatResponse } from '../src/models/types.js';

const REQUEST = { messages: () => [], schema: undefined, schemaName: 'action' } as unknown as ChatRequest;

const reply = (text: string): ChatResponse =>
  ({ text, tokens_in: 0, tokens_out: 0, duration_ms: 0, load_ms: 0, model: 'fake', format_warnings: [] }) as ChatResponse;

/** A host whose calls wait until released; records how many were in flight at most. */
function heldHost(url: string) {
  const pending: Array<() => void> = [];
  const state = { url, inFlight: 0, maxInFlight: 0, served: 0, fail: undefined as InfrastructureError | Error | undefined, probeOk: true, probes: 0 };
  const model: ChatModel = {
    name: 'ollama:fake',
    deterministic: false,
    async chat() {
      if (state.fail) throw state.fail;
      state.inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      await new Promise<void>((resolve) => pending.push(resolve));
      state.inFlight -= 1;
      state.served += 1;
      return reply(url);
    },
  };
  const host: PoolHost = {
    url,
    model,
    probe: async () => {
      state.probes += 1;
      if (!state.probeOk) throw new Error('connect ECONNREFUSED');
    },
  };
  return {
    host,
    state,
    release: () => {
      for (const resolve of pending.splice(0)) resolve();
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('host pool', () => {
  it('splits --concurrency over the hosts, rounded up', () => {
    expect([defaultHostConcurrency(8, 2), defaultHostConcurrency(4, 3), defaultHostConcurrency(1, 4), defaultHostConcurrency(16, 2)]).toEqual([4, 2, 1, 8]);
  });

  it('sends each call to the least-loaded host and never more than the cap to one host; the rest wait', async () => {
    const hosts = [heldHost('http://a'), heldHost('http://b'), heldHost('http://c')];
    const pool = createHostPool({ hosts: hosts.map((h) => h.host), perHostConcurrency: 2 });
    const calls = Array.from({ length: 10 }, () => pool.chat(REQUEST));
    await tick();
    expect(hosts.map((h) => h.state.inFlight)).toEqual([2, 2, 2]);
    for (let round = 0; round < 4; round++) {
      for (const h of hosts) h.release();
      await tick();
    }
    const replies = await Promise.all(calls);
    expect(replies).toHaveLength(10);
    expect(hosts.map((h) => h.state.maxInFlight)).toEqual([2, 2, 2]);
    expect(hosts.map((h) => h.state.served).reduce((a, b) => a + b)).toBe(10);
    expect(Math.min(...hosts.map((h) => h.state.served))).toBeGreaterThanOrEqual(3);
    const stats = pool.stats();
    expect(stats.map((s) => [s.url, s.calls, s.failures, s.marked_down])).toEqual(hosts.map((h) => [h.state.url, h.state.served, 0, 0]));
    expect(stats.every((s) => typeof s.mean_latency_ms === 'number' && typeof s.median_latency_ms === 'number')).toBe(true);
  });

  it('a host failing with an infrastructure error is marked down and the call completes on another host', async () => {
    const [a, b] = [heldHost('http://a'), heldHost('http://b')];
    a.state.fail = new InfrastructureError('fetch failed (ECONNREFUSED)', 'unreachable');
    const pool = createHostPool({ hosts: [a.host, b.host], perHostConcurrency: 4, policy: { baseMs: 60_000, maxMs: 60_000 } });
    const first = pool.chat(REQUEST);
    await tick();
    b.release();
    expect((await first).text).toBe('http://b');
    // While a is down (60 s backoff) every call goes to b, even with a's slots free.
    const more = [pool.chat(REQUEST), pool.chat(REQUEST)];
    await tick();
    expect(b.state.inFlight).toBe(2);
    b.release();
    await Promise.all(more);
    expect(pool.stats()).toEqual([
      { url: 'http://a', calls: 0, failures: 1, mean_latency_ms: null, median_latency_ms: null, marked_down: 1 },
      expect.objectContaining({ url: 'http://b', calls: 3, failures: 0, marked_down: 0 }),
    ]);
    expect(a.state.probes).toBe(0);
  });

  it('a down host is probed after its backoff and, answering, gets calls again; a failed probe keeps it down', async () => {
    const [a, b] = [heldHost('http://a'), heldHost('http://b')];
    a.state.fail = new InfrastructureError('HTTP 502: bad gateway', 'server_error');
    a.state.probeOk = false;
    const pool = createHostPool({ hosts: [a.host, b.host], perHostConcurrency: 1, policy: { baseMs: 5, maxMs: 10 } });
    const first = pool.chat(REQUEST);
    await tick();
    b.release();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 20));
    // b is busy; a's backoff has passed, but its probe fails: the call waits for b.
    const second = pool.chat(REQUEST);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(a.state.probes).toBeGreaterThanOrEqual(1);
    expect(a.state.inFlight).toBe(0);
    b.release();
    await second;
    // a comes back: after its (doubled) backoff the probe passes and it serves again.
    a.state.fail = undefined;
    a.state.probeOk = true;
    await new Promise((resolve) => setTimeout(resolve, 25));
    const held = pool.chat(REQUEST); // takes b or a
    const third = pool.chat(REQUEST); // takes the other
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect([a.state.inFlight, b.state.inFlight]).toEqual([1, 1]);
    a.release();
    b.release();
    await Promise.all([held, third]);
    expect(pool.stats()[0]).toMatchObject({ url: 'http://a', calls: 1, failures: 1, marked_down: 1 });
  });

  it('every host down past the retry budget: InfrastructureError naming each host and why', async () => {
    const [a, b] = [heldHost('http://a'), heldHost('http://b')];
    a.state.fail = new InfrastructureError('fetch failed (ECONNREFUSED)', 'unreachable');
    b.state.fail = new InfrastructureError('HTTP 500: runner crashed', 'server_error');
    a.state.probeOk = false;
    b.state.probeOk = false;
    const pool = createHostPool({ hosts: [a.host, b.host], perHostConcurrency: 2, policy: { baseMs: 1_000, maxMs: 1_000, totalMs: 100 } });
    const error = await pool.chat(REQUEST).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as InfrastructureError).kind).toBe('server_error');
    expect((error as Error).message).toBe('every host of ollama:fake is down: http://a (fetch failed (ECONNREFUSED)); http://b (HTTP 500: runner crashed)');
  });

  it('a call that reaches the pool during an outage waits only what is left of the outage budget, not a fresh one', async () => {
    // The run's call slots are held by calls waiting out the outage; a call queued behind them reaches the pool late.
    // It must not wait another totalMs of its own (with every host down a Ctrl-C took twice the documented 60 s).
    const [a, b] = [heldHost('http://a'), heldHost('http://b')];
    a.state.fail = new InfrastructureError('fetch failed (ECONNREFUSED)', 'unreachable');
    b.state.fail = new InfrastructureError('fetch failed (ECONNREFUSED)', 'unreachable');
    a.state.probeOk = false;
    b.state.probeOk = false;
    let clock = 0;
    const pool = createHostPool({
      hosts: [a.host, b.host],
      perHostConcurrency: 2,
      now: () => clock,
      policy: { baseMs: 40, maxMs: 40, totalMs: 100 },
    });
    // At 0 both hosts fail: the outage starts; the first call waits (its budget runs to 100).
    const early = pool.chat(REQUEST).catch((caught: unknown) => caught);
    await tick();
    expect(pool.stats().map((host) => host.marked_down)).toEqual([1, 1]);
    // At 70 a second call arrives. Its own budget would run to 170; the outage's runs out at 100, before the hosts'
    // next probe (70 + 40 = 110): it fails now, as does the first.
    clock = 70;
    const late = await pool.chat(REQUEST).catch((caught: unknown) => caught);
    expect(late).toBeInstanceOf(InfrastructureError);
    expect((late as Error).message).toMatch(/^every host of ollama:fake is down: http:\/\/a \(probe failed: connect ECONNREFUSED\)/);
    expect(await early).toBeInstanceOf(InfrastructureError);
    // A host that answers its probe again ends the outage: calls then get a full budget of their own.
    a.state.fail = undefined;
    a.state.probeOk = true;
    clock = 200;
    const after = pool.chat(REQUEST);
    await tick();
    await tick();
    a.release();
    expect((await after).text).toBe('http://a');
  });

  it('stopWaiting (Ctrl-C): a call waiting for a down host fails at once; calls on hosts that are up go on', async () => {
    const [a, b] = [heldHost('http://a'), heldHost('http://b')];
    a.state.fail = new InfrastructureError('fetch failed (ECONNREFUSED)', 'unreachable');
    a.state.probeOk = false;
    const pool = createHostPool({ hosts: [a.host, b.host], perHostConcurrency: 1, policy: { baseMs: 60_000, maxMs: 60_000, totalMs: 60_000 } });
    // a fails and is down for 60 s; b serves one call at a time.
    const onB = pool.chat(REQUEST);
    await tick();
    expect(b.state.inFlight).toBe(1);
    b.state.fail = new InfrastructureError('HTTP 503: busy', 'busy');
    b.state.probeOk = false;
    const waiting = pool.chat(REQUEST).catch((caught: unknown) => caught);
    await tick();
    pool.stopWaiting('interrupted by SIGINT');
    // b is still up (its call runs): the second call waits for b's slot, then b fails it and every host is down.
    b.release();
    expect((await onB).text).toBe('http://b');
    const error = await waiting;
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(/^every host of ollama:fake is down, stopped waiting \(interrupted by SIGINT\): http:\/\/a/);
  });

  it('a model missing on a host or a bug is not failed over: the error propagates unchanged', async () => {
    const [a, b] = [heldHost('http://a'), heldHost('http://b')];
    const missing = new InfrastructureError('model "x" not found', 'model_missing');
    a.state.fail = missing;
    const pool = createHostPool({ hosts: [a.host, b.host], perHostConcurrency: 2 });
    await expect(pool.chat(REQUEST)).rejects.toBe(missing);
    const bug = new TypeError('x is not a function');
    a.state.fail = bug;
    await expect(pool.chat(REQUEST)).rejects.toBe(bug);
    expect(b.state.served).toBe(0);
    expect(pool.stats().map((s) => s.marked_down)).toEqual([0, 0]);
  });
});

describe('host lists', () => {
  it('--ollama-host and OLLAMA_HOST take several hosts separated by commas, each normalised; a server named twice is a usage error', () => {
    expect(resolveOllamaHosts(undefined, { OLLAMA_HOST: 'gpu1, gpu2:8080,http://gpu1:11434' })).toEqual([
      'http://gpu1:11434',
      'http://gpu2:8080',
      'http://gpu1:11434',
    ]);
    expect(() => ollamaRunConfig({}, { OLLAMA_HOST: 'gpu1, gpu2:8080,http://gpu1:11434' })).toThrow(
      new UsageError(
        '--ollama-host / OLLAMA_HOST names http://gpu1:11434 twice: list each server once (--host-concurrency sets how many calls one takes at once)',
      ),
    );
    expect(() => ollamaRunConfig({ ollamaHost: 'http://GPU1:11434,http://gpu1:11434' }, {})).toThrow(
      new UsageError(
        '--ollama-host / OLLAMA_HOST names http://gpu1:11434 twice: list each server once (--host-concurrency sets how many calls one takes at once)',
      ),
    );
    expect(() => openaiRunConfig({ openaiBaseUrl: 'http://gpu1:8000/v1,http://gpu1:8000/v1/' }, {}, {})).toThrow(
      new UsageError(
        '--openai-base-url / OPENAI_BASE_URL names http://gpu1:8000/v1 twice: list each server once (--host-concurrency sets how many calls one takes at once)',
      ),
    );
    expect(resolveOllamaHosts('a,b', { OLLAMA_HOST: 'c' })).toEqual(['http://a:11434', 'http://b:11434']);
    expect(resolveOllamaHosts(undefined, {})).toEqual(['http://127.0.0.1:11434']);
    expect(ollamaRunConfig({ ollamaHost: 'a,b', hostConcurrency: 3 }, {})).toMatchObject({
      host: 'http://a:11434',
      hosts: ['http://a:11434', 'http://b:11434'],
      hostConcurrency: 3,
    });
  });

  it('a host list naming no host, or a bad base URL among several, is a usage error naming it', () => {
    expect(() => ollamaRunConfig({ ollamaHost: ' , ' }, {})).toThrow(
      new UsageError('--ollama-host / OLLAMA_HOST " , " names no host; e.g. http://gpu1:11434,http://gpu2:11434'),
    );
    expect(() => openaiRunConfig({ openaiBaseUrl: 'http://a:8000/v1,ftp://b/v1' }, {}, {})).toThrow(
      new UsageError('OpenAI base URL ftp://b/v1 must use http or https'),
    );
    // An empty entry among others — `$GPU1,$GPU2` with one variable unset — would run on fewer servers than meant.
    expect(() => ollamaRunConfig({ ollamaHost: ',http://gpu2:11434' }, {})).toThrow(
      new UsageError(
        '--ollama-host / OLLAMA_HOST ",http://gpu2:11434" has an empty entry (1st of 2); is a variable unset? List the servers separated by commas, e.g. http://gpu1:11434,http://gpu2:11434',
      ),
    );
    expect(() => ollamaRunConfig({}, { OLLAMA_HOST: 'gpu1, ,gpu3' })).toThrow('"gpu1, ,gpu3" has an empty entry (2nd of 3)');
    expect(() => ollamaRunConfig({ ollamaHost: 'gpu1,gpu2,' }, {})).toThrow('has an empty entry (3rd of 3)');
    // A host name left empty by an unset variable would quietly put this machine's server into the pool.
    expect(() => ollamaRunConfig({ ollamaHost: 'http://gpu1:11434,http://:11434' }, {})).toThrow(
      new UsageError(
        '--ollama-host / OLLAMA_HOST "http://gpu1:11434,http://:11434" has no host name in its 2nd entry ("http://:11434"); is a variable unset? e.g. http://gpu1:11434,http://gpu2:11434',
      ),
    );
    expect(() => ollamaRunConfig({}, { OLLAMA_HOST: ':11434,gpu2' })).toThrow('has no host name in its 1st entry (":11434")');
    expect(ollamaRunConfig({ ollamaHost: ':11434' }, {}).hosts).toEqual(['http://127.0.0.1:11434']);
    // Credentials were misread as part of the host name; the refusal masks the password and never quotes the list.
    expect(() => ollamaRunConfig({ ollamaHost: 'http://gpu1:11434,http://ann:s3cret@gw:11434' }, {})).toThrow(
      new UsageError(
        '--ollama-host / OLLAMA_HOST has credentials in its 2nd entry ("http://ann:***@gw:11434"); a host URL with a user name or password is not supported (the preflight cannot send it, and run.json would record it)',
      ),
    );
    expect(() => ollamaRunConfig({}, { OLLAMA_HOST: 'ann@gw:11434,' })).toThrow('has credentials in its 1st entry ("ann@gw:11434")');
    expect(() => ollamaRunConfig({}, { OLLAMA_HOST: 'ann@gw:11434,' })).not.toThrow('empty entry');
    // A base URL of only slashes is empty too.
    expect(() => openaiRunConfig({ openaiBaseUrl: 'http://a:8000/v1,/,http://c:8000/v1' }, {}, {})).toThrow('has an empty entry (2nd of 3)');
    expect(() => openaiRunConfig({ openaiBaseUrl: 'http://a:8000/v1,,http://c:8000/v1' }, {}, {})).toThrow(
      new UsageError(
        '--openai-base-url / OPENAI_BASE_URL "http://a:8000/v1,,http://c:8000/v1" has an empty entry (2nd of 3); is a variable unset? List the servers separated by commas, e.g. http://gpu1:8000/v1,http://gpu2:8000/v1',
      ),
    );
    expect(openaiRunConfig({ openaiBaseUrl: 'http://a:8000/v1/, http://b:8000/v1' }, {}, {})).toMatchObject({
      baseURL: 'http://a:8000/v1',
      baseURLs: ['http://a:8000/v1', 'http://b:8000/v1'],
    });
  });
});
