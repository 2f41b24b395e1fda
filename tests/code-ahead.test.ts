// Sandbox runs made ahead of a synchronous pass (codeAhead): the event loop is served meanwhile, the result is the blocking one.
import { afterEach, describe, expect, it } from 'vitest';
import { codeAhead, codeAheadPure, codeAheadStats, runSandboxed } from '../src/sim-repo/code-host.js';
import { clearTestRunCaches, RepoSpec, SimRepo, stopCodeWorker } from '../src/sim-repo/index.js';

/** A command whose sandbox run takes a while (QuickJS: a few hundred thousand loop turns) and prints `tag` and a sum. */
const busy = (tag: string, turns = 400_000) => `node -e "let s = 0; for (let i = 0; i < ${turns}; i++) s += i % 7; console.log('${tag}', s)"`;

const emptyRepo = () => SimRepo.fromSpec(RepoSpec.parse({ files: {} }));

/** How many event-loop turns ran while `work` was awaited (0 when it blocked the main thread throughout). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const pending = work();
  const value = await pending;
  running = false;
  return { value, turns };
}

describe('codeAhead', () => {
  afterEach(() => {
    stopCodeWorker();
    clearTestRunCaches();
  });

  it('runs a command’s sandbox run without blocking the main thread, and the command gives the blocking result', async () => {
    const repo = emptyRepo();
    const before = { ...codeAheadStats };
    const { value, turns } = await turnsDuring(() =>
      codeAhead(
        () => repo.clone().run(busy('ahead')),
        () => repo.run(busy('ahead')),
      ),
    );
    expect(turns).toBeGreaterThan(0);
    expect(codeAheadStats.ahead - before.ahead).toBe(1);
    expect(codeAheadStats.blocking - before.blocking).toBe(0);
    clearTestRunCaches();
    const blocking = emptyRepo().run(busy('ahead'));
    expect(value).toEqual(blocking);
    expect(value).toMatchObject({ exit_code: 0, output: 'ahead 1199997' });
  });

  it('leaves the real repository as the command alone leaves it (the probe runs on a copy)', async () => {
    const made = () => {
      const repo = emptyRepo();
      repo.write('five.js', 'console.log(2 + 3)\n');
      return repo;
    };
    const repo = made();
    const result = await codeAhead(
      () => repo.clone().run('node five.js'),
      () => repo.run('node five.js'),
    );
    clearTestRunCaches();
    const twin = made();
    expect(result).toEqual(twin.run('node five.js'));
    expect(result).toMatchObject({ exit_code: 0, output: '5' });
    expect(repo.clock.now_ms).toBe(twin.clock.now_ms);
    expect(repo.changes).toEqual(twin.changes);
  });

  it('makes a request the probe did not foresee blocking, with the same result', async () => {
    const repo = emptyRepo();
    const before = { ...codeAheadStats };
    const result = await codeAhead(
      () => undefined,
      () => repo.run(busy('unforeseen', 1_000)),
    );
    expect(result).toMatchObject({ exit_code: 0, output: 'unforeseen 2997' });
    expect(codeAheadStats.ahead - before.ahead).toBe(0);
    expect(codeAheadStats.blocking - before.blocking).toBe(1);
  });

  it('fetches every run of a command line that needs several, one probe round each', async () => {
    const repo = emptyRepo();
    const line = `${busy('first', 1_000)} && ${busy('second', 2_000)} && ${busy('third', 3_000)}`;
    const before = { ...codeAheadStats };
    const result = await codeAhead(
      () => repo.clone().run(line),
      () => repo.run(line),
    );
    expect(result).toMatchObject({ exit_code: 0, output: 'first 2997\nsecond 5995\nthird 8994' });
    expect(codeAheadStats.ahead - before.ahead).toBe(3);
    expect(codeAheadStats.blocking - before.blocking).toBe(0);
  });

  it('ends a run past its deadline as a timeout, as blocking would, and the next command runs normally', async () => {
    const code = 'const a = new Float64Array(1e6).map((_, i) => (i * 7919) % 1000);\nfor (let k = 0; k < 1e6; k++) a.slice().sort();\n';
    const empty = { base: { id: 2 ** 31 - 2, files: new Map<string, string>() }, overlay: {} };
    const run = () => runSandboxed({ entry: { code, filename: '[eval]' }, timeoutMs: 200 }, empty);
    const { value, turns } = await turnsDuring(() => codeAhead(run, run));
    expect(turns).toBeGreaterThan(0);
    expect(value.status).toBe('timeout');
    // The sandbox's own deadline or, for code that never reaches QuickJS's interrupt check, the worker's hard cutoff.
    expect(value.error?.message).toMatch(/^run (stopped after 200 ms of CPU time|killed after 3000 ms)/);
    const repo = emptyRepo();
    expect(
      await codeAhead(
        () => repo.clone().run('node -e "console.log(6 * 7)"'),
        () => repo.run('node -e "console.log(6 * 7)"'),
      ),
    ).toMatchObject({
      exit_code: 0,
      output: '42',
    });
  });

  it('gives a blocking request made while another is ahead its own answer, after the one ahead, and that one its own', async () => {
    const first = emptyRepo();
    const second = emptyRepo();
    const ahead = codeAhead(
      () => first.clone().run(busy('ahead', 600_000)),
      () => first.run(busy('ahead', 600_000)),
    );
    // Let the request ahead reach the worker (it starts, then runs), then block on another request meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(second.run(busy('blocking', 2_000))).toMatchObject({ exit_code: 0, output: 'blocking 5995' });
    expect(await ahead).toMatchObject({ exit_code: 0, output: 'ahead 1799995' });
  });

  it('runs queued requests ahead one after another, each episode getting its own answer', async () => {
    const repos = [1, 2, 3, 4].map(() => emptyRepo());
    const results = await Promise.all(
      repos.map((repo, index) =>
        codeAhead(
          () => repo.clone().run(busy(`episode-${index}`, 10_000 * (index + 1))),
          () => repo.run(busy(`episode-${index}`, 10_000 * (index + 1))),
        ),
      ),
    );
    expect(results.map((result) => result.output)).toEqual(['episode-0 29994', 'episode-1 59997', 'episode-2 89995', 'episode-3 119995']);
  });

  it('codeAheadPure returns the computation’s own last round, run with every answer fetched ahead, and rethrows its error', async () => {
    const repo = emptyRepo();
    const before = { ...codeAheadStats };
    let rounds = 0;
    const result = await codeAheadPure(() => {
      rounds++;
      return repo.clone().run(busy('pure', 5_000));
    });
    expect(result).toMatchObject({ exit_code: 0, output: 'pure 14995' });
    expect(rounds).toBe(2);
    expect(codeAheadStats.ahead - before.ahead).toBe(1);
    expect(codeAheadStats.blocking - before.blocking).toBe(0);
    expect(repo.clock.now_ms).toBe(0);
    await expect(
      codeAheadPure(() => {
        throw new RangeError('a check that fails on its own');
      }),
    ).rejects.toThrow('a check that fails on its own');
  });
});
