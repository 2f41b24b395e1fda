// `npx tsx scripts/bench-fetch.ts`: CPU of this process per Ollama /api/chat call through the real ollama client, with
// Node's built-in fetch vs createNodeHttpFetch; the server runs in another process (decision 0007).
import { spawn } from 'node:child_process';
import { Ollama } from 'ollama';
import { createNodeHttpFetch } from '../src/models/node-http-fetch.js';
const child = spawn(process.execPath, [new URL('./bench-fetch-server.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
const host = `http://127.0.0.1:${port}`;
const messages = [
  { role: 'system', content: 's'.repeat(3000) },
  { role: 'user', content: 'u'.repeat(2000) },
];
async function measure(name: string, fetch: typeof globalThis.fetch, n: number): Promise<void> {
  const client = new Ollama({ host, fetch });
  for (let i = 0; i < 50; i++) await client.chat({ model: 'qwen3:8b', messages, stream: false });
  const cpu = process.cpuUsage();
  const t = performance.now();
  for (let i = 0; i < n; i++) await client.chat({ model: 'qwen3:8b', messages, stream: false });
  const used = process.cpuUsage(cpu);
  console.log(`${name.padEnd(8)} ${((used.user + used.system) / 1000 / n).toFixed(3)} ms CPU/call, ${((performance.now() - t) / n).toFixed(3)} ms wall/call`);
}
const custom = createNodeHttpFetch();
for (let round = 0; round < 3; round++) {
  await measure('builtin', globalThis.fetch, 1000);
  await measure('custom', custom, 1000);
}
child.kill();
