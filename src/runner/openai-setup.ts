// Turns a run's OpenAI-compatible flags into ChatModels: base URL, key, tool-calling mode, preflight via /v1/models.
import { createOpenAIModel, preflightOpenAI, resolveOpenAIBaseUrl, type OpenAIModelConfig, type OpenAIPreflightModel } from '../models/openai.js';
import { parseModelSpec } from '../models/registry.js';
import type { ChatModel, ChatOptions, Role } from '../models/types.js';
import { ollamaToolSpecs, type ToolCallingMode } from './ollama-setup.js';
import { UsageError } from './usage-error.js';

/** Commander names of the OpenAI-compatible flags, saved in run.json so `--resume` continues with the same ones. */
export const OPENAI_OPTION_KEYS: readonly string[] = ['openaiBaseUrl'];

/** The OpenAI-compatible part of a run's configuration. */
export interface OpenAIRunConfig {
  /** `--openai-base-url`, else OPENAI_BASE_URL, else http://127.0.0.1:8000/v1 (vLLM's default). */
  baseURL: string;
  /** OPENAI_API_KEY (never written to run.json). */
  apiKey?: string;
  toolCalling: ToolCallingMode;
  /** Run-wide options (temperature, seed per episode, num_predict → max_tokens, think, timeout_ms). */
  options: ChatOptions;
}

/** What run.json records about the OpenAI-compatible side of a run (no key). */
export interface OpenAIRunInfo {
  base_url: string;
  /** Keyed by the model id as given: what /v1/models lists about it. */
  models: Record<string, OpenAIPreflightModel>;
  tool_calling: ToolCallingMode;
}

/** Injected by tests: transport and retry timing of every OpenAI-compatible model of the run. */
export type OpenAIDependencies = Pick<OpenAIModelConfig, 'fetch' | 'retry' | 'clock'>;

/**
 * Reads the flags from the `run` options; `options` holds the run-wide ChatOptions already resolved (the Ollama
 * flags of the same names apply to every backend). Throws UsageError for a base URL that is not http(s).
 */
export function openaiRunConfig(options: Record<string, unknown>, chatOptions: ChatOptions, env: NodeJS.ProcessEnv = process.env): OpenAIRunConfig {
  const baseURL = resolveOpenAIBaseUrl(typeof options['openaiBaseUrl'] === 'string' ? options['openaiBaseUrl'] : undefined, env);
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new UsageError(`"${baseURL}" is not a usable base URL (from --openai-base-url or OPENAI_BASE_URL); e.g. http://127.0.0.1:8000/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`OpenAI base URL ${baseURL} must use http or https`);
  const { keep_alive: _keepAlive, num_ctx: _numCtx, ...options_ } = chatOptions;
  return {
    baseURL,
    ...(env['OPENAI_API_KEY'] ? { apiKey: env['OPENAI_API_KEY'] } : {}),
    toolCalling: options['toolCalling'] === 'native' ? 'native' : 'json',
    options: options_,
  };
}

/** The `openai` factory for `buildModels`: one backend per model id with the run's base URL, mode, tools and options. */
export function openaiModelFactory(config: OpenAIRunConfig, deps: OpenAIDependencies = {}): (model: string) => ChatModel {
  const tools = config.toolCalling === 'native' ? ollamaToolSpecs() : [];
  return (model) =>
    createOpenAIModel({
      model,
      baseURL: config.baseURL,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      toolCalling: config.toolCalling,
      tools,
      options: config.options,
      ...deps,
    });
}

/** The distinct OpenAI-compatible model ids serving `roles`. */
export function openaiModelNames(specs: Record<Role, string>, roles: readonly Role[]): string[] {
  const names = roles.map((role) => parseModelSpec(specs[role])).flatMap((spec) => (spec.backend === 'openai' ? [spec.model] : []));
  return [...new Set(names)].sort();
}

/**
 * Preflight when any of `roles` is served by an `openai:` model: GET /v1/models must list every one. Returns what
 * run.json records, or undefined when no role uses the backend (nothing is contacted). Throws ConfigurationError
 * (exit 2) naming the base URL or the missing model.
 */
export async function prepareOpenAIModels(
  specs: Record<Role, string>,
  roles: readonly Role[],
  config: OpenAIRunConfig,
  deps: OpenAIDependencies = {},
): Promise<OpenAIRunInfo | undefined> {
  const names = openaiModelNames(specs, roles);
  if (names.length === 0) return undefined;
  const preflight = await preflightOpenAI(config.baseURL, names, {
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
  });
  return { base_url: config.baseURL, models: preflight.models, tool_calling: config.toolCalling };
}

/** One line for the table header, e.g. "openai-compatible server at http://…/v1: tool calling json; models Qwen/Qwen3-8B". */
export function openaiHeaderNote(info: OpenAIRunInfo): string {
  return `openai-compatible server at ${info.base_url}: tool calling ${info.tool_calling}; models ${Object.keys(info.models).join(', ')}`;
}
