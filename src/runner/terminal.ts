// How the CLI writes to a terminal: colour or not (NO_COLOR, FORCE_COLOR, TTY), a reader that went away (EPIPE), a disk that refused.
import { diskFaultCode } from '../results-folder/index.js';

/**
 * Whether to colour what goes to `stream`: FORCE_COLOR decides when set (`0` or `false` off, anything else on), then a
 * non-empty NO_COLOR turns colour off (https://no-color.org), else colour only on a TTY.
 */
export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return !['0', 'false'].includes(force.trim().toLowerCase());
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return stream.isTTY === true;
}

/**
 * The first write to stdout or stderr that the disk refused (stdout redirected to a full disk: ENOSPC, EIO, …), if any:
 * cli.ts then ends the command with exit 5 and a message naming the stream, once the command has finished its own
 * work (episodes, run.json and summary.json written, the lock released) — never exit 1, compare's "regressed".
 */
export const outputFault: { stream?: string; code?: string } = {};

/** Makes `stream` drop every later write (the text goes nowhere), as a closed or refused stream must. */
function silence(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) => {
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as NodeJS.WriteStream['write'];
}

/**
 * When the reader of stdout or stderr goes away (`stratbench run | head`), that stream goes quiet: later writes are
 * dropped, no stack trace, and the command carries on to its end — a run still writes every episode, run.json and
 * summary.json, and exits with its own code. A stream the disk refuses (`> /dev/full`, a full disk) goes quiet the same
 * way and is recorded in `outputFault` (exit 5). Every other stream error is left to crash loudly.
 */
export function exitQuietlyOnClosedPipe(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') return silence(stream);
      const fault = diskFaultCode(error);
      if (fault === undefined) throw error;
      outputFault.stream ??= stream === process.stderr ? 'stderr' : 'stdout';
      outputFault.code ??= fault;
      silence(stream);
    });
  }
}
