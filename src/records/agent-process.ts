// How an agent_process event's stderr is read: the one line that says what went wrong (the bridge's end message and
// attribution's process_exit explanation both quote it, so they quote the same line).

/** Lines of a crash report that say nothing about the crash (stack frames, carets, Node's version banner). */
const NOISE = /^(Node\.js v\d|\s*at |\s*\^+\s*$|\s*}\s*$)/;

/** A line that starts with an error's class and its message, as Node and Python print them: `TypeError: …`, `Error [ERR_X]: …`. */
const THROWN = /^\s*(?:Uncaught\s+)?[\w.$]*(?:Error|Exception)\b[^:]*:/;

/**
 * The line of stderr that says what went wrong: the last one that starts with an error's class and message
 * (`BadRequestError: 400 …`, `ValueError: bad`), else the last one naming an error (error, exception, traceback,
 * fatal, panic), else the last line that is not a stack frame or Node's version banner; undefined for an empty stderr.
 */
export function tellingLine(stderr: string): string | undefined {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !NOISE.test(line));
  const thrown = lines.filter((line) => THROWN.test(line)).at(-1);
  const named = lines.filter((line) => /error|exception|traceback|fatal|panic/i.test(line)).at(-1);
  return (
    thrown ??
    named ??
    lines.at(-1) ??
    stderr
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1)
  )?.trim();
}
