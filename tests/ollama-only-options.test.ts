// --num-ctx and --keep-alive are Ollama request options: with only openai: models they would be silently ignored, so
// `run` refuses them (exit 2) before contacting the server; a run that mixes backends warns that they apply to its
// Ollama roles only (issue 29 §4).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOllamaOnlyOptions } from '../src/runner/openai-setup.js';
import type { Role } from '../src/models/types.js';
import { scratch, startStratbench } from './support/cli.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A vLLM-like /v1 on 127.0.0.1 listing one model; counts the requests it gets. */
async function fakeVllm(): Promise<{ baseURL: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const body = JSON.stringify({
      object: 'list',
      data: [{ id: 'Qwen/Qwen3-8B', object: 'model', owned_by: 'vllm', root: 'Qwen/Qwen3-8B', max_model_len: 32768 }],
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

/** Runs the built CLI without blocking this process (the fake server must answer); its exit code and stderr. */
async function run(args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = startStratbench(args);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.resume();
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, stderr };
}

const ROLES_OPENAI = (spec: string): Record<Role, string> =>
  ({ direct: spec, agent: spec, planner: spec, executor: spec, reporter: spec, replanner: spec, gate: spec }) as Record<Role, string>;

describe('Ollama-only options with openai: models', () => {
  it('run --num-ctx with only openai: models exits 2 before contacting the server or writing a folder', async () => {
    const { baseURL, requests } = await fakeVllm();
    const out = join(scratch(), 'results');
    const { status, stderr } = await run(['run', '--model', 'openai:Qwen/Qwen3-8B', '--openai-base-url', baseURL, '--num-ctx', '16384', '--out', out]);
    expect({ status, requests, folder: existsSync(out) }).toEqual({ status: 2, requests: [], folder: false });
    expect(stderr).toContain(
      '--num-ctx is an Ollama option: no role of this run is served by Ollama, and openai:Qwen/Qwen3-8B (OpenAI-compatible) would ignore it; set the context window where the server starts (vllm serve --max-model-len N, llama-server -c N). Leave it out.',
    );
  });

  it('run --role-option planner.keep_alive=1h for a role served by openai: exits 2 naming the role', async () => {
    const { baseURL, requests } = await fakeVllm();
    const { status, stderr } = await run([
      'run',
      '--model',
      'openai:Qwen/Qwen3-8B',
      '--openai-base-url',
      baseURL,
      '--role-option',
      'planner.keep_alive=1h',
      '--out',
      join(scratch(), 'results'),
    ]);
    expect({ status, requests }).toEqual({ status: 2, requests: [] });
    expect(stderr).toContain(
      '--role-option planner.keep_alive: the planner role is served by openai:Qwen/Qwen3-8B, an OpenAI-compatible server, which has no keep_alive request option (Ollama only); these servers keep their model loaded while they run',
    );
  });

  it('both flags are named together; defaults (flags not given), scripted-only runs and Ollama runs pass', () => {
    const used: Role[] = ['planner', 'executor'];
    expect(() => checkOllamaOnlyOptions(ROLES_OPENAI('openai:m'), used, new Set(['numCtx', 'keepAlive']), {})).toThrow(
      /^--num-ctx and --keep-alive are Ollama options: .* would ignore them; set the context window .*; these servers keep their model loaded while they run\. Leave them out\.$/,
    );
    expect(checkOllamaOnlyOptions(ROLES_OPENAI('openai:m'), used, new Set(['model', 'temperature']), {})).toEqual([]);
    expect(checkOllamaOnlyOptions(ROLES_OPENAI('scripted'), used, new Set(['numCtx']), {})).toEqual([]);
    expect(checkOllamaOnlyOptions(ROLES_OPENAI('ollama:qwen3:8b'), used, new Set(['numCtx', 'keepAlive']), { planner: { num_ctx: 16_384 } })).toEqual([]);
  });

  it('mixed backends: a warning that the flag applies to the Ollama roles (or an Ollama judge) only', () => {
    const specs = { ...ROLES_OPENAI('openai:Qwen/Qwen3-8B'), planner: 'ollama:qwen3:32b' };
    expect(checkOllamaOnlyOptions(specs, ['planner', 'executor'], new Set(['numCtx']), {})).toEqual([
      'warning: --num-ctx applies to the Ollama-served planner only; executor (openai:Qwen/Qwen3-8B) ignore it: set the context window where the server starts (vllm serve --max-model-len N, llama-server -c N)',
    ]);
    expect(checkOllamaOnlyOptions(ROLES_OPENAI('openai:m'), ['executor'], new Set(['keepAlive']), {}, 'ollama:qwen3:8b')).toEqual([
      'warning: --keep-alive applies to the Ollama-served judge only; executor (openai:m) ignore it: these servers keep their model loaded while they run',
    ]);
  });
});
