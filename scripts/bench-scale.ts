// `npm run bench:scale`: wall, episodes/s, peak RSS and bytes per episode of `run`, and the wall and peak RSS of
// `report`, `compare` and `merge` (of 4 shards), at 10k / 100k (default) and 1M episodes (`-- --sizes 10k,100k,1m`).
//
// Issue 15 §1 and §6: each of run, report, compare and merge must hold peak RSS ≤ 250 MB at 1,000,000 episodes.
// Every command is a child process of the built CLI, one at a time (the machine is shared), its peak RSS read by
// GNU time (`/usr/bin/time -f %M`: the child's maxrss, KiB). The suite is core.yaml with its 14 tasks copied 15
// times under new ids (210 tasks: 5 strategies × 210 tasks × 952 epochs = 999,600 episodes, epochs being capped at
// 1,000 and a run at 1,000,000 episodes), or `--suite FILE`. The head is the same matrix with an injected planner
// fault (so the folders differ), run as 4 shards (`run --shard i/4`) and merged: `compare` reads the base and the
// merged head. Folders live in a fresh /tmp/scale-* scratch folder, deleted as soon as they are measured: a 1M run
// writes ~7 GB of episodes.jsonl (uncompressed), and at most three such folders (base, shards, merge) exist at once.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { writeCopiedCore as copyCore } from './bench-support.js';
import { parseDocument } from 'yaml';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const cli = join(root, 'dist/cli.js');
const STRATEGIES = ['direct', 'react', 'plan-up-front', 'plan-replan', 'gated'];
/** The head of `compare`: the same suite with a fault the scripted model injects into the planner (a real difference). */
const HEAD_MODEL = 'scripted:faults=planner.guessed_target';
/** Issue 15 §1: peak RSS bound of run, report, compare and merge at 1,000,000 episodes. */
const RSS_LIMIT_MB = 250;
/** Node flags of the shipped CLI, read from its shebang (`#!/usr/bin/env -S node FLAGS`): the bench runs what users run. */
const NODE_FLAGS = (/^#!.*\bnode\b(.*)$/m.exec(readFileSync(join(root, 'src/cli.ts'), 'utf8'))?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
/** Epochs are capped at 1,000 (`run --epochs`) and a run at 1,000,000 episodes. */
const MAX_EPOCHS = 1_000;
const MAX_EPISODES = 1_000_000;

interface Measured {
  /** Wall time of the child process, ms. */
  wallMs: number;
  /** The child's peak resident set, MB (GNU time's %M, KiB / 1024). */
  peakRssMb: number;
  exitCode: number;
  stdout: string;
}

/**
 * Runs `node FLAGS dist/cli.js ARGS` under GNU time; resolves with its wall time, peak RSS and exit code. Rejects
 * when the exit code is not in `okCodes`, quoting the end of stderr.
 */
function measure(args: string[], scratch: string, okCodes: readonly number[] = [0]): Promise<Measured> {
  const timeFile = join(scratch, 'time.txt');
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, ...NODE_FLAGS, cli, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(-200_000);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = performance.now() - started;
      const exitCode = code ?? -1;
      if (!okCodes.includes(exitCode)) return reject(new Error(`stratbench ${args.join(' ')} exited ${exitCode}:\n${stderr}`));
      const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
      const peakKb = Number(lines[lines.length - 1]);
      resolvePromise({ wallMs, peakRssMb: peakKb / 1024, exitCode, stdout });
    });
  });
}

/** The episodes file of a folder (episodes.jsonl, or episodes.jsonl.gz when compressed) and its size in bytes. */
function episodesBytes(dir: string): { file: string; bytes: number } {
  for (const file of ['episodes.jsonl.gz', 'episodes.jsonl']) {
    const path = join(dir, file);
    if (existsSync(path)) return { file, bytes: statSync(path).size };
  }
  throw new Error(`${dir}: no episodes.jsonl or episodes.jsonl.gz`);
}

/** Writes core.yaml with its tasks copied `copies` times (ids suffixed -c0, -c1, …) to `path`; returns the task count. */
const writeCopiedCore = (path: string, copies: number): number => copyCore({ root, label: 'this checkout', commit: 'HEAD' }, path, copies);

/** Tasks in a suite file (YAML or JSON: a top-level `tasks` list). */
function countTasks(path: string): number {
  const tasks = (parseDocument(readFileSync(path, 'utf8')).toJS() as { tasks?: unknown[] }).tasks;
  if (!Array.isArray(tasks) || tasks.length === 0) throw new Error(`${path}: no tasks`);
  return tasks.length;
}

/** "10k" → 10000, "1m" → 1000000, "250000" → 250000. */
function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`--sizes: "${text}" is not a number of episodes (e.g. 10k, 100k, 1m)`);
  const scale = { '': 1, k: 1_000, m: 1_000_000 }[(match[2] as string).toLowerCase() as '' | 'k' | 'm'];
  return Math.round(Number(match[1]) * scale);
}

const mb = (value: number): string => `${value.toFixed(0)} MB`;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

interface SizeResult {
  episodes: number;
  epochs: number;
  run: Measured;
  episodesFile: { file: string; bytes: number };
  report: Measured;
  compare: Measured;
  shards: Measured[];
  merge: Measured;
}

async function benchSize(target: number, suite: string, tasks: number, scratch: string, log: (line: string) => void): Promise<SizeResult> {
  const perEpoch = tasks * STRATEGIES.length;
  const epochs = Math.max(1, Math.min(Math.round(target / perEpoch), Math.floor(MAX_EPISODES / perEpoch)));
  if (epochs > MAX_EPOCHS) throw new Error(`${target} episodes need ${epochs} epochs of ${tasks} tasks (at most ${MAX_EPOCHS}): use a larger --suite`);
  const episodes = epochs * perEpoch;
  const common = ['--suite', suite, '--strategies', STRATEGIES.join(','), '--epochs', String(epochs), '--no-progress'];
  const base = join(scratch, `base-${episodes}`);
  const head = join(scratch, `head-${episodes}`);
  log(`${episodes} episodes (${tasks} tasks × ${STRATEGIES.length} strategies × ${epochs} epochs): run…`);
  const run = await measure(['run', ...common, '--out', base], scratch);
  const episodesFile = episodesBytes(base);
  log(`  run ${seconds(run.wallMs)}, ${mb(run.peakRssMb)}; report…`);
  const report = await measure(['report', base], scratch);
  log(`  report ${seconds(report.wallMs)}, ${mb(report.peakRssMb)}; head in 4 shards (${HEAD_MODEL})…`);
  // The head is run as 4 shards and merged: one run of it serves both merge and compare.
  const shards: Measured[] = [];
  const shardDirs: string[] = [];
  for (let index = 1; index <= 4; index++) {
    const dir = join(scratch, `head-shard-${index}-${episodes}`);
    shardDirs.push(dir);
    shards.push(await measure(['run', ...common, '--model', HEAD_MODEL, '--shard', `${index}/4`, '--out', dir], scratch));
  }
  log('  merge…');
  const merge = await measure(['merge', ...shardDirs, '--out', head], scratch);
  const mergedRun = JSON.parse(readFileSync(join(head, 'run.json'), 'utf8')) as { episodes?: number };
  if (mergedRun.episodes !== episodes) throw new Error(`merge holds ${String(mergedRun.episodes)} episodes, expected ${episodes}`);
  for (const dir of shardDirs) rmSync(dir, { recursive: true, force: true });
  log(`  merge ${seconds(merge.wallMs)}, ${mb(merge.peakRssMb)}; compare…`);
  const compare = await measure(['compare', base, head], scratch);
  log(`  compare ${seconds(compare.wallMs)}, ${mb(compare.peakRssMb)}`);
  rmSync(head, { recursive: true, force: true });
  rmSync(base, { recursive: true, force: true });
  return { episodes, epochs, run, episodesFile, report, compare, shards, merge };
}

function table(results: readonly SizeResult[]): string {
  const header = [
    'episodes',
    'run wall',
    'episodes/s',
    'run peak RSS',
    'bytes/episode',
    'report wall',
    'report RSS',
    'compare wall',
    'compare RSS',
    'shard max RSS',
    'merge wall',
    'merge RSS',
  ];
  const rows = results.map((result) => [
    result.episodes.toLocaleString('en-US'),
    seconds(result.run.wallMs),
    (result.episodes / (result.run.wallMs / 1000)).toFixed(0),
    mb(result.run.peakRssMb),
    `${(result.episodesFile.bytes / result.episodes).toFixed(0)} (${result.episodesFile.file})`,
    seconds(result.report.wallMs),
    mb(result.report.peakRssMb),
    seconds(result.compare.wallMs),
    mb(result.compare.peakRssMb),
    mb(Math.max(...result.shards.map((shard) => shard.peakRssMb))),
    seconds(result.merge.wallMs),
    mb(result.merge.peakRssMb),
  ]);
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const program = new Command('bench-scale')
    .option('--sizes <list>', 'episode counts, comma-separated (10k, 100k, 1m)', '10k,100k')
    .option('--suite <file>', 'suite to run (default: core.yaml × 15 copies, 210 tasks)')
    .option('--no-build', 'use dist/ as it is')
    .parse();
  const options = program.opts<{ sizes: string; suite?: string; build: boolean }>();
  const sizes = options.sizes.split(',').map(parseSize);
  if (!existsSync('/usr/bin/time')) throw new Error('bench:scale reads peak RSS with GNU time: /usr/bin/time is missing (apt-get install time)');
  if (options.build) {
    process.stdout.write('building dist/ (tsc)…\n');
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  }
  const scratch = mkdtempSync('/tmp/scale-');
  const log = (line: string): void => {
    process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  };
  try {
    const suite = options.suite === undefined ? join(scratch, 'core-x15.yaml') : resolve(options.suite);
    const tasks = options.suite === undefined ? writeCopiedCore(suite, 15) : countTasks(suite);
    const results: SizeResult[] = [];
    for (const size of sizes) results.push(await benchSize(size, suite, tasks, scratch, log));
    const over = results.flatMap((result) =>
      (
        [
          ['run', result.run],
          ['report', result.report],
          ['compare', result.compare],
          ['merge', result.merge],
          ...result.shards.map((shard, index) => [`shard ${index + 1}/4`, shard] as const),
        ] as const
      )
        .filter(([, measured]) => measured.peakRssMb > RSS_LIMIT_MB)
        .map(([name, measured]) => `${name} at ${result.episodes} episodes: ${mb(measured.peakRssMb)}`),
    );
    process.stdout.write(
      [
        `stratbench bench:scale — ${tasks} tasks × ${STRATEGIES.length} strategies, scripted model (not an LLM); compare head: ${HEAD_MODEL}; merge of 4 shards`,
        `peak RSS by GNU time (child maxrss); wall of the whole child process; bytes/episode of the episodes file`,
        '',
        table(results),
        '',
        over.length === 0 ? `every command within ${RSS_LIMIT_MB} MB peak RSS` : `over ${RSS_LIMIT_MB} MB: ${over.join('; ')}`,
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
