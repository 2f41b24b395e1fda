// The checks of a list of model servers (`--ollama-host`, `--openai-base-url`): empty entries, entries without a host
// name or with credentials, and a server named twice. Each throws UsageError (exit 2) naming the flag and the entry.
import { UsageError } from './usage-error.js';

/**
 * Throws UsageError (naming `example`, a list as it should be) when the comma-separated `list` has an entry that is
 * empty once trimmed and `normalise`d (e.g. a base URL of only slashes) among others (`,http://gpu2:11434`,
 * `a,,b`, `a,b,`): what a shell gives for `$GPU1,$GPU2` with one variable unset, which would otherwise run on fewer
 * servers than meant, without a word. A list with no entry at all is the caller's own error.
 */
export function refuseEmptyEntry(flag: string, list: string, example: string, normalise: (entry: string) => string = (entry) => entry): void {
  const entries = list.split(',').map((entry) => normalise(entry.trim()));
  if (entries.every((entry) => entry === '')) return;
  const empty = entries.indexOf('');
  if (empty >= 0) {
    throw new UsageError(
      `${flag} "${list}" has an empty entry (${ordinal(empty + 1)} of ${entries.length}); is a variable unset? List the servers separated by commas, e.g. ${example}`,
    );
  }
}

/**
 * Throws UsageError when a list of several hosts has an entry with a scheme or a port but no host name
 * (`http://:11434`): what `http://$GPU2:11434` gives with the variable unset. Alone, `:11434` means this machine,
 * as in Ollama's own OLLAMA_HOST; among other hosts it would quietly put a local server into the pool.
 */
export function refuseHostlessEntry(flag: string, list: string): void {
  const entries = list.split(',').map((entry) => entry.trim());
  if (entries.length < 2) return;
  const hostless = entries.findIndex((entry) => /^([a-z][a-z0-9+.-]*:\/\/)?(:\d*)?(\/.*)?$/i.test(entry) && entry !== '');
  if (hostless >= 0) {
    throw new UsageError(
      `${flag} "${list}" has no host name in its ${ordinal(hostless + 1)} entry ("${entries[hostless]}"); is a variable unset? e.g. http://gpu1:11434,http://gpu2:11434`,
    );
  }
}

/**
 * Throws UsageError when an entry carries credentials (`http://user:pass@gateway:11434`). Ollama has no accounts, the
 * preflight (Node's fetch) refuses such a URL, and run.json would record the password; without this check the entry
 * was misread as a host named "user:pass@gateway". The message shows the entry with its password masked.
 */
export function refuseCredentials(flag: string, list: string): void {
  const entries = list.split(',').map((entry) => entry.trim());
  const index = entries.findIndex((entry) => /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i.test(entry));
  if (index < 0) return;
  const masked = entries[index]!.replace(/^((?:[a-z][a-z0-9+.-]*:\/\/)?[^/:@]*):[^/@]*@/i, '$1:***@');
  throw new UsageError(
    `${flag} has credentials in its ${ordinal(index + 1)} entry ("${masked}"); a host URL with a user name or password is not supported (the preflight cannot send it, and run.json would record it)`,
  );
}

/** 1st, 2nd, 3rd, 4th… */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * Refuses a server named twice in a host list (after normalising: `gpu1` and `http://gpu1:11434` are one server):
 * the pool would count it as two hosts with two caps and fail over to itself.
 * @throws UsageError naming the server.
 */
export function refuseRepeatedHost(flag: string, hosts: readonly string[]): void {
  const seen = new Set<string>();
  for (const host of hosts) {
    // Host names are case-insensitive (URL lower-cases them); paths are not.
    let key = host;
    try {
      const url = new URL(host);
      key = `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      // Not a URL: the caller's own check names it.
    }
    if (seen.has(key)) throw new UsageError(`${flag} names ${host} twice: list each server once (--host-concurrency sets how many calls one takes at once)`);
    seen.add(key);
  }
}
