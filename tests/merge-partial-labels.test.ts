// merge's overlap policy and incomplete merges; partial, interrupted and truncated folders labelled in report,
// compare and the run's own table; compare refusing a base that lacks episodes its run.json lists.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodes, scratch, startStratbench, stratbench } from './support/cli.js';

const ONE_TASK = ['--tasks', 'default-currency', '--no-progress'];
const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** Rewrites every line of `dir`/episodes.jsonl with `change`. */
function editEpisodes(dir: string, change: (record: Record<string, unknown>) => Record<string, unknown>): void {
  const path = join(dir, 'episodes.jsonl');
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  writeFileSync(path, lines.map((line) => `${JSON.stringify(change(JSON.parse(line) as Record<string, unknown>))}\n`).join(''));
}

/** Keeps the first `count` lines of `dir`/episodes.jsonl. */
function truncateEpisodes(dir: string, count: number): void {
  const path = join(dir, 'episodes.jsonl');
  writeFileSync(path, `${readFileSync(path, 'utf8').split('\n').filter(Boolean).slice(0, count).join('\n')}\n`);
}

describe('merge: overlapping episodes', () => {
  it('refuses folders holding the same episodes unless --prefer says whose copy wins, and records the policy', () => {
    const root = scratch('merge-');
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    expect(stratbench(['run', ...ONE_TASK, '--out', a]).status).toBe(0);
    expect(stratbench(['run', ...ONE_TASK, '--out', b]).status).toBe(0);
    // Mark b's copies so the test can tell which folder's episode was kept.
    editEpisodes(b, (record) => ({ ...record, wall_ms: 424242 }));
    const refused = stratbench(['merge', a, b, '--out', join(root, 'refused')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `refusing to merge: 5 episode(s) are in more than one folder, e.g. direct × default-currency epoch 0 (in ${a} and ${b}); react × default-currency epoch 0 (in ${a} and ${b});`,
    );
    expect(refused.stderr).toContain('say whose copy to keep with --prefer first or --prefer last (the first or last folder given)');
    expect(existsSync(join(root, 'refused'))).toBe(false);

    const wall = (dir: string) =>
      new Set(
        readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line).wall_ms),
      );
    const last = stratbench(['merge', a, b, '--prefer', 'last', '--out', join(root, 'last')]);
    expect(last.status).toBe(0);
    expect(last.stderr).toContain("note: 5 episode(s) were in several folders; kept the last folder's (--prefer)");
    expect(wall(join(root, 'last'))).toEqual(new Set([424242]));
    expect(readJson(join(root, 'last', 'run.json'))).toMatchObject({ status: 'complete', merge_overlap: { prefer: 'last', episodes: 5 } });
    // The same arguments in the other order with --prefer first keep the same folder's copies: order alone decides nothing.
    expect(stratbench(['merge', b, a, '--prefer', 'first', '--out', join(root, 'first')]).status).toBe(0);
    expect(wall(join(root, 'first'))).toEqual(new Set([424242]));
    expect(stratbench(['merge', a, b, '--prefer', 'middle', '--out', join(root, 'bad')]).status).toBe(2);
  });
});

describe('merge: a re-run shard and an unsharded run are overlapping episodes', () => {
  const args = ['--epochs', '2', '--no-progress'];
  const walls = (dir: string): Set<unknown> =>
    new Set(
      readFileSync(join(dir, 'episodes.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).wall_ms),
    );

  it('a shard given twice is refused naming --prefer, and merged with it', () => {
    const root = scratch('merge-');
    const [a1, a1b, a2] = [join(root, 'a1'), join(root, 'a1b'), join(root, 'a2')];
    expect(stratbench(['run', ...args, '--shard', '1/2', '--out', a1]).status).toBe(0);
    expect(stratbench(['run', ...args, '--shard', '1/2', '--out', a1b]).status).toBe(0);
    expect(stratbench(['run', ...args, '--shard', '2/2', '--out', a2]).status).toBe(0);
    editEpisodes(a1b, (record) => ({ ...record, wall_ms: 424242 }));
    const refused = stratbench(['merge', a1, a1b, a2, '--out', join(root, 'refused')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`shard 1/2 is given twice (${a1b}); or pass --prefer first|last to merge them`);
    expect(existsSync(join(root, 'refused'))).toBe(false);
    const merged = join(root, 'merged');
    const result = stratbench(['merge', a1, a1b, a2, '--out', merged, '--prefer', 'last']);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("note: 70 episode(s) were in several folders; kept the last folder's (--prefer)");
    expect(readJson(join(merged, 'run.json'))).toMatchObject({
      status: 'complete',
      episodes: 140,
      shard_count: 2,
      merge_overlap: { prefer: 'last', episodes: 70 },
    });
    expect(readJson(join(merged, 'run.json'))['missing_shards']).toBeUndefined();
    expect(episodes(merged)).toHaveLength(140);
    // Shard 1's episodes are a1b's (marked), shard 2's are a2's.
    expect(
      readFileSync(join(merged, 'episodes.jsonl'), 'utf8')
        .split('\n')
        .filter((line) => line.includes('"wall_ms":424242')),
    ).toHaveLength(70);
    const first = join(root, 'first');
    expect(stratbench(['merge', a1, a1b, a2, '--out', first, '--prefer', 'first']).status).toBe(0);
    expect(walls(first).has(424242)).toBe(false);
  });

  it('a shard with an unsharded run of the same configuration is refused naming --prefer, and merged with it', () => {
    const root = scratch('merge-');
    const [s1, full] = [join(root, 's1'), join(root, 'full')];
    expect(stratbench(['run', ...args, '--shard', '1/2', '--out', s1]).status).toBe(0);
    expect(stratbench(['run', ...args, '--out', full]).status).toBe(0);
    editEpisodes(full, (record) => ({ ...record, wall_ms: 424242 }));
    const refused = stratbench(['merge', s1, full, '--out', join(root, 'refused')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`refusing to merge a sharded folder with an unsharded one (${full}); or pass --prefer first|last`);
    const merged = join(root, 'merged');
    const result = stratbench(['merge', s1, full, '--prefer', 'last', '--out', merged]);
    expect(result.status).toBe(0);
    const run = readJson(join(merged, 'run.json'));
    expect(run).toMatchObject({ status: 'complete', episodes: 140, merge_overlap: { prefer: 'last', episodes: 70 } });
    expect(run['shard_count']).toBeUndefined();
    expect(walls(merged)).toEqual(new Set([424242]));
  });
});

describe('merge: a folder a run still holds', () => {
  it("is refused (exit 2) naming the holder; a dead run's lock is read past with a note", () => {
    const root = scratch('merge-');
    const [s1, s2] = [join(root, 's1'), join(root, 's2')];
    expect(stratbench(['run', ...ONE_TASK, '--shard', '1/2', '--out', s1]).status).toBe(0);
    expect(stratbench(['run', ...ONE_TASK, '--shard', '2/2', '--out', s2]).status).toBe(0);
    // This test process is alive: its pid in s2/.lock stands for a run still writing s2.
    const since = new Date().toISOString();
    const holder = { pid: process.pid, host: hostname(), started_at: since, command: 'stratbench run --epochs 200 --out s2' };
    writeFileSync(join(s2, '.lock'), JSON.stringify(holder));
    const refused = stratbench(['merge', s1, s2, '--out', join(root, 'refused')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `${s2} is in use by another stratbench run: pid ${process.pid} on ${hostname()} since ${since} (stratbench run --epochs 200 --out s2); merge would read it half-written`,
    );
    expect(existsSync(join(root, 'refused'))).toBe(false);
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    writeFileSync(join(s2, '.lock'), JSON.stringify({ ...holder, pid: dead }));
    const merged = stratbench(['merge', s1, s2, '--out', join(root, 'merged')]);
    expect(merged.status).toBe(0);
    expect(merged.stderr).toContain(
      `note: ${s2} has the lock of a run that is no longer running;\n  reading it as it is (pid ${dead} on ${hostname()} since ${since}`,
    );
    expect(readJson(join(root, 'merged', 'run.json'))).toMatchObject({ status: 'complete', episodes: 5 });
  });
});

describe('incomplete merges and partial folders are labelled everywhere', () => {
  it('merging only shard 1 of 2 exits 0 and labels the result in run.json, summary.json, report and compare', () => {
    const root = scratch('merge-');
    const args = ['--epochs', '2', '--no-progress'];
    expect(stratbench(['run', ...args, '--shard', '1/2', '--out', join(root, 's1')]).status).toBe(0);
    const merged = join(root, 'merged');
    const result = stratbench(['merge', join(root, 's1'), '--out', merged]);
    expect(result.status).toBe(0);
    const label = 'incomplete: 1 of 2 shards, 70 of 140 episodes';
    expect(result.stderr).toContain(`warning: the merged run is incomplete: ${label}`);
    const completeness = { status: 'partial', episodes: 70, expected_episodes: 140, label };
    expect(readJson(join(merged, 'run.json'))).toMatchObject({ status: 'partial', missing_shards: [2], shard_count: 2, completeness });
    expect(readJson(join(merged, 'summary.json'))['completeness']).toEqual(completeness);
    const report = stratbench(['report', merged]);
    expect(report.status).toBe(0);
    expect(report.stdout.split('\n')[1]).toBe(label);
    expect(stratbench(['report', merged, '--json']).stdout).toContain(`"label": "${label}"`);
    // As a base it lacks a shard its run.json lists (issue 25): refused naming the shard, compared and labelled with --allow-partial.
    expect(stratbench(['run', ...args, '--out', join(root, 'whole')]).status).toBe(0);
    const refused = stratbench(['compare', merged, join(root, 'whole')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `stratbench compare: base ${merged} lacks 70 of 140 episodes its run.json lists (a merge of 1 of 2 shards, missing shard 2): `,
    );
    expect(refused.stderr).toContain('(run --shard 2/2, or resume the interrupted shard folders, and merge again, or pass --allow-partial');
    const compared = stratbench(['compare', merged, join(root, 'whole'), '--allow-partial']);
    expect(compared.status).toBe(0);
    // Shards hold whole rows (task × epoch): shard 1 of 2 holds every strategy of 7 of the 14 tasks, in both epochs.
    expect(compared.stdout).toMatch(new RegExp(`\\n {2}base {2}${merged}: 70 episodes, 7 tasks, 2 epochs, strategies [a-z, -]+ — ${label}\\n`));
    // As a head it lacks base episodes: refused without --allow-partial, labelled with it.
    expect(stratbench(['compare', join(root, 'whole'), merged]).status).toBe(2);
    const partialHead = stratbench(['compare', join(root, 'whole'), merged, '--allow-partial']);
    expect(partialHead.status).toBe(0);
    expect(partialHead.stdout).toContain(`— ${label}`);
  });

  it('a --tasks subset says so in the run table, report and summary.json', () => {
    const out = join(scratch('labels-'), 'subset');
    const run = stratbench(['run', '--tasks', 'default-currency,seed-demo-data', '--no-progress', '--out', out]);
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe('2 of 14 tasks (--tasks)');
    expect(stratbench(['report', out]).stdout.split('\n')[1]).toBe('2 of 14 tasks (--tasks)');
    expect(readJson(join(out, 'summary.json'))['completeness']).toEqual({
      status: 'complete',
      episodes: 10,
      expected_episodes: 10,
      label: '2 of 14 tasks (--tasks)',
    });
  });

  it('an interrupted run says how far it got in its own table, report, compare and summary.json', async () => {
    const out = join(scratch('labels-'), 'interrupted');
    const child = startStratbench(['run', '--epochs', '60', '--no-progress', '--out', out]);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const path = join(out, 'episodes.jsonl');
    while (!existsSync(path) || statSync(path).size < 100_000) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const count = episodes(out).length;
    const summary = readJson(join(out, 'summary.json'))['completeness'] as { label: string; status: string };
    expect(summary.status).toBe('interrupted');
    const epochs = Math.floor(count / 70);
    expect(summary.label).toBe(`interrupted: ${epochs} of 60 epochs complete (${count} of 4200 episodes)`);
    expect(stdout.split('\n')[1]).toBe(summary.label);
    const reported = stratbench(['report', out]).stdout.split('\n');
    expect(reported[1]).toBe(summary.label);
    // The header counts the matrix's tasks, not the few the interrupted folder holds episodes of.
    expect(reported[0]).toContain('(14 tasks)');
    const base = stratbench(['compare', out, out, '--allow-partial']);
    expect(base.stdout).toContain(`— ${summary.label}`);
  });
});

describe('compare: a truncated base', () => {
  it('is refused naming what it lacks, or compared on the shared part with --allow-partial', () => {
    const root = scratch('compare-base-');
    const good = join(root, 'good');
    expect(stratbench(['run', ...ONE_TASK, '--strategies', 'direct,react', '--epochs', '3', '--out', good]).status).toBe(0);
    const truncated = join(root, 'truncated');
    cpSync(good, truncated, { recursive: true });
    // Epoch-major order: the first 4 lines are epoch 0 and 1 of both strategies; epoch 2 is cut off.
    truncateEpisodes(truncated, 4);
    const refused = stratbench(['compare', truncated, good]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      `stratbench compare: base ${truncated} lacks 2 of 6 episodes its run.json lists (status complete): direct × default-currency (epoch 2), react × default-currency (epoch 2); ` +
        `an incomplete base would hide regressions on what it lacks (finish it with \`stratbench run --resume ${truncated}\`, or pass --allow-partial to compare only the episodes both have)`,
    );
    const partial = stratbench(['compare', truncated, good, '--allow-partial']);
    expect(partial.status).toBe(0);
    expect(partial.stdout).toContain(`warning: partial comparison (--allow-partial): base ${truncated} lacks 2 of 6 episodes its run.json lists`);
    expect(partial.stdout).toContain(
      `  base  ${truncated}: 4 episodes, 1 tasks, 2 epochs, strategies direct, react — truncated (episodes.jsonl lacks episodes run.json lists): 2 of 3 epochs complete (4 of 6 episodes); 1 of 14 tasks (--tasks)`,
    );
    // The same folders the other way round: the head lacks base episodes (the check that already existed).
    expect(stratbench(['compare', good, truncated]).status).toBe(2);
  });
});
