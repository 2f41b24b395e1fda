// Corrupt, half-written, old and future results files: every command that reads a folder (report, compare,
// merge, resume, explain) exits 2 naming the file and the problem — never a crash or a stack trace (resume repairs a
// damaged summary.json instead).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratch, stratbench } from './support/cli.js';

let good: string;
let root: string;

beforeAll(() => {
  root = scratch('corrupt-');
  good = join(root, 'good');
  const run = stratbench(['run', '--tasks', 'default-currency', '--strategies', 'direct,react', '--out', good, '--no-progress']);
  expect(run.status).toBe(0);
});

let copies = 0;
/** A copy of the good folder with `file` replaced by `text` (or changed by a function of its text). */
function damaged(file: string, change: string | ((text: string) => string)): string {
  copies += 1;
  const dir = join(root, `copy-${copies}`);
  cpSync(good, dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, typeof change === 'string' ? change : change(readFileSync(path, 'utf8')));
  return dir;
}

/** Each command a user runs on a folder, by name. */
const commands: Record<string, (dir: string) => string[]> = {
  report: (dir) => ['report', dir],
  compare: (dir) => ['compare', good, dir],
  merge: (dir) => ['merge', dir, '--out', join(root, `merged-${(copies += 1)}`)],
  resume: (dir) => ['run', '--resume', dir, '--no-progress'],
  explain: (dir) => ['explain', dir, 'default-currency', 'direct'],
};

const halfWritten = (text: string): string => text.slice(0, Math.floor(text.length / 2));

const cases: Array<{ name: string; file: string; change: string | ((text: string) => string); problem: RegExp }> = [
  { name: 'half-written run.json', file: 'run.json', change: halfWritten, problem: /run\.json: not valid JSON/ },
  { name: 'empty run.json', file: 'run.json', change: '', problem: /run\.json: empty \(a run killed while writing it\?\)/ },
  {
    name: 'run.json of the wrong shape',
    file: 'run.json',
    change: (text) => JSON.stringify({ ...JSON.parse(text), config: 'x' }),
    problem: /run\.json: not a valid run\.json \(schemaVersion 3\)\n✖ Invalid input: expected object, received string\n {2}→ at config/,
  },
  {
    name: 'run.json from a newer stratbench',
    file: 'run.json',
    change: (text) => JSON.stringify({ ...JSON.parse(text), schemaVersion: 99 }),
    problem: /run\.json: schemaVersion 99 is newer than this stratbench reads \(1–3\): upgrade stratbench to read it/,
  },
  {
    name: 'run.json without a schemaVersion',
    file: 'run.json',
    change: (text) => JSON.stringify({ ...JSON.parse(text), schemaVersion: undefined }),
    problem: /run\.json: no schemaVersion: not a stratbench results file/,
  },
  {
    name: 'run.json holding only the claim of a run that never started',
    file: 'run.json',
    change: '{"status":"starting"}\n',
    problem:
      /run\.json: the run that claimed this folder was stopped before its first episode and recorded no options: start it again with `stratbench run --out .*` and the options you gave it/,
  },
  { name: 'half-written summary.json', file: 'summary.json', change: halfWritten, problem: /summary\.json: not valid JSON/ },
  {
    name: 'summary.json of the wrong shape',
    file: 'summary.json',
    change: (text) => JSON.stringify({ ...JSON.parse(text), strategies: 3 }),
    problem: /summary\.json: not a valid summary\.json \(schemaVersion 3\)/,
  },
];

describe('every command that reads a results folder refuses a damaged one with exit 2, the file and the problem', () => {
  it('resume: half-written summary.json is moved aside and written anew from the episodes (exit 0)', () => {
    const dir = damaged('summary.json', halfWritten);
    const result = stratbench(commands['resume']!(dir));
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`moved to ${join(dir, 'summary.damaged.json')}; the resumed run writes summary.json anew from the episodes`);
    expect(stratbench(['report', dir]).status).toBe(0);
  });

  // Every damage through `report`; every command through three of them (each spawn costs ~1 s).
  const everyCommand = new Set(['half-written run.json', 'run.json from a newer stratbench', 'half-written summary.json']);
  for (const { name, file, change, problem } of cases) {
    for (const [command, args] of Object.entries(commands)) {
      if (command !== 'report' && !everyCommand.has(name)) continue;
      // --resume moves a damaged summary.json aside and writes it anew (tests/disk-faults.test.ts).
      if (command === 'resume' && file === 'summary.json') continue;
      it(`${command}: ${name}`, () => {
        const dir = damaged(file, change);
        const result = stratbench(args(dir));
        expect(result.status).toBe(2);
        expect(result.stderr).toContain(join(dir, file));
        expect(result.stderr).toMatch(problem);
        expect(result.stderr).not.toMatch(/crashed|\n\s+at /);
      });
    }
  }
});

describe('version 1 folders (written before message storage and trace links)', () => {
  it('are read by report, compare and explain', () => {
    const dir = damaged('run.json', (text) => JSON.stringify({ ...JSON.parse(text), schemaVersion: 1 }));
    const episodes = readFileSync(join(dir, 'episodes.jsonl'), 'utf8').replaceAll('"schemaVersion":2', '"schemaVersion":1');
    writeFileSync(join(dir, 'episodes.jsonl'), episodes);
    expect(stratbench(['report', dir]).status).toBe(0);
    expect(stratbench(['compare', good, dir]).status).toBe(0);
    expect(stratbench(['explain', dir, 'default-currency', 'react']).status).toBe(0);
  });
});
