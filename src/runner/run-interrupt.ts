// Ctrl-C and SIGTERM during a run: stop starting episodes, abort the model calls in flight, let the run write its summary.
import { CallInterrupted } from '../models/types.js';
import type { HostPools } from './ollama-setup.js';

/** A run's interruption: the signal its model calls watch, which signal stopped it (if any), and the handlers' removal. */
export interface RunInterrupt {
  signal: AbortSignal;
  /** The signal that interrupted the run; undefined while none has. */
  stoppedBy(): NodeJS.Signals | undefined;
  /** Removes the handlers (a second signal then kills the process, as without them). */
  release(): void;
}

/**
 * Installs SIGINT and SIGTERM handlers for a run. The first signal says so on stderr, makes calls waiting for a model
 * server of `pools` to come back give up now (their episodes end as infrastructure errors, which --resume runs again)
 * instead of waiting up to 60 s each, and aborts `signal` with CallInterrupted; the run then writes what finished and
 * the summary. The handlers remove themselves, so a second signal kills.
 */
export function interruptOnSignals(pools: HostPools): RunInterrupt {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(
      `\ninterrupted (${signal}): model calls in flight abandoned, their episodes left for --resume; writing the summary (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to kill)\n`,
    );
    stoppedBy = signal;
    release();
    for (const pool of pools.values()) pool.stopWaiting(`interrupted by ${signal}`);
    controller.abort(new CallInterrupted(`interrupted by ${signal}`));
  };
  const release = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { signal: controller.signal, stoppedBy: () => stoppedBy, release };
}
