// `npm run bench:big-fixture`: episodes/s and `validate` time of the core suite on its shop fixture grown to 1k / 10k files.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, parseDocument } from 'yaml';
import { createRandom } from '../src/report/statistics-random.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const cli = join(root, 'dist/cli.js');
const STRATEGIES = 'direct,react,plan-up-front,plan-replan,gated';
/** Fixture sizes measured, in files (the core shop has 28; `BENCH_SIZES=28,1000,10000`). */
const SIZES = (process.env['BENCH_SIZES'] ?? '28,1000,10000').split(',').map(Number);
/** Episodes per throughput run: several seconds each, so JIT warm-up does not dominate. */
const EPISODES = Number(process.env['BENCH_EPISODES'] ?? 7_000);
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 3);
/** Node flags of the shipped CLI, read from its shebang, as scripts/bench.ts does: the bench runs what users run. */
const NODE_FLAGS = (/^#!.*\bnode\b(.*)$/m.exec(readFileSync(join(root, 'src/cli.ts'), 'utf8'))?.[1] ?? '').trim().split(/\s+/).filter(Boolean);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The statistics' deterministic generator (mulberry32), so every bench builds the same trees. */
const random = createRandom;

const AREAS = ['catalog', 'orders', 'billing', 'shipping', 'accounts', 'search', 'reports', 'inventory'];
const LAYERS = ['models', 'services', 'handlers', 'utils', 'adapters'];

/**
 * `count` generated files for a monorepo next to the shop: `packages/<pkg>/src/<area>/<layer>/<module>.js` (real
 * ES modules importing their neighbours), their test data `packages/<pkg>/test/<module>.cases.json` and a README
 * per package. Nothing is under the shop's `src/` and `tests/`, and no name matches vitest's test glob, so the
 * tasks' work (`eslint src tests`, `vitest run`) and every outcome are those of the 28-file suite: what grows is
 * only the tree an episode's repository sits on.
 */
export function generatedFiles(count: number, seed = 15): Record<string, string> {
  const next = random(seed);
  const files: Record<string, string> = {};
  let index = 0;
  for (let pkg = 0; index < count; pkg++) {
    const name = `pkg-${String(pkg).padStart(3, '0')}`;
    files[`packages/${name}/README.md`] = `# @shop/${name}\n\nInternal package ${pkg}: ${AREAS[pkg % AREAS.length]} helpers.\n`;
    index++;
    for (let module = 0; module < 40 && index < count; module++) {
      const area = AREAS[Math.floor(next() * AREAS.length)]!;
      const layer = LAYERS[Math.floor(next() * LAYERS.length)]!;
      const stem = `${area}-${layer}-${module}`;
      const path = `packages/${name}/src/${area}/${layer}/${stem}.js`;
      const factor = Math.floor(next() * 1000);
      files[path] = [
        `// ${stem}: generated module of @shop/${name}.`,
        module > 0 ? `import { round } from '../../${AREAS[0]}/${LAYERS[0]}/${AREAS[0]}-${LAYERS[0]}-0.js';\n` : '',
        `export const FACTOR_${module} = ${factor};`,
        '',
        `/** Scales an amount in cents by FACTOR_${module} per mille. */`,
        `export function scale${module}(cents) {`,
        `  return ${module > 0 ? 'round' : 'Math.round'}((cents * FACTOR_${module}) / 1000);`,
        '}',
        '',
        `export function describe${module}(item) {`,
        `  return \`${area}/${layer}: \${item.name} (\${scale${module}(item.cents)} cents)\`;`,
        '}',
        module === 0 ? '\nexport const round = (value) => Math.round(value);\n' : '',
      ].join('\n');
      index++;
      if (index < count && next() < 0.5) {
        files[`packages/${name}/test/${stem}.cases.json`] = `${JSON.stringify({ module: stem, cases: [{ cents: 1000, expected: factor }] }, null, 2)}\n`;
        index++;
      }
    }
  }
  return files;
}

/** tasks/core.yaml with `total - 28` generated files added to the shop fixture (anchors and comments kept). */
export function suiteWithFiles(total: number): string {
  const document = parseDocument(readFileSync(join(root, 'tasks/core.yaml'), 'utf8'));
  const files = document.getIn(['fixtures', 'shop', 'files']);
  if (!isMap(files)) throw new Error('tasks/core.yaml: fixtures.shop.files is not a map');
  const extra = total - files.items.length;
  for (const [path, content] of Object.entries(generatedFiles(Math.max(0, extra)))) files.set(path, content);
  return document.toString({ lineWidth: 0 });
}

interface RunJson {
  episodes: number;
  timing: { wall_ms: number };
}

/** One `stratbench run` (child process, the shipped flags); its run.json and the number of successful episodes. */
function runOnce(suite: string, out: string, epochs: number): Promise<{ run: RunJson; successes: number }> {
  return new Promise((resolvePromise, reject) => {
    const args = [...NODE_FLAGS, cli, 'run', '--suite', suite, '--strategies', STRATEGIES, '--epochs', String(epochs), '--out', out, '--no-progress'];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`stratbench run exited ${code}: ${stderr}`));
      const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as RunJson;
      const successes = readFileSync(join(out, 'episodes.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"success":true')).length;
      resolvePromise({ run, successes });
    });
  });
}

/** Wall ms of `stratbench validate SUITE` (load, replay every reference, untouched repository and counterexample). */
function validateMs(suite: string): number {
  const started = performance.now();
  execFileSync(process.execPath, [...NODE_FLAGS, cli, 'validate', suite], { stdio: 'ignore' });
  return performance.now() - started;
}

async function main(): Promise<void> {
  if (process.env['BENCH_NO_BUILD'] === undefined) {
    process.stdout.write('building dist/ (tsc)…\n');
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  }
  const perEpoch = 14 * STRATEGIES.split(',').length;
  const epochs = Math.ceil(EPISODES / perEpoch);
  const scratch = mkdtempSync(join(tmpdir(), 'stratbench-big-fixture-'));
  const rows = SIZES.map((size) => ({ size, rate: 0, runs: [] as number[], validate: [] as number[], successes: 0, episodes: 0 }));
  try {
    for (const row of rows) writeFileSync(join(scratch, `suite-${row.size}.yaml`), suiteWithFiles(row.size));
    // Repeats round-robin over the sizes, so a change in the machine's load falls on every size alike.
    for (let i = 0; i < REPEATS; i++) {
      for (const row of rows) {
        const suite = join(scratch, `suite-${row.size}.yaml`);
        const out = join(scratch, `run-${row.size}-${i}`);
        const result = await runOnce(suite, out, epochs);
        row.runs.push(result.run.episodes / (result.run.timing.wall_ms / 1000));
        row.successes = result.successes;
        row.episodes = result.run.episodes;
        rmSync(out, { recursive: true, force: true });
        row.validate.push(validateMs(suite));
      }
      process.stdout.write(`  repeat ${i + 1}/${REPEATS} done\n`);
    }
    for (const row of rows) row.rate = median(row.runs);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const smallest = rows[0]!;
  const lines = [
    `stratbench bench:big-fixture — core suite × ${STRATEGIES.split(',').length} strategies, scripted model, shop fixture grown with generated files (medians of ${REPEATS})`,
    ...rows.map(
      (row) =>
        `  ${String(row.size).padStart(6)} files: ${row.rate.toFixed(0).padStart(5)} episodes/s (${((100 * row.rate) / smallest.rate).toFixed(0)}% of ${smallest.size} files) [runs: ${row.runs.map((r) => r.toFixed(0)).join(', ')}]; ` +
        `validate ${(median(row.validate) / 1000).toFixed(2)} s [${row.validate.map((ms) => (ms / 1000).toFixed(2)).join(', ')}]; ${row.successes}/${row.episodes} episodes succeeded`,
    ),
    '  target: 10,000 files ≥ 80% of the 28-file throughput (issue 15 §4)',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

// Run as a script (`npm run bench:big-fixture`); imported, it only provides the fixture generator.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
