// The exclusive lock of a results folder (DIR/.lock): one run or resume writes a folder at a time.
import { readFileSync, readlinkSync, utimesSync } from 'node:fs';
import { link, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DiskWriteError, diskFaultCode } from './disk.js';

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
  pid_ns: z
    .string()
    .optional()
    .describe(
      "The holder's PID namespace (/proc/self/ns/pid, e.g. pid:[4026531836]): a pid and its start time name a process only inside one namespace — a pod's, a container's",
    ),
  lease_ms: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "The lease: the holder touches the file's mtime every third of it while it runs, so a process on another host (a shared volume, which cannot probe the pid) treats a lock not renewed for lease_ms as its dead holder's",
    ),
});
type LockHolder = z.infer<typeof LockHolder>;

/** Thrown when another live process holds the folder, or the lock cannot be written (a usage error: exit 2). */
export class FolderLockedError extends Error {
  override readonly name = 'FolderLockedError';
}

/**
 * Thrown by a held lock's `assertHeld` (and so by every write of a run guarded by it) when DIR/.lock is no longer
 * this process's: another process took the folder over while this one was stopped past its lease (SIGSTOP, a frozen
 * VM). The run writes nothing more: the other process owns the folder now.
 */
export class FolderLockLostError extends Error {
  override readonly name = 'FolderLockLostError';
}

/** A held lock; `release()` removes DIR/.lock if it is still this process's (idempotent) and stops renewing it. */
export interface FolderLock {
  readonly path: string;
  /** Set when a stale lock (its holder dead) was taken over: a line for stderr. */
  readonly note: string | null;
  /**
   * Renews the lease now (the lock renews itself every third of the lease on an unref'd timer): touches DIR/.lock's
   * mtime if the file is still this process's. Resolves false when it is not (another process took the folder over
   * after this one stalled past its lease), true otherwise.
   */
  renew(): Promise<boolean>;
  /**
   * Throws FolderLockLostError when DIR/.lock is no longer this process's. Called before every write of the folder:
   * it reads the file at most once a second (so right after a pause, when the wall clock jumped) and renews it then.
   */
  assertHeld(): void;
  release(): Promise<void>;
}

/**
 * How long a lock stays good without renewal, ms (default 60 000; renewed every 20 000). Only a process on another
 * host reads it: on the holder's host the pid and its start time say whether the holder lives, at once.
 */
export const DEFAULT_LEASE_MS = 60_000;

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

/** This process's PID namespace (`pid:[inode]`), or undefined where /proc cannot say. */
export function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

const bootOf = (start: string | undefined): string | undefined => start?.split('/')[0];

/**
 * Whether this process can probe the holder's pid at all: same host, same boot (the boot id in its process start), same
 * PID namespace. A holder in another container or pod on this node, or on another machine with the same hostname (a
 * retried Indexed-Job pod), has pids this process cannot see as they are: only its lease can say it is gone.
 */
function canProbe(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  const mine = processStart(process.pid);
  if (holder.process_start !== undefined && mine !== undefined && bootOf(holder.process_start) !== bootOf(mine)) return false;
  const ns = pidNamespace();
  return holder.pid_ns === undefined || ns === undefined || holder.pid_ns === ns;
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
  try {
    await writeFile(tmp, text);
  } catch (error) {
    // A full disk creates the file and refuses its bytes: nothing is left behind.
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
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
 * When a lock held on another host was last renewed (its mtime), and whether its lease has run out by `now` (ms since
 * the epoch). A lock without a lease (written by an older stratbench) never runs out: it cannot be told from a live one.
 */
async function leaseState(
  path: string,
  holder: LockHolder,
  now = Date.now(),
): Promise<{ expired: boolean; renewedAt: Date | undefined; runsOutAt: number | undefined }> {
  const renewed = await stat(path).then(
    (found) => found.mtime,
    () => undefined,
  );
  if (holder.lease_ms === undefined || renewed === undefined) return { expired: false, renewedAt: renewed, runsOutAt: undefined };
  const runsOutAt = renewed.getTime() + holder.lease_ms;
  return { expired: now > runsOutAt, renewedAt: renewed, runsOutAt };
}

/**
 * Takes the exclusive lock of results folder `dir` (which must exist) for `command` (e.g. "stratbench run --resume
 * results/x"), with a lease of `options.leaseMs` (default DEFAULT_LEASE_MS) renewed while it is held. A lock held by a
 * live process — or by a process on another host, which cannot be probed, whose lease has not run out — throws
 * FolderLockedError naming its pid, host, start time and command. A lock from another host whose lease ran out (not
 * renewed for lease_ms: its holder died, or a retried pod got another hostname) is taken over with a note. A lock whose holder is dead on this host
 * (`kill(pid, 0)` → ESRCH: a run killed with SIGKILL or a second Ctrl-C; or the pid now names a process that started
 * later: a retried container, a reboot), or that is unreadable, is taken over and the returned `note` says so. Of processes taking over the same stale lock at once, exactly one gets it
 * (removeStale, then an atomic link); the others see the winner's live lock and throw FolderLockedError.
 */
export async function lockResultsFolder(
  dir: string,
  command: string,
  options: { leaseMs?: number; waitMs?: number; onWait?: (line: string) => void } = {},
): Promise<FolderLock> {
  const path = join(dir, LOCK_FILE);
  const start = processStart(process.pid);
  const ns = pidNamespace();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const mine: LockHolder = {
    pid: process.pid,
    host: hostname(),
    started_at: new Date().toISOString(),
    command,
    ...(start === undefined ? {} : { process_start: start }),
    ...(ns === undefined ? {} : { pid_ns: ns }),
    lease_ms: leaseMs,
  };
  const text = `${JSON.stringify(mine)}\n`;
  let note: string | null = null;
  let waitUntil: number | undefined;
  let waits = 0;
  // A takeover another process is making resolves within milliseconds: up to 200 rounds of 10 ms (2 s) for it; a wait
  // for a lease to run out polls once a second on top.
  for (let attempt = 0, takeovers = 0; attempt < 200 && takeovers < 3; attempt += 1) {
    try {
      if (await createFileOnce(path, text)) return heldLock(path, text, leaseMs, note);
    } catch (error) {
      const code = diskFaultCode(error);
      if (code !== undefined) throw new DiskWriteError(path, code);
      throw new FolderLockedError(`cannot lock ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const { text: staleText, holder } = await readLock(path);
    if (holder === 'gone') continue;
    const lease = holder !== null && !canProbe(holder) ? await leaseState(path, holder) : undefined;
    if (holder !== null && (lease === undefined ? isAlive(holder) : !lease.expired)) {
      // A holder this process cannot probe, with a lease that may still run out: wait for it (a retried pod whose
      // predecessor was killed waits out the dead pod's lease instead of failing), at most `waitMs`.
      if (lease?.runsOutAt !== undefined) {
        waitUntil ??= Math.min(lease.runsOutAt + 1_000, Date.now() + (options.waitMs ?? leaseMs + 1_000));
        if (Date.now() < waitUntil) {
          if (waits % 30 === 0) {
            options.onWait?.(
              `note: ${dir} is held by pid ${holder.pid} on ${holder.host} (${holder.command}), which this process cannot probe; ` +
                `waiting until ${new Date(waitUntil).toISOString()} for its lease (renewed at ${lease.renewedAt?.toISOString() ?? '?'}, ${holder.lease_ms} ms) to run out`,
            );
          }
          waits += 1;
          attempt -= 1;
          await new Promise((resolve) => setTimeout(resolve, Math.max(10, Math.min(1_000, waitUntil! - Date.now()))));
          continue;
        }
      }
      throw new FolderLockedError(
        `${dir} is in use by another stratbench run: pid ${holder.pid} on ${holder.host} since ${holder.started_at} (${holder.command}); ` +
          (lease === undefined
            ? `wait for it to end, or stop it (kill ${holder.pid}) and continue with \`stratbench run --resume ${dir}\``
            : holder.lease_ms === undefined
              ? `it cannot be probed from here and its lock has no lease (an older stratbench): when you are sure it has ended, remove ${path} and continue with \`stratbench run --resume ${dir}\``
              : `it cannot be probed from here and renewed its lease at ${lease.renewedAt?.toISOString() ?? '?'} (the lease runs out ${holder.lease_ms} ms after the last renewal): ` +
                `wait for it to end, or stop it and continue with \`stratbench run --resume ${dir}\``),
      );
    }
    note =
      holder === null
        ? `note: taking over the lock of ${dir}:\n  ${path} is unreadable (a run killed while writing it)`
        : lease !== undefined
          ? `note: taking over the lock of ${dir}:\n  pid ${holder.pid} on ${holder.host} stopped renewing its lease (last ${lease.renewedAt?.toISOString() ?? '?'}, lease ${holder.lease_ms} ms; since ${holder.started_at}: ${holder.command})`
          : `note: taking over the lock of ${dir}:\n  pid ${holder.pid} on ${holder.host} is no longer running (since ${holder.started_at}: ${holder.command})`;
    if ((await removeStale(path, staleText)) === 'busy') await new Promise((resolve) => setTimeout(resolve, 10));
    else takeovers += 1;
  }
  throw new FolderLockedError(`cannot lock ${dir}: ${path} keeps changing (another run starting at the same time?)`);
}

/**
 * For a reader of results folder `dir` (`merge`): whether a run is still writing it. Returns null when DIR/.lock is
 * absent, or a note (lines for stderr) when it is stale — its holder dead on this host, its lease run out on another
 * host, or the file unreadable —
 * since a dead run's files are safe to read. Throws FolderLockedError naming the holder (pid, host, since, command)
 * when a live process holds it, or a process on another host whose lease has not run out, as lockResultsFolder does.
 */
export async function checkFolderNotInUse(dir: string, reader: string): Promise<string | null> {
  const path = join(dir, LOCK_FILE);
  const holder = await readHolder(path);
  if (holder === 'gone') return null;
  if (holder === null) return `note: ${path} is unreadable (a run killed while writing it);\n  reading ${dir} as it is`;
  const alive = canProbe(holder) ? isAlive(holder) : !(await leaseState(path, holder)).expired;
  if (alive) {
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

function heldLock(path: string, text: string, leaseMs: number, note: string | null): FolderLock {
  let released = false;
  let lost = false;
  let verifiedAt = Date.now();
  const isMine = async (): Promise<boolean> => (await readFile(path, 'utf8').catch(() => undefined)) === text;
  const renew = async (): Promise<boolean> => {
    if (!(await isMine())) return false;
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    return true;
  };
  const lostError = () =>
    new FolderLockLostError(
      `${path} is no longer this run's: another process took the folder over while this one was stopped past its lease; ` +
        'this run writes nothing more (the episodes it wrote before are kept, and the other run continues the folder)',
    );
  const timer = setInterval(
    () =>
      void renew().then((mine) => {
        if (!mine && !released) lost = true;
      }),
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    path,
    note,
    renew,
    assertHeld() {
      if (released) return;
      if (lost) throw lostError();
      const now = Date.now();
      if (now - verifiedAt < 1_000) return;
      verifiedAt = now;
      let current: string | undefined;
      try {
        current = readFileSync(path, 'utf8');
      } catch {
        current = undefined;
      }
      if (current !== text) {
        lost = true;
        throw lostError();
      }
      try {
        utimesSync(path, new Date(now), new Date(now));
      } catch {}
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      if (await isMine()) await unlink(path).catch(() => undefined);
    },
  };
}
