// `npx tsx scripts/measure-message-bytes.ts`: bytes per episode of an Ollama-backed run (a fake server playing the
// scripted model, core suite × all strategies × 2 epochs): episodes.jsonl, messages.jsonl, and what storing each
// model call's messages inline would add instead (decision 0007).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EpisodeRecord, StoredText } from '../src/records/index.js';
import { runInProcess, scratch, startScriptedOllama, RUN_DEFAULTS } from '../tests/support/scripted-over-ollama.js';

const server = await startScriptedOllama({ suitePath: String(RUN_DEFAULTS.suite), latencyMs: 0 });
const out = join(scratch(), 'm');
const run = await runInProcess({ out, model: 'ollama:qwen3:8b', ollamaHost: server.url, epochs: 2 });
await server.close();
if (run.code !== 0) throw new Error(run.stderr);
const lines = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n');
const texts = new Map<string, StoredText>(
  readFileSync(join(out, 'messages.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => StoredText.parse(JSON.parse(line)))
    .map((text) => [text.hash, text]),
);
let inlineExtra = 0;
let hashRefs = 0;
for (const line of lines) {
  const record = EpisodeRecord.parse(JSON.parse(line));
  for (const event of record.trace) {
    if (event.type !== 'model_call' || !event.sent) continue;
    const messages = event.sent.messages.map((hash) => ({ role: texts.get(hash)?.role, content: texts.get(hash)?.content }));
    inlineExtra += JSON.stringify(messages).length - JSON.stringify(event.sent.messages).length;
    hashRefs += JSON.stringify({ sent: event.sent }).length + (event.thinking ? JSON.stringify({ thinking: event.thinking }).length : 0);
  }
}
const episodes = statSync(join(out, 'episodes.jsonl')).size;
const messages = statSync(join(out, 'messages.jsonl')).size;
console.log(
  JSON.stringify(
    {
      episodes: lines.length,
      episodes_bytes_per_episode: Math.round(episodes / lines.length),
      messages_jsonl_bytes_per_episode: Math.round(messages / lines.length),
      sent_fields_bytes_per_episode: Math.round(hashRefs / lines.length),
      inline_messages_would_add_per_episode: Math.round(inlineExtra / lines.length),
    },
    null,
    1,
  ),
);
