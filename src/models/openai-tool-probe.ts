// Preflight of native tool calls on an OpenAI-compatible server: one 1-token request with tools, before any episode.
import { ConfigurationError } from './preflight.js';
import { modelFetch } from './model-fetch.js';
import { errorMessage, replyTooLarge } from './retry.js';
import type { ToolSpec } from './tool-calling.js';

/**
 * Sends `model` at `baseURL` one chat completion as a native tool-calling role sends it — `tools` (the first of
 * `tools`), tool_choice "auto" (what vLLM assumes when a request has tools), `max_tokens` 1 — and resolves when the
 * server answers 2xx. A vLLM started without `--enable-auto-tool-choice --tool-call-parser` refuses every such call
 * with HTTP 400 `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`
 * (vllm/entrypoints/openai/serving_chat.py, `create_chat_completion`); without this probe each episode would end in
 * an error. Throws `ConfigurationError` (exit 2) naming the server, the model and the server's words, for any refusal
 * or failure of the probe (a reply past MAX_REPLY_BYTES, 16 MiB: "cannot use the OpenAI-compatible server at URL: …").
 * Costs one output token.
 */
export async function probeToolCalls(
  baseURL: string,
  model: string,
  tools: readonly ToolSpec[],
  options: { fetch?: typeof fetch; apiKey?: string; timeoutMs?: number } = {},
): Promise<void> {
  const OpenAI = (await import('openai')).default;
  const client = new OpenAI({
    baseURL,
    apiKey: options.apiKey ?? process.env['OPENAI_API_KEY'] ?? 'sk-stratbench-local',
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
    fetch: options.fetch ?? modelFetch,
  });
  const tool = tools[0];
  if (tool === undefined) throw new Error('probeToolCalls needs at least one tool');
  try {
    await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Reply with OK.' }],
      max_tokens: 1,
      temperature: 0,
      tools: [{ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }],
      tool_choice: 'auto',
    });
  } catch (error) {
    const tooLarge = replyTooLarge(error);
    if (tooLarge) throw new ConfigurationError(`cannot use the OpenAI-compatible server at ${baseURL}: ${tooLarge.message}`, { cause: error });
    const status = error instanceof OpenAI.APIError && error.status !== undefined ? `HTTP ${error.status}: ` : '';
    const words = error instanceof OpenAI.APIError && error.status !== undefined ? String(error.message).replace(/^\d{3} /, '') : errorMessage(error);
    throw new ConfigurationError(
      `the OpenAI-compatible server at ${baseURL} refuses tool calls for "${model}" (${status}${words}); --tool-calling native needs them: ` +
        'start vLLM with --enable-auto-tool-choice --tool-call-parser <parser for the model>, or run with --tool-calling json',
      { cause: error },
    );
  }
}
