// `npx tsx scripts/bench-http-floor.ts`: the floor under `bench:ollama --concurrency-only` (issue 15 §5) on this machine.
// No harness at all: 2,840 POST /api/chat requests (the core suite's calls in that bench) of the bench's size, 64 in
// flight (FLOOR_CALLS, FLOOR_CONCURRENCY, FLOOR_HOSTS change them), against a bare node:http server in another process that answers each after LATENCY ms with a fixed reply.
// Clients: node:http with a keep-alive agent (the cheapest Node client), the ollama npm client over Node's fetch,
// stratbench's transport (`sendChat`: undici's pool directly, decision 0019), the openai client over Node's fetch and
// stratbench's OpenAI-compatible transport (`postCompletion`, decision 0021); FLOOR_CLIENTS names some of them. Prints wall / ideal (calls × latency / 64) and CPU per call of
// each side. Medians of RUNS (env BENCH_RUNS, default 3).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { postCompletion } from '../src/models/openai-undici.js';
import { sendChat } from '../src/models/ollama-transport.js';

/** Defaults: issue 15 §5's sweep (2,840 calls, 64 in flight). `FLOOR_CALLS=852 FLOOR_CONCURRENCY=16 FLOOR_HOSTS=2`: issue 14 §5's. */
const CALLS = Number(process.env.FLOOR_CALLS ?? 2840);
const CONCURRENCY = Number(process.env.FLOOR_CONCURRENCY ?? 64);
/** Servers, each in its own process; calls go to them in turn (each gets CONCURRENCY / HOSTS at once). */
const HOSTS = Number(process.env.FLOOR_HOSTS ?? 1);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const messages = [
  { role: 'system', content: 's'.repeat(4000) },
  { role: 'user', content: 'u'.repeat(1500) },
];
const bodyText = JSON.stringify({ model: 'qwen3:8b', messages, stream: false, options: { temperature: 0 } });

const SERVER = `
const http = require('node:http');
const latency = Number(process.argv[1]);
const reply = JSON.stringify({ model: 'qwen3:8b', created_at: '2026-05-01T12:00:00.000Z', message: { role: 'assistant', content: '{"action":"finish","answer":"' + 'x'.repeat(300) + '"}' }, done: true, done_reason: 'stop', prompt_eval_count: 100, eval_count: 20 });
let before;
const server = http.createServer((req, res) => {
  const chunks = [];
  const started = Date.now();
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => { JSON.parse(Buffer.concat(chunks).toString()); setTimeout(() => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(reply); }, Math.max(0, latency - (Date.now() - started))); });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => { before = process.cpuUsage(); process.stdout.write(server.address().port + '\\n'); });
process.stdin.resume();
process.stdin.on('end', () => { const c = process.cpuUsage(before); process.stdout.write(JSON.stringify({ cpuMs: (c.user + c.system) / 1000 }) + '\\n'); process.exit(0); });
`;

/** HOSTS servers at once: `use` gets their URLs; the CPU is summed over them. */
async function withServers<T>(latencyMs: number, use: (hosts: string[]) => Promise<T>): Promise<{ result: T; serverCpuMs: number }> {
  const started: Array<{ host: string; stop: () => Promise<number> }> = [];
  for (let index = 0; index < HOSTS; index++) {
    let release!: (value: number) => void;
    const stopped = new Promise<number>((resolve) => (release = resolve));
    let stop!: () => void;
    const stopping = new Promise<void>((resolve) => (stop = resolve));
    const host = await new Promise<string>((resolve) => {
      void withServer(latencyMs, async (url) => {
        resolve(url);
        await stopping;
      }).then(({ serverCpuMs }) => release(serverCpuMs));
    });
    started.push({ host, stop: () => (stop(), stopped) });
  }
  const result = await use(started.map((server) => server.host));
  let serverCpuMs = 0;
  for (const server of started) serverCpuMs += await server.stop();
  return { result, serverCpuMs };
}

async function withServer<T>(latencyMs: number, use: (host: string) => Promise<T>): Promise<{ result: T; serverCpuMs: number }> {
  const child = spawn(process.execPath, ['-e', SERVER, String(latencyMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  let buffered = '';
  child.stdout.on('data', (data) => {
    buffered += String(data);
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      wake?.();
    }
  });
  const line = async (): Promise<string> => {
    while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return lines.shift()!;
  };
  const host = `http://127.0.0.1:${await line()}`;
  const result = await use(host);
  child.stdin.end();
  return { result, serverCpuMs: (JSON.parse(await line()) as { cpuMs: number }).cpuMs };
}

/** Runs CALLS calls of `call`, CONCURRENCY at once; wall ms and this process's CPU ms. */
async function drive(call: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  for (let i = 0; i < 64; i++) await call(); // warm-up: JIT, sockets
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) await call();
    }),
  );
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** Calls `calls` in turn, one per call (round robin over the hosts). */
function roundRobin(calls: Array<() => Promise<unknown>>): () => Promise<unknown> {
  let next = 0;
  return () => calls[next++ % calls.length]!();
}

function bareClient(host: string): () => Promise<unknown> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const url = new URL('/api/chat', host);
  return () =>
    new Promise((resolve, reject) => {
      const request = http.request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(bodyText) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(bodyText);
    });
}

function ollamaClient(host: string): () => Promise<unknown> {
  const client = new Ollama({ host });
  return () => client.chat({ model: 'qwen3:8b', messages, stream: false, options: { temperature: 0 } });
}

function stratbench(host: string): () => Promise<unknown> {
  return () => sendChat({ model: 'qwen3:8b', messages, options: { temperature: 0 } }, { host, timeoutMs: undefined, stream: false });
}

/** The openai client (over Node's fetch) posting a chat completion. */
function openaiClient(host: string): () => Promise<unknown> {
  const client = new OpenAI({ baseURL: `${host}/v1`, apiKey: 'sk-local', maxRetries: 0 });
  return () => client.chat.completions.create({ model: 'Qwen/Qwen3-8B', messages: messages as OpenAI.Chat.ChatCompletionMessageParam[], temperature: 0 });
}

/** stratbench's OpenAI-compatible transport (`postCompletion`: undici's pool directly, decision 0021). */
function stratbenchOpenAI(host: string): () => Promise<unknown> {
  const sdk = { default: OpenAI } as unknown as typeof import('openai');
  return () =>
    postCompletion(
      sdk,
      { baseURL: `${host}/v1`, apiKey: 'sk-local' },
      { model: 'Qwen/Qwen3-8B', messages: messages as OpenAI.Chat.ChatCompletionMessageParam[], temperature: 0 },
      undefined,
    );
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const latencyMs of (process.env.BENCH_LATENCIES ?? '50,5').split(',').map(Number)) {
  for (const [name, make] of [
    ['node:http', bareClient],
    ['ollama client', ollamaClient],
    ['stratbench', stratbench],
    ['openai client', openaiClient],
    ['stratbench oai', stratbenchOpenAI],
  ] as const) {
    // FLOOR_CLIENTS="openai client,stratbench oai" measures only those.
    if (process.env.FLOOR_CLIENTS && !process.env.FLOOR_CLIENTS.split(',').includes(name)) continue;
    const runs = [];
    for (let run = 0; run < RUNS; run++) {
      const { result, serverCpuMs } = await withServers(latencyMs, (hosts) => drive(roundRobin(hosts.map(make))));
      runs.push({ ratio: result.wallMs / ((CALLS * latencyMs) / CONCURRENCY), client: result.cpuMs / CALLS, server: serverCpuMs / CALLS });
    }
    process.stdout.write(
      `${String(latencyMs).padStart(3)} ms × ${CONCURRENCY}${HOSTS > 1 ? ` over ${HOSTS} hosts` : ''}, ${CALLS} calls, ${name.padEnd(13)} wall / ideal ${runs.map((run) => run.ratio.toFixed(2)).join(', ')} ` +
        `(median ${median(runs.map((run) => run.ratio)).toFixed(2)}); CPU per call: client ${median(runs.map((run) => run.client)).toFixed(3)} ms, ` +
        `server ${median(runs.map((run) => run.server)).toFixed(3)} ms\n`,
    );
  }
}
