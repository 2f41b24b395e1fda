// The Ollama flags as a user types them: the real CLI (src/cli.ts through tsx) against fake servers on 127.0.0.1.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeChatRequest, type FakeModel, type FakeOllama } from './support/fake-ollama-server.js';
import { scratch, startScriptedOllama, RUN_DEFAULTS } from './support/scripted-over-ollama.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODELS: FakeModel[] = [
  { name: 'qwen3:8b', digest: 'sha256:' + '8'.repeat(64) },
  { name: 'qwen3:32b', digest: 'sha256:' + '3'.repeat(64) },
];

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `stratbench <args>` from the sources (node --import tsx src/cli.ts) without blocking this process,
 * so the fake server in this process can answer it. OLLAMA_HOST is unset unless `env` sets it.
 */
function stratbench(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const { OLLAMA_HOST: _ignored, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...base, FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// Tests run concurrently (each waits on a child process): servers are closed once, after all of them.
const servers: FakeOllama[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function fake(options: Parameters<typeof startFakeOllama>[0] = {}): Promise<FakeOllama> {
  const server = await startFakeOllama(options);
  servers.push(server);
  return server;
}

describe.concurrent('stratbench run with Ollama models', () => {
  it('exits 2 with "cannot reach Ollama at HOST" before any episode when nothing listens', async () => {
    const closed = await startFakeOllama();
    const url = closed.url;
    await closed.close();
    const out = join(scratch(), 'out');
    const result = await stratbench(['run', '--model', 'ollama:qwen3:8b', '--ollama-host', url, '--out', out, '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^stratbench: cannot reach Ollama at ${url}: .*ECONNREFUSED`));
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 naming a missing model and `ollama pull`, with the host taken from OLLAMA_HOST', async () => {
    const server = await fake({ models: [MODELS[0]!] });
    const out = join(scratch(), 'out');
    const args = ['run', '--planner-model', 'ollama:qwen3:32b', '--executor-model', 'ollama:qwen3:8b', '--strategies', 'plan-up-front', '--out', out];
    const result = await stratbench(args, { OLLAMA_HOST: server.url.replace('http://', '') });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`model "qwen3:32b" is not available on Ollama at ${server.url}; pull it with \`ollama pull qwen3:32b\``);
    expect(result.stderr).toContain('(models on the server: qwen3:8b)');
    expect(server.chatCalls()).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 when --tool-calling native meets a model without the tools capability', async () => {
    const server = await fake({ models: [{ ...MODELS[0]!, capabilities: ['completion'] }] });
    const args = ['run', '--model', 'ollama:qwen3:8b', '--strategies', 'react', '--tool-calling', 'native', '--ollama-host', server.url];
    const result = await stratbench([...args, '--out', join(scratch(), 'out')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `model "qwen3:8b" on Ollama at ${server.url} does not support tools (it reports: completion): --tool-calling native sends it tools`,
    );
  });

  it('serves roles from different models with per-role options, and records server, digests, mode and options', async () => {
    const server = await startScriptedOllama({ suitePath: String(RUN_DEFAULTS.suite), models: MODELS });
    servers.push(server);
    const out = join(scratch(), 'out');
    const result = await stratbench([
      'run',
      '--wide',
      '--model',
      'scripted',
      '--planner-model',
      'ollama:qwen3:32b',
      '--executor-model',
      'ollama:qwen3:8b',
      '--strategies',
      'plan-up-front',
      '--tasks',
      'default-currency,fix-checkout-test',
      '--ollama-host',
      server.url,
      '--tool-calling',
      'native',
      '--temperature',
      '0.2',
      '--num-ctx',
      '4096',
      '--num-predict',
      '512',
      '--keep-alive',
      '5m',
      '--timeout-ms',
      '20000',
      '--planner-think',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(result.stderr).not.toMatch(/crashed/);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('models: planner=ollama:qwen3:32b executor=ollama:qwen3:8b reporter=scripted');
    expect(result.stdout).toContain(
      `note: ollama 0.12.0 at ${server.url}: tool calling native, temperature 0.2, num_ctx 4096, num_predict 512, think false, keep_alive 5m, timeout_ms 20000, planner think true`,
    );

    const bodies = server.chatCalls().map((call) => call.body as FakeChatRequest);
    const planner = bodies.filter((body) => body.model === 'qwen3:32b');
    const executor = bodies.filter((body) => body.model === 'qwen3:8b');
    expect(planner).toHaveLength(2);
    expect(executor.length).toBeGreaterThan(2);
    expect(bodies).toHaveLength(planner.length + executor.length); // the reporter is scripted: no HTTP
    for (const body of planner) {
      expect({ think: body.think, keep_alive: body.keep_alive, tools: body.tools, format: typeof body.format }).toEqual({
        think: true,
        keep_alive: '5m',
        tools: undefined,
        format: 'object',
      });
      expect(body.options).toEqual({ temperature: 0.2, num_ctx: 4096, num_predict: 512, seed: expect.any(Number) });
    }
    for (const body of executor) {
      expect({ think: body.think, format: body.format, tools: (body.tools ?? []).length }).toEqual({ think: false, format: undefined, tools: 10 });
    }
    // Preflight asked /api/show for the model of the tool-calling role ("tools") and of the thinking planner ("thinking") only.
    expect(server.calls.filter((call) => call.path === '/api/show').map((call) => (call.body as { model: string }).model)).toEqual(['qwen3:8b', 'qwen3:32b']);

    const episodes = readFileSync(join(out, 'episodes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { success: boolean; models: unknown });
    expect(episodes.map((record) => record.models)).toEqual(
      [0, 1].map(() => ({ planner: 'ollama:qwen3:32b', executor: 'ollama:qwen3:8b', reporter: 'scripted' })),
    );
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as Record<string, any>;
    expect(run.models).toEqual({ planner: 'ollama:qwen3:32b', executor: 'ollama:qwen3:8b', reporter: 'scripted' });
    expect({
      ...run.ollama,
      models: Object.fromEntries(Object.entries(run.ollama.models).map(([name, model]) => [name, (model as { digest: string }).digest])),
    }).toEqual({
      host: server.url,
      server_version: '0.12.0',
      models: { 'qwen3:32b': MODELS[1]!.digest, 'qwen3:8b': MODELS[0]!.digest },
      tool_calling: 'native',
      options: { temperature: 0.2, num_ctx: 4096, num_predict: 512, think: false, keep_alive: '5m', timeout_ms: 20000 },
      role_options: { planner: { think: true } },
      cache: null,
    });
    expect(run.ollama.models['qwen3:8b'].capabilities).toEqual(['completion', 'tools', 'thinking']);
  });

  it.each([
    [['--tool-calling', 'xml'], /argument 'xml' is invalid/],
    [['--think', 'maybe'], /--think takes true or false, got "maybe"/],
  ])('run %j exits 2 naming the bad value', async (args, message) => {
    const result = await stratbench(['run', '--model', 'ollama:qwen3:8b', ...args, '--out', join(scratch(), 'out')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('stratbench cache clear', () => {
  it('deletes the cached replies in --cache-dir and leaves other files alone', async () => {
    const dir = join(scratch(), 'cache');
    mkdirSync(dir);
    writeFileSync(join(dir, `${'a'.repeat(64)}.json`), '{}');
    writeFileSync(join(dir, `${'b'.repeat(64)}.json`), '{}');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const result = await stratbench(['cache', 'clear', '--cache-dir', dir]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`removed 2 cached replies from ${dir}\n`);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });
});
