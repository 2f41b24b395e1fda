// merge reads each line once, copying as it checks: what it refuses late (an overlap, a corrupt line in a later
// folder, after earlier folders were copied) still leaves neither OUT nor a staging folder, and shards merge as before.
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodes, scratch, stratbench } from './support/cli.js';

const ONE_TASK = ['--tasks', 'default-currency', '--no-progress'];
/** Names in `root` that are OUT (`name`) or a staging folder of a merge into it. */
const leftovers = (root: string, name: string): string[] => readdirSync(root).filter((entry) => entry === name || entry.startsWith(`.${name}.merging-`));

describe('merge in one pass', () => {
  it('refuses an overlap found after the first folder was copied, leaving no OUT and no staging folder', () => {
    const root = scratch('merge-one-pass-');
    const [a, b] = [join(root, 'a'), join(root, 'b')];
    expect(stratbench(['run', ...ONE_TASK, '--out', a]).status).toBe(0);
    expect(stratbench(['run', ...ONE_TASK, '--out', b]).status).toBe(0);
    const refused = stratbench(['merge', a, b, '--out', join(root, 'refused')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('refusing to merge: 5 episode(s) are in more than one folder');
    expect(leftovers(root, 'refused')).toEqual([]);
  });

  it('refuses a corrupt line in a later folder, leaving no OUT and no staging folder; whole shards merge to the matrix', () => {
    const root = scratch('merge-one-pass-');
    const shards = [1, 2].map((index) => join(root, `shard-${index}`));
    shards.forEach((dir, i) => {
      expect(stratbench(['run', ...ONE_TASK, '--epochs', '2', '--shard', `${i + 1}/2`, '--out', dir]).status).toBe(0);
    });
    const merged = stratbench(['merge', ...shards, '--out', join(root, 'merged')]);
    expect(merged.status).toBe(0);
    const identities = episodes(join(root, 'merged')).map((record) => `${String(record.strategy)}|${String(record.epoch)}`);
    expect(identities).toHaveLength(10);
    expect(new Set(identities).size).toBe(10);
    // A line that is JSON but not an episode record, in the middle of the second shard.
    const second = join(shards[1] as string, 'episodes.jsonl');
    const lines = readFileSync(second, 'utf8');
    appendFileSync(second, `{"schemaVersion": ${JSON.parse(lines.split('\n')[0] as string).schemaVersion}, "task": 3}\n${lines.split('\n')[0]}\n`);
    const refused = stratbench(['merge', ...shards, '--out', join(root, 'refused')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${second}:${lines.split('\n').filter(Boolean).length + 1}: not a valid episode record`);
    expect(leftovers(root, 'refused')).toEqual([]);
    expect(existsSync(join(root, 'merged', 'run.json'))).toBe(true);
  });

  it('says which lines it skipped: a torn last gzip member and a torn last line each give a warning naming the file', () => {
    const root = scratch('merge-one-pass-');
    const shards = [1, 2].map((index) => join(root, `shard-${index}`));
    expect(stratbench(['run', ...ONE_TASK, '--epochs', '4', '--shard', '1/2', '--compress', '--out', shards[0] as string]).status).toBe(0);
    expect(stratbench(['run', ...ONE_TASK, '--epochs', '4', '--shard', '2/2', '--out', shards[1] as string]).status).toBe(0);
    const gz = join(shards[0] as string, 'episodes.jsonl.gz');
    truncateSync(gz, statSync(gz).size - 50);
    const plain = join(shards[1] as string, 'episodes.jsonl');
    const lines = readFileSync(plain, 'utf8').split('\n').filter(Boolean);
    truncateSync(plain, statSync(plain).size - 40);
    const merged = stratbench(['merge', ...shards, '--out', join(root, 'merged')]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).toContain(`warning: ${gz}: incomplete last gzip member at byte`);
    expect(merged.stderr).toContain(`warning: ${plain}:${lines.length}: incomplete last line (a run interrupted while writing?) — skipped`);
    expect(merged.stderr).toContain('warning: the merged run is incomplete');
    // The first shard's only member was torn: nothing of it is kept; the second keeps all but its torn line.
    expect(episodes(join(root, 'merged'))).toHaveLength(lines.length - 1);
  });
});
