// Configuration mistakes about model capabilities exit 2 before any episode (issue 25 §5): --think on a model without
// "thinking", native tools on a model without "tools", and an OpenAI-compatible server that refuses tool calls.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../src/models/preflight.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { startFakeOllama, type FakeOllama } from './support/fake-ollama-server.js';
import { AUTO_TOOL_CHOICE_ERROR, scriptedOpenAIReply, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai-server.js';
import { RUN_DEFAULTS, records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf } from './support/scripted-over-ollama.js';

let ollama: FakeOllama | undefined;
let openai: FakeOpenAI | undefined;
afterEach(async () => {
  await ollama?.close();
  await openai?.close();
  ollama = undefined;
  openai = undefined;
});

/** What a refused run threw; it must be a ConfigurationError (the CLI's exit 2). */
async function refusal(run: Promise<unknown>): Promise<ConfigurationError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return error as ConfigurationError;
}

/** No episode ran: no results folder with episodes, no chat request reached the model. */
function noEpisodes(out: string): void {
  expect(existsSync(join(out, 'episodes.jsonl'))).toBe(false);
}

const LLAMA3 = { name: 'llama3:8b', digest: `sha256:${'1'.repeat(64)}`, capabilities: ['completion', 'tools'] };

describe('Ollama models lacking a capability the run asks for', () => {
  it('--think on a model without "thinking": refused before any episode, naming model, host, capability and flag', async () => {
    ollama = await startFakeOllama({ models: [LLAMA3] });
    const out = join(scratch(), 'think');
    const error = await refusal(runInProcess({ out, model: 'ollama:llama3:8b', ollamaHost: ollama.url, strategies: 'react', think: true }));
    expect(error.message).toBe(
      `model "llama3:8b" on Ollama at ${ollama.url} does not support thinking (it reports: completion, tools): ` +
        '--think asks for thinking (agent, reporter); leave it off, or use a thinking model',
    );
    expect(ollama.chatCalls()).toEqual([]);
    noEpisodes(out);
  });

  it('--planner-think names the role flag; the same run on a thinking model goes ahead', async () => {
    ollama = await startFakeOllama({ models: [LLAMA3] });
    const out = join(scratch(), 'planner-think');
    const error = await refusal(
      runInProcess({ out, model: 'ollama:llama3:8b', ollamaHost: ollama.url, strategies: 'plan-up-front', tasks: 'fix-checkout-test', plannerThink: true }),
    );
    expect(error.message).toMatch(/does not support thinking \(it reports: completion, tools\): --planner-think asks for thinking \(planner\)/);
    noEpisodes(out);
    await ollama.close();

    ollama = await startFakeOllama({ reply: scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite)))) });
    const fine = join(scratch(), 'planner-think-ok');
    const run = await runInProcess({
      out: fine,
      model: 'ollama:qwen3:8b',
      ollamaHost: ollama.url,
      strategies: 'plan-up-front',
      tasks: 'fix-checkout-test',
      plannerThink: true,
    });
    expect(run.code).toBe(0);
    expect(records(fine)).toHaveLength(1);
  });

  it('--tool-calling native on a model without "tools": refused before any episode', async () => {
    ollama = await startFakeOllama({ models: [{ ...LLAMA3, capabilities: ['completion'] }] });
    const out = join(scratch(), 'tools');
    const error = await refusal(runInProcess({ out, model: 'ollama:llama3:8b', ollamaHost: ollama.url, strategies: 'react', toolCalling: 'native' }));
    expect(error.message).toBe(
      `model "llama3:8b" on Ollama at ${ollama.url} does not support tools (it reports: completion): ` +
        '--tool-calling native sends it tools; use --tool-calling json, or a model with tool support',
    );
    expect(ollama.chatCalls()).toEqual([]);
    noEpisodes(out);
  });
});

describe('an OpenAI-compatible server that refuses tool calls', () => {
  it('vLLM without --enable-auto-tool-choice: one probe, refused before any episode, naming server, model and the fix', async () => {
    openai = await startFakeOpenAI({ autoToolChoice: false });
    const out = join(scratch(), 'vllm-tools');
    const error = await refusal(runInProcess({ out, model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: openai.url, strategies: 'react', toolCalling: 'native' }));
    expect(error.message).toBe(
      `the OpenAI-compatible server at ${openai.url} refuses tool calls for "Qwen/Qwen3-8B" (HTTP 400: ${AUTO_TOOL_CHOICE_ERROR}); ` +
        '--tool-calling native needs them: start vLLM with --enable-auto-tool-choice --tool-call-parser <parser for the model>, or run with --tool-calling json',
    );
    const probes = openai.completionCalls();
    expect(probes).toHaveLength(1);
    expect(probes[0]?.body).toMatchObject({ model: 'Qwen/Qwen3-8B', max_tokens: 1, tool_choice: 'auto', tools: [{ type: 'function' }] });
    noEpisodes(out);
  });

  it('no probe when the run sends no tools (--tool-calling json), and the run goes ahead on that server', async () => {
    openai = await startFakeOpenAI({ autoToolChoice: false, reply: scriptedOpenAIReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite)))) });
    const out = join(scratch(), 'vllm-json');
    const run = await runInProcess({ out, model: 'openai:Qwen/Qwen3-8B', openaiBaseUrl: openai.url, strategies: 'react', tasks: 'fix-checkout-test' });
    expect(run.code).toBe(0);
    expect(records(out).map((record) => record.success)).toEqual([true]);
    expect(openai.completionCalls().every((call) => call.body.tools === undefined)).toBe(true);
  });
});
