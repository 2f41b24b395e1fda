// "The same model on every host" for OpenAI-compatible servers (issue 29 §4): llama.cpp's /v1/models has no `root`
// nor `max_model_len`, so its `owned_by` and `meta` are compared; one vLLM checkpoint served from different paths is one
// checkpoint; and the README's `vllm serve` / `llama-server` examples list the id its `stratbench run` line asks for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Role } from '../src/models/types.js';
import { checkpointName, identityDifference, openaiRunConfig, prepareOpenAIModels } from '../src/runner/openai-setup.js';
import { LLAMA_CPP_META, startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from './support/fake-openai-server.js';
import { ROOT } from './support/cli.js';

const servers: FakeOpenAI[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function host(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}

const specs = (spec: string): Record<Role, string> =>
  ({ direct: spec, agent: spec, planner: spec, executor: spec, reporter: spec, replanner: spec, gate: spec }) as Record<Role, string>;

/** Preflight of `openai:<model>` over `urls` as `run` does it: the models recorded, or the refusal's message. */
async function preflight(urls: string[], model = 'Qwen/Qwen3-8B'): Promise<unknown> {
  const config = openaiRunConfig({ openaiBaseUrl: urls.join(',') }, {}, {});
  return prepareOpenAIModels(specs(`openai:${model}`), ['planner'], config).then(
    (info) => ({ models: info?.models }),
    (error: Error) => ({ error: `${error.name}: ${error.message}` }),
  );
}

describe('preflight identity of OpenAI-compatible hosts', () => {
  it('llama.cpp: two hosts with the same GGUF pass and its meta is recorded; another quantisation (size, ftype) is refused', async () => {
    const a = await host({ flavour: 'llama.cpp' });
    const b = await host({ flavour: 'llama.cpp' });
    expect(await preflight([a.url, b.url])).toEqual({
      models: { 'Qwen/Qwen3-8B': { id: 'Qwen/Qwen3-8B', owned_by: 'llamacpp', meta: { ...LLAMA_CPP_META, n_ctx: 32768 } } },
    });
    const q8 = await host({ flavour: 'llama.cpp', meta: { size: 8_709_519_872, ftype: 7 } });
    expect(await preflight([a.url, q8.url])).toEqual({
      error: `ConfigurationError: the OpenAI-compatible server at ${q8.url} serves "Qwen/Qwen3-8B" with meta.ftype 7, but ${a.url} serves meta.ftype 15; every server of a run must serve the same model`,
    });
    const smallWindow = await host({ flavour: 'llama.cpp', maxModelLen: 4096 });
    expect(await preflight([a.url, smallWindow.url])).toMatchObject({ error: expect.stringContaining('with meta.n_ctx 4096, but') });
  });

  it('a llama.cpp host beside a vLLM host serving the same id is refused (owned_by: different weights)', async () => {
    const vllm = await host({});
    const llama = await host({ flavour: 'llama.cpp' });
    expect(await preflight([vllm.url, llama.url])).toEqual({
      error: `ConfigurationError: the OpenAI-compatible server at ${llama.url} serves "Qwen/Qwen3-8B" with owned_by llamacpp, but ${vllm.url} serves owned_by vllm; every server of a run must serve the same model`,
    });
  });

  it('vLLM: one checkpoint served from two paths, or from the Hugging Face cache, passes; another checkpoint is refused', async () => {
    const a = await host({ roots: { 'Qwen/Qwen3-8B': '/mnt/a/Qwen3-8B' } });
    const b = await host({ roots: { 'Qwen/Qwen3-8B': '/data/models/Qwen3-8B/' } });
    const cache = await host({
      roots: { 'Qwen/Qwen3-8B': '/root/.cache/huggingface/hub/models--Qwen--Qwen3-8B/snapshots/9c925d64d72725edaf899c6cb9c377fd0709d9c5' },
    });
    expect(await preflight([a.url, b.url, cache.url])).toMatchObject({ models: { 'Qwen/Qwen3-8B': { root: '/mnt/a/Qwen3-8B' } } });
    const awq = await host({ roots: { 'Qwen/Qwen3-8B': '/mnt/a/Qwen3-8B-AWQ' } });
    expect(await preflight([a.url, awq.url])).toMatchObject({ error: expect.stringContaining('with root /mnt/a/Qwen3-8B-AWQ, but') });
  });

  it('vLLM: a training checkpoint (checkpoint-N, global_stepN, …) is its run directory and step: one run from two mounts passes, two runs refuse', async () => {
    const a = await host({ roots: { 'Qwen/Qwen3-8B': '/ckpt/run-a/checkpoint-1000' } });
    const mounted = await host({ roots: { 'Qwen/Qwen3-8B': '/mnt/nfs/experiments/run-a/checkpoint-1000/' } });
    expect(await preflight([a.url, mounted.url])).toMatchObject({ models: { 'Qwen/Qwen3-8B': { root: '/ckpt/run-a/checkpoint-1000' } } });
    const b = await host({ roots: { 'Qwen/Qwen3-8B': '/ckpt/run-b/checkpoint-1000' } });
    expect(await preflight([a.url, b.url])).toEqual({
      error: `ConfigurationError: the OpenAI-compatible server at ${b.url} serves "Qwen/Qwen3-8B" with root /ckpt/run-b/checkpoint-1000, but ${a.url} serves root /ckpt/run-a/checkpoint-1000; every server of a run must serve the same model`,
    });
  });

  it('training checkpoint names keep their run directory', () => {
    expect(
      [
        '/ckpt/run-a/checkpoint-1000',
        'D:\\runs\\sft-v2\\global_step500\\',
        './out/dpo/step-200',
        '/x/lora/epoch_3',
        '/m/pretrain/iter_0001000',
        '/checkpoint-1000',
        '../checkpoint-1000',
        '/models/checkpoints',
        'org/checkpoint-1000',
      ].map(checkpointName),
    ).toEqual([
      { name: 'run-a/checkpoint-1000', path: true },
      { name: 'sft-v2/global_step500', path: true },
      { name: 'dpo/step-200', path: true },
      { name: 'lora/epoch_3', path: true },
      { name: 'pretrain/iter_0001000', path: true },
      { name: 'checkpoint-1000', path: true },
      { name: 'checkpoint-1000', path: true },
      { name: 'checkpoints', path: true },
      { name: 'org/checkpoint-1000', path: false },
    ]);
  });

  it('checkpoint names and differences field by field', () => {
    expect(
      ['Qwen/Qwen3-8B', '/mnt/a/Qwen3-8B/', './Qwen3-8B', 'C:\\models\\Qwen3-8B', '~/hf/models--Qwen--Qwen3-8B/snapshots/abc/'].map(checkpointName),
    ).toEqual([
      { name: 'Qwen/Qwen3-8B', path: false },
      { name: 'Qwen3-8B', path: true },
      { name: 'Qwen3-8B', path: true },
      { name: 'Qwen3-8B', path: true },
      { name: 'Qwen/Qwen3-8B', path: false },
    ]);
    const entry = { id: 'm' };
    expect([
      identityDifference({ ...entry, root: 'Qwen/Qwen3-8B' }, { ...entry, root: 'someone/Qwen3-8B' }),
      identityDifference({ ...entry, root: 'Qwen/Qwen3-8B' }, { ...entry, root: '/srv/Qwen3-8B' }),
      identityDifference({ ...entry, max_model_len: 32768 }, { ...entry, max_model_len: 8192 }),
      identityDifference({ ...entry, meta: { n_params: 1 } }, { ...entry }),
      identityDifference({ ...entry, owned_by: 'vllm' }, { ...entry }),
    ]).toEqual([
      { field: 'root', ours: 'Qwen/Qwen3-8B', theirs: 'someone/Qwen3-8B' },
      undefined,
      { field: 'max_model_len', ours: '32768', theirs: '8192' },
      undefined,
      undefined,
    ]);
  });
});

describe("the README's server examples", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Running with an OpenAI-compatible server'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const asked = /--model openai:(\S+)/.exec(block)![1]!;

  it('vllm serve MODEL lists MODEL (no --served-model-name), the id the run line asks for', async () => {
    const served = /vllm serve (\S+)/.exec(block)![1]!;
    const vllm = await host({ models: [served] });
    expect(await preflight([vllm.url], asked)).toMatchObject({ models: { [asked]: { id: asked, owned_by: 'vllm' } } });
  });

  it('llama-server lists its --alias: the one in the example is the id the run line asks for; without it, preflight refuses', async () => {
    const line = block.split('\n').find((text) => text.includes('llama-server'))!;
    const alias = /--alias (\S+)/.exec(line)?.[1];
    const file = /-m (\S+)/.exec(line)![1]!;
    const llama = await host({ flavour: 'llama.cpp', models: [alias ?? file] });
    expect(await preflight([llama.url], asked)).toMatchObject({ models: { [asked]: { id: asked, owned_by: 'llamacpp' } } });
    const bare = await host({ flavour: 'llama.cpp', models: [file] });
    expect(await preflight([bare.url], asked)).toEqual({
      error: `ConfigurationError: the OpenAI-compatible server at ${bare.url} does not serve "${asked}"; it serves: ${file}`,
    });
  });
});
