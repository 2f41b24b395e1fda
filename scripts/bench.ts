// `npm run bench`: the harness's speed and memory side by side with the previous commit (or `--base REV`), every
// figure the median of ≥ 3 runs made in turn, base and head interleaved so both see the same machine load.
//
// Sections (`--only core,generated,statistics,merge,sandbox,big-fixture`; all by default):
//   core        the core suite, scripted model, default flags: episodes/s plain and --compress, bytes per episode,
//               peak RSS for 10,000 episodes, start-up to the first finished episode (issue 2's targets); every run
//               in one working folder whose validation cache a first run per tree filled (the references not replayed:
//               every round measures a run after the first, as the generated section's "cached" does);
//   generated   tasks/bench.json (the suite whose episodes run code): a cold run (empty caches) and the same run
//               again (the validation cache warm): whole-process episodes/s, start-up, episode-phase episodes/s, RSS;
//   statistics  summary statistics of 100k episodes × 6 strategies over 5,600 tasks (scripts/bench-statistics.ts);
//   merge       `merge` of 4 shards (`--merge-episodes`, default 100,000; the figure is 1,000,000 = 4 × 250k),
//               and the bytes of the 4 compressed shards against one compressed run of the same matrix;
//   sandbox     scripts/bench-sandbox.ts of each tree (per-run cost of a sandboxed test file and lint);
//   big-fixture scripts/bench-big-fixture.ts of each tree (episodes/s on a 10,000-file tree).
// `--repeats N` (default 3), `--base REV` (default HEAD~1), `--json FILE` writes every sample.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { baseTree, describeHead, median, runCli, writeCopiedCore, type Tree } from './bench-support.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const STRATEGIES = 'direct,react,plan-up-front,plan-replan,gated';
const STRATEGY_COUNT = STRATEGIES.split(',').length;
const SECTIONS = ['core', 'generated', 'statistics', 'merge', 'sandbox', 'big-fixture'] as const;
type Section = (typeof SECTIONS)[number];

/** One figure measured per run: its name, unit, which direction is better, and the target the issues set, if any. */
interface Metric {
  section: Section;
  name: string;
  unit: string;
  higherIsBetter: boolean;
  target?: string;
}

/** Samples by metric name, then by tree label. */
type Samples = Map<string, { metric: Metric; byTree: Map<string, number[]> }>;

const program = new Command()
  .option('--base <rev>', 'the commit to compare with', 'HEAD~1')
  .option('--repeats <n>', 'runs per tree of every measurement (≥ 3 for the medians the issues quote)', '3')
  .option('--only <sections>', `comma-separated sections (${SECTIONS.join(', ')})`, SECTIONS.join(','))
  .option('--merge-episodes <n>', 'episodes of the sharded run that merge combines (4 shards)', '100000')
  .option('--generated-epochs <n>', 'epochs of tasks/bench.json (690 tasks × 5 strategies each)', '1')
  .option('--no-base', 'measure this checkout only')
  .option('--json <file>', 'also write every sample as JSON');
program.parse();
const options = program.opts<{ base: string | false; repeats: string; only: string; mergeEpisodes: string; generatedEpochs: string; json?: string }>();
const REPEATS = Number(options.repeats);
const only = options.only.split(',').map((name) => name.trim()) as Section[];
for (const name of only) if (!SECTIONS.includes(name)) throw new Error(`--only: unknown section "${name}" (${SECTIONS.join(', ')})`);

const samples: Samples = new Map();
function record(metric: Metric, tree: Tree, value: number): void {
  let entry = samples.get(metric.name);
  if (entry === undefined) samples.set(metric.name, (entry = { metric, byTree: new Map() }));
  const list = entry.byTree.get(tree.label) ?? [];
  list.push(value);
  entry.byTree.set(tree.label, list);
}

interface RunJson {
  episodes: number;
  timing: {
    wall_ms: number;
    process_start_to_first_episode_ms: number | null;
    peak_rss_mb?: number;
    sandbox_test_files?: { executed: number; cached: number };
  };
  validation?: { mode: string };
}
const runJson = (folder: string): RunJson => JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as RunJson;
const episodesFile = (folder: string, compressed: boolean): string => join(folder, compressed ? 'episodes.jsonl.gz' : 'episodes.jsonl');

const CORE = {
  eps: { section: 'core', name: 'core: episodes/s', unit: '/s', higherIsBetter: true, target: '≥ 5000' },
  epsGz: { section: 'core', name: 'core: episodes/s --compress', unit: '/s', higherIsBetter: true, target: '≥ 5000' },
  bytes: { section: 'core', name: 'core: bytes/episode .jsonl', unit: 'B', higherIsBetter: false },
  bytesGz: { section: 'core', name: 'core: bytes/episode .jsonl.gz', unit: 'B', higherIsBetter: false, target: '≤ 1500' },
  rss: { section: 'core', name: 'core: peak RSS, 10,010 episodes', unit: 'MB', higherIsBetter: false, target: '≤ 150' },
  startup: { section: 'core', name: 'core: start-up to first episode', unit: 'ms', higherIsBetter: false, target: '< 1000' },
} satisfies Record<string, Metric>;

/**
 * The working folder of the core section's runs, its caches filled for `tree` by one epoch of the measured strategies
 * (see coreRound): the validation cache, and the code cache of a tree that has one (decision 0049).
 */
async function coreFolder(tree: Tree, scratch: string): Promise<string> {
  const cwd = join(scratch, 'core-cwd');
  mkdirSync(cwd, { recursive: true });
  const primed = join(cwd, `primed-${tree.label}`);
  if (!existsSync(primed)) {
    const out = join(scratch, `core-prime-${tree.label}`);
    await runCli(tree, ['run', '--strategies', STRATEGIES, '--epochs', '1', '--out', out, '--no-progress'], { cwd });
    rmSync(out, { recursive: true, force: true });
    writeFileSync(primed, '');
  }
  return cwd;
}

/**
 * One round of the core suite on `tree`: 30,030 episodes plain, the same compressed, 10,010 for RSS, one start-up.
 * Every run reads its references' verdicts from the validation cache (coreFolder), so no round replays them, as in
 * any run after a user's first; on a tree with a code cache its test and lint runs are served from it too, on an
 * older tree the first epoch's test runs fall in the episodes.
 */
async function coreRound(tree: Tree, scratch: string): Promise<void> {
  const cwd = await coreFolder(tree, scratch);
  const perEpoch = 14 * STRATEGY_COUNT;
  for (const compress of [false, true]) {
    const out = join(scratch, `core-${tree.label}-${compress}`);
    await runCli(
      tree,
      ['run', '--strategies', STRATEGIES, '--epochs', String(Math.ceil(30_000 / perEpoch)), '--out', out, '--no-progress', ...(compress ? ['--compress'] : [])],
      { cwd },
    );
    const run = runJson(out);
    if (run.validation?.mode !== 'cached') throw new Error(`${tree.label}: the core run replayed its references (validation ${run.validation?.mode})`);
    record(compress ? CORE.epsGz : CORE.eps, tree, run.episodes / (run.timing.wall_ms / 1000));
    record(compress ? CORE.bytesGz : CORE.bytes, tree, statSync(episodesFile(out, compress)).size / run.episodes);
    rmSync(out, { recursive: true, force: true });
  }
  const big = join(scratch, `core-rss-${tree.label}`);
  const measured = await runCli(tree, ['run', '--strategies', STRATEGIES, '--epochs', String(Math.ceil(10_000 / perEpoch)), '--out', big, '--no-progress'], {
    cwd,
  });
  record(CORE.rss, tree, Math.max(measured.peakRssMb, runJson(big).timing.peak_rss_mb ?? 0));
  rmSync(big, { recursive: true, force: true });
  const small = join(scratch, `core-startup-${tree.label}`);
  await runCli(tree, ['run', '--strategies', 'direct', '--tasks', 'default-currency', '--concurrency', '1', '--out', small, '--no-progress'], {
    cwd,
    pollMs: 2,
  });
  record(CORE.startup, tree, runJson(small).timing.process_start_to_first_episode_ms ?? Number.NaN);
  rmSync(small, { recursive: true, force: true });
}

const generatedMetrics = (phase: 'cold' | 'cached') =>
  ({
    wholeEps: {
      section: 'generated',
      name: `generated ${phase}: episodes/s, whole process`,
      unit: '/s',
      higherIsBetter: true,
      ...(phase === 'cold' ? { target: '≥ 1000' } : {}),
    },
    startup: {
      section: 'generated',
      name: `generated ${phase}: start-up to first episode`,
      unit: 'ms',
      higherIsBetter: false,
      ...(phase === 'cached' ? { target: '< 2000' } : {}),
    },
    episodeEps: { section: 'generated', name: `generated ${phase}: episodes/s after start-up`, unit: '/s', higherIsBetter: true },
    rss: { section: 'generated', name: `generated ${phase}: peak RSS`, unit: 'MB', higherIsBetter: false },
    executed: { section: 'generated', name: `generated ${phase}: test files executed`, unit: '', higherIsBetter: false },
  }) satisfies Record<string, Metric>;

/**
 * One round of tasks/bench.json (this checkout's file for both trees, so both run the same tasks) on `tree`: a run
 * with an empty cache folder (cold: nothing validated, no result cached), then the same run with the cache it left
 * (the second start of a user's day). Both run in the round's own empty working folder, where the run keeps its
 * caches (`.stratbench-cache/`, relative to the working folder).
 */
async function generatedRound(tree: Tree, scratch: string): Promise<void> {
  const cache = mkdtempSync(join(scratch, 'cache-'));
  for (const phase of ['cold', 'cached'] as const) {
    const out = join(scratch, `generated-${tree.label}-${phase}`);
    const args = [
      'run',
      '--suite',
      join(root, 'tasks/bench.json'),
      '--strategies',
      STRATEGIES,
      '--epochs',
      options.generatedEpochs,
      '--out',
      out,
      '--no-progress',
    ];
    const measured = await runCli(tree, args, { cwd: cache });
    const run = runJson(out);
    const metrics = generatedMetrics(phase);
    record(metrics.wholeEps, tree, run.episodes / (measured.wallMs / 1000));
    record(metrics.startup, tree, run.timing.process_start_to_first_episode_ms ?? Number.NaN);
    record(metrics.episodeEps, tree, run.episodes / (run.timing.wall_ms / 1000));
    record(metrics.rss, tree, Math.max(measured.peakRssMb, run.timing.peak_rss_mb ?? 0));
    record(metrics.executed, tree, run.timing.sandbox_test_files?.executed ?? Number.NaN);
    rmSync(out, { recursive: true, force: true });
  }
  rmSync(cache, { recursive: true, force: true });
}

/** Runs `node --import tsx <tree>/scripts/<script> ARGS` and returns its stdout (the tree's own script measures its own code). */
function treeScript(tree: Tree, script: string, args: readonly string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(tree.root, 'scripts', script), ...args], {
      cwd: tree.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolvePromise(stdout) : reject(new Error(`${tree.label}: ${script} exited ${code}: ${stderr.slice(-2000)}`))));
  });
}

/** One round of bench-statistics' 100k sizes (5,600 tasks; every task its own family, then families of 4). */
async function statisticsRound(tree: Tree): Promise<void> {
  const out = await treeScript(tree, 'bench-statistics.ts', ['--only', '6x3x5600', '--runs', '1']);
  for (const line of out.split('\n')) {
    const match = /^(6x3x5600.*?)\s+\d+ episodes.*median ([\d.]+) s wall/.exec(line);
    if (match === null) continue;
    const name = `statistics: ${match[1]!.trim()}`;
    record({ section: 'statistics', name, unit: 's', higherIsBetter: false, target: '≤ 10' }, tree, Number(match[2]));
  }
}

interface MergeSetup {
  shards: string[];
  shardBytes: number;
  oneRunBytes: number;
}

/**
 * The merge's inputs on `tree`: the copied core suite run as 4 compressed shards of `--merge-episodes` in all, and
 * the same matrix as one compressed run (its bytes are what the shards' bytes are compared with; then deleted).
 */
async function mergeSetup(tree: Tree, scratch: string): Promise<MergeSetup> {
  const target = Number(options.mergeEpisodes);
  const copies = Math.max(1, Math.ceil(target / (14 * STRATEGY_COUNT * 1_000)));
  const suite = join(scratch, `merge-suite-${tree.label}.yaml`);
  const tasks = writeCopiedCore(tree, suite, copies);
  const epochs = Math.max(1, Math.round(target / (tasks * STRATEGY_COUNT)));
  const common = ['--suite', suite, '--strategies', STRATEGIES, '--epochs', String(epochs), '--no-progress', '--compress', '--no-validate'];
  const shards: string[] = [];
  let shardBytes = 0;
  for (let index = 1; index <= 4; index++) {
    const dir = join(scratch, `merge-shard-${tree.label}-${index}`);
    await runCli(tree, ['run', ...common, '--shard', `${index}/4`, '--out', dir]);
    shardBytes += statSync(episodesFile(dir, true)).size;
    shards.push(dir);
  }
  const one = join(scratch, `merge-one-${tree.label}`);
  await runCli(tree, ['run', ...common, '--out', one]);
  const oneRunBytes = statSync(episodesFile(one, true)).size;
  rmSync(one, { recursive: true, force: true });
  return { shards, shardBytes, oneRunBytes };
}

const MERGE = {
  wall: { section: 'merge', name: 'merge: 4 shards, wall', unit: 's', higherIsBetter: false, target: '≤ 120 at 1M' },
  rss: { section: 'merge', name: 'merge: 4 shards, peak RSS', unit: 'MB', higherIsBetter: false, target: '≤ 250' },
  ratio: { section: 'merge', name: 'merge: shards .gz bytes / one run', unit: '×', higherIsBetter: false, target: '≈ 1' },
} satisfies Record<string, Metric>;

async function mergeRound(tree: Tree, setup: MergeSetup, scratch: string): Promise<void> {
  const out = join(scratch, `merged-${tree.label}`);
  const measured = await runCli(tree, ['merge', ...setup.shards, '--out', out]);
  record(MERGE.wall, tree, measured.wallMs / 1000);
  record(MERGE.rss, tree, measured.peakRssMb);
  record(MERGE.ratio, tree, setup.shardBytes / setup.oneRunBytes);
  rmSync(out, { recursive: true, force: true });
}

/** One round of a tree's own bench-sandbox.ts: every `label: … median N ms` line becomes a metric. */
async function sandboxRound(tree: Tree): Promise<void> {
  const out = await treeScript(tree, 'bench-sandbox.ts', []);
  for (const line of out.split('\n')) {
    const match = /^\s+(.*?):\s+median ([\d.]+) ms/.exec(line);
    if (match === null) continue;
    const name = `sandbox: ${match[1]!.replace(/\s*\([^()]*\)$/, '').trim()}`;
    record({ section: 'sandbox', name, unit: 'ms', higherIsBetter: false }, tree, Number(match[2]));
  }
}

/**
 * One round of this checkout's bench-big-fixture.ts at 28 and 10,000 files with `tree`'s CLI (BENCH_CLI), so both
 * trees run the same suites (the core suite's tasks and the list/search tasks): every `… episodes/s` becomes a metric.
 */
async function bigFixtureRound(tree: Tree): Promise<void> {
  const out = await new Promise<string>((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/bench-big-fixture.ts')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_SIZES: '28,10000', BENCH_REPEATS: '1', BENCH_EPISODES: '3000', BENCH_CLI: join(tree.root, 'dist/cli.js') },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolvePromise(stdout) : reject(new Error(`${tree.label}: bench-big-fixture exited ${code}`))));
  });
  for (const line of out.split('\n')) {
    const match = /^\s*(.+?):?\s+(?:median\s+)?([\d.]+) episodes\/s/.exec(line);
    if (match !== null) record({ section: 'big-fixture', name: `big fixture: ${match[1]!.trim()}`, unit: '/s', higherIsBetter: true }, tree, Number(match[2]));
  }
}

const format = (value: number, unit: string): string => {
  if (!Number.isFinite(value)) return 'n/a';
  const size = Math.abs(value);
  const digits = unit === '' ? 0 : unit === 's' || unit === '×' || size < 10 ? 2 : unit === 'MB' || size < 100 ? 1 : 0;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
};

function table(trees: readonly Tree[]): string {
  const lines: string[] = [];
  const header = ['figure', ...trees.map((tree) => `${tree.label} median [runs]`), ...(trees.length === 2 ? ['head/base'] : []), 'target'];
  lines.push(header.join(' | '));
  for (const { metric, byTree } of samples.values()) {
    const medians = trees.map((tree) => median(byTree.get(tree.label) ?? [Number.NaN]));
    const cells = trees.map((tree, index) => {
      const runs = byTree.get(tree.label) ?? [];
      return `${format(medians[index]!, metric.unit)} ${metric.unit} [${runs.map((value) => format(value, metric.unit)).join(', ')}]`;
    });
    const ratio = trees.length === 2 ? [`${(medians[1]! / medians[0]!).toFixed(2)}× (${metric.higherIsBetter ? 'higher' : 'lower'} is better)`] : [];
    lines.push([metric.name, ...cells, ...ratio, metric.target ?? ''].join(' | '));
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  process.stderr.write('bench: building this checkout (npm run build)…\n');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const head: Tree = { root, label: describeHead(root), commit: 'HEAD' };
  const base = options.base === false ? undefined : baseTree(root, options.base);
  // Base first in each round, then head: over ≥ 3 rounds both meet the same drift in load.
  const trees = base === undefined ? [head] : [base, head];
  const scratch = mkdtempSync(join(tmpdir(), 'stratbench-bench-'));
  const log = (text: string) => process.stderr.write(`bench: ${text}\n`);
  try {
    const rounds = async (section: Section, round: (tree: Tree) => Promise<void>) => {
      if (!only.includes(section)) return;
      for (let index = 0; index < REPEATS; index++) {
        for (const tree of trees) {
          log(`${section} round ${index + 1}/${REPEATS}, ${tree.label}…`);
          await round(tree);
        }
      }
    };
    await rounds('core', (tree) => coreRound(tree, scratch));
    await rounds('generated', (tree) => generatedRound(tree, scratch));
    await rounds('statistics', (tree) => statisticsRound(tree));
    if (only.includes('merge')) {
      const setups = new Map<string, MergeSetup>();
      for (const tree of trees) {
        log(`merge: writing ${options.mergeEpisodes} episodes as 4 shards and as one run, ${tree.label}…`);
        setups.set(tree.label, await mergeSetup(tree, scratch));
      }
      await rounds('merge', (tree) => mergeRound(tree, setups.get(tree.label)!, scratch));
    }
    await rounds('sandbox', (tree) => sandboxRound(tree));
    await rounds('big-fixture', (tree) => bigFixtureRound(tree));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const title = `stratbench bench — ${trees.map((tree) => tree.label).join(' vs ')}, ${REPEATS} interleaved runs each (scripted model: a deterministic stand-in, not an LLM)`;
  process.stdout.write(`${title}\n${table(trees)}\n`);
  if (options.json !== undefined) {
    const json = [...samples.values()].map(({ metric, byTree }) => ({ ...metric, runs: Object.fromEntries(byTree) }));
    writeFileSync(options.json, `${JSON.stringify({ trees, repeats: REPEATS, figures: json }, null, 2)}\n`);
  }
}

await main();
