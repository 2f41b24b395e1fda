// The messages each model call was sent and the thinking it returned: stored once per results folder in
// messages.jsonl, referenced by hash from model_call events, carried by merge, printed by explain.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoredText, storedTextHash, type EpisodeRecord, type TraceEvent } from '../src/records/index.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { EpisodeWriter, openMessageStore, parseMessages, readMessages } from '../src/results-folder/index.js';
import { records, runInProcess, scratch, scriptedOllamaReply, scriptedTasksOf, RUN_DEFAULTS } from './support/scripted-over-ollama.js';
import { startFakeOllama, type FakeChatRequest, type FakeOllama } from './support/fake-ollama-server.js';
import { stratbench } from './support/cli.js';

type ModelCall = Extract<TraceEvent, { type: 'model_call' }>;

let server: FakeOllama;
let out: string;
let episodes: EpisodeRecord[];
let stored: StoredText[];

/** A thinking text that names the request, so each reply's thinking can be checked against what was sent. */
const thinkingFor = (request: FakeChatRequest): string => `I read ${request.messages?.length ?? 0} message(s) and decided.`;

beforeAll(async () => {
  const scripted = scriptedOllamaReply(new ScriptedModel(await scriptedTasksOf(String(RUN_DEFAULTS.suite))));
  server = await startFakeOllama({
    reply: (request) => {
      const reply = scripted(request);
      if ('body' in reply) (reply.body as { message: { thinking?: string } }).message.thinking = thinkingFor(request);
      return reply;
    },
  });
  out = join(scratch(), 'run');
  const run = await runInProcess({
    out,
    model: 'ollama:qwen3:8b',
    ollamaHost: server.url,
    tasks: 'install-network-blip,default-currency',
    strategies: 'plan-replan,react',
  });
  expect(run.code).toBe(0);
  episodes = records(out);
  stored = readFileSync(join(out, 'messages.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => StoredText.parse(JSON.parse(line)));
});

afterAll(async () => {
  await server.close();
});

const modelCalls = (list: readonly EpisodeRecord[]): ModelCall[] => list.flatMap((r) => r.trace.filter((e): e is ModelCall => e.type === 'model_call'));

describe('storedTextHash', () => {
  // Computed here independently: 16 hex digits of sha256 over role, newline, content.
  const expected = (role: string, content: string) => createHash('sha256').update(`${role}\n${content}`).digest('hex').slice(0, 16);

  it('gives the documented hash for a text asked again, under another role, and after its memo was cleared', () => {
    const text = `a system prompt ${'x'.repeat(3000)}`;
    for (let repeat = 0; repeat < 3; repeat++) expect(storedTextHash('system', text)).toBe(expected('system', text));
    // The same words under another role are another text.
    expect(storedTextHash('user', text)).toBe(expected('user', text));
    expect(storedTextHash('user', text)).not.toBe(storedTextHash('system', text));
    // Texts past the memo's 2,000,000 characters clear it; hashes stay the same.
    const big = 'y'.repeat(1_200_000);
    expect(storedTextHash('tool', big)).toBe(expected('tool', big));
    expect(storedTextHash('tool', `${big}z`)).toBe(expected('tool', `${big}z`));
    expect(storedTextHash('system', text)).toBe(expected('system', text));
    expect(storedTextHash('thinking', '')).toBe(expected('thinking', ''));
  });
});

describe('messages.jsonl on disk', () => {
  const text = (role: 'system' | 'thinking', content: string) => ({ hash: storedTextHash(role, content), role, content });

  it('is written before the episodes that reference its texts: a run killed after a flush leaves no dangling hash', async () => {
    const dir = scratch();
    mkdirSync(dir, { recursive: true });
    const messages = await openMessageStore(dir);
    const episodes = new EpisodeWriter(join(dir, 'episodes.jsonl'), { beforeFlush: () => messages.flush() });
    const thought = text('thinking', 'a thought only this episode had');
    messages.put(thought);
    episodes.writeLine(JSON.stringify({ thinking: thought.hash }));
    // The episodes' flush (its 100 ms timer, a full buffer or close) writes the messages first; nothing else has run.
    episodes.flush();
    expect(readFileSync(join(dir, 'episodes.jsonl'), 'utf8')).toContain(thought.hash);
    expect(readFileSync(join(dir, 'messages.jsonl'), 'utf8')).toBe(`${JSON.stringify(thought)}\n`);
    await episodes.close();
    await messages.close();
  });

  it('a torn last line (a run killed mid-write) is cut off before a resumed run appends', async () => {
    const dir = scratch();
    mkdirSync(dir, { recursive: true });
    const kept = text('system', 'kept');
    writeFileSync(join(dir, 'messages.jsonl'), `${JSON.stringify(kept)}\n{"hash":"0123456789abcdef","role":"thinking","cont`);
    const messages = await openMessageStore(dir);
    const added = text('thinking', 'added by the resumed run');
    messages.put(kept);
    messages.put(added);
    await messages.close();
    // Every line is whole: the torn one is gone, not left in the middle where readers reject the file.
    expect(readFileSync(join(dir, 'messages.jsonl'), 'utf8')).toBe(`${JSON.stringify(kept)}\n${JSON.stringify(added)}\n`);
    const read = await readMessages(dir);
    expect(read.ok && [...read.texts.keys()]).toEqual([kept.hash, added.hash]);
  });

  it('a whole last line without its newline is kept and completed, not cut: resume counted its text as stored', async () => {
    const dir = scratch();
    mkdirSync(dir, { recursive: true });
    const [first, last] = [text('system', 'first'), text('thinking', 'a whole line whose newline was stripped')];
    writeFileSync(join(dir, 'messages.jsonl'), `${JSON.stringify(first)}\n${JSON.stringify(last)}`);
    const messages = await openMessageStore(dir);
    const added = text('thinking', 'added by the resumed run');
    messages.put(added);
    await messages.close();
    expect(readFileSync(join(dir, 'messages.jsonl'), 'utf8')).toBe(`${[first, last, added].map((line) => JSON.stringify(line)).join('\n')}\n`);
  });
});

describe('parseMessages: what is a torn last line, and what is damage', () => {
  const line = (role: 'user' | 'system', content: string): string => JSON.stringify({ hash: storedTextHash(role, content), role, content });
  const good = [line('user', 'first'), line('system', 'second')];

  it('a half-written last line with no newline after it (a run killed mid-write) is skipped silently', () => {
    const torn = good[1]!.slice(0, 20);
    expect(torn.startsWith('{"hash":"')).toBe(true);
    const parsed = parseMessages(`${good[0]}\n${torn}`, 'm.jsonl');
    expect(parsed.ok && [parsed.texts.size, parsed.warnings]).toEqual([1, []]);
  });

  it('damage is named file:line, last line included: a bad line ending in a newline, bytes not ours, an altered text', () => {
    const altered = JSON.stringify({ ...JSON.parse(good[1]!), content: 'second, edited' });
    const cases: Array<[string, string]> = [
      [`${good[0]}\n${good[1]!.slice(0, 20)}\n`, 'm.jsonl:2: not valid JSON'],
      [`${good[0]}\n\u0000\u0001garbage with no newline`, 'm.jsonl:2: not valid JSON'],
      [`${good[0]}\n${altered}\n`, `m.jsonl:2: its hash ${storedTextHash('system', 'second')} is not the hash of its role and content`],
    ];
    for (const [text, problem] of cases) {
      const parsed = parseMessages(text, 'm.jsonl');
      expect(parsed.ok && parsed.texts.size, problem).toBe(1);
      expect(parsed.ok && parsed.warnings.join('\n')).toContain(problem);
      expect(parsed.ok && parsed.damaged.map((entry) => entry.line)).toEqual([2]);
    }
    // Control characters reach the terminal escaped.
    const binary = parseMessages('\u0000\u001b[31m\n', 'm.jsonl');
    expect(binary.ok && binary.warnings[0]).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('messages.jsonl', () => {
  it('holds every message sent and every thinking text exactly once, under the hash of its role and content', () => {
    const hashes = stored.map((text) => text.hash);
    expect(new Set(hashes).size).toBe(hashes.length);
    for (const text of stored) expect(text.hash).toBe(storedTextHash(text.role, text.content));
    const referenced = modelCalls(episodes).flatMap((call) => [...(call.sent?.messages ?? []), ...(call.thinking ? [call.thinking] : [])]);
    expect(new Set(referenced)).toEqual(new Set(hashes));
    // The point of content addressing: shared system prompts are stored once, not once per call.
    expect(referenced.length).toBeGreaterThan(2 * stored.length);
  });

  it('model_call events reference exactly what the server received, with the options sent, and the thinking returned', () => {
    const byHash = new Map(stored.map((text) => [text.hash, text]));
    const requests = server.chatCalls().map((call) => call.body as FakeChatRequest);
    const calls = modelCalls(episodes);
    expect(calls).toHaveLength(requests.length);
    const sent = calls.map((call) => call.sent!.messages.map((hash) => ({ role: byHash.get(hash)!.role, content: byHash.get(hash)!.content })));
    // Episodes run concurrently: compare as sets of requests.
    const asText = (messages: unknown[]) => JSON.stringify(messages);
    expect(new Set(sent.map(asText))).toEqual(new Set(requests.map((request) => asText(request.messages ?? []))));
    for (const call of calls) {
      expect(call.sent!.options).toMatchObject({ temperature: 0, num_ctx: 8192, think: false, structured_output: 'format' });
      expect(byHash.get(call.thinking!)).toEqual({
        hash: call.thinking,
        role: 'thinking',
        content: `I read ${call.sent!.messages.length} message(s) and decided.`,
      });
    }
    const planner = calls.find((call) => call.role === 'planner')!;
    expect(byHash.get(planner.sent!.messages[0]!)!.content).toContain('reply with only a JSON value matching this JSON Schema');
  });

  it('a scripted run sends no messages and writes no messages.jsonl', async () => {
    const scriptedOut = join(scratch(), 'scripted');
    expect((await runInProcess({ out: scriptedOut, tasks: 'default-currency', strategies: 'react' })).code).toBe(0);
    expect(existsSync(join(scriptedOut, 'messages.jsonl'))).toBe(false);
    expect(modelCalls(records(scriptedOut)).every((call) => call.sent === undefined && call.thinking === undefined)).toBe(true);
  });
});

describe('explain shows the messages a role saw', () => {
  it('one line per message and the thinking by default; everything in full with --messages', () => {
    const brief = stratbench(['explain', out, 'install-network-blip', 'plan-replan']);
    expect(brief.status).toBe(0);
    expect(brief.stdout).toMatch(
      /model_call planner: a plan of \d+ step\(s\).*\n\s+sent 2 message\(s\) \(temperature 0, seed \d+, num_ctx 8192, think false, keep_alive 30m, structured_output format\):\n\s+\[system\] .+\n\s+\[user\] .+\n\s+thinking: I read 2 message\(s\) and decided\./,
    );
    const full = stratbench(['explain', out, 'install-network-blip', 'plan-replan', '--messages']);
    expect(full.status).toBe(0);
    const planner = stored.find(
      (text) => text.role === 'system' && text.content.includes('JSON Schema') && full.stdout.includes(text.content.split('\n')[0]!),
    )!;
    for (const line of planner.content
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, 20))
      expect(full.stdout).toContain(line);
  });

  it('merge carries messages.jsonl; a corrupt line is skipped with a warning naming file:line, not a dead end', () => {
    const merged = join(scratch(), 'merged');
    expect(stratbench(['merge', out, '--out', merged]).status).toBe(0);
    expect(readFileSync(join(merged, 'messages.jsonl'), 'utf8').trim().split('\n').sort()).toEqual(
      readFileSync(join(out, 'messages.jsonl'), 'utf8').trim().split('\n').sort(),
    );
    const lines = readFileSync(join(merged, 'messages.jsonl'), 'utf8').split('\n');
    writeFileSync(join(merged, 'messages.jsonl'), ['{"hash": 3}', ...lines].join('\n'));
    const explained = stratbench(['explain', merged, 'install-network-blip', 'plan-replan']);
    expect(explained.status).toBe(0);
    expect(explained.stderr).toContain(
      `warning: ${join(merged, 'messages.jsonl')}:1: not a stored message (expected {hash, role, content}): skipped; the texts on it are lost`,
    );
    // Every other text is still shown: nothing on the good lines is lost.
    expect(explained.stdout).not.toContain('is not in messages.jsonl]');
  });
});

// Last: it makes calls to the server, which the tests above count.
describe('resume and messages.jsonl', () => {
  it('a corrupt line in the middle of messages.jsonl: explain and export warn naming file:line, --resume keeps the episode that lost its text, marked', async () => {
    const copy = join(scratch(), 'corrupt-line');
    cpSync(out, copy, { recursive: true });
    const victim = episodes[0]!;
    const call = victim.trace.find((event): event is ModelCall => event.type === 'model_call')!;
    const lostHash = call.sent!.messages[1]!;
    const lines = readFileSync(join(copy, 'messages.jsonl'), 'utf8').trim().split('\n');
    const at = lines.findIndex((line) => line.includes(lostHash));
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(lines.length - 1);
    // Half the line is gone (a disk or an editor damaged it), and the rest of the file is intact.
    lines[at] = lines[at]!.slice(0, Math.floor(lines[at]!.length / 2));
    writeFileSync(join(copy, 'messages.jsonl'), `${lines.join('\n')}\n`);
    const where = `${join(copy, 'messages.jsonl')}:${at + 1}: not valid JSON`;

    const explained = stratbench(['explain', copy, victim.task, victim.strategy, '--epoch', String(victim.epoch)]);
    expect(explained.status).toBe(0);
    expect(explained.stderr).toContain(`warning: ${where}`);
    expect(explained.stdout).toContain(`[${lostHash} is not in messages.jsonl]`);
    expect(explained.stderr).toContain(`warning: this episode references messages or thinking that ${copy}/messages.jsonl lacks`);
    const exported = stratbench(['export', copy, '--format', 'atif', '--out', join(scratch(), 'atif')]);
    expect(exported.status).toBe(0);
    expect(exported.stderr).toContain(`warning: ${where}`);
    const merged = stratbench(['merge', copy, '--out', join(scratch(), 'merged-damaged')]);
    expect(merged.status).toBe(0);
    expect(merged.stderr).toContain(`warning: ${where}`);
    expect(merged.stderr).toContain("warning: 1 merged episode(s) reference messages or thinking that no folder's messages.jsonl has");
    expect(exported.stderr).toContain('warning: 1 episode(s) reference messages or thinking');

    const resumed = await runInProcess({ resume: copy });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`warning: ${where}`);
    expect(resumed.stderr).toContain(
      `${episodes.length} finished episode(s) kept (1 of them reference messages or thinking that messages.jsonl lacks: kept with their verdicts, the texts shown as lost)`,
    );
    // The damaged line is kept aside, not lost, and later readers no longer warn about it.
    expect(resumed.stderr).toContain(`moved 1 damaged line(s) of messages.jsonl to messages.damaged.jsonl in ${copy}`);
    expect(JSON.parse(readFileSync(join(copy, 'messages.damaged.jsonl'), 'utf8'))).toEqual({ line: at + 1, text: lines[at] });
    // Every finished record is kept as it was (none discarded and run again): the same lines, the same verdicts.
    expect(records(copy)).toEqual(episodes);
    const read = await readMessages(copy);
    expect(read.ok && read.texts.has(lostHash)).toBe(false);
    const again = stratbench(['explain', copy, victim.task, victim.strategy, '--epoch', String(victim.epoch)]);
    expect(again.stdout).toContain(`[${lostHash} is not in messages.jsonl]`);
    expect(again.stderr).toBe(
      `warning: this episode references messages or thinking that ${copy}/messages.jsonl lacks (shown as their hashes); its verdict stands (scored when the episode ended)\n`,
    );
  });

  it('--resume keeps a finished episode whose referenced texts were lost (a deleted line, or a folder killed by an older version), marked, never run again', async () => {
    const copy = join(scratch(), 'lost-texts');
    cpSync(out, copy, { recursive: true });
    // The user message of the first episode's first call is gone from messages.jsonl (it is unique to that call).
    const victim = episodes[0]!;
    const call = victim.trace.find((event): event is ModelCall => event.type === 'model_call')!;
    const lostHash = call.sent!.messages[1]!;
    const lines = readFileSync(join(copy, 'messages.jsonl'), 'utf8').trim().split('\n');
    writeFileSync(join(copy, 'messages.jsonl'), `${lines.filter((line) => !line.includes(lostHash)).join('\n')}\n`);
    // export says which episodes lack texts (it used to drop them silently), and how to get them back.
    const exported = stratbench(['export', copy, '--format', 'atif', '--out', join(scratch(), 'atif')]);
    expect(exported.status).toBe(0);
    expect(exported.stderr).toContain(`warning: 1 episode(s) reference messages or thinking that ${copy}/messages.jsonl lacks`);
    expect(exported.stderr).toContain('their verdicts stand (scored when each episode ended)');
    const resumed = await runInProcess({ resume: copy });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(
      `${episodes.length} finished episode(s) kept (1 of them reference messages or thinking that messages.jsonl lacks: kept with their verdicts, the texts shown as lost)`,
    );
    // Every finished record is kept as it was: the same lines, the same verdicts, and no text appears from nowhere.
    expect(records(copy)).toEqual(episodes);
    const read = await readMessages(copy);
    expect(read.ok && read.texts.has(lostHash)).toBe(false);
  });

  it('--resume keeps finished episodes when messages.jsonl is deleted altogether, and runs only what was never finished', async () => {
    const copy = join(scratch(), 'no-messages');
    cpSync(out, copy, { recursive: true });
    rmSync(join(copy, 'messages.jsonl'));
    const resumed = await runInProcess({ resume: copy });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`${episodes.length} finished episode\\(s\\) kept \\(\\d+ of them reference messages or thinking`));
    expect(records(copy)).toEqual(episodes);
  });
});
