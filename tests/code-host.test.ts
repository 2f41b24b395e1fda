// The code worker's answer protocol: a request only ever gets its own answer, whatever is left on the port or wakes the host.
import { readFileSync } from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { awaitAnswer, stopCodeWorker } from '../src/sim-repo/code-host.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { parseSuite } from '../src/suite/load-suite.js';

const answer = (id: number, exit_code: number) => ({ id, ok: true as const, value: { exit_code, output: `answer ${id}`, reads: [] } });

describe('awaitAnswer', () => {
  it('drops an answer left behind by an earlier request and returns the one with its id', () => {
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    port2.postMessage(answer(4, 0)); // an earlier request's answer nobody read
    port2.postMessage(answer(5, 1));
    Atomics.store(flag, 0, 5);
    expect(awaitAnswer({ port: port1, flag }, 5, 1_000)).toEqual(answer(5, 1));
    port1.close();
  });

  it('waits again after a wake-up that brought no answer (a late ready notify), until its own answer comes', () => {
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const flag = new Int32Array(signal);
    Atomics.store(flag, 0, 1);
    // Another thread: notifies with no answer and the ready value still there, posts a stale answer, then the real one.
    const worker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const flag = new Int32Array(workerData.signal);
       const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
       sleep(50); Atomics.notify(flag, 0);
       sleep(50); workerData.port.postMessage(${JSON.stringify(answer(6, 0))}); Atomics.store(flag, 0, 6); Atomics.notify(flag, 0);
       sleep(50); workerData.port.postMessage(${JSON.stringify(answer(7, 1))}); Atomics.store(flag, 0, 7); Atomics.notify(flag, 0);`,
      { eval: true, workerData: { port: port2, signal }, transferList: [port2] },
    );
    expect(awaitAnswer({ port: port1, flag }, 7, 10_000)).toEqual(answer(7, 1));
    void worker.terminate();
    port1.close();
  });

  it('gives up after its budget when its answer never comes', () => {
    const { port1 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(flag, 0, 1);
    const started = Date.now();
    expect(awaitAnswer({ port: port1, flag }, 9, 100)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    port1.close();
  });
});

describe('the code worker', () => {
  afterEach(() => stopCodeWorker());

  it('answers interleaved test and lint runs each with its own result', () => {
    const loaded = parseSuite(readFileSync('tasks/core.yaml', 'utf8'), 'tasks/core.yaml');
    if (!loaded.ok) throw new Error('tasks/core.yaml does not load');
    const repo = SimRepo.fromSpec(loaded.tasks.find((task) => task.id === 'pre-deploy-check')!.repoSpec);
    for (let round = 0; round < 3; round++) {
      const test = repo.run('pnpm test:checkout');
      const lint = repo.run('pnpm lint');
      expect(test.output).toMatch(/Test Files/);
      expect(lint.exit_code).toBe(1);
      expect(lint.output).toMatch(/no-unused-vars/);
      // A new state each round, so neither run is served from a cache.
      repo.write(`src/extra-${round}.js`, `export const extra${round} = ${round};\n`);
    }
  });
});
