// One SIGTERM ends a run within a bounded time, writing what finished (issue 25 §3), end to end: the built CLI runs
// against a fake Ollama on 127.0.0.1 whose replies to one task trickle a byte a second (default options: no
// --timeout-ms); SIGTERM while that call trickles aborts it, the finished episodes and summary.json are written, the
// aborted episode is not (run --resume runs it) and the process exits 143.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../src/models/scripted.js';
import { episodes, scratch, startStratbench } from './support/cli.js';
import { startFakeOllama, type FakeOllama } from './support/fake-ollama-server.js';
import { RUN_DEFAULTS, scriptedOllamaReply, scriptedTasksOf } from './support/scripted-over-ollama.js';

/** The task whose model calls trickle; the other one answers at once. */
const TRICKLED = 'fix-checkout-test';
const ANSWERED = 'default-currency';

let fake: FakeOllama | undefined;
let front: Server | undefined;
const sockets = new Set<Socket>();
let trickling = 0;
/** Off: the front passes TRICKLED's calls on too (the server is back to normal for --resume). */
let trickle = true;

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
  await fake?.close();
  front = undefined;
  fake = undefined;
});

/**
 * A server on 127.0.0.1 in front of the fake Ollama: a chat request about TRICKLED gets 200 and JSON headers, then one
 * byte a second, forever; everything else is passed to the fake as it is.
 */
async function startFront(target: string): Promise<string> {
  front = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (trickle && request.url === '/api/chat' && body.toString('utf8').includes(TRICKLED)) {
      trickling += 1;
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.write('{');
      const timer = setInterval(() => response.write(' '), 1_000);
      response.on('close', () => clearInterval(timer));
      return;
    }
    const answer = await fetch(`${target}${request.url ?? '/'}`, {
      method: request.method ?? 'GET',
      headers: { 'content-type': 'application/json' },
      ...(body.length > 0 ? { body } : {}),
    });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  front.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => front?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
}

async function until(condition: () => boolean, what: string, timeoutMs = 300_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within the ${timeoutMs} ms safety net`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a signal during a trickling model call', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s aborts the call, writes the finished episode and summary.json, leaves the aborted one for --resume, exits %i',
    async (signal, exit) => {
      trickling = 0;
      trickle = true;
      const suite = String(RUN_DEFAULTS.suite);
      fake = await startFakeOllama({ reply: scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(suite))) });
      const host = await startFront(fake.url);
      const out = join(scratch(), 'interrupted');
      // Two call slots: the trickling call holds one, ANSWERED's calls take the other. No --timeout-ms: default options.
      const child = startStratbench([
        'run',
        '--suite',
        suite,
        '--model',
        'ollama:qwen3:8b',
        '--ollama-host',
        host,
        '--tasks',
        `${ANSWERED},${TRICKLED}`,
        '--strategies',
        'direct',
        '--concurrency',
        '2',
        '--out',
        out,
        '--no-progress',
      ]);
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.stdout.resume();
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

      await until(() => trickling > 0, 'a trickling call');
      // ANSWERED finishes while the trickling call is in flight, its body arriving a byte a second.
      const written = join(out, 'episodes.jsonl');
      await until(() => existsSync(written) && readFileSync(written, 'utf8').includes(ANSWERED), `${ANSWERED} written`);
      const signalled = Date.now();
      child.kill(signal);
      const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 120_000))]);
      if (code === 'hung') child.kill('SIGKILL');
      expect({ code, stderr: code === exit ? '' : stderr }).toEqual({ code: exit, stderr: '' });
      // The trickling call would take hours (a byte a second): any bound shows the run did not wait for it.
      expect(Date.now() - signalled).toBeLessThan(120_000);

      // The finished episode is written; the aborted one is not (neither a failure nor an infrastructure error).
      expect(episodes(out).map((record) => [record['task'], record['strategy'], (record['outcome'] as { status: string }).status])).toEqual([
        [ANSWERED, 'direct', 'finished'],
      ]);
      expect(existsSync(join(out, 'summary.json'))).toBe(true);
      const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { status: string; episodes: number };
      expect({ status: run.status, episodes: run.episodes }).toEqual({ status: 'interrupted', episodes: 1 });
      expect(stderr).toContain(`continue with: stratbench run --resume ${out}`);

      // --resume runs the aborted episode (the server answers now) and keeps the finished one.
      trickle = false;
      const resumed = startStratbench(['run', '--resume', out, '--no-progress']);
      resumed.stdout.resume();
      resumed.stderr.resume();
      const resumedCode = await new Promise<number | null>((resolve) => resumed.on('exit', (code) => resolve(code)));
      expect(resumedCode).toBe(0);
      expect(episodes(out).map((record) => [record['task'], (record['outcome'] as { status: string }).status])).toEqual([
        [ANSWERED, 'finished'],
        [TRICKLED, 'finished'],
      ]);
    },
    90_000,
  );
});
