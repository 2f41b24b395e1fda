// Several servers of one model as one ChatModel: least-loaded dispatch under a per-host cap, failover, down-marking with backoff.
import { DEFAULT_RETRY_POLICY, errorMessage, type RetryPolicy } from './retry.js';
import { InfrastructureError, type ChatModel, type ChatRequest, type ChatResponse } from './types.js';
import type { HostStats } from '../records/index.js';

export type { HostStats } from '../records/index.js';

/** One server of the pool: its URL, the backend bound to it, and a cheap request that says it answers again. */
export interface PoolHost {
  url: string;
  /** A backend for this host alone; it should not retry infrastructure errors itself (the pool does, elsewhere). */
  model: ChatModel;
  /** Resolves when the host answers (e.g. GET /api/version); rejects otherwise. */
  probe: () => Promise<void>;
}

export interface HostPoolOptions {
  hosts: readonly PoolHost[];
  /** Calls in flight on one host at most (≥ 1). */
  perHostConcurrency: number;
  /**
   * `attempts`: tries of one call per host (default 4, so 4 × hosts in all); `totalMs`: how long one call may
   * wait for a host that is up (default 60 000); `baseMs`/`maxMs`: a down host's backoff, doubling per failure.
   */
  policy?: Partial<RetryPolicy>;
  /** Clock in ms (default performance.now). */
  now?: () => number;
  /** Called when a host is marked down or back up (e.g. to log it). */
  onHostChange?: (event: { url: string; up: boolean; reason: string }) => void;
}

/** A pool of hosts is a ChatModel that also reports per-host figures. */
export interface HostPool extends ChatModel {
  readonly host: string;
  readonly hosts: readonly string[];
  stats(): HostStats[];
  /**
   * From now on a call that finds no host up fails at once (InfrastructureError naming `reason`) instead of waiting
   * for one to come back; calls on hosts that are up go on. For Ctrl-C: the run stops within a call, not 60 s.
   */
  stopWaiting(reason: string): void;
}

/** Infrastructure errors that say "this host, now" — the call is tried on another host. model_missing and other are not. */
const FAILOVER_KINDS: ReadonlySet<InfrastructureError['kind']> = new Set(['unreachable', 'server_error', 'busy', 'timeout']);

/**
 * The default per-host cap: `--concurrency` split evenly over the hosts, rounded up (8 over 2 hosts → 4 each;
 * 4 over 3 → 2), so the hosts share a run's calls and none gets more than its share. With one host down its share
 * is idle; give `--host-concurrency` to let the others absorb it.
 */
export function defaultHostConcurrency(concurrency: number, hosts: number): number {
  return Math.max(1, Math.ceil(concurrency / Math.max(1, hosts)));
}

interface HostState {
  readonly host: PoolHost;
  readonly index: number;
  inFlight: number;
  down: boolean;
  /** Consecutive failures (calls or probes) since the last answered call: the backoff exponent. */
  strikes: number;
  downUntil: number;
  probing: boolean;
  reason: string;
  calls: number;
  failures: number;
  markedDown: number;
  latencies: number[];
}

const round3 = (ms: number): number => Math.round(ms * 1e3) / 1e3;

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Serves one model from several hosts. Each `chat` goes to the host that is up with the fewest calls in flight
 * (ties: fewest answered, then the order given), waiting while every up host is at `perHostConcurrency`.
 * A call failing with an infrastructure error of kind unreachable | server_error | busy | timeout marks its
 * host down for min(maxMs, baseMs · 2^(strikes−1)) ms (at least the server's Retry-After, `retryAfterMs` of the error)
 * and is sent again to another host — the episode goes on,
 * the retry is invisible to it. A down host whose backoff has passed is probed (`probe`) before it gets calls
 * again; a failed probe doubles its backoff. When no host is up and none will be before `totalMs` of this call
 * has passed (or `totalMs` since every host went down, for a call that arrives during the outage), or the call
 * failed `attempts × hosts` times, throws `InfrastructureError` (the episode ends as
 * `error`, which `run --resume` runs again). Other errors propagate unchanged. Throws a plain Error for no hosts.
 */
export function createHostPool(options: HostPoolOptions): HostPool {
  if (options.hosts.length === 0) throw new Error('a host pool needs at least one host');
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  const cap = Math.max(1, options.perHostConcurrency);
  const now = options.now ?? (() => performance.now());
  const states: HostState[] = options.hosts.map((host, index) => ({
    host,
    index,
    inFlight: 0,
    down: false,
    strikes: 0,
    downUntil: 0,
    probing: false,
    reason: '',
    calls: 0,
    failures: 0,
    markedDown: 0,
    latencies: [],
  }));
  const first = options.hosts[0]!.model;
  let waiters: Array<() => void> = [];
  /**
   * When the last host that was up went down (undefined while one is up). A call waits for a host to come back at
   * most `totalMs` from its own start and from this moment: a call that reaches the pool late (it waited for one of
   * the run's call slots, held by calls waiting out the same outage) does not start a fresh wait of its own.
   */
  let allDownSince: number | undefined;
  /** Set by stopWaiting: why calls no longer wait for a host to come back. */
  let stopped: string | undefined;

  const wake = (): void => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  /** Resolves at the next change of any host (a slot freed, up or down) or after `ms`. */
  const change = (ms: number | undefined): Promise<void> =>
    new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        resolve();
      };
      waiters.push(done);
      if (ms !== undefined) timer = setTimeout(done, Math.max(0, ms));
    });

  const markDown = (state: HostState, reason: string, retryAfterMs = 0): void => {
    state.strikes += 1;
    // A server's Retry-After keeps it down (unprobed) at least that long: a probe or call sooner meets the same 429/503.
    state.downUntil = now() + Math.max(retryAfterMs, Math.min(policy.maxMs, policy.baseMs * 2 ** (state.strikes - 1)));
    state.reason = reason;
    if (!state.down) {
      state.down = true;
      state.markedDown += 1;
      if (states.every((other) => other.down)) allDownSince ??= now();
      options.onHostChange?.({ url: state.host.url, up: false, reason });
    }
  };

  const probe = (state: HostState): void => {
    state.probing = true;
    state.host
      .probe()
      .then(
        () => {
          state.down = false;
          allDownSince = undefined;
          options.onHostChange?.({ url: state.host.url, up: true, reason: 'answered the probe' });
        },
        (error: unknown) => markDown(state, `probe failed: ${errorMessage(error)}`),
      )
      .finally(() => {
        state.probing = false;
        wake();
      });
  };

  /** Takes a slot on the least-loaded up host; probes hosts whose backoff has passed; throws when none can come in time. */
  const acquire = async (deadline: number, last: InfrastructureError | undefined): Promise<HostState> => {
    /** The error when no host will answer in time: each host and why it is down. */
    const allDown = (note: string): InfrastructureError =>
      new InfrastructureError(
        `every host of ${first.name} is down${note}: ${states.map((state) => `${state.host.url} (${state.reason})`).join('; ')}`,
        last?.kind ?? 'unreachable',
        { cause: last },
      );
    for (;;) {
      const t = now();
      for (const state of states) if (state.down && !state.probing && state.downUntil <= t) probe(state);
      let best: HostState | undefined;
      for (const state of states) {
        if (state.down || state.inFlight >= cap) continue;
        if (best === undefined || state.inFlight < best.inFlight || (state.inFlight === best.inFlight && state.calls < best.calls)) best = state;
      }
      if (best !== undefined) {
        best.inFlight += 1;
        return best;
      }
      const anyUp = states.some((state) => !state.down);
      const anyProbing = states.some((state) => state.probing);
      if (!anyUp && stopped !== undefined) throw allDown(`, stopped waiting (${stopped})`);
      if (anyUp || anyProbing) {
        await change(undefined);
        continue;
      }
      const next = Math.min(...states.map((state) => state.downUntil));
      if (next > Math.min(deadline, allDownSince === undefined ? Number.POSITIVE_INFINITY : allDownSince + policy.totalMs)) throw allDown('');
      await change(next - t);
    }
  };

  return {
    name: first.name,
    deterministic: false,
    ...(first.cacheIdentity !== undefined ? { cacheIdentity: first.cacheIdentity } : {}),
    host: options.hosts.map((host) => host.url).join(','),
    hosts: options.hosts.map((host) => host.url),
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const deadline = now() + policy.totalMs;
      const maxTries = policy.attempts * states.length;
      let last: InfrastructureError | undefined;
      for (let tries = 1; ; tries++) {
        const state = await acquire(deadline, last);
        const started = now();
        try {
          const response = await state.host.model.chat(request);
          state.calls += 1;
          state.strikes = 0;
          state.latencies.push(now() - started);
          return response;
        } catch (error) {
          if (!(error instanceof InfrastructureError) || !FAILOVER_KINDS.has(error.kind)) throw error;
          state.failures += 1;
          markDown(state, error.message, error.retryAfterMs);
          last = error;
          if (tries >= maxTries) {
            throw new InfrastructureError(`${first.name}: ${tries} attempts over ${states.length} hosts failed; last: ${error.message}`, error.kind, {
              cause: error,
            });
          }
        } finally {
          state.inFlight -= 1;
          wake();
        }
      }
    },
    stopWaiting(reason) {
      stopped = reason;
      wake();
    },
    stats: () =>
      states.map((state) => ({
        url: state.host.url,
        calls: state.calls,
        failures: state.failures,
        mean_latency_ms: state.latencies.length === 0 ? null : round3(state.latencies.reduce((sum, ms) => sum + ms, 0) / state.latencies.length),
        median_latency_ms: state.latencies.length === 0 ? null : round3(median(state.latencies)!),
        marked_down: state.markedDown,
      })),
  };
}

/** A probe for `createHostPool`: GET `url` must answer 2xx within `timeoutMs` (default 5 000). */
export function httpProbe(url: string, fetch: typeof globalThis.fetch, headers: Record<string, string> = {}, timeoutMs = 5_000): () => Promise<void> {
  return async () => {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  };
}
