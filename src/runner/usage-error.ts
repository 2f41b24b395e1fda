// The error the CLI turns into exit code 2: bad input or usage, reported before any episode runs.

/** Bad input or usage: the CLI prints the message and exits 2, before any episode runs. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
