// The caches of code runs and repository bases are bounded process-wide (issue 32 §3): many distinct tasks hold no
// more than the budget, by the caches' own accounting, and a bounded cache still never serves a stale result.
import { afterAll, describe, expect, it } from 'vitest';
import { clearTestRunCaches, RepoSpec, SimRepo, stopCodeWorker } from '../src/sim-repo/index.js';
import { RunCache, sharedReadStats } from '../src/sim-repo/run-cache.js';
import { cachedBaseCount, MAX_BASES } from '../src/sim-repo/state.js';
import { testFileStats, testIdentityStats, testRunCache, wholeRunCache } from '../src/sim-repo/test-runner.js';

afterAll(() => stopCodeWorker());

describe('RunCache budget', () => {
  it('holds at most maxBytes over many distinct keys, dropping the least recently used', () => {
    const cache = new RunCache<string>({ maxEntries: 1_000, maxBytes: 20_000, sizeOf: (result) => 2 * result.length });
    const content = (i: number) => `export const v = ${i};\n`.padEnd(1_000, ' ');
    cache.set('hot', [['a.js', content(-1)]], 'hot');
    for (let i = 0; i < 500; i++) {
      cache.set(`task-${i}`, [['a.js', content(i)]], `result ${i}`);
      // Used all along: least recently used is never this one.
      expect(cache.get('hot', () => content(-1))).toBe('hot');
      expect(cache.stats.bytes).toBeLessThanOrEqual(20_000);
    }
    expect(cache.stats.entries).toBeLessThan(20);
    expect(cache.stats.entries).toBeGreaterThan(5);
    expect(cache.get('task-0', () => content(0))).toBeUndefined();
    expect(cache.get('task-499', () => content(499))).toBe('result 499');
    // A changed input is not served the old result.
    expect(cache.get('task-499', () => content(498))).toBeUndefined();
  });

  it('counts a read equal to the held (fixture) content by its path only, and stores the held string', () => {
    const big = 'x'.repeat(100_000);
    const cache = new RunCache<number>({ maxBytes: 50_000 });
    cache.set('fixture', [['big.js', big.slice(0)]], 1, () => big);
    expect(cache.stats.entries).toBe(1);
    expect(cache.stats.bytes).toBeLessThan(1_000);
    // An episode's variant costs its content: over the budget, not kept.
    cache.set('variant', [['big.js', `${big}!`]], 2, () => big);
    expect(cache.stats.entries).toBe(1);
    expect(cache.get('fixture', () => big)).toBe(1);
    expect(cache.get('fixture', () => `${big}!`)).toBeUndefined();
  });

  it('returns the reads as kept: the held string in place of a copy, so a caller keeping them holds no copy', () => {
    const big = 'y'.repeat(10_000);
    const copy = big.split('').join('');
    const cache = new RunCache<number>();
    const kept = cache.set(
      'k',
      [
        ['big.js', copy],
        ['gone.js', undefined],
        ['own.js', 'written'],
      ],
      1,
      (path) => (path === 'big.js' ? big : undefined),
    );
    expect(kept[0]![1]).toBe(big);
    expect(kept.slice(1)).toEqual([
      ['gone.js', undefined],
      ['own.js', 'written'],
    ]);
    expect(cache.lookup('k', (path) => ({ 'big.js': big, 'own.js': 'written' })[path])).toEqual({ result: 1, reads: kept, bytes: expect.any(Number) });
  });

  it('keeps one frozen read per path and held (or absent) content, shared by every entry and cache that read it', () => {
    const held = 'export const shared = 1;\n'.repeat(100);
    const heldOf = (path: string) => (path === 'src/shared.js' ? held : undefined);
    const first = new RunCache<number>();
    const second = new RunCache<number>();
    // Each run's reads arrive as its own copies (a worker's answer): new tuples, new path strings, copied content.
    const copy = (text: string) => text.split('').join('');
    const readsOf = (i: number): Array<readonly [string, string | undefined]> => [
      [copy('src/shared.js'), copy(held)],
      [copy('src/gone.js'), undefined],
      [copy('src/own.js'), `export const own = ${i};\n`],
    ];
    const kept = [first.set('a', readsOf(1), 1, heldOf), first.set('b', readsOf(2), 2, heldOf), second.set('c', readsOf(3), 3, heldOf)];
    for (const reads of kept.slice(1)) {
      expect(reads[0]).toBe(kept[0]![0]);
      expect(reads[1]).toBe(kept[0]![1]);
      // An entry's own content is its own tuple.
      expect(reads[2]).not.toBe(kept[0]![2]);
    }
    expect(kept[0]![0]![1]).toBe(held);
    expect(Object.isFrozen(kept[0]![0])).toBe(true);
    expect(kept.map((reads) => reads[2]![1])).toEqual(['export const own = 1;\n', 'export const own = 2;\n', 'export const own = 3;\n']);
    // Sharing changes nothing a lookup sees: each entry still answers only to its own contents.
    const files = (i: number) => (path: string) => ({ 'src/shared.js': held, 'src/own.js': `export const own = ${i};\n` })[path];
    expect(first.get('a', files(1))).toBe(1);
    expect(first.get('b', files(2))).toBe(2);
    expect(first.get('a', files(2))).toBeUndefined();
    expect(second.get('c', files(3))).toBe(3);
    expect(first.get('a', (path) => (path === 'src/shared.js' ? `${held}changed` : files(1)(path)))).toBeUndefined();
  });

  it('keeps shared reads within their byte budget, whatever paths and contents the runs read', () => {
    clearTestRunCaches();
    const cache = new RunCache<number>({ maxBytes: 1_000 });
    // Long absent paths (code can import any name) and long held contents: each read is refused by the cache's budget,
    // and the shared table must not keep them all instead.
    for (let i = 0; i < 400; i++) {
      const path = `src/${String(i).padStart(4, '0')}-${'p'.repeat(4_000)}.js`;
      const held = `export const v = ${i};\n`.padEnd(30_000, ' ');
      cache.set(
        `k${i}`,
        [
          [path, undefined],
          [`lib/${i}.js`, held],
        ],
        i,
        (asked) => (asked === `lib/${i}.js` ? held : undefined),
      );
      expect(sharedReadStats().bytes).toBeLessThanOrEqual(8 * 1024 * 1024);
    }
    expect(sharedReadStats().paths).toBeLessThan(400);
    clearTestRunCaches();
    expect(sharedReadStats()).toEqual({ paths: 0, bytes: 0 });
  });

  it('clear forgets every entry and its bytes', () => {
    const cache = new RunCache<number>();
    cache.set('k', [['a', 'b']], 1);
    cache.clear();
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 });
    expect(cache.get('k', () => 'b')).toBeUndefined();
  });
});

const TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { value } from '../src/value.js';",
  "describe('task', () => {",
  "  it('sees its own value', () => {",
  '    expect(value).toBe(Number(process.env.EXPECTED));',
  '  });',
  '});',
  '',
].join('\n');

/** Task `i`: its own value.js; every third task expects the wrong value (a failing test). */
function task(i: number): RepoSpec {
  const files: Record<string, string> = { 'tests/task.test.js': TEST, 'src/value.js': `export const value = ${i};\n` };
  for (let n = 0; n < 20; n++) files[`lib/filler-${n}.js`] = `export const filler${n} = ${n};\n`;
  return RepoSpec.parse({ files, env: { EXPECTED: String(i % 3 === 2 ? -1 : i) }, scripts: { test: { kind: 'test', cmd: 'vitest run' } } });
}

describe('many distinct tasks', () => {
  it(`keep at most ${MAX_BASES} bases and the run caches within their budgets, and a dropped base runs as before`, () => {
    clearTestRunCaches();
    const specs = Array.from({ length: MAX_BASES + 16 }, (_, i) => task(i));
    const outcome = (spec: RepoSpec) =>
      SimRepo.fromSpec(spec)
        .testResults()
        .tests.map((test) => test.state)
        .join(',');
    const first = specs.map(outcome);
    expect(first).toEqual(specs.map((_, i) => (i % 3 === 2 ? 'failed' : 'passed')));
    expect(cachedBaseCount()).toBeLessThanOrEqual(MAX_BASES);
    for (const cache of [testRunCache, wholeRunCache]) {
      expect(cache.stats.entries).toBeGreaterThan(0);
      expect(cache.stats.bytes).toBeLessThanOrEqual(cache.maxBytes);
    }
    // The first tasks' bases were dropped (and their worker bases): they are rebuilt, and run against their own files.
    expect(specs.slice(0, 6).map(outcome)).toEqual(first.slice(0, 6));
    expect(cachedBaseCount()).toBeLessThanOrEqual(MAX_BASES);
  });
});

/** Task `i` of one fixture: the same test file and a 60 KB module it imports, and its own value.js. */
function fixtureTask(i: number): RepoSpec {
  const files: Record<string, string> = {
    'tests/task.test.js': TEST.replace(
      "import { value } from '../src/value.js';",
      "import { value } from '../src/value.js';\nimport { table } from '../src/table.js';",
    ),
    'src/value.js': `export const value = ${i};\n`,
    'src/table.js': `export const table = [${Array.from({ length: 10_000 }, (_, n) => n).join(',')}];\n`,
  };
  return RepoSpec.parse({ files, env: { EXPECTED: String(i) }, scripts: { test: { kind: 'test', cmd: 'vitest run' } } });
}

describe('test results of separate runs', () => {
  it('share one id and one frozen describe path per test, so cached results hold no copy of either', () => {
    clearTestRunCaches();
    const results = [fixtureTask(1), fixtureTask(2)].map((spec) => SimRepo.fromSpec(spec).testResults());
    const [one, two] = results.map((run) => run.tests[0]!);
    expect(one!.path).toEqual(['task', 'sees its own value']);
    expect(one!.id).toBe('tests/task.test.js > task > sees its own value');
    // Two sandbox runs (different value.js), one path array.
    expect(two!.path).toBe(one!.path);
    expect(Object.isFrozen(one!.path)).toBe(true);
  });
});

describe('shared test identities', () => {
  it('stay within their byte budget when the code names its tests at length, and clearTestRunCaches empties them', () => {
    clearTestRunCaches();
    const chain = Array.from({ length: 5 }, (_, level) => `${level}${'d'.repeat(899)}`);
    const test = [
      "import { describe, it } from 'vitest';",
      `${chain.map((name) => `describe('${name}', () => {`).join(' ')}`,
      `  for (let i = 0; i < 250; i++) it(String(i) + '${'t'.repeat(890)}', () => {});`,
      `${chain.map(() => '});').join(' ')}`,
      '',
    ].join('\n');
    const spec = RepoSpec.parse({ files: { 'tests/long.test.js': test }, scripts: { test: { kind: 'test', cmd: 'vitest run' } } });
    const results = SimRepo.fromSpec(spec).testResults();
    expect(results.tests).toHaveLength(250);
    expect(results.tests.every((one) => one.state === 'passed' && one.path.length === 6)).toBe(true);
    // 250 ids of ~5,400 characters: ~5.4 MB at the estimate, over the 4 MiB budget: the table started again.
    expect(testIdentityStats().bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(testIdentityStats().identities).toBeLessThan(250);
    clearTestRunCaches();
    expect(testIdentityStats()).toEqual({ identities: 0, bytes: 0 });
  });
});

describe('many tasks of one fixture', () => {
  it("keep every task's result of the shared test file, counted without the fixture text it read", () => {
    clearTestRunCaches();
    // More tasks than one key's entries held until issue 32's second round (16): a cold tasks/bench.json run
    // executed the same test files again once the whole-run cache let them go.
    const specs = Array.from({ length: 40 }, (_, i) => fixtureTask(i));
    const pass = () =>
      specs.map((spec) =>
        SimRepo.fromSpec(spec)
          .testResults()
          .tests.map((test) => test.state)
          .join(','),
      );
    const before = testFileStats.executed;
    expect(pass()).toEqual(specs.map(() => 'passed'));
    expect(testFileStats.executed - before).toBe(40);
    expect(testRunCache.stats.entries).toBe(40);
    // The 60 KB module is fixture text: an entry costs its result and paths (it counted ~120 KB more before).
    expect(testRunCache.stats.bytes / testRunCache.stats.entries).toBeLessThan(4_000);
    wholeRunCache.clear();
    const again = testFileStats.executed;
    expect(pass()).toEqual(specs.map(() => 'passed'));
    expect(testFileStats.executed - again).toBe(0);
  });
});
