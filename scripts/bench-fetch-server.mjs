// A minimal /api/chat server for scripts/bench-fetch.ts: every request gets the same non-streamed reply; prints its port.
import http from 'node:http';
const body = JSON.stringify({ model: 'qwen3:8b', created_at: '2026-05-01T12:00:00.000Z', message: { role: 'assistant', content: '{"action":"finish","answer":"' + 'x'.repeat(300) + '"}' }, done: true, done_reason: 'stop', total_duration: 1e9, load_duration: 1e7, prompt_eval_count: 100, eval_count: 20 });
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); }); });
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
