// The on-disk response cache: hits cost no model time, the key holds the epoch and the digest, errors are never stored.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOllamaModel } from '../src/models/ollama.js';
import { clearResponseCache, responseCacheKey, withResponseCache } from '../src/models/response-cache.js';
import { canonicalJson } from '../src/records/index.js';
import { InfrastructureError, type ChatModel, type ChatRequest, type ChatResponse } from '../src/models/types.js';
import { okReply, startFakeOllama, type FakeOllama } from './support/fake-ollama-server.js';

const Answer = z.object({ answer: z.string() });
function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    role: 'reporter',
    schemaName: 'report',
    schema: Answer as z.ZodType,
    view: { role: 'gate', task_id: 't1', prompt: 'p' },
    messages: () => [{ role: 'user', content: 'Report.' }],
    options: { temperature: 0 },
    epoch: 0,
    ...overrides,
  };
}

/** A counting stand-in: reply n is `{"answer":"n"}`; `fail` makes the next call throw. */
function countingModel(): ChatModel & { calls: number; fail?: Error } {
  const model = {
    name: 'stub',
    deterministic: false,
    calls: 0,
    fail: undefined as Error | undefined,
    async chat(): Promise<ChatResponse> {
      model.calls += 1;
      if (model.fail) throw model.fail;
      return { text: `{"answer":"${model.calls}"}`, tokens_in: 10, tokens_out: 5, duration_ms: 123, load_ms: 7, model: 'stub' };
    },
  };
  return model;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stratbench-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('withResponseCache', () => {
  it('serves the second identical call from disk with no model time', async () => {
    const inner = countingModel();
    const cached = withResponseCache(inner, { dir, digest: 'sha256:1' });
    const first = await cached.chat(request());
    const second = await cached.chat(request());
    expect(first).toEqual({ text: '{"answer":"1"}', tokens_in: 10, tokens_out: 5, duration_ms: 123, load_ms: 7, model: 'stub' });
    expect(second).toEqual({ ...first, duration_ms: 0, load_ms: 0, cached: true });
    expect(inner.calls).toBe(1);
    expect((await readdir(dir)).filter((name) => name.endsWith('.json'))).toHaveLength(1);
  });

  it('misses on another epoch, digest, message, schema or option (and not on timeout_ms)', async () => {
    const inner = countingModel();
    const cached = withResponseCache(inner, { dir, digest: 'sha256:1' });
    await cached.chat(request());
    await cached.chat(request({ epoch: 1 }));
    await withResponseCache(inner, { dir, digest: 'sha256:2' }).chat(request());
    await cached.chat(request({ messages: () => [{ role: 'user', content: 'Report again.' }] }));
    await cached.chat(request({ schema: z.object({ answer: z.string(), extra: z.number() }) as z.ZodType }));
    await cached.chat(request({ options: { temperature: 0, seed: 3 } }));
    expect(inner.calls).toBe(6);
    await cached.chat(request({ options: { temperature: 0, timeout_ms: 999, keep_alive: '1h' } }));
    expect(inner.calls).toBe(6);
  });

  it('never caches an error', async () => {
    const inner = countingModel();
    const cached = withResponseCache(inner, { dir, digest: 'sha256:1' });
    inner.fail = new InfrastructureError('server down', 'unreachable');
    await expect(cached.chat(request())).rejects.toBeInstanceOf(InfrastructureError);
    expect(await readdir(dir).catch(() => [])).toEqual([]);
    inner.fail = undefined;
    expect((await cached.chat(request())).cached).toBeUndefined();
    expect(inner.calls).toBe(2);
  });

  it('treats a corrupt entry as a miss and overwrites it', async () => {
    const inner = countingModel();
    const cached = withResponseCache(inner, { dir, digest: 'sha256:1' });
    const key = responseCacheKey(inner, 'sha256:1', request());
    await writeFile(join(dir, `${key}.json`), '{"format": 1, "key": "', 'utf8');
    expect((await cached.chat(request())).cached).toBeUndefined();
    expect((await cached.chat(request())).cached).toBe(true);
  });

  it('keys on the backend identity, so json and native tool calling do not share replies', () => {
    const json = createOllamaModel({ model: 'qwen3:8b', host: 'http://127.0.0.1:1' });
    const native = createOllamaModel({
      model: 'qwen3:8b',
      host: 'http://127.0.0.1:1',
      toolCalling: 'native',
      tools: [{ name: 'read', description: 'r', parameters: {} }],
    });
    expect(responseCacheKey(json, 'd', request())).not.toBe(responseCacheKey(native, 'd', request()));
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } })).toBe('{"a":{"c":[3,{"e":2,"f":1}],"d":2},"b":1}');
  });

  it('works over HTTP: the second run sends nothing to the server', async () => {
    let server: FakeOllama | undefined;
    try {
      server = await startFakeOllama({ reply: () => okReply('{"answer":"ok"}') });
      const cached = withResponseCache(createOllamaModel({ model: 'qwen3:8b', host: server.url }), { dir, digest: 'sha256:1' });
      await cached.chat(request());
      const again = await cached.chat(request());
      expect(again).toMatchObject({ text: '{"answer":"ok"}', cached: true, duration_ms: 0 });
      expect(server.chatCalls()).toHaveLength(1);
    } finally {
      await server?.close();
    }
  });
});

describe('clearResponseCache', () => {
  it('removes the entries and leftover temporary files, and nothing else', async () => {
    const cached = withResponseCache(countingModel(), { dir, digest: 'sha256:1' });
    await cached.chat(request());
    await cached.chat(request({ epoch: 1 }));
    await writeFile(join(dir, `${'c'.repeat(64)}.json.abcdef.tmp`), 'x');
    await writeFile(join(dir, 'notes.txt'), 'keep me');
    expect(await clearResponseCache(dir)).toBe(2);
    expect(await readdir(dir)).toEqual(['notes.txt']);
    expect(await clearResponseCache(join(dir, 'missing'))).toBe(0);
  });
});
