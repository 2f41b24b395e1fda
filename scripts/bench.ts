// `npm run bench`: episodes per second, peak RSS and start-up time of the built CLI on the core suite (scripted model).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const cli = join(root, 'dist/cli.js');
const STRATEGIES = 'direct,react,plan-up-front,plan-replan,gated';
/** Episodes in the memory runs (issue 2: "10,000 episodes with peak RSS ≤ 150 MB"). */
const EPISODES_TARGET = Number(process.env['BENCH_EPISODES'] ?? 10_000);
/** Episodes in the throughput runs: enough to last several seconds, so JIT warm-up does not dominate. */
const THROUGHPUT_EPISODES = Number(process.env['BENCH_THROUGHPUT_EPISODES'] ?? 30_000);
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 3);
/** Node flags of the shipped CLI, read from its shebang (`#!/usr/bin/env -S node FLAGS`): the bench runs what users run. */
const NODE_FLAGS = (/^#!.*\bnode\b(.*)$/m.exec(readFileSync(join(root, 'src/cli.ts'), 'utf8'))?.[1] ?? '').trim().split(/\s+/).filter(Boolean);

interface ChildResult {
  wallMs: number;
  peakRssKb: number;
  firstLineMs: number | undefined;
  run: {
    episodes: number;
    timing: {
      wall_ms: number;
      process_start_to_first_episode_ms: number | null;
      peak_rss_mb?: number;
      sandbox_test_files?: { executed: number; cached: number };
    };
  };
}

/** Peak resident set (VmHWM, KiB) of a live process, or 0 once it has gone. */
function highWaterMark(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs the CLI once; samples its peak RSS (VmHWM, a high-water mark) from /proc and the moment its first episode
 * line lands on disk, every `pollMs` (2 ms only for the start-up runs, so polling does not compete with long runs).
 */
function runChild(args: string[], out: string, pollMs = 20): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...NODE_FLAGS, cli, 'run', ...args, '--out', out, '--no-progress'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let peak = 0;
    let firstLineMs: number | undefined;
    const episodes = join(out, 'episodes.jsonl');
    const poll = setInterval(() => {
      peak = Math.max(peak, highWaterMark(child.pid ?? -1));
      if (firstLineMs === undefined && existsSync(episodes) && statSync(episodes).size > 0) firstLineMs = performance.now() - started;
    }, pollMs);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) return reject(new Error(`stratbench exited ${code}: ${stderr}`));
      const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as ChildResult['run'];
      resolvePromise({ wallMs: performance.now() - started, peakRssKb: peak, firstLineMs, run });
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  process.stdout.write('building dist/ (tsc)…\n');
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  const perEpoch = 14 * STRATEGIES.split(',').length;
  const epochs = Math.ceil(EPISODES_TARGET / perEpoch);
  const scratch = mkdtempSync(join(tmpdir(), 'stratbench-bench-'));
  try {
    const throughput: number[] = [];
    const seconds: number[] = [];
    const rss: number[] = [];
    let episodes = 0;
    let throughputEpisodes = 0;
    let sandboxFiles: { executed: number; cached: number } | undefined;
    const compressedThroughput: number[] = [];
    const bytesPerEpisode = { plain: 0, compressed: 0 };
    // Default flags, as `npm start` runs them, alternating with `--compress` (episodes.jsonl.gz) so both see the same load.
    for (let i = 0; i < REPEATS; i++) {
      for (const compress of [false, true]) {
        const out = join(scratch, `long-${i}-${compress}`);
        const flags = compress ? ['--compress'] : [];
        const result = await runChild(['--strategies', STRATEGIES, '--epochs', String(Math.ceil(THROUGHPUT_EPISODES / perEpoch)), ...flags], out);
        const perSecond = result.run.episodes / (result.run.timing.wall_ms / 1000);
        bytesPerEpisode[compress ? 'compressed' : 'plain'] = statSync(join(out, compress ? 'episodes.jsonl.gz' : 'episodes.jsonl')).size / result.run.episodes;
        if (compress) compressedThroughput.push(perSecond);
        else {
          throughputEpisodes = result.run.episodes;
          sandboxFiles = result.run.timing.sandbox_test_files;
          throughput.push(perSecond);
          seconds.push(result.run.timing.wall_ms / 1000);
        }
        rmSync(out, { recursive: true, force: true });
      }
    }
    for (let i = 0; i < REPEATS; i++) {
      const result = await runChild(['--strategies', STRATEGIES, '--epochs', String(epochs)], join(scratch, `big-${i}`));
      episodes = result.run.episodes;
      // The larger of /proc's high-water mark seen from outside and the child's own maxRSS after summary.json.
      rss.push(Math.max(result.peakRssKb / 1024, result.run.timing.peak_rss_mb ?? 0));
      rmSync(join(scratch, `big-${i}`), { recursive: true, force: true });
    }
    const startup: number[] = [];
    const firstLine: number[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await runChild(['--strategies', 'direct', '--tasks', 'default-currency', '--concurrency', '1'], join(scratch, `small-${i}`), 2);
      startup.push(result.run.timing.process_start_to_first_episode_ms ?? Number.NaN);
      if (result.firstLineMs !== undefined) firstLine.push(result.firstLineMs);
    }
    const lines = [
      `stratbench bench — core suite × ${STRATEGIES.split(',').length} strategies, scripted model (deterministic stand-in, not an LLM), default flags`,
      `  episodes/s over ${throughputEpisodes} episodes (whole episodes: fresh repo, strategy, scoring, JSONL write; ${seconds.map((s) => s.toFixed(1)).join(' / ')} s): median ${median(throughput).toFixed(0)}  [runs: ${throughput.map((t) => t.toFixed(0)).join(', ')}]  target ≥ 5000`,
      `  episodes/s with --compress (episodes.jsonl.gz), same episodes, runs interleaved with the above: median ${median(compressedThroughput).toFixed(0)}  [runs: ${compressedThroughput.map((t) => t.toFixed(0)).join(', ')}]  target ≥ 5000`,
      `  bytes per episode: episodes.jsonl ${bytesPerEpisode.plain.toFixed(0)}, episodes.jsonl.gz ${bytesPerEpisode.compressed.toFixed(0)}  target ≤ 1500 (issue 15 §2)`,
      `  peak RSS of the whole process for ${episodes} episodes (statistics and summary included): median ${median(rss).toFixed(1)} MB  [runs: ${rss.map((r) => r.toFixed(1)).join(', ')}]  target ≤ 150 MB`,
      `  start-up to first finished episode (process start → episode recorded): median ${median(startup).toFixed(0)} ms  [runs: ${startup.map((s) => s.toFixed(0)).join(', ')}]  target < 1000 ms`,
      `  spawn to first JSONL line on disk: median ${firstLine.length ? median(firstLine).toFixed(0) : 'n/a'} ms`,
      sandboxFiles === undefined
        ? '  sandbox test-file runs: not recorded'
        : `  sandbox test-file runs in the last throughput run: ${sandboxFiles.executed} executed, ${sandboxFiles.cached} from the content-keyed cache (hit rate ${((100 * sandboxFiles.cached) / Math.max(1, sandboxFiles.executed + sandboxFiles.cached)).toFixed(2)}%)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
