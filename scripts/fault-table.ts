// Issue 29's closing note: each fault the issue names, injected for real (SIGKILL, a full tmpfs, EIO from /proc/self/mem,
// torn files, racing processes, fake model servers on 127.0.0.1) into two builds, printed as a markdown table.
//
//   npx tsx scripts/fault-table.ts --before /tmp/wt-before --after /tmp/wt-after [--only 1,5,11] [--keep]
//
// Each build is a worktree compiled with `npx tsc -p tsconfig.build.json` (its dist/cli.js is run as `node dist/cli.js …`).
// Per fault and build it records the exit code, the first line of stderr and the records kept: the finished episodes
// in the folder before the fault → after, and how many of those were lost, duplicated or changed (a line of
// episodes.jsonl that is no longer byte-identical). No timing assertion: waits are generous safety nets.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { csvParseRows } from 'd3';

interface Build {
  label: 'before' | 'after';
  root: string;
  cli: string;
}
interface Row {
  fault: string;
  build: string;
  exit: string;
  message: string;
  outcome: string;
}
interface Ran {
  code: number | string;
  stdout: string;
  stderr: string;
}

const { values } = parseArgs({ options: { before: { type: 'string' }, after: { type: 'string' }, only: { type: 'string' }, keep: { type: 'boolean' } } });
if (values.before === undefined || values.after === undefined) {
  process.stderr.write('usage: npx tsx scripts/fault-table.ts --before WORKTREE --after WORKTREE [--only 1,2,…] [--keep]\n');
  process.exit(2);
}
const builds: Build[] = [
  { label: 'before', root: values.before, cli: join(values.before, 'dist/cli.js') },
  { label: 'after', root: values.after, cli: join(values.after, 'dist/cli.js') },
];
for (const build of builds) if (!existsSync(build.cli)) throw new Error(`${build.cli} is missing: build ${build.root} with npx tsc -p tsconfig.build.json`);
const only = values.only === undefined ? null : new Set(values.only.split(',').map(Number));
const TMP = mkdtempSync('/tmp/fault-table-');
const rows: Row[] = [];
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost', OPENAI_API_KEY: 'local' };

/** `node <build>/dist/cli.js args` (or `prefix… node …`), its exit code ('timeout' past `timeoutMs`, 'SIGKILL' when killed) and output. */
function start(build: Build, args: string[], prefix: string[] = []): { child: ChildProcess; done: Promise<Ran> } {
  const command = [...prefix, process.execPath, build.cli, ...args];
  const child = spawn(command[0]!, command.slice(1), { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const done = new Promise<Ran>((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? signal ?? 'unknown', ...out })));
  return { child, done };
}

async function cli(build: Build, args: string[], timeoutMs = 400_000, prefix: string[] = []): Promise<Ran> {
  const { child, done } = start(build, args, prefix);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const ran = await done;
  clearTimeout(timer);
  if (values.keep) appendFileSync(join(TMP, 'log.txt'), `$ ${shown(args.join(' '))}\nexit ${ran.code}\n${shown(ran.stderr)}\n`);
  return ran.code === 'SIGKILL' ? { ...ran, code: `timeout (killed after ${timeoutMs / 1000} s)` } : ran;
}

async function waitFor(predicate: () => boolean, timeoutMs = 120_000, stepMs = 5): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) return false;
    await pause(stepMs);
  }
  return true;
}

const size = (path: string): number => (existsSync(path) ? statSync(path).size : 0);
const shown = (text: string): string => text.split(TMP).join('$T');
/** Lines every run prints on stderr before its episodes (the matrix and its budget line) and Node's process warnings. */
const PREAMBLE = /^(matrix: | {2}at most |\(node:\d+\) |\(Use `node --trace-warnings)/;
/** The first line of stderr after the run's preamble (and the next when it ends with ':'), temp paths as $T. */
function message(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !PREAMBLE.test(line));
  if (lines.length === 0) return '(nothing on stderr)';
  const first = lines[0]!.endsWith(':') && lines[1] !== undefined ? `${lines[0]} ${lines[1]!.trim()}` : lines[0]!;
  return first.length > 260 ? `${first.slice(0, 260)}…` : first;
}

function add(fault: string, build: Build, ran: Ran | null, outcome: string): void {
  rows.push({
    fault,
    build: build.label,
    exit: ran === null ? '—' : String(ran.code),
    message: ran === null ? '—' : shown(message(ran.stderr)),
    outcome: shown(outcome),
  });
}

/** The lines of DIR/episodes.jsonl that are not JSON (a torn line left mid-file), the half-written last one included. */
function damagedLines(dir: string): number {
  const path = join(dir, 'episodes.jsonl');
  if (!existsSync(path)) return 0;
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => {
      if (line === '') return false;
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    }).length;
}

/** The complete lines of DIR/episodes.jsonl by episode key (a torn last line, or one that is not JSON, is skipped). */
function episodeLines(dir: string): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  const path = join(dir, 'episodes.jsonl');
  if (!existsSync(path)) return byKey;
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n').slice(0, -1);
  for (const line of lines) {
    let key: string;
    try {
      const record = JSON.parse(line) as { key?: string; task: string; strategy: string; epoch: number };
      key = record.key ?? `${record.task}|${record.strategy}|${record.epoch}`;
    } catch {
      continue;
    }
    byKey.set(key, [...(byKey.get(key) ?? []), line]);
  }
  return byKey;
}
const recordCount = (lines: Map<string, string[]>): number => [...lines.values()].reduce((sum, list) => sum + list.length, 0);

/** `412 → 840 (lost 0, duplicated 0, changed 0)`: finished records before the fault → in the folder afterwards. */
function kept(before: Map<string, string[]>, dir: string): string {
  const after = episodeLines(dir);
  let lost = 0;
  let changed = 0;
  for (const [key, [line]] of before) {
    const now = after.get(key);
    if (now === undefined) lost += 1;
    else if (!now.includes(line!)) changed += 1;
  }
  const duplicated = [...after.values()].filter((list) => list.length > 1).length;
  const damaged = damagedLines(dir);
  const torn = damaged === 0 ? '' : `; ${damaged} line(s) in episodes.jsonl not JSON`;
  return `${recordCount(before)} → ${recordCount(after)} (lost ${lost}, duplicated ${duplicated}, changed ${changed})${torn}`;
}

/** A run of 30 epochs × direct,react × 14 tasks (840 episodes) killed with SIGKILL once episodes.jsonl passed 40 KB. */
async function killedRun(build: Build, out: string): Promise<void> {
  const { child, done } = start(build, ['run', '--epochs', '30', '--strategies', 'direct,react', '--no-progress', '--out', out]);
  await waitFor(() => size(join(out, 'episodes.jsonl')) > 40_000);
  child.kill('SIGKILL');
  const ran = await done;
  if (ran.code !== 'SIGKILL') throw new Error(`the run to kill ended by itself (${ran.code}): ${ran.stderr}`);
}

/** A complete run (2 epochs × direct,react × 14 tasks: 56 episodes), made once per build and copied per fault. */
const bases = new Map<string, string>();
async function baseRun(build: Build): Promise<string> {
  const out = join(TMP, build.label, 'base');
  if (!bases.has(build.label)) {
    const ran = await cli(build, ['run', '--epochs', '2', '--strategies', 'direct,react', '--no-progress', '--out', out]);
    if (ran.code !== 0) throw new Error(`base run failed: ${ran.stderr}`);
    bases.set(build.label, out);
  }
  const copy = mkdtempSync(join(TMP, build.label, 'copy-'));
  cpSync(out, copy, { recursive: true });
  return copy;
}

const faults: Record<number, (build: Build, dir: string) => Promise<void>> = {
  1: async (build, dir) => {
    const out = join(dir, 'run');
    await killedRun(build, out);
    const lock = JSON.parse(readFileSync(join(out, '.lock'), 'utf8')) as Record<string, unknown>;
    // A retried pod: same hostname, and (fresh PID namespace) the dead holder's pid now names a live process.
    writeFileSync(join(out, '.lock'), JSON.stringify({ ...lock, pid: process.pid, host: hostname() }));
    const before = episodeLines(out);
    const ran = await cli(build, ['run', '--resume', out, '--no-progress']);
    add('1 retried pod: `.lock` pid = a live pid, same host; `run --resume`', build, ran, kept(before, out));
  },
  2: async (build, dir) => {
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=192k', 'tmpfs', disk], { stdio: 'pipe' });
    } catch (error) {
      add('2 full disk during `run`', build, null, `skipped: cannot mount a 192 KiB tmpfs (${String(error).split('\n')[0]})`);
      return;
    }
    try {
      const out = join(disk, 'run');
      const ran = await cli(build, ['run', '--epochs', '30', '--strategies', 'direct,react', '--no-progress', '--out', out]);
      const onDisk = episodeLines(out);
      const tail = existsSync(join(out, 'episodes.jsonl')) && !readFileSync(join(out, 'episodes.jsonl'), 'utf8').endsWith('\n') ? ', a torn last line' : '';
      add(
        '2a full disk (192 KiB tmpfs) during `run --out`',
        build,
        ran,
        `${recordCount(onDisk)} episodes on disk${tail}; .lock ${existsSync(join(out, '.lock')) ? 'left behind' : 'released'}; files: ${readdirSync(out).sort().join(' ')}`,
      );
      execFileSync('mount', ['-o', 'remount,size=64m', disk]);
      const resumed = await cli(build, ['run', '--resume', out, '--no-progress']);
      add('2b … space freed (remount 64 MiB), `run --resume`', build, resumed, kept(onDisk, out));
    } finally {
      execFileSync('umount', [disk]);
    }
  },
  3: async (build, dir) => {
    const out = join(dir, 'run');
    await killedRun(build, out);
    const path = join(out, 'episodes.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n').slice(0, -1); // a half-written tail of the kill dropped
    const last = lines.pop()!;
    writeFileSync(path, [...lines, last.slice(0, Math.floor(last.length / 2))].map((line) => `${line}\n`).join(''));
    const before = episodeLines(out);
    const ran = await cli(build, ['run', '--resume', out, '--no-progress']);
    add('3a torn last line ending in "\\n", `run --resume`', build, ran, kept(before, out));
    const report = await cli(build, ['report', out]);
    add('3b … then `report`', build, report, '');
  },
  4: async (build, dir) => {
    type Helper = { startScriptedOllama(options: { suitePath: string }): Promise<{ url: string; chatCalls(): unknown[]; close(): Promise<void> }> };
    const helper = (await import(pathToFileURL(join(build.root, 'tests/support/scripted-over-ollama.ts')).href)) as Helper;
    const server = await helper.startScriptedOllama({ suitePath: join(build.root, 'tasks/core.yaml') });
    try {
      const out = join(dir, 'run');
      const model = ['--model', 'ollama:qwen3:8b', '--ollama-host', server.url, '--no-progress'];
      const made = await cli(build, ['run', '--strategies', 'direct,react,plan-replan', ...model, '--out', out]);
      if (made.code !== 0) throw new Error(`the Ollama run failed (${made.code}): ${made.stderr}`);
      const lines = readFileSync(join(out, 'messages.jsonl'), 'utf8').split('\n');
      for (const [variant, damage] of [
        ['deleted messages.jsonl', (copy: string) => rmSync(join(copy, 'messages.jsonl'))],
        [
          'one damaged line of messages.jsonl',
          (copy: string) => writeFileSync(join(copy, 'messages.jsonl'), lines.map((line, i) => (i === 3 ? line.slice(0, line.length >> 1) : line)).join('\n')),
        ],
      ] as const) {
        const copy = join(dir, variant.split(' ')[0]!);
        cpSync(out, copy, { recursive: true });
        damage(copy);
        const before = episodeLines(copy);
        const calls = server.chatCalls().length;
        const ran = await cli(build, ['run', '--resume', copy, ...model]);
        const rerun = server.chatCalls().length - calls;
        const line = ran.stderr.split('\n').find((text) => text.startsWith('resuming ')) ?? '(no resuming line)';
        const resuming = line === message(ran.stderr) ? '' : `; "${line}"`;
        add(
          `4 ${variant} (Ollama run, 42 episodes), \`run --resume\``,
          build,
          ran,
          `${kept(before, copy)}; ${rerun} model calls made by the resume${resuming}`,
        );
      }
    } finally {
      await server.close();
    }
  },
  5: async (build) => {
    const good = await baseRun(build);
    const out = await baseRun(build);
    truncateSync(join(out, 'summary.json'), size(join(out, 'summary.json')) >> 1);
    add('5a damaged summary.json (truncated), `report`', build, await cli(build, ['report', out]), '');
    add('5b … `compare BASE DAMAGED`', build, await cli(build, ['compare', good, out]), '');
    const before = episodeLines(out);
    const ran = await cli(build, ['run', '--resume', out, '--no-progress']);
    let summary = 'summary.json not JSON';
    try {
      JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
      summary = 'summary.json whole again';
    } catch {}
    const damaged = existsSync(join(out, 'summary.damaged.json')) ? ', summary.damaged.json kept' : '';
    add('5c … `run --resume`', build, ran, `${kept(before, out)}; ${summary}${damaged}`);
  },
  6: async (build) => {
    const out = await baseRun(build);
    rmSync(join(out, 'summary.json'));
    symlinkSync('/proc/self/mem', join(out, 'summary.json'));
    add('6 summary.json → /proc/self/mem (read fails EIO), `report`', build, await cli(build, ['report', out]), '');
  },
  7: async (build, dir) => {
    const shards = ['1/2', '2/2'].map((shard, i) => ({ shard, out: join(dir, `shard${i + 1}`) }));
    for (const { shard, out } of shards) {
      const ran = await cli(build, ['run', '--epochs', '40', '--strategies', 'direct,react', '--shard', shard, '--no-progress', '--out', out]);
      if (ran.code !== 0) throw new Error(`shard ${shard} failed: ${ran.stderr}`);
    }
    const merged = join(dir, 'merged');
    const mergeArgs = ['merge', ...shards.map((item) => item.out), '--out', merged];
    const copying = (): boolean =>
      readdirSync(dir).some((entry) => (entry === 'merged' || entry.startsWith('.merged.merging')) && size(join(dir, entry, 'episodes.jsonl')) > 0);
    const { child, done } = start(build, mergeArgs);
    await waitFor(copying, 120_000, 1);
    child.kill('SIGKILL');
    const killed = await done;
    const left = readdirSync(dir)
      .filter((entry) => entry.includes('merged'))
      .map((entry) => `${entry}/{${readdirSync(join(dir, entry)).sort().join(',')}}`)
      .join(' ');
    add('7a `merge` (1,120 episodes) killed with SIGKILL mid-copy', build, killed, `left: ${left === '' ? 'nothing' : left}`);
    add('7b … `report OUT`', build, existsSync(merged) ? await cli(build, ['report', merged]) : null, existsSync(merged) ? '' : 'OUT does not exist');
    add('7c … `run --resume OUT`', build, await cli(build, ['run', '--resume', merged, '--no-progress']), '');
    const again = await cli(build, mergeArgs);
    const staging = readdirSync(dir).filter((entry) => entry.startsWith('.merged.merging')).length;
    add('7d … `merge` again into OUT', build, again, `${recordCount(episodeLines(merged))} episodes in OUT; ${staging} staging folder(s) left`);
  },
  8: async (build, dir) => {
    const lockModule = join(build.root, 'dist/results-folder/lock.js');
    const contender = `import(${JSON.stringify(lockModule)}).then(async (m) => {
      try { await m.lockResultsFolder(process.argv[1], 'contender'); process.stdout.write('won'); }
      catch (error) { process.stdout.write(error.name); }
      process.stdin.resume();
    });`;
    let doubles = 0;
    let none = 0;
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const dead = spawn(process.execPath, ['-e', '0']);
      await new Promise((resolve) => dead.on('close', resolve));
      for (const file of readdirSync(dir)) rmSync(join(dir, file), { force: true });
      writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: dead.pid, host: hostname(), started_at: new Date().toISOString(), command: 'a run that died' }));
      const children = [0, 1, 2, 3, 4, 5].map(() =>
        spawn(process.execPath, ['--input-type=module', '-e', contender, dir], { stdio: ['pipe', 'pipe', 'inherit'] }),
      );
      const said = await Promise.all(
        children.map((child) => new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())))),
      );
      for (const child of children) child.kill('SIGKILL');
      const winners = said.filter((word) => word === 'won').length;
      if (winners > 1) doubles += 1;
      if (winners === 0) none += 1;
    }
    add('8 six processes take over one stale lock at once (40 tries)', build, null, `two or more winners in ${doubles} of 40 tries; no winner in ${none}`);
  },
  9: async (build) => {
    const out = await baseRun(build);
    const path = join(out, 'episodes.jsonl');
    const answers = ['-1', '-2e3', '+0.5', '-1+A1', '-2 items'];
    let next = 0;
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .map((line) => {
        if (line === '' || next >= answers.length || !line.includes('"status":"finished"')) return line;
        const record = JSON.parse(line) as { outcome: { answer?: string } };
        record.outcome.answer = answers[next++]!;
        return JSON.stringify(record);
      });
    writeFileSync(path, lines.join('\n'));
    const ran = await cli(build, ['report', out, '--csv', '-']);
    const [header, ...cells] = csvParseRows(ran.stdout);
    const column = header?.indexOf('answer') ?? -1;
    const written = answers.map((answer) => `${answer} → ${cells.find((row) => row[column]?.replace(/^'/, '') === answer)?.[column] ?? '(not found)'}`);
    add('9 `report --csv -`: answer cells that are numbers (and two that are not)', build, ran, written.join('; '));
  },
  10: async (build, dir) => {
    const out = join(dir, 'run');
    const ran = await cli(build, [
      'run',
      '--strategies',
      'plan-replan',
      '--tasks',
      'default-currency',
      '--model',
      'scripted:faults=planner.guessed_target',
      '--no-progress',
      '--out',
      out,
    ]);
    const lines = ran.stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith('models:'));
    const header =
      at < 0
        ? '(no models: line)'
        : [lines[at], ...lines.slice(at + 1).filter((_, i, rest) => rest.slice(0, i + 1).every((line) => line.startsWith('  ')))].join(' ');
    const csv = await cli(build, ['report', out, '--csv', '-']);
    const [columns, row] = csvParseRows(csv.stdout);
    add(
      '10 `--model scripted:faults=planner.guessed_target`: header and CSV',
      build,
      ran,
      `${header.replace(/\s+/g, ' ')}; CSV models: ${row?.[columns?.indexOf('models') ?? -1]}`,
    );
  },
};

/** A chat request the fake OpenAI-compatible server received: when (performance.now(), ms) and its JSON body. */
interface ChatRequest {
  at: number;
  body: Record<string, unknown>;
}
type Answer = (request: ChatRequest, index: number, response: ServerResponse) => void;
const MODEL = 'Qwen/Qwen3-8B';
function completion(content: string): string {
  const choice = { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' };
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_764_800_000,
    model: MODEL,
    choices: [choice],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  });
}
const okAnswer: Answer = (_request, _index, response) => sendJson(response, 200, completion('{"action":"finish","answer":"EUR"}'));
function sendJson(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}
async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}
/**
 * Runs `use` against a fake OpenAI-compatible server on 127.0.0.1 (ephemeral port; `url` ends in /v1): GET /v1/models
 * lists MODEL as vLLM does (owned_by, root, max_model_len), each POST /v1/chat/completions is logged in `chats` and
 * answered by `answer`; the server is closed afterwards.
 */
async function withOpenAI(answer: Answer, use: (url: string, chats: ChatRequest[]) => Promise<void>): Promise<void> {
  const chats: ChatRequest[] = [];
  const server = createServer((request, response) => {
    void readJson(request).then((body) => {
      if (request.method === 'GET' && request.url === '/v1/models') {
        const entry = { id: MODEL, object: 'model', created: 1_764_800_000, owned_by: 'vllm', root: MODEL, max_model_len: 32_768 };
        return sendJson(response, 200, JSON.stringify({ object: 'list', data: [entry] }));
      }
      if (request.method === 'POST' && request.url === '/v1/chat/completions') {
        const chat = { at: performance.now(), body };
        chats.push(chat);
        return answer(chat, chats.length - 1, response);
      }
      sendJson(response, 404, JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, chats);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
const openaiRun = (url: string, out: string, extra: string[] = []): string[] => [
  'run',
  ...['--model', `openai:${MODEL}`, '--openai-base-url', url, '--tasks', 'default-currency', '--strategies', 'direct', '--no-progress', '--out', out],
  ...extra,
];
function episodeOutcomes(out: string): string {
  const records = [...episodeLines(out).values()].flat().map((line) => JSON.parse(line) as { outcome: { status: string; reason: string; message?: string } });
  if (records.length === 0) return 'no episode written';
  return records.map(({ outcome }) => `${outcome.status}/${outcome.reason}${outcome.message ? `: "${outcome.message.slice(0, 240)}"` : ''}`).join('; ');
}

/** A gzip body of `decoded` bytes: a chat completion whose content is that many `x`s (decodes to JSON). */
async function gzipBomb(decoded: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const [head, tail] = completion('\u0000').split('\\u0000');
  const block = Buffer.alloc(1 << 20, 'x');
  gzip.write(head!);
  for (let written = 0; written < decoded; written += block.length) if (!gzip.write(block)) await new Promise((resolve) => gzip.once('drain', resolve));
  await new Promise((resolve) => gzip.end(tail, () => resolve(undefined)));
  return Buffer.concat(parts);
}

/** GNU time's maximum resident set size (KB, the last line of its -o file) in MB, or 'unknown'. */
const peakOf = (file: string): string =>
  existsSync(file) ? `${Math.round(Number(readFileSync(file, 'utf8').trim().split('\n').pop()) / 1024)} MB` : 'unknown';
/** The peak RSS of the same one-episode run against a server that answers a normal reply: the baseline of fault 13. */
async function peakRss(build: Build, dir: string): Promise<string> {
  const rss = join(dir, 'rss-normal');
  await withOpenAI(okAnswer, async (url) => {
    await cli(build, openaiRun(url, join(dir, 'normal')), 400_000, ['/usr/bin/time', '-f', '%M', '-o', rss]);
  });
  return peakOf(rss);
}

const serverFaults: Record<number, (build: Build, dir: string) => Promise<void>> = {
  11: (build, dir) =>
    withOpenAI(
      (request, index, response) =>
        index === 0
          ? sendJson(response, 429, JSON.stringify({ error: { message: 'rate limited', type: 'rate_limit_error' } }), { 'retry-after': '2' })
          : okAnswer(request, index, response),
      async (url, chats) => {
        const ran = await cli(build, openaiRun(url, join(dir, 'run')));
        const gap = chats.length > 1 ? `${Math.round(chats[1]!.at - chats[0]!.at)} ms between the 429 and the next attempt` : 'no second attempt';
        add('11 `openai:` 429 with `Retry-After: 2`', build, ran, gap);
      },
    ),
  12: async (build, dir) => {
    const flat = JSON.stringify({
      object: 'error',
      message: 'response_format json_schema is not supported by this server',
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
    await withOpenAI(
      (request, index, response) => ('response_format' in request.body ? sendJson(response, 400, flat) : okAnswer(request, index, response)),
      async (url, chats) => {
        const out = join(dir, 'run');
        const ran = await cli(build, openaiRun(url, out));
        const prompt = chats.filter((chat) => !('response_format' in chat.body)).length;
        add(
          '12a vLLM flat error body `{object: "error", message}`, 400, on json_schema',
          build,
          ran,
          `${episodeOutcomes(out)}; ${prompt} of ${chats.length} requests fell back to the schema in the prompt`,
        );
      },
    );
    const other = JSON.stringify({
      object: 'error',
      message: 'top_k must be -1 (disable), or at least 1, got 0.',
      type: 'BadRequestError',
      param: null,
      code: 400,
    });
    await withOpenAI(
      (_request, _index, response) => sendJson(response, 400, other),
      async (url) => {
        const out = join(dir, 'other');
        add('12b … the same shape on every request (no fallback applies)', build, await cli(build, openaiRun(url, out)), episodeOutcomes(out));
      },
    );
  },
  13: async (build, dir) => {
    const body = await gzipBomb(1 << 30);
    await withOpenAI(
      (_request, _index, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
        response.end(body);
      },
      async (url, chats) => {
        const out = join(dir, 'run');
        const rss = join(dir, 'rss');
        const ran = await cli(build, openaiRun(url, out), 600_000, ['/usr/bin/time', '-f', '%M', '-o', rss]);
        const normal = await peakRss(build, dir);
        add(
          `13 a ${Math.round(body.length / 1024)} KB gzip reply of 1 GiB`,
          build,
          ran,
          `${peakOf(rss)} peak RSS (${normal} with a 1 KB reply); ${chats.length} requests; ${episodeOutcomes(out)}`,
        );
      },
    );
  },
  14: (build, dir) =>
    withOpenAI(okAnswer, async (url, chats) => {
      const ran = await cli(build, openaiRun(url, join(dir, 'run'), ['--num-ctx', '8192']));
      const sent = chats.some((chat) => JSON.stringify(chat.body).includes('num_ctx')) ? 'num_ctx in the request' : 'num_ctx not in any request';
      add('14 `--num-ctx 8192` with an `openai:` model', build, ran, `${chats.length} chat requests; ${sent}`);
    }),
};

const all = { ...faults, ...serverFaults };
for (const [number, fault] of Object.entries(all)) {
  if (only !== null && !only.has(Number(number))) continue;
  for (const build of builds) {
    const dir = join(TMP, build.label, `fault${number}`);
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`fault ${number}, ${build.label}…\n`);
    try {
      await fault(build, dir);
    } catch (error) {
      rows.push({ fault: `${number}`, build: build.label, exit: '—', message: '—', outcome: `the script failed: ${shown(String(error)).slice(0, 300)}` });
    }
  }
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const sha = (root: string): string => execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(
  `BEFORE = ${sha(builds[0]!.root)}, AFTER = ${sha(builds[1]!.root)}. $T = a temporary folder. Message: the first line of stderr after the run's ` +
    "matrix lines and Node's warnings. Records: finished episodes in the folder before the fault → after; changed = no longer byte-identical.\n",
);
console.log('| fault | build | exit | message (first line of stderr) | records kept / measured |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${[row.fault, row.build, row.exit, row.message, row.outcome].map(cell).join(' | ')} |`);
if (values.keep) process.stderr.write(`kept ${TMP}\n`);
else rmSync(TMP, { recursive: true, force: true });
