// A disk that refuses a write (ENOSPC, EROFS, EIO) while `run` writes its folder: exit 5 with a message naming the
// file and the errno, the lock released, the finished episodes on disk kept, and `--resume` finishing the run.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Disk, DISK_FAULT_EXIT_CODE, DiskWriteError, EpisodeWriter, openMessageStore, removePartialFile } from '../src/results-folder/index.js';
import { storedTextHash } from '../src/records/index.js';
import { runInProcess, scratch } from './support/scripted-over-ollama.js';
import { mergeCommand } from '../src/runner/commands/merge.js';
import { processStart } from '../src/results-folder/lock.js';
import { CLI, stratbench } from './support/cli.js';

/** The pid of a process that has ended (nothing runs under it now, barring reuse). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/** An errno error as node:fs throws it. */
const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: injected fault, write`), { code, syscall: 'write' });

/**
 * The real disk, except that writes to `file` (a name: episodes.jsonl, summary.json…) after the first `allowed`
 * ones are refused with `code` — the first refused write lets `partialBytes` through first, as a disk filling up does.
 */
function refusing(file: string, code: string, allowed: number, partialBytes = 0): Disk & { refused: number } {
  let writes = 0;
  const disk = {
    refused: 0,
    writeSync(path: string, fd: number, bytes: Buffer, offset: number): number {
      if (!path.endsWith(`/${file}`) || ++writes <= allowed) return writeSync(fd, bytes, offset, bytes.length - offset);
      disk.refused += 1;
      if (disk.refused === 1 && partialBytes > 0) return writeSync(fd, bytes, offset, Math.min(partialBytes, bytes.length - offset));
      throw errno(code);
    },
    async writeFile(path: string, text: string): Promise<void> {
      // writeJsonFile writes FILE.tmp and renames it over FILE.
      if (!path.endsWith(`/${file}.tmp`) || ++writes <= allowed) return writeFile(path, text);
      disk.refused += 1;
      await writeFile(path, text.slice(0, partialBytes));
      throw errno(code);
    },
  };
  return disk;
}

const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n');
const cell = (line: string): string => {
  const record = JSON.parse(line) as { task: string; strategy: string; epoch: number };
  return `${record.task}|${record.strategy}|${record.epoch}`;
};
/** 14 core tasks × 5 default strategies × 3 epochs: 1.5 MB of episodes, two writes of episodes.jsonl. */
const MATRIX = { epochs: 3 };
const EPISODES = 14 * 5 * 3;

describe('a disk that refuses a write while run writes its folder', () => {
  it('ENOSPC on episodes.jsonl mid-run: exit 5 naming the file, lock released, the written episodes kept and --resume finishes', async () => {
    const out = join(scratch(), 'full');
    const disk = refusing('episodes.jsonl', 'ENOSPC', 1, 700);
    const run = await runInProcess({ ...MATRIX, out }, { disk });
    expect(run.code).toBe(DISK_FAULT_EXIT_CODE);
    expect(run.stderr).toContain(`stratbench: the disk refused a write: cannot write ${out}/episodes.jsonl: ENOSPC (no space left on device)\n`);
    expect(run.stderr).toContain(`continue with: stratbench run --resume ${out}\n`);
    expect(run.stderr).not.toContain('crashed');
    expect(existsSync(join(out, '.lock'))).toBe(false);
    // The first write (1 MiB of whole lines) is on disk, then 700 bytes of the next line: a torn last line.
    const written = lines(join(out, 'episodes.jsonl'));
    const whole = written.slice(0, -1);
    expect(whole.length).toBeGreaterThan(0);
    // 700 bytes, not characters: a record may hold multi-byte UTF-8 (an em dash in a message), and which line the
    // 1 MiB write ends before depends on the timing fields' widths.
    const bytes = readFileSync(join(out, 'episodes.jsonl'));
    expect(bytes.length - (bytes.lastIndexOf(0x0a) + 1)).toBe(700);

    const resumed = await runInProcess({ resume: out });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming ${out}: ${whole.length} finished episode(s) kept, a half-written last line dropped\n`);
    const after = lines(join(out, 'episodes.jsonl')).filter((line) => line !== '');
    // Every episode once, and the ones written before the fault unchanged.
    expect(after.length).toBe(EPISODES);
    expect(new Set(after.map(cell)).size).toBe(EPISODES);
    expect(after.slice(0, whole.length)).toEqual(whole);
  });

  it('EROFS on summary.json: exit 5 naming it, no summary.json.tmp left, every episode kept, and --resume writes the summary', async () => {
    const out = join(scratch(), 'readonly');
    const run = await runInProcess({ ...MATRIX, out }, { disk: refusing('summary.json', 'EROFS', 0, 100) });
    expect(run.code).toBe(DISK_FAULT_EXIT_CODE);
    expect(run.stderr).toContain(`stratbench: the disk refused a write: cannot write ${out}/summary.json: EROFS (read-only file system)\n`);
    expect(existsSync(join(out, '.lock'))).toBe(false);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    expect(existsSync(join(out, 'summary.json.tmp'))).toBe(false);
    expect(lines(join(out, 'episodes.jsonl')).filter((line) => line !== '').length).toBe(EPISODES);

    const resumed = await runInProcess({ resume: out });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming ${out}: ${EPISODES} finished episode(s) kept\n`);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ completeness: { status: 'complete', episodes: EPISODES } });
  });

  it('EIO on run.json as the run ends: exit 5 naming it, the run.json written at the start kept, and --resume completes it', async () => {
    const out = join(scratch(), 'eio');
    const run = await runInProcess({ ...MATRIX, out }, { disk: refusing('run.json', 'EIO', 1) });
    expect(run.code).toBe(DISK_FAULT_EXIT_CODE);
    expect(run.stderr).toContain(`stratbench: the disk refused a write: cannot write ${out}/run.json: EIO (input/output error)\n`);
    expect(existsSync(join(out, '.lock'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ status: 'running' });

    const resumed = await runInProcess({ resume: out });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ status: 'complete', episodes: EPISODES, resumed_from: EPISODES });
  });
});

describe('EpisodeWriter and the message store on a disk that refuses', () => {
  it('a refused messages.jsonl write stops the episodes that reference it from being written (no dangling hash)', async () => {
    const dir = scratch();
    const messages = await openMessageStore(dir, refusing('messages.jsonl', 'ENOSPC', 0));
    const episodes = new EpisodeWriter(join(dir, 'episodes.jsonl'), { beforeFlush: () => messages.flush() });
    const content = 'hello';
    messages.put({ hash: storedTextHash('user', content), role: 'user', content });
    episodes.writeLine('{"episode":1}');
    const closed = await Promise.allSettled([episodes.close(), messages.close()]);
    expect(closed.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : 'ok'))).toEqual([
      `cannot write ${dir}/messages.jsonl: ENOSPC (no space left on device)`,
      `cannot write ${dir}/messages.jsonl: ENOSPC (no space left on device)`,
    ]);
    expect(await readFile(join(dir, 'episodes.jsonl'), 'utf8')).toBe('');
  });

  it("a timer's flush that the disk refuses is no uncaught exception: the next write throws it, naming the file, and nothing more is written", async () => {
    const dir = scratch();
    const disk = refusing('episodes.jsonl', 'EIO', 0);
    const writer = new EpisodeWriter(join(dir, 'episodes.jsonl'), { maxDelayMs: 1, disk });
    writer.writeLine('{"episode":1}');
    for (let waited = 0; disk.refused === 0 && waited < 10_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(() => writer.writeLine('{"episode":2}')).toThrow(new DiskWriteError(join(dir, 'episodes.jsonl'), 'EIO'));
    await expect(writer.close()).rejects.toThrow(`cannot write ${dir}/episodes.jsonl: EIO (input/output error)`);
    expect(disk.refused).toBe(1);
  });
});

/** Runs `merge` in this process with its report (stdout) and notes (stderr) collected; rethrows what it throws. */
async function mergeQuietly(dirs: string[], out: string, disk?: Disk): Promise<number> {
  const [stdoutWrite, stderrWrite] = [process.stdout.write, process.stderr.write];
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return await mergeCommand(dirs, out, disk ? { disk } : {});
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
}

describe('merge writes into a staging folder and renames it at the end', () => {
  const shards = async (): Promise<string[]> => {
    const root = scratch();
    const dirs = [join(root, 'shard-1'), join(root, 'shard-2')];
    for (const [index, out] of dirs.entries()) expect((await runInProcess({ out, shard: `${index + 1}/2` })).code).toBe(0);
    return dirs;
  };
  /** What is beside OUT besides the shards: a staging folder left behind would show here. */
  const leftovers = (out: string): string[] => readdirSync(dirname(out)).filter((name) => !name.startsWith('shard-'));

  it.each([
    ['episodes.jsonl', 'ENOSPC', 'no space left on device'],
    ['summary.json', 'EIO', 'input/output error'],
    ['run.json', 'EROFS', 'read-only file system'],
  ])(
    'a refused write of %s: DiskWriteError naming OUT/%s, and no OUT (no placeholder run.json) or staging folder left',
    async (file, code, meaning) => {
      const dirs = await shards();
      const out = join(dirname(dirs[0]!), 'merged');
      await expect(mergeQuietly(dirs, out, refusing(file, code, 0))).rejects.toThrow(new DiskWriteError(join(out, file), code));
      await expect(mergeQuietly(dirs, out, refusing(file, code, 0))).rejects.toThrow(`cannot write ${out}/${file}: ${code} (${meaning})`);
      expect(leftovers(out)).toEqual([]);
      // The same merge on a disk with room: the whole run, complete.
      expect(await mergeQuietly(dirs, out)).toBe(0);
      expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ status: 'complete', episodes: 70 });
      expect(leftovers(out)).toEqual(['merged']);
    },
    120_000,
  );

  it('a merge stopped before its last write leaves no run.json in OUT: killed there, nothing describes a run to --resume', async () => {
    const dirs = await shards();
    const out = join(dirname(dirs[0]!), 'merged');
    let reached!: () => void;
    const atRunFile = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let proceed!: () => void;
    const gate = new Promise<void>((resolve) => {
      proceed = resolve;
    });
    const disk: Disk = {
      writeSync: (_path, fd, bytes, offset) => writeSync(fd, bytes, offset, bytes.length - offset),
      async writeFile(path, text) {
        if (path.endsWith('/run.json.tmp')) {
          reached();
          await gate;
        }
        await writeFile(path, text);
      },
    };
    const merging = mergeQuietly(dirs, out, disk);
    await atRunFile;
    // Everything else is written, in the staging folder: OUT does not exist yet (a kill here leaves no OUT, not even
    // an empty folder that commands would read as a results folder).
    expect(existsSync(out)).toBe(false);
    proceed();
    expect(await merging).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['episodes.jsonl', 'run.json', 'summary.json']);
  });
});

describe('a read the device fails (EIO) ends every command with exit 5 naming the file, not as bad input', () => {
  // /proc/self/mem read from offset 0 fails with EIO on Linux: a real device-error read, without a faulty disk.
  it.each([
    ['report', (dir: string) => ['report', dir]],
    ['report --html', (dir: string) => ['report', dir, '--html', join(dir, '..', 'page.html')]],
    ['compare', (dir: string) => ['compare', dir, dir]],
    ['explain', (dir: string) => ['explain', dir, 'rename-tax-rate', 'react']],
    ['export', (dir: string) => ['export', dir, '--format', 'csv', '--out', '-']],
    ['merge', (dir: string) => ['merge', dir, '--out', join(dir, '..', 'merged')]],
    ['run --resume', (dir: string) => ['run', '--resume', dir, '--no-progress']],
  ])('%s', (_name, args) => {
    const dir = join(scratch(), 'run');
    expect(stratbench(['run', '--strategies', 'react', '--tasks', 'rename-tax-rate', '--no-progress', '--out', dir]).status).toBe(0);
    rmSync(join(dir, 'summary.json'));
    symlinkSync('/proc/self/mem', join(dir, 'summary.json'));
    const result = stratbench(args(dir));
    expect(result.stderr).toBe(`stratbench: the disk failed a read: cannot read ${dir}/summary.json: EIO (input/output error)\n`);
    expect(result.status).toBe(DISK_FAULT_EXIT_CODE);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });
});

describe('an output file the disk refuses (a report, an export) ends with exit 5 naming it, not as bad input', () => {
  // Writes to /dev/full fail with ENOSPC on Linux: a real full disk for one file.
  it.each([
    ['report --markdown', (dir: string) => ['report', dir, '--markdown', '/dev/full']],
    ['report --html', (dir: string) => ['report', dir, '--html', '/dev/full']],
    ['export --format csv', (dir: string) => ['export', dir, '--format', 'csv', '--out', '/dev/full']],
    ['compare --junit', (dir: string) => ['compare', dir, dir, '--junit', '/dev/full']],
  ])('%s', (_name, args) => {
    const dir = join(scratch(), 'run');
    expect(stratbench(['run', '--strategies', 'react', '--tasks', 'rename-tax-rate', '--no-progress', '--out', dir]).status).toBe(0);
    const result = stratbench(args(dir));
    expect(result.stderr).toContain('the disk refused a write: cannot write /dev/full: ENOSPC (no space left on device)\n');
    expect(result.status).toBe(DISK_FAULT_EXIT_CODE);
  });
});

describe('an episodes file that is not a regular file', () => {
  it('a device (reads forever) or a folder in its place: report and --resume refuse it naming it, at once (was: a resume reading /dev/zero until memory ran out)', () => {
    const dir = join(scratch(), 'run');
    expect(stratbench(['run', '--strategies', 'react', '--tasks', 'rename-tax-rate', '--no-progress', '--out', dir]).status).toBe(0);
    rmSync(join(dir, 'episodes.jsonl'));
    symlinkSync('/dev/zero', join(dir, 'episodes.jsonl'));
    for (const args of [
      ['report', dir],
      ['run', '--resume', dir, '--no-progress'],
    ]) {
      const result = stratbench(args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`${dir}/episodes.jsonl: not a regular file (a device, pipe or socket)`);
    }
    rmSync(join(dir, 'episodes.jsonl'));
    mkdirSync(join(dir, 'episodes.jsonl'));
    expect(stratbench(['report', dir]).stderr).toContain(`${dir}/episodes.jsonl: not a regular file (a folder)`);
    expect(existsSync(join(dir, '.lock'))).toBe(false);
  });
});

describe('stdout on a full disk (> /dev/full) ends the command with exit 5, after its work is done', () => {
  const toFull = (args: string[]) => {
    const fd = openSync('/dev/full', 'w');
    try {
      const result = spawnSync(process.execPath, [CLI, ...args], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
      return { status: result.status, stderr: result.stderr };
    } finally {
      closeSync(fd);
    }
  };
  it('run: every episode written, the lock released, exit 5 naming stdout (was exit 1 and a stack trace, the lock left)', () => {
    const out = join(scratch(), 'run');
    const result = toFull(['run', '--strategies', 'react', '--tasks', 'rename-tax-rate,moved-readme', '--no-progress', '--out', out]);
    expect(result.stderr).toContain('stratbench: the disk refused a write: cannot write stdout: ENOSPC (no space left on device)\n');
    expect(result.status).toBe(DISK_FAULT_EXIT_CODE);
    expect(readdirSync(out).sort()).toEqual(['episodes.jsonl', 'run.json', 'summary.json']);
    expect(readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('compare --fail-on-regression, report, report --csv -: exit 5, never 1 (compare\'s "regressed")', () => {
    const out = join(scratch(), 'run');
    expect(stratbench(['run', '--strategies', 'react', '--tasks', 'rename-tax-rate', '--no-progress', '--out', out]).status).toBe(0);
    for (const args of [
      ['compare', out, out, '--fail-on-regression'],
      ['compare', out, out, '--json'],
      ['report', out],
      ['report', out, '--csv', '-'],
    ]) {
      const result = toFull(args);
      expect({ args, status: result.status, stderr: result.stderr }).toEqual({
        args,
        status: DISK_FAULT_EXIT_CODE,
        stderr: expect.stringContaining('cannot write stdout: ENOSPC'),
      });
    }
  });
});

describe('what a refused output write leaves', () => {
  it('removePartialFile removes a regular file cut short (no empty junit.xml for a CI step to parse), never a device or a link', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'junit.xml'), '');
    symlinkSync('/dev/full', join(dir, 'linked.xml'));
    await removePartialFile(join(dir, 'junit.xml'));
    await removePartialFile(join(dir, 'linked.xml'));
    await removePartialFile('/dev/full');
    expect(readdirSync(dir)).toEqual(['linked.xml']);
    expect(existsSync('/dev/full')).toBe(true);
  });

  it('a merged folder has the mode of a run folder (the staging folder was 0700)', async () => {
    const parent = scratch();
    const dirs = [join(parent, 'shard-1'), join(parent, 'shard-2')];
    for (const [index, out] of dirs.entries()) expect((await runInProcess({ out, shard: `${index + 1}/2` })).code).toBe(0);
    const out = join(parent, 'merged');
    expect(await mergeQuietly(dirs, out)).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(statSync(dirs[0]!).mode & 0o777);
  });
});

describe('staging folders that killed merges left behind', () => {
  it("the next merge into the same OUT removes a killed merge's staging (dead lock, or no lock and old), with a note; a live merge's is left alone", async () => {
    const parent = scratch();
    const dirs = [join(parent, 'shard-1'), join(parent, 'shard-2')];
    for (const [index, out] of dirs.entries()) expect((await runInProcess({ out, shard: `${index + 1}/2` })).code).toBe(0);
    const out = join(parent, 'merged');
    const staging = (suffix: string, lock: object | undefined, ageMs = 0): string => {
      const path = join(parent, `.merged.merging-${suffix}`);
      mkdirSync(path);
      writeFileSync(join(path, 'episodes.jsonl'), '{"half a merge');
      if (lock) writeFileSync(join(path, '.lock'), JSON.stringify(lock));
      const at = new Date(Date.now() - ageMs);
      utimesSync(path, at, at);
      return path;
    };
    const holder = (pid: number) => ({ pid, host: hostname(), started_at: '2026-12-04T06:00:00.000Z', command: 'stratbench merge …' });
    // SIGKILL gave these merges no chance to clean up: one died holding its staging, one died before locking it.
    const killed = staging('killed', holder(deadPid()));
    const killedEarly = staging('early', undefined, 120_000);
    // A merge into the same OUT that is still running (this process stands in for it), and one that has just started.
    const live = staging('live', { ...holder(process.pid), process_start: processStart(process.pid) });
    const starting = staging('starting', undefined);
    const merged = stratbench(['merge', ...dirs, '--out', out]);
    expect(merged.status).toBe(0);
    expect(merged.stderr).toContain(`note: removed the staging folder(s) of merges into ${out} that were killed: `);
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(killedEarly)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(starting)).toBe(true);
    expect(readdirSync(parent).sort()).toEqual(['.merged.merging-live', '.merged.merging-starting', 'merged', 'shard-1', 'shard-2']);
    expect(readdirSync(out).sort()).toEqual(['episodes.jsonl', 'run.json', 'summary.json']);
  });
});

describe('--resume of a folder whose summary.json is damaged', () => {
  it('moves it to summary.damaged.json, says so, and writes summary.json anew from the episodes (was: exit 2)', async () => {
    const out = join(scratch(), 'damaged');
    expect((await runInProcess({ out })).code).toBe(0);
    const damaged = '{"schemaVersion":3,"strategies":[{"na';
    writeFileSync(join(out, 'summary.json'), damaged);
    const resumed = await runInProcess({ resume: out });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`: moved to ${out}/summary.damaged.json; the resumed run writes summary.json anew from the episodes\n`);
    expect(resumed.stderr).toContain(`resuming ${out}: 70 finished episode(s) kept\n`);
    expect(readFileSync(join(out, 'summary.damaged.json'), 'utf8')).toBe(damaged);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ completeness: { status: 'complete', episodes: 70 } });
  });

  it('a summary.json that cannot be read (a folder) is still refused, naming it, with the folder left as it is', async () => {
    const out = join(scratch(), 'unreadable');
    expect((await runInProcess({ out })).code).toBe(0);
    rmSync(join(out, 'summary.json'));
    mkdirSync(join(out, 'summary.json'));
    await expect(runInProcess({ resume: out })).rejects.toThrow(`${out}/summary.json: is a folder, not a file`);
    expect(existsSync(join(out, 'summary.damaged.json'))).toBe(false);
    expect(existsSync(join(out, '.lock'))).toBe(false);
  });
});
