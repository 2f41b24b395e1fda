// The on-disk response cache: re-running an unchanged configuration costs no model time; epochs stay independent.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson } from '../records/index.js';
import type { ChatModel, ChatRequest, ChatResponse } from './types.js';
import { modelJsonSchema } from './model-json-schema.js';
import { makeFolder } from '../files/make-folder.js';

/** Where `--cache` stores replies unless `--cache-dir` says otherwise. */
export const DEFAULT_CACHE_DIR = '.stratbench-cache';

export interface ResponseCacheOptions {
  /** Directory holding one `<sha256>.json` file per cached reply; created on the first write. */
  dir: string;
  /** The model's digest from preflight (`/api/tags`), so a re-pulled model misses the cache. */
  digest: string;
}

/** Bumped when the key or the stored shape changes; old entries then simply miss. */
const CACHE_FORMAT = 1;
const ENTRY_FILE = /^[0-9a-f]{64}\.json$/;
const TEMP_FILE = /^[0-9a-f]{64}\.json\.[0-9a-f]+\.tmp$/;

interface CacheEntry {
  format: number;
  key: string;
  model: string;
  role: string;
  schemaName: string;
  epoch: number;
  stored_at: string;
  response: ChatResponse;
}

/**
 * The cache key of `request` to `model`: sha256 (hex) of the canonical JSON of the model name, its
 * `cacheIdentity` (tool-calling mode, tools, default options), the digest, role, schema name, the
 * model-facing JSON Schema, the rendered messages, the options that change a reply (not `timeout_ms`
 * nor `keep_alive`) and the epoch (repeats stay independent).
 */
export function responseCacheKey(model: ChatModel, digest: string, request: ChatRequest): string {
  const material = {
    format: CACHE_FORMAT,
    model: model.name,
    identity: model.cacheIdentity ?? null,
    digest,
    role: request.role,
    schemaName: request.schemaName,
    schema: modelJsonSchema(request.schema),
    messages: request.messages(),
    options: replyOptions(request.options),
    epoch: request.epoch,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}

function replyOptions(options: ChatRequest['options']): Record<string, unknown> {
  const { timeout_ms: _timeout, keep_alive: _keepAlive, ...rest } = options;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
}

/**
 * Wraps `model` so each reply is stored under `options.dir` and served from there on the same key.
 * A hit returns the stored response with `cached: true`, `duration_ms` 0 and `load_ms` 0 (no model time
 * was spent; token counts are those of the stored reply). Errors (InfrastructureError or any other) are
 * never cached. Writes are atomic (temporary file + rename), so concurrent episodes never read half a
 * file; an unreadable or foreign entry is a miss and is overwritten.
 */
export function withResponseCache(model: ChatModel, options: ResponseCacheOptions): ChatModel {
  const wrapped: ChatModel = {
    name: model.name,
    deterministic: model.deterministic,
    ...(model.cacheIdentity !== undefined ? { cacheIdentity: model.cacheIdentity } : {}),
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const key = responseCacheKey(model, options.digest, request);
      const file = join(options.dir, `${key}.json`);
      const stored = await readEntry(file, key);
      if (stored !== undefined) return { ...stored.response, duration_ms: 0, load_ms: 0, cached: true };
      const response = await model.chat(request);
      const entry: CacheEntry = {
        format: CACHE_FORMAT,
        key,
        model: model.name,
        role: request.role,
        schemaName: request.schemaName,
        epoch: request.epoch,
        stored_at: new Date().toISOString(),
        response,
      };
      await writeAtomically(options.dir, file, `${JSON.stringify(entry, null, 1)}\n`);
      return response;
    },
  };
  return wrapped;
}

async function readEntry(file: string, key: string): Promise<CacheEntry | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const entry = JSON.parse(text) as Partial<CacheEntry>;
    const response = entry.response;
    if (entry.format !== CACHE_FORMAT || entry.key !== key || response === undefined || typeof response.text !== 'string') return undefined;
    return entry as CacheEntry;
  } catch {
    return undefined;
  }
}

async function writeAtomically(dir: string, file: string, text: string): Promise<void> {
  await makeFolder(dir);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Deletes the cache's own files in `dir` (`<sha256>.json` entries and leftover temporary files); other
 * files and the directory itself are left alone. A missing directory is an empty cache.
 * Returns the number of entries removed.
 */
export async function clearResponseCache(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!ENTRY_FILE.test(name) && !TEMP_FILE.test(name)) continue;
    await unlink(join(dir, name)).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    });
    if (ENTRY_FILE.test(name)) removed += 1;
  }
  return removed;
}
