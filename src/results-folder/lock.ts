// The exclusive lock of a results folder (DIR/.lock): one run or resume writes a folder at a time.
import { readFileSync } from 'node:fs';
import { link, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

export const LOCK_FILE = '.lock';

/** DIR/.lock: who holds the folder. Written whole before it appears (tmp file + link), so it is never half-written. */
const LockHolder = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  started_at: z.string().describe('ISO 8601'),
  command: z.string().describe('The command line of the holder, for the message a second run prints'),
  process_start: z
    .string()
    .optional()
    .describe(
      "The holder process's start (the boot's id and the start time in clock ticks, from /proc): a pid alone names a different process after a reboot or in a retried container",
    ),
});
type LockHolder = z.infer<typeof LockHolder>;

/** Thrown when another live process holds the folder, or the lock cannot be written (a usage error: exit 2). */
export class FolderLockedError extends Error {
  override readonly name = 'FolderLockedError';
}

/** A held lock; `release()` removes DIR/.lock if it is still this process's (idempotent). */
export interface FolderLock {
  readonly path: string;
  /** Set when a stale lock (its holder dead) was taken over: a line for stderr. */
  readonly note: string | null;
  release(): Promise<void>;
}

/**
 * The identity of process `pid`'s start: `<boot id>/<start time in clock ticks>` (Linux /proc: the boot's random id
 * and field 22 of /proc/<pid>/stat), or undefined where /proc cannot say (another OS, a process gone).
 */
export function processStart(pid: number): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return start === undefined ? undefined : `${boot}/${start}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether the holder's process still runs on this host: signal 0 probes the pid (ESRCH = no such process; EPERM = it
 * exists, someone else's), and where the lock recorded its process's start, the process with that pid now must have
 * started then too — a retried Kubernetes pod has the same hostname and, in a fresh PID namespace, the same pid as
 * the dead one (issue 29), and a pid is reused after a reboot.
 */
function isAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  if (holder.process_start === undefined) return true;
  const now = processStart(holder.pid);
  return now === undefined || now === holder.process_start;
}

async function readHolder(path: string): Promise<LockHolder | null | 'gone'> {
  return (await readLock(path)).holder;
}

/** DIR/.lock as read: its text (undefined when gone) and holder (null when unreadable, 'gone' when absent). */
async function readLock(path: string): Promise<{ text: string | undefined; holder: LockHolder | null | 'gone' }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { text: undefined, holder: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : null };
  }
  try {
    const parsed = LockHolder.safeParse(JSON.parse(text));
    return { text, holder: parsed.success ? parsed.data : null };
  } catch {
    return { text, holder: null };
  }
}

/** How long a takeover may hold DIR/.lock.takeover before another process treats it as left by a dead taker, ms. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * Removes the stale lock at `path` if it is still the one read as `staleText`, under a takeover mutex
 * (DIR/.lock.takeover, created atomically): only its holder removes a lock, and only the stale one it read — a fresh
 * lock can appear only by an atomic create, never replace another, so the check cannot be overtaken. Without the mutex,
 * one process could remove the lock another had just taken over, and both would hold the folder (issue 29: 2 of 40
 * tries). Resolves 'busy' when another process holds the mutex (the caller retries; a mutex older than
 * TAKEOVER_STALE_MS, left by a taker that died, is removed first).
 */
async function removeStale(path: string, staleText: string | undefined): Promise<'done' | 'busy'> {
  const mutex = `${path}.takeover`;
  if (!(await createFileOnce(mutex, `${process.pid}\n`).catch(() => false))) {
    const since = await stat(mutex).then(
      (found) => found.mtimeMs,
      () => undefined,
    );
    if (since !== undefined && Date.now() - since > TAKEOVER_STALE_MS) await unlink(mutex).catch(() => undefined);
    return 'busy';
  }
  try {
    const now = await readFile(path, 'utf8').catch(() => undefined);
    if (now === staleText) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(mutex).catch(() => undefined);
  }
  return 'done';
}

/**
 * Creates `path` holding `text` only if it does not exist, atomically and never half-written: writes a tmp file
 * and hard-links it into place. Returns false when `path` exists; throws for other file-system errors.
 */
export async function createFileOnce(path: string, text: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  try {
    await link(tmp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * Takes the exclusive lock of results folder `dir` (which must exist) for `command` (e.g. "stratbench run --resume
 * results/x"). A lock held by a live process — or by any process on another host, which cannot be probed — throws
 * FolderLockedError naming its pid, host, start time and command. A lock whose holder is dead on this host
 * (`kill(pid, 0)` → ESRCH: a run killed with SIGKILL or a second Ctrl-C; or the pid now names a process that started
 * later: a retried container, a reboot), or that is unreadable, is taken over and the returned `note` says so. Of processes taking over the same stale lock at once, exactly one gets it
 * (removeStale, then an atomic link); the others see the winner's live lock and throw FolderLockedError.
 */
export async function lockResultsFolder(dir: string, command: string): Promise<FolderLock> {
  const path = join(dir, LOCK_FILE);
  const start = processStart(process.pid);
  const mine: LockHolder = {
    pid: process.pid,
    host: hostname(),
    started_at: new Date().toISOString(),
    command,
    ...(start === undefined ? {} : { process_start: start }),
  };
  const text = `${JSON.stringify(mine)}\n`;
  let note: string | null = null;
  // A takeover another process is making resolves within milliseconds: up to 200 rounds of 10 ms (2 s) for it.
  for (let attempt = 0, takeovers = 0; attempt < 200 && takeovers < 3; attempt += 1) {
    try {
      if (await createFileOnce(path, text)) return heldLock(path, note);
    } catch (error) {
      throw new FolderLockedError(`cannot lock ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const { text: staleText, holder } = await readLock(path);
    if (holder === 'gone') continue;
    if (holder !== null && (holder.host !== mine.host || isAlive(holder))) {
      throw new FolderLockedError(
        `${dir} is in use by another stratbench run: pid ${holder.pid} on ${holder.host} since ${holder.started_at} (${holder.command}); ` +
          `wait for it to end, or stop it (kill ${holder.pid}) and continue with \`stratbench run --resume ${dir}\``,
      );
    }
    note =
      holder === null
        ? `note: taking over the lock of ${dir}:\n  ${path} is unreadable (a run killed while writing it)`
        : `note: taking over the lock of ${dir}:\n  pid ${holder.pid} on ${holder.host} is no longer running (since ${holder.started_at}: ${holder.command})`;
    if ((await removeStale(path, staleText)) === 'busy') await new Promise((resolve) => setTimeout(resolve, 10));
    else takeovers += 1;
  }
  throw new FolderLockedError(`cannot lock ${dir}: ${path} keeps changing (another run starting at the same time?)`);
}

/**
 * For a reader of results folder `dir` (`merge`): whether a run is still writing it. Returns null when DIR/.lock is
 * absent, or a note (lines for stderr) when it is stale — its holder dead on this host, or the file unreadable —
 * since a dead run's files are safe to read. Throws FolderLockedError naming the holder (pid, host, since, command)
 * when a live process holds it, or any process on another host (which cannot be probed), as lockResultsFolder does.
 */
export async function checkFolderNotInUse(dir: string, reader: string): Promise<string | null> {
  const path = join(dir, LOCK_FILE);
  const holder = await readHolder(path);
  if (holder === 'gone') return null;
  if (holder === null) return `note: ${path} is unreadable (a run killed while writing it);\n  reading ${dir} as it is`;
  if (holder.host !== hostname() || isAlive(holder)) {
    throw new FolderLockedError(
      `${dir} is in use by another stratbench run: pid ${holder.pid} on ${holder.host} since ${holder.started_at} (${holder.command}); ` +
        `${reader} would read it half-written: wait for it to end, or stop it (kill ${holder.pid}) and finish it with \`stratbench run --resume ${dir}\``,
    );
  }
  return `note: ${dir} has the lock of a run that is no longer running;\n  reading it as it is (pid ${holder.pid} on ${holder.host} since ${holder.started_at}: ${holder.command})`;
}

/** Quotes one argument for a POSIX shell when it needs it (`'…'`, with `'` written `'\''`); plain words stay bare. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/**
 * The command line recorded in DIR/.lock and printed by a second run: `stratbench` and `argv` in full (by default
 * this process's arguments, `process.argv.slice(2)`), each shell-quoted where needed so it can be pasted back.
 */
export function commandLine(argv: readonly string[] = process.argv.slice(2)): string {
  return ['stratbench', ...argv.map(shellQuote)].join(' ');
}

function heldLock(path: string, note: string | null): FolderLock {
  let released = false;
  return {
    path,
    note,
    async release() {
      if (released) return;
      released = true;
      const holder = await readHolder(path);
      const mine = holder !== null && holder !== 'gone' && holder.pid === process.pid && holder.host === hostname();
      if (mine && (holder.process_start === undefined || holder.process_start === processStart(process.pid))) await unlink(path).catch(() => undefined);
    },
  };
}
