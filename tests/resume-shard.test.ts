// Runs that survive interruption: SIGKILL then --resume, a torn last line, Ctrl-C, and shards merged.
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodes, scratch, startStratbench, stratbench } from './support/cli.js';

const keyOf = (record: Record<string, unknown>): string => String(record['key']);
const withoutWall = (records: Array<Record<string, unknown>>) => new Map(records.map((r) => [keyOf(r), r]));

async function waitFor(predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const size = (path: string): number => (existsSync(path) ? statSync(path).size : 0);
const BIG = ['--epochs', '60', '--no-progress', '--concurrency', '4'];

describe('interrupted runs', () => {
  it('a run killed with SIGKILL mid-way and resumed ends with every episode exactly once', async () => {
    const out = join(scratch(), 'killed');
    const child = startStratbench(['run', ...BIG, '--out', out]);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await waitFor(() => size(join(out, 'episodes.jsonl')) > 200_000);
    child.kill('SIGKILL');
    await exited;
    const partial = readFileSync(join(out, 'episodes.jsonl'), 'utf8');
    const before = partial.split('\n').filter((line) => line.trim() !== '').length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(60 * 70);
    // Simulate the worst case as well: the kill landed in the middle of a line.
    appendFileSync(join(out, 'episodes.jsonl'), '{"schemaVersion":1,"key":"half-writ');

    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toMatch(/resuming .*: \d+ finished episode\(s\) kept, a half-written last line dropped/);
    const records = episodes(out);
    const keys = records.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(60 * 70);

    const reference = join(scratch(), 'whole');
    expect(stratbench(['run', ...BIG, '--out', reference]).status).toBe(0);
    expect(withoutWall(records)).toEqual(withoutWall(episodes(reference)));
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(run).toMatchObject({ status: 'complete', episodes: 4200 });
  });

  it('Ctrl-C stops starting episodes, keeps the finished ones and writes the summary', async () => {
    const out = join(scratch(), 'interrupted');
    const child = startStratbench(['run', ...BIG, '--out', out]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await waitFor(() => size(join(out, 'episodes.jsonl')) > 100_000);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/continue with: stratbench run --resume/);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { status: string; episodes: number };
    expect(run.status).toBe('interrupted');
    const records = episodes(out);
    expect(records.length).toBe(run.episodes);
    expect(records.length).toBeLessThan(4200);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { task_results: { outcomes: string }[] };
    // One character per epoch of each strategy × task; '-' marks an epoch the interrupted run did not reach.
    expect(summary.task_results.map((row) => row.outcomes.replaceAll('-', '')).join('')).toHaveLength(records.length);
  });

  it('refuses to resume a folder made with another configuration', () => {
    const out = join(scratch(), 'a');
    expect(stratbench(['run', '--tasks', 'default-currency', '--out', out, '--no-progress']).status).toBe(0);
    const result = stratbench(['run', '--resume', out, '--model', 'scripted:faults=planner.guessed_target', '--no-progress']);
    expect(result.status).toBe(2);
  });
});

describe('shards', () => {
  it('two shards merged equal the unsharded run', () => {
    const base = scratch();
    const args = ['--epochs', '2', '--no-progress'];
    expect(stratbench(['run', ...args, '--shard', '1/2', '--out', join(base, 's1')]).status).toBe(0);
    expect(stratbench(['run', ...args, '--shard', '2/2', '--out', join(base, 's2')]).status).toBe(0);
    const shard1 = episodes(join(base, 's1'));
    const shard2 = episodes(join(base, 's2'));
    expect(shard1.length + shard2.length).toBe(140);
    expect(shard1.filter((r) => shard2.some((s) => keyOf(s) === keyOf(r)))).toEqual([]);
    const merged = stratbench(['merge', join(base, 's1'), join(base, 's2'), '--out', join(base, 'merged')]);
    expect(merged.status).toBe(0);
    expect(stratbench(['run', ...args, '--out', join(base, 'whole')]).status).toBe(0);
    expect(withoutWall(episodes(join(base, 'merged')))).toEqual(withoutWall(episodes(join(base, 'whole'))));
    const summary = (dir: string) => {
      const { statistics, ...rest } = JSON.parse(readFileSync(join(base, dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
      return { rest, statistics };
    };
    expect(summary('merged').rest['strategies']).toEqual(summary('whole').rest['strategies']);
  });

  it('merge refuses folders from different configurations and bad shard specs', () => {
    const base = scratch();
    expect(stratbench(['run', '--tasks', 'default-currency', '--out', join(base, 'a'), '--no-progress']).status).toBe(0);
    expect(
      stratbench([
        'run',
        '--tasks',
        'default-currency',
        '--prompts',
        'prompts',
        '--seed',
        '1',
        '--model',
        'scripted',
        '--out',
        join(base, 'b'),
        '--no-progress',
        '--planner-model',
        'scripted:faults=planner.guessed_target',
      ]).status,
    ).toBe(0);
    const merged = stratbench(['merge', join(base, 'a'), join(base, 'b'), '--out', join(base, 'm')]);
    expect(merged.status).toBe(2);
    expect(merged.stderr).toMatch(/refusing to merge folders from different configurations/);
    expect(stratbench(['run', '--shard', '3/2', '--out', join(base, 'c')]).status).toBe(2);
  });
});

describe('--resume with --out', () => {
  it('--out naming another folder is refused (exit 2, nothing written there); naming the same folder is allowed', () => {
    const root = scratch();
    const out = join(root, 'run');
    const args = ['--tasks', 'default-currency', '--no-progress'];
    expect(stratbench(['run', ...args, '--epochs', '2', '--out', out]).status).toBe(0);
    const other = join(root, 'other');
    const refused = stratbench(['run', '--resume', out, '--out', other, '--no-progress']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`--resume ${out} continues in ${out}; --out cannot name another folder (${other})`);
    expect(existsSync(other)).toBe(false);
    const same = stratbench(['run', '--resume', out, '--out', `${root}/./run/`, '--no-progress']);
    expect(same.status).toBe(0);
    expect(same.stderr).toMatch(/resuming .*: 10 finished episode\(s\) kept/);
  });
});
