// Turns a run's OpenAI-compatible flags into ChatModels: base URL, key, tool-calling mode, preflight via /v1/models.
import { createOpenAIModel, preflightOpenAI, resolveOpenAIBaseUrl, type OpenAIModelConfig, type OpenAIPreflightModel } from '../models/openai.js';
import { parseModelSpec } from '../models/registry.js';
import { ConfigurationError } from '../models/preflight.js';
import { createHostPool, defaultHostConcurrency, httpProbe } from '../models/host-pool.js';
import { modelFetch } from '../models/model-fetch.js';
import type { ChatModel, ChatOptions, Role } from '../models/types.js';
import { refuseEmptyEntry, refuseRepeatedHost } from './host-list.js';
import { ollamaToolSpecs, TOOL_ROLES, type HostPools, type ToolCallingMode } from './ollama-setup.js';
import { probeToolCalls } from '../models/openai-tool-probe.js';
import { UsageError } from './usage-error.js';

/** Commander names of the OpenAI-compatible flags, saved in run.json so `--resume` continues with the same ones. */
export const OPENAI_OPTION_KEYS: readonly string[] = ['openaiBaseUrl', 'hostConcurrency'];

/** The OpenAI-compatible part of a run's configuration. */
export interface OpenAIRunConfig {
  /** The first of `baseURLs` (the only one, as a rule). */
  baseURL: string;
  /** `--openai-base-url`, else OPENAI_BASE_URL, else http://127.0.0.1:8000/v1 (vLLM's default), split on commas. */
  baseURLs: string[];
  /** `--host-concurrency`: calls in flight per server when there are several (default: `defaultHostConcurrency`). */
  hostConcurrency?: number;
  /** OPENAI_API_KEY (never written to run.json). */
  apiKey?: string;
  toolCalling: ToolCallingMode;
  /** Run-wide options (temperature, seed per episode, num_predict → max_tokens, think, timeout_ms). */
  options: ChatOptions;
}

/** What run.json records about the OpenAI-compatible side of a run (no key). */
export interface OpenAIRunInfo {
  base_url: string;
  /** Every server, when the run has several (each preflighted: the same /v1/models entry as the first). */
  base_urls?: string[];
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
  const given = resolveOpenAIBaseUrl(typeof options['openaiBaseUrl'] === 'string' ? options['openaiBaseUrl'] : undefined, env);
  const baseURLs = given
    .split(',')
    .map((part) => part.trim().replace(/\/+$/, ''))
    .filter((part) => part !== '');
  if (baseURLs.length === 0)
    throw new UsageError(`--openai-base-url / OPENAI_BASE_URL "${given}" names no server; e.g. http://gpu1:8000/v1,http://gpu2:8000/v1`);
  refuseEmptyEntry('--openai-base-url / OPENAI_BASE_URL', given, 'http://gpu1:8000/v1,http://gpu2:8000/v1', (entry) => entry.replace(/\/+$/, ''));
  refuseRepeatedHost('--openai-base-url / OPENAI_BASE_URL', baseURLs);
  for (const baseURL of baseURLs) {
    let url: URL;
    try {
      url = new URL(baseURL);
    } catch {
      throw new UsageError(`"${baseURL}" is not a usable base URL (from --openai-base-url or OPENAI_BASE_URL); e.g. http://127.0.0.1:8000/v1`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`OpenAI base URL ${baseURL} must use http or https`);
  }
  const { keep_alive: _keepAlive, num_ctx: _numCtx, ...options_ } = chatOptions;
  return {
    baseURL: baseURLs[0]!,
    baseURLs,
    ...(typeof options['hostConcurrency'] === 'number' ? { hostConcurrency: options['hostConcurrency'] } : {}),
    ...(env['OPENAI_API_KEY'] ? { apiKey: env['OPENAI_API_KEY'] } : {}),
    toolCalling: options['toolCalling'] === 'native' ? 'native' : 'json',
    options: options_,
  };
}

/**
 * The `openai` factory for `buildModels`: one backend per model id with the run's base URL, mode, tools and options.
 * With several base URLs, one backend per server (no retries of its own) behind `createHostPool`: at most
 * `config.hostConcurrency` (default ceil(`concurrency` / servers)) calls per server, probed at GET /models; each pool
 * is added to `pools` under the model's spec.
 */
export function openaiModelFactory(
  config: OpenAIRunConfig,
  deps: OpenAIDependencies = {},
  pooling: { concurrency: number; pools: HostPools } = { concurrency: 1, pools: new Map() },
): (model: string) => ChatModel {
  const tools = config.toolCalling === 'native' ? ollamaToolSpecs() : [];
  const build = (model: string, baseURL: string, retry: OpenAIDependencies['retry']): ChatModel =>
    createOpenAIModel({
      model,
      baseURL,
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      toolCalling: config.toolCalling,
      tools,
      options: config.options,
      ...deps,
      ...(retry ? { retry } : {}),
    });
  return (model) => {
    if (config.baseURLs.length <= 1) return build(model, config.baseURL, deps.retry);
    const headers: Record<string, string> = config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
    const pool = createHostPool({
      hosts: config.baseURLs.map((url) => ({
        url,
        model: build(model, url, { ...deps.retry, attempts: 1 }),
        probe: httpProbe(`${url}/models`, deps.fetch ?? modelFetch, headers),
      })),
      perHostConcurrency: config.hostConcurrency ?? defaultHostConcurrency(pooling.concurrency, config.baseURLs.length),
      ...(deps.retry ? { policy: deps.retry } : {}),
      onHostChange: ({ url, up, reason }) => process.stderr.write(`${up ? 'host up' : 'host down'}: ${url} (${reason})\n`),
    });
    pooling.pools.set(`openai:${model}`, pool);
    return pool;
  };
}

/** Flags only Ollama reads (its `options.num_ctx` and `keep_alive`), by commander name, with the option they set. */
const OLLAMA_ONLY_FLAGS = [
  { key: 'numCtx', flag: '--num-ctx', option: 'num_ctx' },
  { key: 'keepAlive', flag: '--keep-alive', option: 'keep_alive' },
] as const;

/** Where an OpenAI-compatible server takes what `--num-ctx` and `--keep-alive` ask of Ollama. */
const SERVER_SIDE = {
  num_ctx: 'set the context window where the server starts (vllm serve --max-model-len N, llama-server -c N)',
  keep_alive: 'these servers keep their model loaded while they run',
} as const;

/**
 * `--num-ctx` and `--keep-alive` (and `--role-option ROLE.num_ctx` / `ROLE.keep_alive`) set Ollama request options;
 * an OpenAI-compatible server has no such request field (vLLM and llama.cpp fix the context window at start-up), so
 * for an `openai:` model they would be silently ignored. Throws UsageError (exit 2, before any episode) when such a
 * flag was given (`explicit`: the flags on the command line) and no used role nor the judge is served by Ollama, or
 * a role option names a role served by an `openai:` model. Returns warnings (one line each, for stderr) when the run
 * mixes backends: the flag applies to the Ollama roles only. A scripted-only run is left alone (nothing to mislead).
 */
export function checkOllamaOnlyOptions(
  specs: Record<Role, string>,
  usedRoles: readonly Role[],
  explicit: ReadonlySet<string>,
  roleOptions: Partial<Record<Role, ChatOptions>>,
  judgeSpec?: string,
): string[] {
  const backendOf = (spec: string): string | undefined => {
    try {
      return parseModelSpec(spec).backend;
    } catch {
      return undefined; // a bad spec is refused where the models are built, naming it
    }
  };
  const openaiRoles = usedRoles.filter((role) => backendOf(specs[role]) === 'openai');
  for (const role of openaiRoles) {
    for (const option of ['num_ctx', 'keep_alive'] as const) {
      if (roleOptions[role]?.[option] !== undefined) {
        throw new UsageError(
          `--role-option ${role}.${option}: the ${role} role is served by ${specs[role]}, an OpenAI-compatible server, which has no ${option} request option (Ollama only); ${SERVER_SIDE[option]}`,
        );
      }
    }
  }
  const given = OLLAMA_ONLY_FLAGS.filter(({ key }) => explicit.has(key));
  if (openaiRoles.length === 0 || given.length === 0) return [];
  const ollamaUsers = [
    ...usedRoles.filter((role) => backendOf(specs[role]) === 'ollama'),
    ...(judgeSpec !== undefined && backendOf(judgeSpec) === 'ollama' ? ['judge'] : []),
  ];
  const models = [...new Set(openaiRoles.map((role) => specs[role]))].join(', ');
  if (ollamaUsers.length === 0) {
    throw new UsageError(
      `${given.map(({ flag }) => flag).join(' and ')} ${given.length === 1 ? 'is an Ollama option' : 'are Ollama options'}: no role of this run is served by Ollama, and ${models} (OpenAI-compatible) would ignore ${given.length === 1 ? 'it' : 'them'}; ` +
        `${given.map(({ option }) => SERVER_SIDE[option]).join('; ')}. Leave ${given.length === 1 ? 'it' : 'them'} out.`,
    );
  }
  return given.map(
    ({ flag, option }) =>
      `warning: ${flag} applies to the Ollama-served ${ollamaUsers.join(', ')} only; ${openaiRoles.join(', ')} (${models}) ignore it: ${SERVER_SIDE[option]}`,
  );
}

/** The distinct OpenAI-compatible model ids serving `roles`. */
export function openaiModelNames(specs: Record<Role, string>, roles: readonly Role[]): string[] {
  const names = roles.map((role) => parseModelSpec(specs[role])).flatMap((spec) => (spec.backend === 'openai' ? [spec.model] : []));
  return [...new Set(names)].sort();
}

/**
 * Preflight when any of `roles` is served by an `openai:` model: GET /v1/models of every server must list every one.
 * With several servers, each model's entry must match the first server's (`identityDifference`: `owned_by`, vLLM's
 * `root` and `max_model_len`, llama.cpp's `meta`) wherever both report them — these servers publish no weights digest,
 * so the product, the checkpoint, its size and parameter count and the context length are what can be compared. With `--tool-calling native`, each server gets one 1-token request with
 * tools per model of a tool-calling role (`probeToolCalls`). Returns what run.json records, or undefined when no role
 * uses the backend (nothing is contacted). Throws ConfigurationError (exit 2) naming the base URL, the missing model,
 * the server whose entry differs, or the server that refuses tool calls.
 */
export async function prepareOpenAIModels(
  specs: Record<Role, string>,
  roles: readonly Role[],
  config: OpenAIRunConfig,
  deps: OpenAIDependencies = {},
): Promise<OpenAIRunInfo | undefined> {
  const names = openaiModelNames(specs, roles);
  if (names.length === 0) return undefined;
  const ask = (baseURL: string) =>
    preflightOpenAI(baseURL, names, {
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    });
  const preflight = await ask(config.baseURL);
  for (const baseURL of config.baseURLs.slice(1)) {
    const other = await ask(baseURL);
    for (const [name, entry] of Object.entries(preflight.models)) {
      const difference = identityDifference(entry, other.models[name]!);
      if (difference !== undefined) {
        throw new ConfigurationError(
          `the OpenAI-compatible server at ${baseURL} serves "${name}" with ${difference.field} ${difference.theirs}, but ${config.baseURL} ` +
            `serves ${difference.field} ${difference.ours}; every server of a run must serve the same model`,
        );
      }
    }
  }
  // Native tool calls: one cheap probe per server and model of a tool-calling role (a vLLM without a tool parser
  // refuses them all), so a configuration mistake exits 2 here instead of erroring every episode.
  const toolModels =
    config.toolCalling === 'native'
      ? openaiModelNames(
          specs,
          roles.filter((role) => TOOL_ROLES.has(role)),
        )
      : [];
  for (const baseURL of toolModels.length > 0 ? config.baseURLs : []) {
    for (const model of toolModels) {
      await probeToolCalls(baseURL, model, ollamaToolSpecs(), {
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      });
    }
  }
  return {
    base_url: config.baseURL,
    ...(config.baseURLs.length > 1 ? { base_urls: config.baseURLs } : {}),
    models: preflight.models,
    tool_calling: config.toolCalling,
  };
}

/**
 * A training checkpoint's directory name: `checkpoint-1000` (Hugging Face Trainer), `global_step1000` (DeepSpeed),
 * `step-1000`, `step_1000`, `epoch-3`, `iter_0001000` (Megatron-LM), `ckpt-1000`. Every run of a trainer names its
 * checkpoints this way, so the name alone does not tell two runs apart.
 */
const TRAINING_CHECKPOINT = /^(checkpoint|ckpt|global[-_ ]?step|step|epoch|iter|iteration)[-_ ]?\d+$/i;

/**
 * The checkpoint a vLLM `root` names, for comparing hosts: a Hugging Face cache snapshot
 * (`…/models--Qwen--Qwen3-8B/snapshots/<revision>`) is its repository id `Qwen/Qwen3-8B`; a local path (`/`, `./`,
 * `../`, `~`, a Windows drive) is its last directory name, so `/mnt/a/Qwen3-8B` and `/data/Qwen3-8B` are one checkpoint
 * served from two paths (and `Qwen/Qwen3-8B` served by id on a third); two repository ids are compared whole. A last
 * directory that is a training checkpoint's name (`TRAINING_CHECKPOINT`: `checkpoint-1000`, `global_step1000`, …) is
 * taken with its parent, the run's directory (`/ckpt/run-a/checkpoint-1000` → `run-a/checkpoint-1000`), so the same
 * step of two runs is two checkpoints. Without a digest these names are the evidence vLLM gives: two different
 * fine-tunes saved under one directory name pass.
 */
export function checkpointName(root: string): { name: string; path: boolean } {
  const snapshot = /models--([^/\\]+?)--([^/\\]+)[/\\]snapshots[/\\]/.exec(root);
  if (snapshot) return { name: `${snapshot[1]}/${snapshot[2]}`, path: false };
  if (/^(\/|\.{1,2}[/\\]|~|[A-Za-z]:[/\\])/.test(root)) {
    const parts = root.split(/[/\\]+/).filter((part) => part !== '' && part !== '.');
    const last = parts.at(-1) ?? root;
    const parent = parts.at(-2);
    const withRun = TRAINING_CHECKPOINT.test(last) && parent !== undefined && !/^(\.\.|~|[A-Za-z]:)$/.test(parent);
    return { name: withRun ? `${parent}/${last}` : last, path: true };
  }
  return { name: root, path: false };
}

/**
 * The first field in which two servers' /v1/models entries for one model id disagree, or undefined: `owned_by` (the
 * server product: `vllm`, `llamacpp`, … — vLLM's safetensors and a llama.cpp GGUF are different weights), `root`
 * (vLLM's checkpoint: equal, or the same `checkpointName` when either is a path or a cache snapshot; a training
 * checkpoint's directory with its run's),
 * `max_model_len`, and each key of llama.cpp's `meta` (n_params, size, n_vocab, n_ctx_train, n_ctx, ftype, …). A
 * field only one side reports is not compared.
 */
export function identityDifference(ours: OpenAIPreflightModel, theirs: OpenAIPreflightModel): { field: string; ours: string; theirs: string } | undefined {
  const differ = (field: string, a: unknown, b: unknown) =>
    a !== undefined && b !== undefined && a !== b ? { field, ours: String(a), theirs: String(b) } : undefined;
  const owner = differ('owned_by', ours.owned_by, theirs.owned_by);
  if (owner) return owner;
  if (ours.root !== undefined && theirs.root !== undefined && ours.root !== theirs.root) {
    const [a, b] = [checkpointName(ours.root), checkpointName(theirs.root)];
    // A path names no organisation: against a path, a repository id is compared by its name (Qwen/Qwen3-8B → Qwen3-8B).
    const comparable = (own: typeof a, other: typeof a) => (!own.path && other.path ? (own.name.split('/').at(-1) ?? own.name) : own.name);
    if (comparable(a, b) !== comparable(b, a)) return { field: 'root', ours: ours.root, theirs: theirs.root };
  }
  const window = differ('max_model_len', ours.max_model_len, theirs.max_model_len);
  if (window) return window;
  for (const key of Object.keys(ours.meta ?? {}).sort()) {
    const found = differ(`meta.${key}`, ours.meta?.[key], theirs.meta?.[key]);
    if (found) return found;
  }
  return undefined;
}

/** One line for the table header, e.g. "openai-compatible server at http://…/v1: tool calling json; models Qwen/Qwen3-8B". */
export function openaiHeaderNote(info: OpenAIRunInfo): string {
  return `openai-compatible server at ${(info.base_urls ?? [info.base_url]).join(', ')}: tool calling ${info.tool_calling}; models ${Object.keys(info.models).join(', ')}`;
}
