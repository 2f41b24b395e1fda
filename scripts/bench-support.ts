// Shared by the benchmarks: a built checkout to measure (this one or a git worktree at a base commit), child runs of
// its CLI with their peak RSS, and medians.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';

/** A checkout the benchmark measures: its root folder, a label for the tables, and the commit it holds. */
export interface Tree {
  root: string;
  label: string;
  commit: string;
}

/** Median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Node flags of a tree's shipped CLI, read from its shebang (`#!/usr/bin/env -S node FLAGS`): the bench runs what users run. */
export function nodeFlags(root: string): string[] {
  const source = readFileSync(join(root, 'src/cli.ts'), 'utf8');
  return (/^#!.*\bnode\b(.*)$/m.exec(source)?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

/** Peak resident set (VmHWM, KiB) of a live process, or 0 once it has gone. */
function highWaterMark(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** What one child run of the CLI measured: wall from spawn to exit (ms), peak RSS (MB), spawn to first episode line on disk (ms). */
export interface ChildRun {
  wallMs: number;
  peakRssMb: number;
  firstLineMs: number | undefined;
  stdout: string;
}

/**
 * Runs `node FLAGS <tree>/dist/cli.js ARGS` (in `cwd`, default this process's) to its end and samples its peak RSS (VmHWM) from /proc every `pollMs`,
 * and the moment `firstLineFile` (when given) first has bytes. Rejects with the child's stderr when it exits non-zero.
 */
export function runCli(
  tree: Tree,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; firstLineFile?: string; pollMs?: number } = {},
): Promise<ChildRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeFlags(tree.root), join(tree.root, 'dist/cli.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    let peak = 0;
    let firstLineMs: number | undefined;
    const poll = setInterval(() => {
      peak = Math.max(peak, highWaterMark(child.pid ?? -1));
      const file = options.firstLineFile;
      if (firstLineMs === undefined && file !== undefined && existsSync(file) && statSync(file).size > 0) firstLineMs = performance.now() - started;
    }, options.pollMs ?? 20);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) return reject(new Error(`${tree.label}: stratbench ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      resolvePromise({ wallMs: performance.now() - started, peakRssMb: peak / 1024, firstLineMs, stdout });
    });
  });
}

/**
 * A built worktree of `rev` beside this checkout (`git worktree add --detach`), sharing this checkout's
 * node_modules, built with its own `npm run build`; reused when it already exists at that commit. Returns undefined
 * (with the reason on stderr) when `root` is not a git checkout or `rev` does not resolve.
 */
export function baseTree(root: string, rev: string): Tree | undefined {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    process.stderr.write(`bench: no base to compare with (${rev} is not a commit of a git checkout at ${root}); measuring this checkout only\n`);
    return undefined;
  }
  const folder = join(tmpdir(), `stratbench-bench-${commit.slice(0, 12)}`);
  if (!existsSync(join(folder, 'dist/cli.js'))) {
    if (!existsSync(folder)) execFileSync('git', ['worktree', 'add', '--detach', folder, commit], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    if (!existsSync(join(folder, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'));
    process.stderr.write(`bench: building ${commit.slice(0, 12)} in ${folder}…\n`);
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return { root: folder, label: commit.slice(0, 7), commit };
}

/** The commit `root` holds (with `+dirty` when its tracked files differ), or `working tree` outside git. */
export function describeHead(root: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit}+dirty` : commit;
  } catch {
    return 'working tree';
  }
}

/**
 * Writes a tree's core.yaml with its 14 tasks copied `copies` times under new ids (`<id>-c<n>`) to `path`, so a run
 * can pass the 1,000-epoch cap (bench:scale's suite); returns the task count.
 */
export function writeCopiedCore(tree: Tree, path: string, copies: number): number {
  const doc = parseDocument(readFileSync(join(tree.root, 'tasks/core.yaml'), 'utf8'));
  const tasks = doc.get('tasks') as YAMLSeq<YAMLMap>;
  const originals = [...tasks.items];
  tasks.items = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const task of originals) {
      const clone = task.clone() as YAMLMap;
      clone.set('id', `${String(task.get('id'))}-c${copy}`);
      tasks.items.push(clone);
    }
  }
  writeFileSync(path, doc.toString());
  return tasks.items.length;
}
