// The pool of code workers: requests ahead side by side on several workers, equal requests run once, a killed worker alone.
import { availableParallelism } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeAhead, codeAheadStats, codeWorkerLimit, prewarmForRepos, runSandboxed, setCodeWorkerLimit } from '../src/sim-repo/code-host.js';
import { clearRunCaches, RepoSpec, SimRepo, stopCodeWorker } from '../src/sim-repo/index.js';

/** A command whose sandbox run takes a while (QuickJS: a few hundred thousand loop turns) and prints `tag` and a sum. */
const busy = (tag: string, turns = 200_000) => `node -e "let s = 0; for (let i = 0; i < ${turns}; i++) s += i % 7; console.log('${tag}', s)"`;

/** One task's repository spec: the episodes of a task share its base (the fixture's files, by id). */
const spec = RepoSpec.parse({ files: {} });

/** A fresh repository of the task with `files` written by the episode (its overlay). */
function repoWith(files: Record<string, string> = {}): SimRepo {
  const repo = SimRepo.fromSpec(spec);
  for (const [path, content] of Object.entries(files)) repo.write(path, content);
  return repo;
}

/** `command` run on `repo` through codeAhead, as a tool call of an episode side by side with others. */
const ahead = (repo: SimRepo, command: string) =>
  codeAhead(
    () => repo.clone().run(command),
    () => repo.run(command),
  );

/** The change in each of codeAheadStats' counts while `work` ran. */
async function countsDuring<T>(work: () => Promise<T>): Promise<{ value: T; counts: typeof codeAheadStats }> {
  const before = { ...codeAheadStats };
  const value = await work();
  const counts = { ...codeAheadStats };
  for (const name of Object.keys(counts) as Array<keyof typeof counts>) counts[name] -= before[name];
  return { value, counts };
}

describe('codeWorkerLimit', () => {
  it('is the available parallelism unless STRATBENCH_CODE_WORKERS sets a whole number ≥ 1', () => {
    expect(codeWorkerLimit({})).toBe(Math.max(1, availableParallelism()));
    expect(codeWorkerLimit({ STRATBENCH_CODE_WORKERS: '' })).toBe(Math.max(1, availableParallelism()));
    expect(codeWorkerLimit({ STRATBENCH_CODE_WORKERS: '3' })).toBe(3);
    for (const wrong of ['0', 'two', '1.5', '-2'])
      expect(() => codeWorkerLimit({ STRATBENCH_CODE_WORKERS: wrong })).toThrow(`STRATBENCH_CODE_WORKERS must be a whole number ≥ 1, not "${wrong}"`);
  });

  it('fails a run before its first episode when STRATBENCH_CODE_WORKERS is wrong (prewarmForRepos)', () => {
    const saved = process.env['STRATBENCH_CODE_WORKERS'];
    process.env['STRATBENCH_CODE_WORKERS'] = 'two';
    setCodeWorkerLimit(undefined);
    try {
      expect(() => prewarmForRepos([])).toThrow('STRATBENCH_CODE_WORKERS must be a whole number ≥ 1, not "two"');
    } finally {
      if (saved === undefined) delete process.env['STRATBENCH_CODE_WORKERS'];
      else process.env['STRATBENCH_CODE_WORKERS'] = saved;
      setCodeWorkerLimit(undefined);
    }
  });
});

describe('the pool of code workers', () => {
  beforeEach(() => {
    stopCodeWorker();
    clearRunCaches();
  });
  afterEach(() => {
    setCodeWorkerLimit(undefined);
    stopCodeWorker();
    clearRunCaches();
  });

  it('runs two episodes’ requests ahead on two workers, each episode getting its own answer', async () => {
    setCodeWorkerLimit(2);
    const { value, counts } = await countsDuring(() => Promise.all([ahead(repoWith(), busy('first')), ahead(repoWith(), busy('second', 300_000))]));
    expect(value.map((result) => result.output)).toEqual(['first 599994', 'second 899997']);
    expect(counts).toMatchObject({ ahead: 2, blocking: 0, shared: 0, started: 2 });
  });

  it('runs them one after another on one worker when the limit is 1, with the same answers', async () => {
    setCodeWorkerLimit(1);
    const { value, counts } = await countsDuring(() => Promise.all([ahead(repoWith(), busy('first')), ahead(repoWith(), busy('second', 300_000))]));
    expect(value.map((result) => result.output)).toEqual(['first 599994', 'second 899997']);
    expect(counts).toMatchObject({ ahead: 2, blocking: 0, started: 1 });
  });

  it('runs a request that two episodes make at once (same tree, same command) once, and gives both its answer', async () => {
    setCodeWorkerLimit(2);
    const files = { 'five.js': 'console.log(2 + 3)\n' };
    const { value, counts } = await countsDuring(() => Promise.all([ahead(repoWith(files), 'node five.js'), ahead(repoWith(files), 'node five.js')]));
    expect(value[0]).toMatchObject({ exit_code: 0, output: '5' });
    expect(value[1]).toEqual(value[0]);
    expect(counts).toMatchObject({ ahead: 1, blocking: 0, shared: 1 });
  });

  it('serves a similar request (a file the run never read differs) from the first one’s cached result, run once', async () => {
    setCodeWorkerLimit(2);
    const { value, counts } = await countsDuring(() =>
      Promise.all([
        ahead(repoWith({ 'five.js': 'console.log(2 + 3)\n', 'notes.md': 'one' }), 'node five.js'),
        ahead(repoWith({ 'five.js': 'console.log(2 + 3)\n', 'notes.md': 'two' }), 'node five.js'),
      ]),
    );
    expect(value.map((result) => result.output)).toEqual(['5', '5']);
    expect(counts).toMatchObject({ ahead: 1, blocking: 0, shared: 0, waited: 1 });
  });

  it('runs again, not from a stale result, a similar request whose tree differs in a file the run reads', async () => {
    setCodeWorkerLimit(2);
    const { value, counts } = await countsDuring(() =>
      Promise.all([
        ahead(repoWith({ 'five.js': 'console.log(2 + 3)\n' }), 'node five.js'),
        ahead(repoWith({ 'five.js': 'console.log(2 + 4)\n' }), 'node five.js'),
      ]),
    );
    expect(value.map((result) => result.output)).toEqual(['5', '6']);
    expect(counts).toMatchObject({ ahead: 2, blocking: 0, shared: 0, waited: 1 });
  });

  it('answers a blocking request equal to one already running ahead with that run’s answer (run once)', async () => {
    setCodeWorkerLimit(2);
    const command = busy('both', 300_000);
    const before = { ...codeAheadStats };
    const pending = ahead(repoWith(), command);
    // Until the request ahead is posted to its worker (a count, not a clock).
    while (codeAheadStats.ahead === before.ahead) await new Promise((resolve) => setImmediate(resolve));
    expect(repoWith().run(command)).toMatchObject({ exit_code: 0, output: 'both 899997' });
    expect(await pending).toMatchObject({ exit_code: 0, output: 'both 899997' });
    expect(codeAheadStats.shared - before.shared).toBe(1);
    expect(codeAheadStats.blocking - before.blocking).toBe(0);
    expect(codeAheadStats.ahead - before.ahead).toBe(1);
  });

  it('kills and replaces only the worker of a run past its deadline: the other worker’s run is answered as alone', async () => {
    setCodeWorkerLimit(2);
    const code = 'const a = new Float64Array(1e6).map((_, i) => (i * 7919) % 1000);\nfor (let k = 0; k < 1e6; k++) a.slice().sort();\n';
    const empty = { base: { id: 2 ** 31 - 3, files: new Map<string, string>() }, overlay: {} };
    const stuck = () => runSandboxed({ entry: { code, filename: '[eval]' }, timeoutMs: 200 }, empty);
    const other = repoWith();
    const { value, counts } = await countsDuring(() => Promise.all([codeAhead(stuck, stuck), ahead(other, busy('other', 400_000))]));
    const [timedOut, answered] = value;
    // Side by side: each on its own worker.
    expect(counts).toMatchObject({ ahead: 2, started: 2 });
    expect(timedOut.status).toBe('timeout');
    expect(timedOut.error?.message).toMatch(/^run (stopped after 200 ms of CPU time|killed after 3000 ms)/);
    expect(answered).toMatchObject({ exit_code: 0, output: 'other 1199997' });
    // The pool goes on: two more episodes side by side, each answered.
    const next = await countsDuring(() => Promise.all([ahead(repoWith(), busy('after-a', 1_000)), ahead(repoWith(), busy('after-b', 2_000))]));
    expect(next.value.map((result) => result.output)).toEqual(['after-a 2997', 'after-b 5995']);
    // A killed worker's place is taken by a new one (the other may have idled out meanwhile: then two). Which limit ends
    // the stuck run depends on the machine's speed: the sandbox's CPU-time check between two sorts (the worker lives
    // on) or, when one sort outlasts the hard cutoff on a loaded machine, the host's kill.
    if (timedOut.error?.message.startsWith('run killed') === true) expect(next.counts.started).toBeGreaterThanOrEqual(1);
  });
});
