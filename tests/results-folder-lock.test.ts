// One run per results folder: a second run or resume exits 2 naming the other process; a dead run's lock is taken
// over; a run killed at any moment (even right after claiming the folder) can be continued; a shard resumes as itself.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFolderNotInUse, commandLine, DiskWriteError, FolderLockedError, FolderLockLostError, lockResultsFolder } from '../src/results-folder/index.js';
import { processStart } from '../src/results-folder/lock.js';
import { episodes, ROOT, scratch, startStratbench, stratbench } from './support/cli.js';

const keyOf = (record: Record<string, unknown>): string => String(record['key']);
const size = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

async function waitFor(predicate: () => boolean, timeoutMs = 300_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Starts `stratbench args`, collecting stderr; `exited` resolves with the exit code. */
function start(args: string[]) {
  const child = startStratbench(args);
  const output = { stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output, exited };
}

/** A folder of a 60-epoch run killed with SIGKILL part-way. */
async function killedRun(extra: string[] = []): Promise<string> {
  const out = join(scratch('lock-'), 'killed');
  const { child, exited } = start(['run', '--epochs', '60', '--no-progress', ...extra, '--out', out]);
  await waitFor(() => size(join(out, 'episodes.jsonl')) > 150_000);
  child.kill('SIGKILL');
  await exited;
  return out;
}

/** The pid of a process that has ended (nothing runs under it now, barring reuse). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('a results folder is used by one run at a time', () => {
  it('two resumes of one folder: the second exits 2 naming the first, and every episode is written once', async () => {
    const out = await killedRun();
    const first = start(['run', '--resume', out, '--no-progress']);
    await waitFor(() => /resuming /.test(first.output.stderr));
    // Freeze the first resume mid-run: it is alive and holds the folder while the second one tries.
    first.child.kill('SIGSTOP');
    const second = stratbench(['run', '--resume', out, '--no-progress']);
    first.child.kill('SIGCONT');
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`${out} is in use by another stratbench run: pid ${first.child.pid} on ${hostname()} since `);
    expect(second.stderr).toMatch(/\(stratbench run --resume /);
    expect(await first.exited).toBe(0);
    const keys = episodes(out).map(keyOf);
    expect(keys).toHaveLength(60 * 70);
    expect(new Set(keys).size).toBe(keys.length);
    expect(existsSync(join(out, '.lock'))).toBe(false);
    // Once the first has ended the folder is free again.
    const again = stratbench(['run', '--resume', out, '--no-progress']);
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(/resuming .*: 4200 finished episode\(s\) kept/);
  });

  it('a second run --out on a folder in use exits 2 naming the first run', async () => {
    const out = join(scratch('lock-'), 'busy');
    const first = start(['run', '--epochs', '60', '--no-progress', '--out', out]);
    await waitFor(() => size(join(out, 'episodes.jsonl')) > 0);
    first.child.kill('SIGSTOP');
    const second = stratbench(['run', '--tasks', 'default-currency', '--no-progress', '--out', out]);
    first.child.kill('SIGCONT');
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`${out} is in use by another stratbench run: pid ${first.child.pid} on ${hostname()}`);
    // The holder's whole command line, not just its --out.
    expect(second.stderr).toContain(`(stratbench run --epochs 60 --no-progress --out ${out});`);
    expect(await first.exited).toBe(0);
  });

  it('the lock of a run that died (its pid no longer alive on this host) is taken over with a note', async () => {
    const out = await killedRun();
    // SIGKILL gives the run no chance to remove its lock: it is left behind, naming a dead pid.
    const left = JSON.parse(readFileSync(join(out, '.lock'), 'utf8')) as { pid: number; host: string };
    expect(left.host).toBe(hostname());
    const pid = deadPid();
    writeFileSync(join(out, '.lock'), JSON.stringify({ ...left, pid }));
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain(`note: taking over the lock of ${out}:\n  pid ${pid} on ${hostname()} is no longer running`);
    expect(new Set(episodes(out).map(keyOf)).size).toBe(60 * 70);
    expect(existsSync(join(out, '.lock'))).toBe(false);
  });

  it('a reused pid (same hostname, same namespace, the same pid now a different process) takes its folder over at once', async () => {
    const out = await killedRun();
    const left = JSON.parse(readFileSync(join(out, '.lock'), 'utf8')) as { pid: number; host: string; process_start: string };
    // The lock names the run's process by its start, not its pid alone.
    expect(left.process_start).toMatch(/^[0-9a-f-]{36}\/\d+$/);
    // The pid of a live process (this test's), whose start is not the one the dead holder recorded: as a retried pod sees it.
    writeFileSync(join(out, '.lock'), JSON.stringify({ ...left, pid: process.pid }));
    expect(processStart(process.pid)).not.toBe(left.process_start);
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain(`note: taking over the lock of ${out}:\n  pid ${process.pid} on ${hostname()} is no longer running`);
    expect(new Set(episodes(out).map(keyOf)).size).toBe(60 * 70);
  });
});

describe('taking over a stale lock', () => {
  it('of six processes taking over one stale lock at once, exactly one gets it (20 tries)', async () => {
    const dir = scratch('race-');
    const lockModule = join(ROOT, 'dist/results-folder/lock.js');
    // Each contender prints "won" or the error's name, then holds whatever it got until the test has heard all three.
    const contender = `import(${JSON.stringify(lockModule)}).then(async (m) => {
      try { await m.lockResultsFolder(process.argv[1], 'contender'); process.stdout.write('won'); }
      catch (error) { process.stdout.write(error.name); }
      process.stdin.resume();
    });`;
    for (let attempt = 0; attempt < 20; attempt += 1) {
      writeFileSync(join(dir, '.lock'), JSON.stringify({ pid: deadPid(), host: hostname(), started_at: new Date().toISOString(), command: 'a run that died' }));
      const children = [0, 1, 2, 3, 4, 5].map(() =>
        spawn(process.execPath, ['--input-type=module', '-e', contender, dir], { stdio: ['pipe', 'pipe', 'inherit'] }),
      );
      const said = await Promise.all(
        children.map((child) => new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())))),
      );
      for (const child of children) child.kill('SIGKILL');
      expect(said.filter((word) => word === 'won')).toHaveLength(1);
      expect(said.filter((word) => word === 'FolderLockedError')).toHaveLength(5);
    }
  });
});

describe('a lease renewed while the run runs (a holder on another host cannot be probed)', () => {
  const foreign = (leaseMs: number | undefined) =>
    JSON.stringify({
      pid: process.pid,
      host: 'pod-on-another-node',
      started_at: '2026-12-04T06:00:00.000Z',
      command: 'stratbench run --shard 1/4',
      ...(leaseMs === undefined ? {} : { lease_ms: leaseMs }),
    });

  it('a lock from another host whose lease ran out is taken over with a note; one still renewed is refused naming its last renewal', async () => {
    const dir = scratch('lease-');
    const path = join(dir, '.lock');
    writeFileSync(path, foreign(60_000));
    // Renewed 10 s ago: within its lease of 60 s, so the holder counts as alive.
    const recently = new Date(Date.now() - 10_000);
    utimesSync(path, recently, recently);
    // Not waiting for the lease to run out (waitMs 0): refused at once, naming the holder and its last renewal.
    const refused = await lockResultsFolder(dir, 'second', { waitMs: 0 }).then(
      () => 'taken',
      (error: Error) => `${error.name}: ${error.message}`,
    );
    expect(refused).toContain(
      `FolderLockedError: ${dir} is in use by another stratbench run: pid ${process.pid} on pod-on-another-node since 2026-12-04T06:00:00.000Z`,
    );
    expect(refused).toContain(
      `it cannot be probed from here and renewed its lease at ${recently.toISOString()} (the lease runs out 60000 ms after the last renewal)`,
    );
    await expect(checkFolderNotInUse(dir, 'merge')).rejects.toThrow(FolderLockedError);
    // Not renewed for 61 s: its holder is gone (the pod died, or was retried under another hostname).
    const expired = new Date(Date.now() - 61_000);
    utimesSync(path, expired, expired);
    expect(await checkFolderNotInUse(dir, 'merge')).toContain(`note: ${dir} has the lock of a run that is no longer running`);
    const lock = await lockResultsFolder(dir, 'second');
    expect(lock.note).toBe(
      `note: taking over the lock of ${dir}:\n  pid ${process.pid} on pod-on-another-node stopped renewing its lease (last ${expired.toISOString()}, lease 60000 ms; since 2026-12-04T06:00:00.000Z: stratbench run --shard 1/4)`,
    );
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ host: hostname(), command: 'second', lease_ms: 60_000 });
    await lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('a lock from another host without a lease (an older stratbench) is never taken over, however old', async () => {
    const dir = scratch('lease-');
    writeFileSync(join(dir, '.lock'), foreign(undefined));
    const long = new Date(Date.now() - 86_400_000);
    utimesSync(join(dir, '.lock'), long, long);
    await expect(lockResultsFolder(dir, 'second')).rejects.toThrow(
      `it cannot be probed from here and its lock has no lease (an older stratbench): when you are sure it has ended, remove ${join(dir, '.lock')} and continue with`,
    );
  });

  it('the holder renews its lease (the mtime moves) while the lock is its own, and says so when another process took it over', async () => {
    const dir = scratch('lease-');
    const path = join(dir, '.lock');
    const lock = await lockResultsFolder(dir, 'holder', { leaseMs: 60_000 });
    const old = new Date(Date.now() - 50_000);
    utimesSync(path, old, old);
    expect(await lock.renew()).toBe(true);
    expect(statSync(path).mtimeMs).toBeGreaterThan(old.getTime() + 40_000);
    // Another process took the folder over (this one stalled past its lease): renewal leaves that lock alone.
    writeFileSync(path, foreign(60_000));
    utimesSync(path, old, old);
    expect(await lock.renew()).toBe(false);
    // mtimeMs is a float of ns: 1796370719786.999 for a time set as …787 ms.
    expect(Math.round(statSync(path).mtimeMs)).toBe(old.getTime());
    await lock.release();
    expect(readFileSync(path, 'utf8')).toBe(foreign(60_000));
  });
});

describe('a holder this process cannot probe (another PID namespace or boot on this hostname): its lease decides', () => {
  const holder = (extra: object) =>
    JSON.stringify({
      pid: process.pid,
      host: hostname(),
      started_at: '2026-12-04T06:00:00.000Z',
      command: 'stratbench run --shard 2/4',
      lease_ms: 60_000,
      ...extra,
    });

  it.each([
    ['a pod or container in another PID namespace (its pid 1 is not ours)', { pid: 1, pid_ns: 'pid:[4026530000]', process_start: processStart(process.pid) }],
    ['another machine with the same hostname (another boot id)', { process_start: '00000000-0000-0000-0000-000000000000/12345' }],
  ])('%s, still renewing: refused even though its pid names a live process here, never taken over', async (_name, extra) => {
    const dir = scratch('ns-');
    writeFileSync(join(dir, '.lock'), holder(extra));
    await expect(lockResultsFolder(dir, 'second', { waitMs: 0 })).rejects.toThrow('it cannot be probed from here and renewed its lease at');
    await expect(checkFolderNotInUse(dir, 'merge')).rejects.toThrow(FolderLockedError);
  });

  it('waits for a lease that runs out (a retried pod whose predecessor died), saying so, then takes the folder over', async () => {
    const dir = scratch('ns-');
    const path = join(dir, '.lock');
    writeFileSync(path, holder({ pid_ns: 'pid:[4026530000]', lease_ms: 2_000 }));
    const waited: string[] = [];
    const lock = await lockResultsFolder(dir, 'retried pod', { onWait: (line) => waited.push(line) });
    expect(waited[0]).toMatch(
      /is held by pid \d+ on .* which this process cannot probe; waiting until .* for its lease \(renewed at .*, 2000 ms\) to run out$/,
    );
    expect(lock.note).toContain('stopped renewing its lease');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ command: 'retried pod', pid: process.pid });
    await lock.release();
  });

  it('a lock the disk refuses to write (a full disk) is a DiskWriteError naming it, and leaves no temporary file', async () => {
    const dir = scratch('full-');
    // Writes to /dev/full fail with ENOSPC: the lock's temporary file (named by this process's pid) is linked there.
    symlinkSync('/dev/full', join(dir, `.lock.${process.pid}.tmp`));
    await expect(lockResultsFolder(dir, 'run')).rejects.toThrow(new DiskWriteError(join(dir, '.lock'), 'ENOSPC'));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a run whose lock another process took over while it was stopped', () => {
  it('assertHeld throws FolderLockLostError once the lock is not its own, and release leaves the other lock alone', async () => {
    const dir = scratch('lost-');
    const lock = await lockResultsFolder(dir, 'first');
    lock.assertHeld();
    const other = JSON.stringify({ pid: 1, host: 'elsewhere', started_at: '2026-12-04T06:00:00.000Z', command: 'second', lease_ms: 60_000 });
    writeFileSync(join(dir, '.lock'), other);
    // It reads the lock at most once a second: a run checks again right after a pause (SIGSTOP), when time has jumped.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(() => lock.assertHeld()).toThrow(FolderLockLostError);
    expect(() => lock.assertHeld()).toThrow("is no longer this run's: another process took the folder over while this one was stopped past its lease");
    await lock.release();
    expect(readFileSync(join(dir, '.lock'), 'utf8')).toBe(other);
  });

  it('a run stopped (SIGSTOP) while its folder is taken over writes nothing more once continued, and exits 2 saying why', async () => {
    const out = join(scratch('lost-'), 'run');
    const { child, output, exited } = start(['run', '--epochs', '60', '--no-progress', '--out', out]);
    await waitFor(() => size(join(out, 'episodes.jsonl')) > 150_000);
    child.kill('SIGSTOP');
    // What another host's process does once this run's lease ran out: its own lock in place of this run's.
    writeFileSync(
      join(out, '.lock'),
      JSON.stringify({ pid: 1, host: 'elsewhere', started_at: new Date().toISOString(), command: 'stratbench run --resume', lease_ms: 60_000 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = readFileSync(join(out, 'episodes.jsonl'));
    child.kill('SIGCONT');
    expect(await exited).toBe(2);
    expect(output.stderr).toContain(`stratbench: ${join(out, '.lock')} is no longer this run's`);
    expect(readFileSync(join(out, 'episodes.jsonl'))).toEqual(before);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, '.lock'), 'utf8'))).toMatchObject({ host: 'elsewhere' });
  });
});

describe('a run killed at any moment can be continued', () => {
  it('a folder holding only the claim of a run killed before it started: --resume says to use --out, and --out takes it over', () => {
    const out = join(scratch('claim-'), 'claimed');
    expect(stratbench(['run', '--tasks', 'default-currency', '--no-progress', '--out', out]).status).toBe(0);
    writeFileSync(join(out, 'run.json'), '{"schemaVersion":2,"status":"starting"}\n');
    for (const file of ['episodes.jsonl', 'summary.json']) writeFileSync(join(out, file), '');
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status).toBe(2);
    expect(resumed.stderr).toContain(
      `the run that claimed this folder was stopped before its first episode and recorded no options: start it again with \`stratbench run --out ${out}\` and the options you gave it`,
    );
    const restarted = stratbench(['run', '--tasks', 'default-currency', '--no-progress', '--out', out]);
    expect(restarted.status).toBe(0);
    expect(restarted.stderr).toContain(`note: ${out} held only the claim of a run stopped before its first episode; starting it afresh`);
    expect(episodes(out)).toHaveLength(5);
  });

  it('run.json is written whole, with the options, before anything else: a run killed right after it appears resumes', async () => {
    const out = join(scratch('claim-'), 'early');
    const { child, exited } = start(['run', '--epochs', '60', '--no-progress', '--out', out]);
    await waitFor(() => existsSync(join(out, 'run.json')));
    child.kill('SIGKILL');
    await exited;
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { status: string; epochs: number };
    expect(run).toMatchObject({ status: 'running', epochs: 60 });
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status).toBe(0);
    expect(new Set(episodes(out).map(keyOf)).size).toBe(60 * 70);
  });
});

describe('a shard resumes as that shard', () => {
  it('run --shard 1/2 killed mid-way and resumed runs only shard 1 and keeps the shard in run.json', async () => {
    const out = await killedRun(['--shard', '1/2']);
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status).toBe(0);
    const whole = join(scratch('shard-'), 'whole-shard');
    expect(stratbench(['run', '--epochs', '60', '--no-progress', '--shard', '1/2', '--out', whole]).status).toBe(0);
    const keys = episodes(out).map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys)).toEqual(new Set(episodes(whole).map(keyOf)));
    expect(keys).toHaveLength(2100);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(run).toMatchObject({ status: 'complete', episodes: 2100, shard: { index: 1, count: 2 } });
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { completeness: unknown };
    expect(summary.completeness).toEqual({ status: 'partial', episodes: 2100, expected_episodes: 4200, label: 'shard 1 of 2: 2100 of 4200 episodes' });
    // A shard given again on resume must be the same one.
    const other = stratbench(['run', '--resume', out, '--shard', '2/2', '--no-progress']);
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('--shard 2/2 (the run has 1/2)');
  });
});

describe('the command recorded in .lock', () => {
  it('is the full argv, shell-quoted where needed', async () => {
    const out = join(scratch('lock-'), 'argv');
    const { child, exited } = start(['run', '--epochs', '60', '--no-progress', '--tasks', 'default-currency', '--out', out]);
    await waitFor(() => existsSync(join(out, '.lock')));
    const lock = JSON.parse(readFileSync(join(out, '.lock'), 'utf8')) as { command: string; pid: number };
    expect(lock.pid).toBe(child.pid);
    expect(lock.command).toBe(`stratbench run --epochs 60 --no-progress --tasks default-currency --out ${out}`);
    expect(await exited).toBe(0);
    expect(commandLine(['run', '--out', 'my results', '--model', "it's", ''])).toBe(`stratbench run --out 'my results' --model 'it'\\''s' ''`);
  });
});
