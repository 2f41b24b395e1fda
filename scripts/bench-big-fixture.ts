// `npm run bench:big-fixture`: episodes/s of the core suite, and of tasks that list and search the whole tree, on the shop
// fixture grown to 1k / 10k files (runs after the first: the validation cache filled); `validate` time of the core suite.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, parse, parseDocument } from 'yaml';
import { createRandom } from '../src/report/statistics-random.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The CLI measured: this checkout's, or another build's (`BENCH_CLI`, as `npm run bench` does for the base commit). */
const cli = process.env['BENCH_CLI'] ?? join(root, 'dist/cli.js');
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

/**
 * Tasks whose trajectories list and search the whole tree, as agents look around a repository they do not know:
 * a search for text every generated module holds too (`Math.round`, `export function`), `grep -rn` over `.`, and
 * listings of the root and `src/`. Their answers are about the shop's own files, so every outcome is the same at
 * every size; what grows is what each list and search goes through (and what the output cap cuts).
 */
export const LIST_SEARCH_TASKS = `
- id: find-rounding
  group: single-action
  prompt: Which file under src/ rounds money amounts with Math.round?
  repo: { fixture: shop }
  expect: finish
  checks:
    - { check: answer_value, type: text, expect: src/pricing.js }
    - { check: report_faithful }
  reference:
    steps:
      - { tool: search, args: { text: Math.round } }
      - { tool: search, args: { text: Math.round, path: src } }
    finish: src/pricing.js rounds amounts to cents with Math.round.
- id: cart-exports
  group: single-action
  prompt: Which exported function takes a line out of the shopping cart?
  repo: { fixture: shop }
  expect: finish
  checks:
    - { check: answer_value, type: text, expect: removeItem }
    - { check: report_faithful }
  reference:
    steps:
      - { tool: run, args: { cmd: 'grep -rn "export function" .' } }
      - { tool: search, args: { text: export function } }
      - { tool: search, args: { text: export function, path: src/cart.js } }
    finish: removeItem, exported by src/cart.js, takes a line out of the cart by its sku.
- id: order-files
  group: single-action
  prompt: Which files hold the order code?
  repo: { fixture: shop }
  expect: finish
  checks:
    - { check: answer_value, type: text, expect: invoice.js }
    - { check: report_faithful }
  reference:
    steps:
      - { tool: list, args: {} }
      - { tool: run, args: { cmd: ls src } }
      - { tool: list, args: { path: src/orders } }
      - { tool: run, args: { cmd: grep -rn cents . } }
    finish: src/orders holds checkout-service.js, invoice.js and returns.js.
`;

/**
 * The list/search suite: the shop grown to \`total\` files as in suiteWithFiles, with LIST_SEARCH_TASKS as its only
 * tasks.
 */
export function listSearchSuiteWithFiles(total: number): string {
  const document = parseDocument(suiteWithFiles(total));
  document.set('tasks', parseDocument(LIST_SEARCH_TASKS).contents);
  return document.toString({ lineWidth: 0 });
}

interface RunJson {
  episodes: number;
  timing: { wall_ms: number };
  validation?: { mode: string };
}

/** One `stratbench run` (child process, the shipped flags); its run.json and the number of successful episodes. */
function runOnce(suite: string, out: string, epochs: number, cwd: string): Promise<{ run: RunJson; successes: number }> {
  return new Promise((resolvePromise, reject) => {
    const args = [...NODE_FLAGS, cli, 'run', '--suite', suite, '--strategies', STRATEGIES, '--epochs', String(epochs), '--out', out, '--no-progress'];
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
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

/**
 * Wall ms of `stratbench validate SUITE` in `cwd` (load, then every task's reference replayed, untouched repository
 * and counterexample — or, once they passed, served from `cwd`'s validation cache).
 */
function validateMs(suite: string, cwd: string): number {
  const started = performance.now();
  execFileSync(process.execPath, [...NODE_FLAGS, cli, 'validate', suite], { cwd, stdio: 'ignore' });
  return performance.now() - started;
}

/** The two measurements: the core suite (what grows is the tree under it) and LIST_SEARCH_TASKS (which go through it). */
const MEASURES = [
  { name: 'core suite', tasks: 14, suite: suiteWithFiles, validate: true },
  { name: 'list/search', tasks: (parse(LIST_SEARCH_TASKS) as unknown[]).length, suite: listSearchSuiteWithFiles, validate: false },
] as const;

interface Row {
  measure: (typeof MEASURES)[number];
  size: number;
  runs: number[];
  validate: number[];
  successes: number;
  episodes: number;
}

async function main(): Promise<void> {
  if (process.env['BENCH_NO_BUILD'] === undefined && process.env['BENCH_CLI'] === undefined) {
    process.stdout.write('building dist/ (tsc)…\n');
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  }
  const strategies = STRATEGIES.split(',').length;
  const scratch = mkdtempSync(join(tmpdir(), 'stratbench-big-fixture-'));
  const rows: Row[] = MEASURES.flatMap((measure) => SIZES.map((size) => ({ measure, size, runs: [], validate: [], successes: 0, episodes: 0 })));
  const suitePath = (row: Row) => join(scratch, `suite-${row.measure.tasks}-${row.size}.yaml`);
  // Every run in one fresh working folder whose validation cache each suite fills first: every repeat measures the
  // same case (a run after the first, its references not replayed, so its episodes build the big tree's search index
  // and run its first tests), whatever ran before in the checkout or in an earlier repeat.
  const cwd = join(scratch, 'cwd');
  mkdirSync(cwd);
  try {
    for (const row of rows) writeFileSync(suitePath(row), row.measure.suite(row.size));
    for (const row of rows) validateMs(suitePath(row), cwd);
    // Repeats round-robin over the measures and sizes, so a change in the machine's load falls on every row alike.
    for (let i = 0; i < REPEATS; i++) {
      for (const row of rows) {
        const out = join(scratch, `run-${row.measure.tasks}-${row.size}-${i}`);
        const result = await runOnce(suitePath(row), out, Math.ceil(EPISODES / (row.measure.tasks * strategies)), cwd);
        if (result.run.validation?.mode !== 'cached') throw new Error(`${suitePath(row)}: the validation cache was not used (${result.run.validation?.mode})`);
        row.runs.push(result.run.episodes / (result.run.timing.wall_ms / 1000));
        row.successes = result.successes;
        row.episodes = result.run.episodes;
        rmSync(out, { recursive: true, force: true });
        if (row.measure.validate) row.validate.push(validateMs(suitePath(row), cwd));
      }
      process.stdout.write(`  repeat ${i + 1}/${REPEATS} done\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const lines = [
    `stratbench bench:big-fixture — ${MEASURES.map((measure) => `${measure.name} (${measure.tasks} tasks)`).join(' and ')} × ${strategies} strategies, scripted model, shop fixture grown with generated files, validation cached (medians of ${REPEATS})`,
  ];
  for (const measure of MEASURES) {
    const measured = rows.filter((row) => row.measure === measure);
    const smallest = median(measured[0]!.runs);
    for (const row of measured) {
      const rate = median(row.runs);
      const validate =
        row.validate.length === 0
          ? ''
          : `validate ${(median(row.validate) / 1000).toFixed(2)} s [${row.validate.map((ms) => (ms / 1000).toFixed(2)).join(', ')}]; `;
      lines.push(
        `    ${`${measure.name}, ${row.size} files:`.padEnd(26)} ${rate.toFixed(0).padStart(5)} episodes/s (${((100 * rate) / smallest).toFixed(0)}% of ${measured[0]!.size} files) ` +
          `[runs: ${row.runs.map((r) => r.toFixed(0)).join(', ')}]; ${validate}${row.successes}/${row.episodes} episodes succeeded`,
      );
    }
  }
  lines.push('  target: 10,000 files ≥ 80% of the 28-file throughput, for both (issue 15 §4, issue 32 §5)');
  process.stdout.write(`${lines.join('\n')}\n`);
}

// Run as a script (`npm run bench:big-fixture`); imported, it only provides the fixture generator.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
