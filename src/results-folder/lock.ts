// The exclusive lock of a results folder (DIR/.lock): one run or resume writes a folder at a time.
import { readFileSync } from 'node:fs';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
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
  try {
    const parsed = LockHolder.safeParse(JSON.parse(await readFile(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : null;
  }
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
 * later: a retried container, a reboot), or that is unreadable, is taken over and the returned `note` says so. Two processes taking over the same stale lock race on the link: one wins.
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
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      if (await createFileOnce(path, text)) return heldLock(path, note);
    } catch (error) {
      throw new FolderLockedError(`cannot lock ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const holder = await readHolder(path);
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
    await unlink(path).catch(() => undefined);
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
