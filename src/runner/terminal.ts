// How the CLI writes to a terminal: colour or not (NO_COLOR, FORCE_COLOR, TTY), and a reader that went away (EPIPE).

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
 * When the reader of stdout or stderr goes away (`stratbench run | head`), that stream goes quiet: later writes are
 * dropped, no stack trace, and the command carries on to its end — a run still writes every episode, run.json and
 * summary.json, and exits with its own code. Every other stream error is left to crash loudly.
 */
export function exitQuietlyOnClosedPipe(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      // console.log and our own writers call the stream's write: from now on it swallows the text.
      stream.write = ((_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) => {
        const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
        if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
        return true;
      }) as NodeJS.WriteStream['write'];
    });
  }
}
