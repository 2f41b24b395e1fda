// Context overflow: how Ollama, vLLM and llama.cpp server say a prompt did not fit the model's context window.
import type { SentMessages } from './types.js';

/** What a server said about a prompt that did not fit: token counts when it gave them, and its own words. */
export interface ContextOverflow {
  /** Which behaviour was seen: an error reply of a server, or Ollama's silent truncation of a 200 reply. */
  source: 'vllm' | 'llama.cpp' | 'openai' | 'ollama' | 'ollama_truncated';
  /** Tokens of the prompt as the server counted them (absent when it did not say). */
  prompt_tokens?: number;
  /** The context window in tokens (vLLM's max_model_len, llama.cpp's n_ctx, Ollama's num_ctx). */
  context_tokens?: number;
  /** The server's message, or the counts of a silent truncation, as evidence. */
  detail: string;
}

/**
 * A prompt did not fit the model's context window. Not infrastructure: the strategy's history grew past the window
 * (the episode ends `budget_exhausted` with reason `context_exceeded`, a failure of the role that made the call).
 * Thrown by the Ollama and OpenAI-compatible backends; never retried.
 */
export class ContextExceededError extends Error {
  override readonly name = 'ContextExceededError';
  constructor(
    readonly overflow: ContextOverflow,
    /** What was sent (for the trace), when the backend has it. */
    readonly sent?: SentMessages,
  ) {
    super(`the prompt does not fit the model's context window: ${overflow.detail}`);
  }
}

const number = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));

/**
 * vLLM's wordings, newest first (every one HTTP 400):
 * - vllm/renderers/params.py (`TokenizeParams._token_len_check` / `_text_len_check`, vllm-project/vllm@017638d7):
 *   "You passed 5000 input tokens and requested 100 output tokens. However, the model's context length is only 4096
 *   tokens, resulting in a maximum input length of 3996 tokens. Please reduce the length of the input prompt."
 *   (and "You passed N input characters …" before tokenising);
 * - vllm/v1/engine/processor.py (`_validate_model_input`, vllm-project/vllm@01055a4b):
 *   "The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that …";
 * - vllm/entrypoints/openai/serving_engine.py (`_validate_prompt_and_tokenize`, vllm-project/vllm@0030b9ff):
 *   "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4900 in the messages,
 *   100 in the completion). Please reduce the length of the messages or completion." (and "… you requested 5000 tokens
 *   in the messages, Please reduce the length of the messages."); later releases: "… However, you requested 100
 *   output tokens and your prompt contains at least 4097 input tokens, for a total of at least 4197 tokens. …", and
 *   "'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is 4096 tokens
 *   and your request has 2778 input tokens (8000 > 4096 - 2778)."
 */
function vllmOverflow(message: string): ContextOverflow | undefined {
  let match = /You passed (\d+) input (tokens|characters) and requested \d+ output tokens\. However, the model's context length is only (\d+) tokens/i.exec(
    message,
  );
  if (match) {
    return { source: 'vllm', ...(match[2] === 'tokens' ? { prompt_tokens: number(match[1])! } : {}), context_tokens: number(match[3])!, detail: message };
  }
  match = /prompt \(length (\d+)\) is longer than the maximum model length of (\d+)/i.exec(message);
  if (match) return { source: 'vllm', prompt_tokens: number(match[1])!, context_tokens: number(match[2])!, detail: message };
  match = /maximum context length is (\d+) tokens/i.exec(message);
  if (match) {
    const prompt =
      /(\d+) in the messages/i.exec(message)?.[1] ??
      /prompt contains (?:at least )?(\d+) input tokens/i.exec(message)?.[1] ??
      /request has (\d+) input tokens/i.exec(message)?.[1] ??
      /you requested (\d+) tokens in the messages/i.exec(message)?.[1];
    return { source: 'vllm', ...(prompt === undefined ? {} : { prompt_tokens: number(prompt)! }), context_tokens: number(match[1])!, detail: message };
  }
  return undefined;
}

/**
 * llama.cpp server (ggml-org/llama.cpp tools/server): ERROR_TYPE_EXCEED_CONTEXT_SIZE is HTTP 400 with type
 * "exceed_context_size_error" (server-common.cpp `format_error_response`), and the error object carries
 * `n_prompt_tokens` and `n_ctx` (server-task.cpp `server_task_result_error::to_json`); the message is "request (5000
 * tokens) exceeds the available context size (4096 tokens), try increasing it" (server-context.cpp), in earlier builds
 * "the request exceeds the available context size, try increasing it".
 */
function llamaCppOverflow(message: string, body: Record<string, unknown> | undefined): ContextOverflow | undefined {
  const typed = body?.['type'] === 'exceed_context_size_error';
  if (!typed && !/exceeds? the available context size|exceed_context_size_error/i.test(message)) return undefined;
  const counts = /request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/i.exec(message);
  const prompt =
    typeof body?.['n_prompt_tokens'] === 'number' ? body['n_prompt_tokens'] : number(counts?.[1] ?? /"n_prompt_tokens":\s*(\d+)/.exec(message)?.[1]);
  const context = typeof body?.['n_ctx'] === 'number' ? body['n_ctx'] : number(counts?.[2] ?? /"n_ctx":\s*(\d+)/.exec(message)?.[1]);
  return {
    source: 'llama.cpp',
    ...(prompt === undefined ? {} : { prompt_tokens: prompt }),
    ...(context === undefined ? {} : { context_tokens: context }),
    detail: message,
  };
}

/**
 * The overflow an OpenAI-compatible server's error reply reports (vLLM, llama.cpp server), or undefined. `error` is
 * the openai client's APIError (its `status`, `message` and `error`: the body's `error` object), or any error whose
 * message carries one of the wordings above. A 5xx never counts (a server fault is not the prompt's size).
 */
export function openAIContextOverflow(error: unknown): ContextOverflow | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const record = error as { status?: unknown; message?: unknown; error?: unknown };
  if (typeof record.status === 'number' && record.status >= 500) return undefined;
  const body = record.error !== null && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : undefined;
  const message = typeof body?.['message'] === 'string' ? body['message'] : typeof record.message === 'string' ? record.message : '';
  const overflow = llamaCppOverflow(message, body) ?? vllmOverflow(message);
  if (overflow) return overflow;
  // OpenAI's own code for it (and LiteLLM's, relaying any provider).
  return body?.['code'] === 'context_length_exceeded' ? { source: 'openai', detail: message } : undefined;
}

/**
 * The overflow an Ollama error reply reports, or undefined: HTTP 400 "the input length exceeds the context length"
 * (ollama runner `errorInputTooLong`, seen on /api/chat and /api/embed), or a llama.cpp server overflow Ollama relays
 * as the text of its `{"error"}` (Ollama versions that run llama-server). `error` is the client's ResponseError
 * (`error` the server's value, `status_code`).
 */
export function ollamaContextOverflow(error: unknown): ContextOverflow | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const record = error as { status_code?: unknown; message?: unknown; error?: unknown };
  if (typeof record.status_code === 'number' && record.status_code >= 500) return undefined;
  const message = typeof record.error === 'string' ? record.error : typeof record.message === 'string' ? record.message : '';
  if (/input length exceeds the context length/i.test(message)) return { source: 'ollama', detail: message };
  const relayed = llamaCppOverflow(message, undefined);
  return relayed ? { ...relayed, source: 'ollama' } : undefined;
}

/**
 * Ollama's silent truncation: a prompt longer than `num_ctx` is cut to fit and the reply is a 200 whose
 * `prompt_eval_count` counts the tokens kept (ollama/ollama#3839, #17427; the llama runner logs "truncating input
 * prompt" limit=2048 prompt=3940 keep=5 new=2048). The prompt filled the window when the count is at least `numCtx`.
 * Versions that shift to half the window (num_ctx/2 + 2 tokens kept, ollama/ollama#17427) leave no count a client can
 * tell from a prompt of that size; the harness cannot see those without a tokenizer (decision 0022).
 */
export function ollamaTruncation(promptEvalCount: number | undefined, numCtx: number | undefined): ContextOverflow | undefined {
  if (promptEvalCount === undefined || numCtx === undefined || !(numCtx > 0) || promptEvalCount < numCtx) return undefined;
  return {
    source: 'ollama_truncated',
    prompt_tokens: promptEvalCount,
    context_tokens: numCtx,
    detail: `Ollama evaluated ${promptEvalCount} prompt tokens with num_ctx ${numCtx}: the prompt filled the context window and was truncated`,
  };
}
