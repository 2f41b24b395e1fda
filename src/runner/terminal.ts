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
 * Ends the process quietly when the reader of stdout or stderr goes away (`stratbench run | head`): the exit code set
 * so far (0 if none), no stack trace. Every other stream error is left to crash loudly.
 */
export function exitQuietlyOnClosedPipe(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}
