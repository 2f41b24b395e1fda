// Shards sliced by row (task × epoch, every strategy): whole rows per shard, shards and their merge compressed as
// one run is, and folders written before rows (every n-th episode) resumed and refused as what they are.
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { episodes, scratch, stratbench } from './support/cli.js';

const STRATEGIES = ['direct', 'react', 'plan-up-front', 'plan-replan', 'gated'];
const ARGS = ['--strategies', STRATEGIES.join(','), '--epochs', '4', '--no-progress', '--no-validate'];

interface RunJson {
  shard?: { index: number; count: number; unit?: string };
  shard_unit?: string;
  config: { tasks: string[]; strategies: string[] };
  episodes: number;
}
const runJson = (dir: string): RunJson => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunJson;
const gzBytes = (dir: string): number => statSync(join(dir, 'episodes.jsonl.gz')).size;
/** A record's matrix position: epoch, then task (suite order), then strategy (--strategies order). */
const positionOf = (run: RunJson, record: Record<string, unknown>): number =>
  (Number(record['epoch']) * run.config.tasks.length + run.config.tasks.indexOf(String(record['task']))) * run.config.strategies.length +
  run.config.strategies.indexOf(String(record['strategy']));

describe('shards by row', () => {
  let base = '';
  const shards: string[] = [];
  beforeAll(() => {
    base = scratch();
    for (let index = 1; index <= 4; index++) {
      const dir = join(base, `s${index}`);
      expect(stratbench(['run', ...ARGS, '--compress', '--shard', `${index}/4`, '--out', dir]).status).toBe(0);
      shards.push(dir);
    }
    expect(stratbench(['run', ...ARGS, '--compress', '--out', join(base, 'one')]).status).toBe(0);
  }, 300_000);

  it('gives each shard whole rows: every strategy of a task × epoch in the same shard, rows round-robin', () => {
    const seen = new Map<string, number>();
    let total = 0;
    for (const [i, dir] of shards.entries()) {
      const run = runJson(dir);
      expect(run.shard).toEqual({ index: i + 1, count: 4, unit: 'row' });
      for (const record of episodes(dir)) {
        total += 1;
        const row = Math.floor(positionOf(run, record) / STRATEGIES.length);
        expect(row % 4).toBe(i);
        seen.set(`${String(record['task'])}|${String(record['epoch'])}`, (seen.get(`${String(record['task'])}|${String(record['epoch'])}`) ?? 0) + 1);
      }
    }
    expect(total).toBe(14 * 4 * STRATEGIES.length);
    expect([...seen.values()].every((count) => count === STRATEGIES.length)).toBe(true);
  });

  it('compresses the shards, and their merge, within 10% of one run of the same matrix (episode-sliced shards took ~50% more)', () => {
    const one = gzBytes(join(base, 'one'));
    const sharded = shards.reduce((sum, dir) => sum + gzBytes(dir), 0);
    expect(sharded / one).toBeLessThan(1.1);
    const merged = join(base, 'merged');
    expect(stratbench(['merge', ...shards, '--out', merged]).status).toBe(0);
    expect(gzBytes(merged) / one).toBeLessThan(1.1);
    expect(runJson(merged).shard_unit).toBe('row');
    expect(runJson(merged).episodes).toBe(runJson(join(base, 'one')).episodes);
  });

  it('labels a merge of 3 of 4 row shards partial with the missing shard’s rows', () => {
    const merged = join(base, 'three');
    const result = stratbench(['merge', ...shards.slice(0, 3), '--out', merged]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('3 of 4 shards');
    expect(JSON.parse(readFileSync(join(merged, 'run.json'), 'utf8'))).toMatchObject({ status: 'partial', missing_shards: [4], shard_unit: 'row' });
  });
});

describe('shards written before rows (every n-th episode)', () => {
  /**
   * An episode-sliced shard 1/2 as stratbench wrote it before rows: run.json's shard without `unit`, and the episodes at
   * even matrix positions — minus the last `drop`, as if it had been interrupted.
   */
  function oldShard(whole: string, dir: string, drop: number): string[] {
    const run = runJson(whole);
    mkdirSync(dir, { recursive: true });
    const lines = readFileSync(join(whole, 'episodes.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const kept = lines.filter((line) => positionOf(run, JSON.parse(line) as Record<string, unknown>) % 2 === 0);
    const written = kept.slice(0, kept.length - drop);
    writeFileSync(join(dir, 'episodes.jsonl'), `${written.join('\n')}\n`);
    const { completeness: _completeness, ...rest } = JSON.parse(readFileSync(join(whole, 'run.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(dir, 'run.json'),
      `${JSON.stringify({ ...rest, status: 'running', episodes: written.length, shard: { index: 1, count: 2 } }, null, 2)}\n`,
    );
    return kept.map((line) => String((JSON.parse(line) as Record<string, unknown>)['key']));
  }

  it('resumes as the slice it was (every n-th episode), and merge refuses it beside a row shard', () => {
    const base = scratch();
    const whole = join(base, 'whole');
    const args = ['--strategies', STRATEGIES.join(','), '--epochs', '2', '--no-progress', '--no-validate'];
    expect(stratbench(['run', ...args, '--out', whole]).status).toBe(0);
    const old = join(base, 'old');
    const expected = oldShard(whole, old, 5);
    const resumed = stratbench(['run', '--resume', old, '--no-progress']);
    expect(resumed.status).toBe(0);
    expect(
      episodes(old)
        .map((record) => String(record['key']))
        .sort(),
    ).toEqual([...expected].sort());
    expect(runJson(old).shard).toEqual({ index: 1, count: 2 });
    const row = join(base, 'row');
    expect(stratbench(['run', ...args, '--shard', '2/2', '--out', row]).status).toBe(0);
    const merge = stratbench(['merge', old, row, '--out', join(base, 'mixed')]);
    expect(merge.status).toBe(2);
    expect(merge.stderr).toContain('refusing to merge shards sliced differently');
  }, 120_000);
});
