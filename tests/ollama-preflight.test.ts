// Preflight against the fake server: version and digests recorded, unreachable server and missing models fail before a run.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, preflightOllama, warmOllamaModel, withDefaultTag } from '../src/models/preflight.js';
import { okReply, startFakeOllama, type FakeOllama } from './support/fake-ollama-server.js';

const DIGEST_QWEN = 'sha256:' + 'a'.repeat(64);
const DIGEST_LLAMA = 'sha256:' + 'b'.repeat(64);

let server: FakeOllama | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve() {
  server = await startFakeOllama({
    version: '0.12.3',
    models: [
      { name: 'qwen3:8b', digest: DIGEST_QWEN, capabilities: ['completion', 'tools', 'thinking'] },
      { name: 'llama3:latest', digest: DIGEST_LLAMA, capabilities: ['completion'] },
    ],
  });
  return server.url;
}

async function configurationError(promise: Promise<unknown>): Promise<ConfigurationError> {
  const caught = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(caught).toBeInstanceOf(ConfigurationError);
  return caught as ConfigurationError;
}

describe('preflightOllama', () => {
  it('records the server version and each model digest, matching names with and without :latest', async () => {
    const host = await serve();
    const result = await preflightOllama(host, ['qwen3:8b', 'llama3']);
    expect(result).toEqual({
      host,
      version: '0.12.3',
      models: {
        'qwen3:8b': expect.objectContaining({ name: 'qwen3:8b', digest: DIGEST_QWEN, parameter_size: '8.2B', quantization_level: 'Q4_K_M' }),
        llama3: expect.objectContaining({ name: 'llama3:latest', digest: DIGEST_LLAMA }),
      },
    });
    expect(server!.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /api/version', 'GET /api/tags']);
  });

  it('says it cannot reach Ollama at the host when nothing listens there', async () => {
    const host = await serve();
    await server!.close();
    server = undefined;
    const failure = await configurationError(preflightOllama(host, ['qwen3:8b']));
    expect(failure.message).toMatch(new RegExp(`^cannot reach Ollama at ${host}: fetch failed \\(ECONNREFUSED\\)`));
  });

  it('names every missing model and suggests ollama pull', async () => {
    const host = await serve();
    const failure = await configurationError(preflightOllama(host, ['qwen3:32b', 'qwen3:8b', 'mistral']));
    expect(failure.message).toBe(
      [
        `model "qwen3:32b" is not available on Ollama at ${host}; pull it with \`ollama pull qwen3:32b\``,
        `model "mistral" is not available on Ollama at ${host}; pull it with \`ollama pull mistral\``,
        '(models on the server: qwen3:8b, llama3:latest)',
      ].join('\n'),
    );
  });

  it('checks capabilities through /api/show when asked (native tool calling needs "tools")', async () => {
    const host = await serve();
    const ok = await preflightOllama(host, ['qwen3:8b'], fetch, { capabilities: ['tools'] });
    expect(ok.models['qwen3:8b']?.capabilities).toEqual(['completion', 'tools', 'thinking']);
    const failure = await configurationError(preflightOllama(host, ['llama3'], fetch, { capabilities: ['tools'] }));
    expect(failure.message).toBe('model "llama3" does not support tools (it reports: completion)');
  });

  it('treats "qwen3" and "qwen3:latest" as one name, but a registry port is not a tag', () => {
    expect(['qwen3', 'qwen3:latest', 'qwen3:8b', 'localhost:5000/team/model', 'hf.co/org/repo:Q4_K_M'].map(withDefaultTag)).toEqual([
      'qwen3:latest',
      'qwen3:latest',
      'qwen3:8b',
      'localhost:5000/team/model:latest',
      'hf.co/org/repo:Q4_K_M',
    ]);
  });
});

describe('warmOllamaModel', () => {
  it('loads the model with an empty chat and a keep_alive, and reports the load time in ms', async () => {
    server = await startFakeOllama({ reply: () => okReply('', { done_reason: 'load', load_duration: 2_500_000_000 }) });
    expect(await warmOllamaModel(server.url, 'qwen3:8b', { keep_alive: '1h' })).toEqual({ load_ms: 2500 });
    expect(server.chatCalls()[0]?.body).toEqual({ model: 'qwen3:8b', messages: [], keep_alive: '1h', stream: false });
  });
});
