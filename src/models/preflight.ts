// Preflight before any episode runs: the Ollama server answers, every named model is there (digest recorded), warm-up.
import { classifyOllamaError, errorMessage, replyTooLarge } from './retry.js';
import { modelFetch } from './model-fetch.js';
import { ollamaClient, sendChat, timeoutFetch } from './ollama-transport.js';

/** The run cannot start as configured (server unreachable, model missing): the CLI exits 2, before any episode. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

/** What preflight learnt about one model (recorded in run.json). */
export interface PreflightModel {
  /** The name as the server lists it, e.g. "qwen3:8b" or "llama3:latest". */
  name: string;
  digest: string;
  size?: number;
  modified_at?: string;
  family?: string;
  parameter_size?: string;
  quantization_level?: string;
  /** From /api/show, when capabilities were asked for and the server reports them. */
  capabilities?: string[];
}

export interface PreflightResult {
  host: string;
  /** Ollama server version from /api/version. */
  version: string;
  /** Keyed by the name as it was asked for. */
  models: Record<string, PreflightModel>;
}

export interface PreflightOptions {
  /** Timeout of each preflight request in ms (default 10 000). */
  timeoutMs?: number;
  /** Capabilities every model must report in /api/show (e.g. "tools" for native tool calling, "thinking" for think). */
  capabilities?: string[];
  /** What asked for `capabilities` (e.g. "--think asks for it"): said in the refusal, with the host. */
  because?: string;
}

/** "qwen3" and "qwen3:latest" name the same model; a tag is the `:` after the last `/` (a registry may have a port). */
export function withDefaultTag(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return base.includes(':') ? name : `${name}:latest`;
}

/**
 * Checks the Ollama server at `host` before a run: GET /api/version must answer, and each of `models`
 * must be listed by GET /api/tags (matched with and without `:latest`). With `options.capabilities`,
 * POST /api/show must report them for each model (servers that report none are not checked).
 * Returns the server version and each model's digest. Each reply is read over `fetch` (default `modelFetch`: at most
 * MAX_REPLY_BYTES, 16 MiB, decoded). Throws `ConfigurationError`: "cannot reach Ollama at HOST: <reason>", "cannot use
 * Ollama at HOST: the server's reply to GET URL is too large: … 16 MiB, the cap on one reply …", or naming every
 * missing model with `ollama pull <model>`.
 */
export async function preflightOllama(
  host: string,
  models: readonly string[],
  fetch: typeof globalThis.fetch = modelFetch,
  options: PreflightOptions = {},
): Promise<PreflightResult> {
  const OllamaClient = await ollamaClient();
  const client = new OllamaClient({ host, fetch: timeoutFetch(fetch, options.timeoutMs ?? 10_000) });
  let version: string;
  try {
    version = (await client.version()).version;
  } catch (error) {
    throw refusal(`cannot reach Ollama at ${host}`, host, error);
  }

  let listed: Array<{ name?: string; model?: string; digest?: string; size?: number; modified_at?: unknown; details?: Record<string, unknown> }>;
  try {
    listed = ((await client.list()).models ?? []) as unknown as typeof listed;
  } catch (error) {
    throw refusal(`cannot list the models of Ollama at ${host}`, host, error);
  }

  const found: Record<string, PreflightModel> = {};
  const missing: string[] = [];
  for (const wanted of models) {
    const entry = listed.find((item) => [item.name, item.model].some((name) => typeof name === 'string' && withDefaultTag(name) === withDefaultTag(wanted)));
    if (entry === undefined) {
      missing.push(wanted);
      continue;
    }
    const details = entry.details ?? {};
    found[wanted] = {
      name: entry.name ?? entry.model ?? wanted,
      digest: entry.digest ?? '',
      ...(typeof entry.size === 'number' ? { size: entry.size } : {}),
      ...(entry.modified_at !== undefined ? { modified_at: String(entry.modified_at) } : {}),
      ...(typeof details.family === 'string' ? { family: details.family } : {}),
      ...(typeof details.parameter_size === 'string' ? { parameter_size: details.parameter_size } : {}),
      ...(typeof details.quantization_level === 'string' ? { quantization_level: details.quantization_level } : {}),
    };
  }
  if (missing.length > 0) {
    const available =
      listed
        .map((item) => item.name ?? item.model)
        .filter(Boolean)
        .join(', ') || 'none';
    const lines = missing.map((name) => `model "${name}" is not available on Ollama at ${host}; pull it with \`ollama pull ${name}\``);
    throw new ConfigurationError(`${lines.join('\n')}\n(models on the server: ${available})`);
  }

  const needed = options.capabilities ?? [];
  if (needed.length > 0) {
    for (const wanted of models) {
      const model = found[wanted];
      if (model === undefined) continue;
      const shown = (await client.show({ model: model.name }).catch((error: unknown) => {
        throw refusal(`cannot show model "${wanted}" on Ollama at ${host}`, host, error);
      })) as { capabilities?: unknown };
      if (!Array.isArray(shown.capabilities)) continue;
      const capabilities = shown.capabilities.map(String);
      model.capabilities = capabilities;
      const lacking = needed.filter((capability) => !capabilities.includes(capability));
      if (lacking.length > 0) {
        const reported = `(it reports: ${capabilities.join(', ') || 'nothing'})`;
        throw new ConfigurationError(
          options.because === undefined
            ? `model "${wanted}" does not support ${lacking.join(', ')} ${reported}`
            : `model "${wanted}" on Ollama at ${host} does not support ${lacking.join(', ')} ${reported}: ${options.because}`,
        );
      }
    }
  }
  return { host, version, models: found };
}

/**
 * Loads `model` into memory before timed runs: a chat with no messages and a `keep_alive`, so the first
 * measured call is not a cold load (fixture cold-load-latency). Returns the load time in ms.
 * Throws the client's error unchanged (classify it with `classifyOllamaError`).
 */
export async function warmOllamaModel(
  host: string,
  model: string,
  options: { keep_alive?: string | number; fetch?: typeof globalThis.fetch; timeoutMs?: number } = {},
): Promise<{ load_ms: number }> {
  const reply = await sendChat(
    { model, messages: [], keep_alive: options.keep_alive ?? '30m' },
    { host, ...(options.fetch ? { fetch: options.fetch } : {}), timeoutMs: options.timeoutMs ?? 300_000, stream: false },
  );
  return { load_ms: Math.round((reply.load_duration ?? 0) / 1e3) / 1e3 };
}

/** The ConfigurationError of a failed preflight request: `doing: <reason>`, or for a reply past the cap, the cap's message. */
function refusal(doing: string, host: string, error: unknown): ConfigurationError {
  const tooLarge = replyTooLarge(error);
  if (tooLarge) return new ConfigurationError(`cannot use Ollama at ${host}: ${tooLarge.message}`, { cause: error });
  return new ConfigurationError(`${doing}: ${reasonOf(error)}`, { cause: error });
}

function reasonOf(error: unknown): string {
  const classification = classifyOllamaError(error);
  return classification.action === 'rethrow' ? errorMessage(error) : classification.reason;
}
