// Turns a run's Ollama flags into ChatModels: host, per-role options, tool-calling mode, timeout, preflight, cache.
import { UsageError } from './usage-error.js';
import { createOllamaModel, OLLAMA_DEFAULT_OPTIONS, type OllamaModelConfig } from '../models/ollama.js';
import { resolveOllamaHosts } from '../models/ollama-host.js';
import { ConfigurationError, preflightOllama, type PreflightModel, type PreflightResult } from '../models/preflight.js';
import { createHostPool, defaultHostConcurrency, httpProbe, type HostPool } from '../models/host-pool.js';
import { modelFetch } from '../models/model-fetch.js';
import { withResponseCache } from '../models/response-cache.js';
import { modelJsonSchema } from '../models/model-json-schema.js';
import { parseModelSpec } from '../models/registry.js';
import type { ToolSpec } from '../models/tool-calling.js';
import { ROLES, type ChatModel, type ChatOptions, type Role } from '../models/types.js';
import { TOOLS, TOOL_NAMES } from '../tools/index.js';
import { refuseCredentials, refuseEmptyEntry, refuseHostlessEntry, refuseRepeatedHost } from './host-list.js';
import { keepAliveValue, parseRoleOptions } from './role-options.js';

export type ToolCallingMode = 'json' | 'native';

/** Where `--cache` stores replies unless `--cache-dir` says otherwise (relative to the working directory). */
import { DEFAULT_CACHE_DIR } from '../models/response-cache.js';

/** Roles whose reply is a tool call: with `--tool-calling native` their models must report the "tools" capability. */
export const TOOL_ROLES: ReadonlySet<Role> = new Set(['direct', 'agent', 'executor']);

/**
 * The commander option names of the Ollama flags (`--ollama-host` → `ollamaHost`, `--planner-think` →
 * `plannerThink`); saved in run.json so `--resume` continues with the same ones.
 */
export const OLLAMA_OPTION_KEYS: readonly string[] = [
  'ollamaHost',
  'hostConcurrency',
  'toolCalling',
  'temperature',
  'numCtx',
  'numPredict',
  'think',
  'keepAlive',
  'timeoutMs',
  'cache',
  'cacheDir',
  ...ROLES.map((role) => `${role}Think`),
  'roleOption',
];

/** The Ollama part of a run's configuration. */
export interface OllamaRunConfig {
  /** The first of `hosts` (the only one, as a rule). */
  host: string;
  /** Server URLs: `--ollama-host`, else OLLAMA_HOST, else http://127.0.0.1:11434, split on commas (`resolveOllamaHosts`). */
  hosts: string[];
  /** `--host-concurrency`: calls in flight per host when there are several (default: `defaultHostConcurrency`). */
  hostConcurrency?: number;
  /** Actions as JSON matching the action schema (`json`, default) or through Ollama's `tools` field (`native`). */
  toolCalling: ToolCallingMode;
  /** Options of every call: temperature (default 0), num_ctx (8192), think (false), keep_alive ("30m"), num_predict, timeout_ms. */
  options: ChatOptions;
  /** Per-role overrides of `options` (`--<role>-think`). */
  roleOptions: Partial<Record<Role, ChatOptions>>;
  /** Response cache folder when `--cache` (or `--cache-dir`) is given. */
  cacheDir?: string;
}

/** What run.json records about the Ollama side of a run. */
export type OllamaRunInfo = {
  host: string;
  /** Every host, when the run has several (each preflighted: same model digests as the first). */
  hosts?: string[];
  server_version: string;
  /** Keyed by the model name as given (e.g. "qwen3:8b"): the name the server lists, its digest, size, quantisation. */
  models: Record<string, PreflightModel>;
  tool_calling: ToolCallingMode;
  options: ChatOptions;
  role_options: Partial<Record<Role, ChatOptions>>;
  cache: { dir: string } | null;
};

/** Injected by tests and scripts: transport and retry timing of every Ollama model of the run. */
export type OllamaDependencies = Pick<OllamaModelConfig, 'fetch' | 'retry' | 'clock'>;

const definedOnly = (value: Record<string, unknown>): ChatOptions =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as ChatOptions;

/**
 * Reads the Ollama flags from the `run` options (commander names, values already parsed by the CLI, or
 * taken from run.json on `--resume`); absent flags get the defaults. `env` is read for OLLAMA_HOST only.
 */
export function ollamaRunConfig(options: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): OllamaRunConfig {
  const number = (key: string): number | undefined => (options[key] === undefined ? undefined : Number(options[key]));
  const run = definedOnly({
    temperature: number('temperature') ?? OLLAMA_DEFAULT_OPTIONS.temperature,
    num_ctx: number('numCtx') ?? OLLAMA_DEFAULT_OPTIONS.num_ctx,
    num_predict: number('numPredict'),
    think: typeof options['think'] === 'boolean' ? options['think'] : OLLAMA_DEFAULT_OPTIONS.think,
    keep_alive: options['keepAlive'] === undefined ? OLLAMA_DEFAULT_OPTIONS.keep_alive : keepAliveValue(options['keepAlive']),
    timeout_ms: number('timeoutMs'),
  });
  const roleOptions = parseRoleOptions(Array.isArray(options['roleOption']) ? (options['roleOption'] as string[]) : []);
  for (const role of ROLES) {
    const think = options[`${role}Think`];
    if (typeof think === 'boolean') roleOptions[role] = { ...roleOptions[role], think };
  }
  const hostFlag = typeof options['ollamaHost'] === 'string' ? options['ollamaHost'] : undefined;
  const hostList = [hostFlag, env.OLLAMA_HOST].map((value) => value?.trim() ?? '').find((value) => value !== '') ?? '';
  // First: the other refusals quote the host or the whole list, a password included.
  refuseCredentials('--ollama-host / OLLAMA_HOST', hostList);
  const hosts = resolveOllamaHosts(hostFlag, env).map(validHost);
  if (hosts.length === 0)
    throw new UsageError(`--ollama-host / OLLAMA_HOST "${hostFlag ?? env.OLLAMA_HOST}" names no host; e.g. http://gpu1:11434,http://gpu2:11434`);
  refuseEmptyEntry('--ollama-host / OLLAMA_HOST', hostList, 'http://gpu1:11434,http://gpu2:11434');
  refuseHostlessEntry('--ollama-host / OLLAMA_HOST', hostList);
  refuseRepeatedHost('--ollama-host / OLLAMA_HOST', hosts);
  return {
    host: hosts[0]!,
    hosts,
    ...(typeof options['hostConcurrency'] === 'number' ? { hostConcurrency: options['hostConcurrency'] } : {}),
    toolCalling: options['toolCalling'] === 'native' ? 'native' : 'json',
    options: run,
    roleOptions,
    ...(options['cache'] === true || typeof options['cacheDir'] === 'string'
      ? { cacheDir: typeof options['cacheDir'] === 'string' ? options['cacheDir'] : DEFAULT_CACHE_DIR }
      : {}),
  };
}

/** The Ollama flags given for a run (to save in run.json for `--resume`). */
export function ollamaFlags(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(OLLAMA_OPTION_KEYS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
}

/** The options of one role's calls: the run's, then the role's own overrides. */
export function roleChatOptions(config: OllamaRunConfig, role: Role): ChatOptions {
  return { ...config.options, ...config.roleOptions[role] };
}

/** Every tool as Ollama's `tools` field describes it: name, description, flat JSON Schema of the arguments. */
export function ollamaToolSpecs(): ToolSpec[] {
  return TOOL_NAMES.map((name) => ({ name, description: TOOLS[name].description, parameters: modelJsonSchema(TOOLS[name].args) }));
}

/** Where a factory reports the host pools it builds (one per model served by several hosts), for run.json. */
export type HostPools = Map<string, HostPool>;

/**
 * The `ollama` factory for `buildModels`: one backend per model name, with the run's host, mode, tools and
 * options, all sharing one keep-alive connection pool (undici's, `modelDispatcher`, unless `deps.fetch` is given).
 * With several hosts, one backend per host (no retries of its own) behind `createHostPool`: at most
 * `config.hostConcurrency` (default ceil(`concurrency` / hosts)) calls per host, probed at GET /api/version;
 * each pool is added to `pools` under the model's spec.
 */
export function ollamaModelFactory(
  config: OllamaRunConfig,
  deps: OllamaDependencies = {},
  pooling: { concurrency: number; pools: HostPools } = { concurrency: 1, pools: new Map() },
): (model: string) => ChatModel {
  const tools = config.toolCalling === 'native' ? ollamaToolSpecs() : [];
  const build = (model: string, host: string, retry: OllamaDependencies['retry']): ChatModel =>
    createOllamaModel({ model, host, toolCalling: config.toolCalling, tools, options: config.options, ...deps, ...(retry ? { retry } : {}) });
  return (model) => {
    if (config.hosts.length <= 1) return build(model, config.host, deps.retry);
    const pool = createHostPool({
      hosts: config.hosts.map((host) => ({
        url: host,
        model: build(model, host, { ...deps.retry, attempts: 1 }),
        probe: httpProbe(`${host}/api/version`, deps.fetch ?? modelFetch),
      })),
      perHostConcurrency: config.hostConcurrency ?? defaultHostConcurrency(pooling.concurrency, config.hosts.length),
      ...(deps.retry ? { policy: deps.retry } : {}),
      onHostChange: ({ url, up, reason }) => process.stderr.write(`${up ? 'host up' : 'host down'}: ${url} (${reason})\n`),
    });
    pooling.pools.set(`ollama:${model}`, pool);
    return pool;
  };
}

/** The distinct Ollama model names serving `roles` (e.g. ["qwen3:32b", "qwen3:8b"]). Throws ModelSpecError for a bad spec. */
export function ollamaModelNames(specs: Record<Role, string>, roles: readonly Role[]): string[] {
  const names = roles.map((role) => parseModelSpec(specs[role])).flatMap((spec) => (spec.backend === 'ollama' ? [spec.model] : []));
  return [...new Set(names)].sort();
}

/**
 * Preflight, then the response cache. When any of `roles` is served by Ollama: checks the server answers
 * and lists every model (with `native` tool calling, that the models of tool-calling roles report the
 * "tools" capability; for roles whose options ask for `think`, that their models report "thinking"), then with a cache folder wraps each Ollama model in `withResponseCache` keyed by
 * its digest. Returns the models (scripted ones untouched) and what run.json records, `info` undefined
 * when no role uses Ollama (nothing is contacted). Throws `ConfigurationError` (the CLI exits 2):
 * "cannot reach Ollama at HOST", a missing model with `ollama pull <model>`, or a model lacking a capability asked
 * for, naming the model, the host, the capability and the flag that asked for it.
 */
export async function prepareOllamaModels(
  models: Record<Role, ChatModel>,
  specs: Record<Role, string>,
  roles: readonly Role[],
  config: OllamaRunConfig,
  deps: OllamaDependencies = {},
): Promise<{ models: Record<Role, ChatModel>; info?: OllamaRunInfo }> {
  const names = ollamaModelNames(specs, roles);
  if (names.length === 0) return { models };
  const fetch = deps.fetch ?? modelFetch;
  const preflight = await preflightOllama(config.host, names, fetch);
  // Every other host must answer and serve the very same models (digests from /api/tags).
  for (const host of config.hosts.slice(1)) sameDigests(preflight, await preflightOllama(host, names, fetch));
  if (config.toolCalling === 'native') {
    const toolModels = ollamaModelNames(
      specs,
      roles.filter((role) => TOOL_ROLES.has(role)),
    );
    if (toolModels.length > 0) {
      const asked = { capabilities: ['tools'], because: '--tool-calling native sends it tools; use --tool-calling json, or a model with tool support' };
      const shown = await preflightOllama(config.host, toolModels, fetch, asked);
      for (const host of config.hosts.slice(1)) await preflightOllama(host, toolModels, fetch, asked);
      for (const [name, model] of Object.entries(shown.models)) if (model.capabilities) preflight.models[name]!.capabilities = model.capabilities;
    }
  }
  // `think: true` on a model without the "thinking" capability fails every call (Ollama: HTTP 400 "… does not support
  // thinking"): refused here, before any episode.
  const thinkingRoles = roles.filter((role) => roleChatOptions(config, role).think === true);
  const thinkingModels = ollamaModelNames(specs, thinkingRoles);
  if (thinkingModels.length > 0) {
    const flags = [...new Set(thinkingRoles.map((role) => (config.roleOptions[role]?.think === true ? `--${role}-think` : '--think')))].join(', ');
    const asked = { capabilities: ['thinking'], because: `${flags} asks for thinking (${thinkingRoles.join(', ')}); leave it off, or use a thinking model` };
    for (const host of config.hosts) {
      const shown = await preflightOllama(host, thinkingModels, fetch, asked);
      for (const [name, model] of Object.entries(shown.models)) if (model.capabilities) preflight.models[name]!.capabilities = model.capabilities;
    }
  }
  const wrapped = new Map<ChatModel, ChatModel>();
  const cached = (model: ChatModel, name: string): ChatModel => {
    const digest = preflight.models[name]?.digest;
    if (config.cacheDir === undefined || digest === undefined) return model;
    let cache = wrapped.get(model);
    if (cache === undefined) {
      cache = withResponseCache(model, { dir: config.cacheDir, digest });
      wrapped.set(model, cache);
    }
    return cache;
  };
  const result = Object.fromEntries(
    ROLES.map((role) => {
      const spec = parseModelSpec(specs[role]);
      return [role, spec.backend === 'ollama' ? cached(models[role], spec.model) : models[role]];
    }),
  ) as Record<Role, ChatModel>;
  return {
    models: result,
    info: {
      host: config.host,
      ...(config.hosts.length > 1 ? { hosts: config.hosts } : {}),
      server_version: preflight.version,
      models: preflight.models,
      tool_calling: config.toolCalling,
      options: config.options,
      role_options: config.roleOptions,
      cache: config.cacheDir === undefined ? null : { dir: config.cacheDir },
    },
  };
}

/** One line for the table header: server, mode and options, e.g. "ollama 0.12.0 at http://…: tool calling json, num_ctx 8192, think false". */
export function ollamaHeaderNote(info: OllamaRunInfo): string {
  const options = Object.entries(info.options).map(([key, value]) => `${key} ${String(value)}`);
  const roles = Object.entries(info.role_options).map(([role, value]) => `${role} think ${String(value?.think)}`);
  const digests = Object.entries(info.models).map(([name, model]) => `${name} ${model.digest.replace(/^sha256:/, '').slice(0, 12)}`);
  return (
    [
      `ollama ${info.server_version} at ${(info.hosts ?? [info.host]).join(', ')}: tool calling ${info.tool_calling}`,
      ...options,
      ...roles,
      ...(info.cache ? [`cache ${info.cache.dir}`] : []),
    ].join(', ') + `; models ${digests.join(', ')}`
  );
}

/**
 * What of the Ollama configuration changes replies, for the run's config hash (so `--resume` refuses a
 * different mode, options or re-pulled model): tool-calling mode, options other than keep_alive and
 * timeout_ms, per-role options, and each model's digest. The host and the cache folder are not part of it.
 */
export function ollamaConfigIdentity(info: OllamaRunInfo): Record<string, unknown> {
  const { keep_alive: _keepAlive, timeout_ms: _timeout, ...options } = info.options;
  return {
    tool_calling: info.tool_calling,
    options,
    role_options: info.role_options,
    digests: Object.fromEntries(Object.entries(info.models).map(([name, model]) => [name, model.digest])),
  };
}

/**
 * Throws ConfigurationError naming `other.host` when it lists a model of `first` under another digest: several
 * hosts of one run must serve the same weights, or their replies would be pooled from different models.
 */
function sameDigests(first: PreflightResult, other: PreflightResult): void {
  for (const [name, model] of Object.entries(first.models)) {
    const theirs = other.models[name]?.digest;
    if (theirs !== model.digest) {
      throw new ConfigurationError(
        `Ollama at ${other.host} serves "${name}" with digest ${theirs ?? '(none)'}, but ${first.host} serves digest ${model.digest}; ` +
          'every host of a run must serve the same model (pull the same tag everywhere, or leave that host out)',
      );
    }
  }
}

/** The resolved host must be a usable http(s) URL; throws UsageError naming it otherwise (exit 2). */
function validHost(host: string): string {
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new UsageError(`"${host}" is not a usable Ollama host (from --ollama-host or OLLAMA_HOST); e.g. http://127.0.0.1:11434`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`Ollama host ${host} must use http or https`);
  return host;
}
