// Owns the process's time zone while repository code runs: UTC, so no verdict depends on where the harness runs.

/** The process's TZ before pinSandboxTimeZone set it (undefined: unset, or not pinned yet). */
let hostTimeZone: { value: string | undefined } | undefined;

/**
 * Sets the process's time zone to UTC (`process.env.TZ`, which Node applies to every thread and to workers started
 * after it), once, before the first code worker starts. QuickJS's local-time Date methods (getHours, toString, a date
 * built from parts) read the host's zone through emscripten, so a test of `new Date(0).getHours()` passed in UTC and
 * failed in Tokyo: the fixture's clock is fixed (its `date`), its zone now is too. An adversarial review of the code
 * cache found it (decision 0049): a result computed under one zone was served to a process under another. Idempotent.
 */
export function pinSandboxTimeZone(): void {
  if (hostTimeZone !== undefined) return;
  hostTimeZone = { value: process.env['TZ'] };
  if (process.env['TZ'] !== 'UTC') process.env['TZ'] = 'UTC';
}

/**
 * The environment entries that give a child process the user's own time zone back (an external agent is the user's
 * program, not repository code): `{ TZ }` as it was before pinSandboxTimeZone, `{}` when it was not pinned.
 * An unset TZ is given back as unset by the caller deleting it (see withHostTimeZone).
 */
export function withHostTimeZone(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (hostTimeZone === undefined) return env;
  const copy = { ...env };
  if (hostTimeZone.value === undefined) delete copy['TZ'];
  else copy['TZ'] = hostTimeZone.value;
  return copy;
}
