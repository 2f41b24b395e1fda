// `npm run bench:sandbox`: the sandbox's cold start, warm cost of `pnpm test:checkout` / `pnpm test` / `pnpm lint`, and the cache.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RUNS = Number(process.env['BENCH_SANDBOX_RUNS'] ?? 200);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Cold start: a fresh Node process imports the sandbox (compiles QuickJS's WebAssembly) and runs `node -e`; ms inside the process. */
function coldStart(): number[] {
  const script = `
    const started = performance.now();
    const { runInSandbox } = await import(${JSON.stringify(`${root}/src/sim-repo/sandbox/index.ts`)});
    const loaded = performance.now();
    const result = runInSandbox({ files: () => undefined, entry: { code: 'console.log(1 + 1)', filename: '[eval1]' } });
    if (result.stdout[0] !== '2') throw new Error('sandbox did not run');
    console.log(JSON.stringify({ load: loaded - started, first: performance.now() - loaded }));`;
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    const { load, first } = JSON.parse(out.trim().split('\n').pop()!) as { load: number; first: number };
    samples.push(load + first);
  }
  return samples;
}

const FIXTURE_RUNS = Number(process.env['BENCH_SANDBOX_FIXTURE_RUNS'] ?? 10);

type SimRepoClass = typeof import('../src/sim-repo/index.js').SimRepo;

/**
 * Per fixture of tasks/bench.json: `pnpm test` (every visible test file) and the scoring run with the hidden test
 * files, each with every run cache cleared (clearRunCaches), as ms per run and ms per test file executed, wall and CPU
 * (the process's user + system time, the code worker's included: the steadier figure on a loaded machine).
 */
async function perFixture(SimRepo: SimRepoClass, clearRunCaches: () => void, stats: { executed: number }): Promise<string[]> {
  const { loadSuiteFile } = await import('../src/suite/load-suite.js');
  const loaded = await loadSuiteFile(`${root}/tasks/bench.json`);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const task of loaded.tasks) {
    const fixture = (task.repo as { fixture?: string }).fixture;
    if (fixture === undefined || seen.has(fixture)) continue;
    seen.add(fixture);
    const repo = SimRepo.fromSpec(task.repoSpec);
    const measure = (label: string, run: () => void): void => {
      run(); // warm the JIT
      const samples: number[] = [];
      const cpuSamples: number[] = [];
      let files = 0;
      for (let i = 0; i < FIXTURE_RUNS; i++) {
        clearRunCaches();
        const before = stats.executed;
        const started = performance.now();
        const cpu = process.cpuUsage();
        run();
        const used = process.cpuUsage(cpu);
        samples.push(performance.now() - started);
        cpuSamples.push((used.user + used.system) / 1000);
        files = stats.executed - before;
      }
      const ms = median(samples);
      const cpuMs = median(cpuSamples);
      lines.push(
        `  ${fixture} ${label}: median ${ms.toFixed(1)} ms for ${files} test files (${(ms / Math.max(1, files)).toFixed(2)} ms a file; CPU ${(cpuMs / Math.max(1, files)).toFixed(2)} ms a file)`,
      );
    };
    measure('pnpm test', () => repo.run('pnpm test'));
    measure('hidden tests (scoring)', () => repo.testResults({ hidden: true }));
  }
  return lines;
}

async function main(): Promise<void> {
  const { loadSuiteFile } = await import('../src/suite/load-suite.js');
  const { SimRepo, clearTestRunCaches, clearRunCaches, testFileStats } = await import('../src/sim-repo/index.js');
  const loaded = await loadSuiteFile(`${root}/tasks/core.yaml`);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  const task = loaded.tasks.find((candidate) => candidate.id === 'fix-checkout-test')!;
  const repo = SimRepo.fromSpec(task.repoSpec);
  const timed = (cmd: string, clearCache: boolean): number[] => {
    repo.run(cmd); // warm the JIT
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (clearCache) clearTestRunCaches();
      const started = performance.now();
      repo.run(cmd);
      samples.push(performance.now() - started);
    }
    return samples;
  };
  const cold = coldStart();
  const checkout = timed('pnpm test:checkout', true);
  const all = timed('pnpm test', true);
  const lint = timed('pnpm lint', false);
  const cachedCheckout = timed('pnpm test:checkout', false);
  const fixtureLines = await perFixture(SimRepo, clearRunCaches, testFileStats);
  const format = (samples: number[]) =>
    `median ${median(samples).toFixed(2)} ms  [p10 ${[...samples].sort((a, b) => a - b)[Math.floor(samples.length / 10)]!.toFixed(2)}, p90 ${[...samples].sort((a, b) => a - b)[Math.floor((samples.length * 9) / 10)]!.toFixed(2)}]`;
  process.stdout.write(
    [
      `stratbench sandbox bench — core suite, fix-checkout-test's repository, ${RUNS} runs each (these machines are shared and noisy: medians)`,
      `  cold start (import the sandbox: QuickJS WebAssembly compiled, plus the first node -e run): median ${median(cold).toFixed(0)} ms  [runs: ${cold.map((c) => c.toFixed(0)).join(', ')}]`,
      `  warm pnpm test:checkout, cache cleared each run (1 test file executed): ${format(checkout)}  target ≤ 5 ms`,
      `  warm pnpm test, cache cleared each run (every visible test file executed): ${format(all)}`,
      `  pnpm lint served from the lint cache (a new state costs one ESLint run on the code worker): ${format(lint)}`,
      `  pnpm test:checkout served from the content-keyed cache: ${format(cachedCheckout)}`,
      `  (the cache hit rate of whole scripted episodes is printed by npm run bench, from run.json's timing.sandbox_test_files)`,
      `generated suite (tasks/bench.json), the first task of each fixture, caches cleared each run, ${FIXTURE_RUNS} runs each:`,
      ...fixtureLines,
    ].join('\n') + '\n',
  );
}

await main();
