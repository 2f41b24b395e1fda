// The model-backend flags shared by `run` and `judge-check`: Ollama and OpenAI-compatible hosts, call options, cache.
import type { Role } from '../models/types.js';

/** `--<role>-think [bool]`: thinking for one role only (`plannerThink`…), over `--think`. */
export type RoleThinkOptions = { [R in Role as `${R}Think`]?: boolean };

/**
 * The backend flags as commander hands them over (names camel-cased, numbers already parsed and bounded by cli.ts), or
 * as `--resume` reads them back from run.json (`ollama_flags`, `openai_flags`). Read by ollamaRunConfig and
 * openaiRunConfig; an absent flag takes the default named on it.
 */
export interface BackendOptions extends RoleThinkOptions {
  /** `--ollama-host`: one URL or several separated by commas (default: $OLLAMA_HOST, else http://127.0.0.1:11434). */
  ollamaHost?: string;
  /** `--openai-base-url`: ending in /v1, one or several separated by commas (default: $OPENAI_BASE_URL, else http://127.0.0.1:8000/v1). */
  openaiBaseUrl?: string;
  /** `--host-concurrency`: model calls in flight per host when a model has several (default: concurrency / hosts, rounded up). */
  hostConcurrency?: number;
  /** `--tool-calling`: actions as JSON (default) or through the server's `tools` field. */
  toolCalling?: 'json' | 'native';
  /** `--temperature`, 0–2 (default 0, OLLAMA_DEFAULT_OPTIONS). */
  temperature?: number;
  /** `--num-ctx`: context window, tokens (default 8192, OLLAMA_DEFAULT_OPTIONS). */
  numCtx?: number;
  /** `--num-predict`: cap on tokens generated per call, thinking included (default: none). */
  numPredict?: number;
  /** `--think`: let thinking models think before replying (default false). */
  think?: boolean;
  /** `--keep-alive`: a duration (`30m`) or seconds (`-1` keeps the model loaded; default 30m). */
  keepAlive?: string | number;
  /** `--timeout-ms`: abort a model call after this many ms (an infrastructure error; default: none). */
  timeoutMs?: number;
  /** `--cache`: store Ollama replies on disk and reuse them. */
  cache?: boolean;
  /** `--cache-dir`: the response cache folder; implies `cache` (default DEFAULT_CACHE_DIR, models/response-cache.ts). */
  cacheDir?: string;
  /** `--role-option ROLE.KEY=VALUE`, repeatable (parseRoleOptions). */
  roleOption?: string[];
}
