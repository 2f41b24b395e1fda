// A model call has an overall deadline without --timeout-ms (issue 25 §3): a server that sends its headers and then
// trickles its body ends the call as a timeout (retried, then an infrastructure error), and an interrupted run's
// signal ends a call at once (no retry), closing the connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { interruptModelCalls } from '../src/models/call-limit.js';
import { createOllamaModel } from '../src/models/ollama.js';
import { createOpenAIModel } from '../src/models/openai.js';
import { DEFAULT_CALL_DEADLINE_MS } from '../src/models/retry.js';
import { CallInterrupted, InfrastructureError, type ChatModel, type ChatRequest } from '../src/models/types.js';

interface Trickler {
  url: string;
  /** Requests received (path), and whether the client closed each before the body ended. */
  requests: Array<{ path: string; closedByClient: boolean }>;
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that answers every POST with 200 and JSON headers, then one byte of body every `everyMs`, forever. */
async function startTrickler(everyMs = 100): Promise<Trickler> {
  const requests: Trickler['requests'] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const entry = { path: request.url ?? '', closedByClient: false };
    requests.push(entry);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{');
    const timer = setInterval(() => response.write(' '), everyMs);
    response.on('close', () => {
      clearInterval(timer);
      entry.closedByClient = true;
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const request = (signal?: AbortSignal): ChatRequest => ({
  role: 'gate',
  schemaName: 'gate',
  schema: z.object({ answer: z.string() }),
  view: { role: 'gate', task_id: 't', prompt: 'p' },
  messages: () => [{ role: 'user', content: 'hello' }],
  options: {},
  epoch: 0,
  ...(signal ? { signal } : {}),
});

/** Two attempts, no backoff to speak of: the test waits for two deadlines, not for the policy's sleeps. */
const RETRY = { attempts: 2, baseMs: 1, maxMs: 1, totalMs: 60_000 };
/** A short deadline standing in for DEFAULT_CALL_DEADLINE_MS (600 000 ms), which a test cannot wait for. */
const DEADLINE_MS = 600;

let trickler: Trickler | undefined;
afterEach(async () => {
  await trickler?.close();
  trickler = undefined;
});

const backends: Array<[string, (url: string, deadlineMs?: number) => ChatModel]> = [
  ['ollama', (url, deadlineMs = DEADLINE_MS) => createOllamaModel({ model: 'qwen3:8b', host: url, deadlineMs, loadTimeoutMs: 1, retry: RETRY })],
  ['openai', (url, deadlineMs = DEADLINE_MS) => createOpenAIModel({ model: 'qwen3', baseURL: `${url}/v1`, deadlineMs, retry: RETRY })],
];

describe('the overall deadline of a call', () => {
  it('is 600 000 ms by default (openai-node’s default request timeout)', () => {
    expect(DEFAULT_CALL_DEADLINE_MS).toBe(600_000);
  });

  it.each(backends)(
    '%s: a body trickled a byte at a time ends at the deadline without timeout_ms: a timeout, retried, then an infrastructure error',
    async (_name, make) => {
      trickler = await startTrickler();
      const model = make(trickler.url);
      const failure = await model.chat(request()).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(InfrastructureError);
      expect((failure as InfrastructureError).kind).toBe('timeout');
      expect((failure as InfrastructureError).message).toMatch(/failed after 2 attempts/);
      // Both attempts were sent and both connections closed by the client (the server would trickle forever).
      await until(() => trickler?.requests.every((entry) => entry.closedByClient) === true);
      expect(trickler.requests.map((entry) => entry.closedByClient)).toEqual([true, true]);
    },
  );
});

describe('an interrupted run’s signal', () => {
  it.each(backends)('%s: ends a trickling call at once with CallInterrupted, closes the connection and retries nothing', async (_name, make) => {
    trickler = await startTrickler();
    // A deadline far away: only the signal can end this call within the test.
    const model = (interruptModelCalls({ gate: make(trickler.url, 60_000) } as never, abortAfterFirstRequest()) as unknown as Record<'gate', ChatModel>).gate;
    const failure = await model.chat(request()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CallInterrupted);
    expect((failure as Error).message).toBe('model call abandoned: interrupted by SIGTERM');
    await until(() => trickler?.requests[0]?.closedByClient === true);
    expect(trickler.requests).toEqual([{ path: expect.stringMatching(/\/(api\/chat|v1\/chat\/completions)$/), closedByClient: true }]);
  });

  it('rejects a call made after the abort without sending it', async () => {
    trickler = await startTrickler();
    const controller = new AbortController();
    controller.abort(new CallInterrupted('interrupted by SIGINT'));
    const wrapped = interruptModelCalls({ gate: backends[0]![1](trickler.url) } as never, controller.signal) as unknown as Record<'gate', ChatModel>;
    await expect(wrapped.gate.chat(request())).rejects.toThrow('model call abandoned: interrupted by SIGINT');
    expect(trickler.requests).toEqual([]);
  });
});

/** A signal that aborts (as SIGTERM does in `run`) once the trickler has received its first request. */
function abortAfterFirstRequest(): AbortSignal {
  const controller = new AbortController();
  const poll = setInterval(() => {
    if ((trickler?.requests.length ?? 0) > 0) {
      clearInterval(poll);
      setTimeout(() => controller.abort(new CallInterrupted('interrupted by SIGTERM')), 200);
    }
  }, 20);
  return controller.signal;
}

async function until(condition: () => boolean, timeoutMs = 300_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met within the safety net');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
