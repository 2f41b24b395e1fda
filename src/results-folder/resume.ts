// Resuming, sharding and merging runs: finished episodes are kept once, torn lines dropped, configurations compared.
import { readFile, rename, truncate, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EpisodeRecord, RunFile, Shard } from '../records/index.js';
import { checkSummaryFile, EPISODES_FILE, parseEpisodes, readRunFile } from './read.js';

/** Thrown when a results folder cannot be resumed or merged (a usage error: exit 2). */
export class ResumeError extends Error {
  override readonly name = 'ResumeError';
}

/** Parses `--shard i/n` (1 ≤ i ≤ n). Throws ResumeError for anything else. */
export function parseShard(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (!match || count < 1 || index < 1 || index > count) throw new ResumeError(`--shard takes i/n with 1 ≤ i ≤ n, e.g. 2/4; got "${value}"`);
  return { index, count };
}

/** Whether matrix cell `position` belongs to `shard` (round-robin over the deterministic matrix order). */
export function inShard(position: number, shard: Shard | undefined): boolean {
  return shard === undefined || position % shard.count === shard.index - 1;
}

/** run.json of `dir` (required) after checking its summary.json; throws ResumeError naming the file and the problem. */
async function readRunForResume(dir: string): Promise<RunFile> {
  const run = await readRunFile(dir, { required: true });
  if (!run.ok) throw new ResumeError(run.error);
  const summary = await checkSummaryFile(dir);
  if (!summary.ok) throw new ResumeError(summary.error);
  if (run.run === null) throw new ResumeError(`${dir}: no run.json`);
  return run.run;
}

/**
 * Loads the finished episodes of `dir` for `--resume`: checks that run.json has the same configuration hash
 * (model specs, prompts, suite, options), cuts a half-written last line off episodes.jsonl (so appends start
 * on a clean line), removes `error` episodes (infrastructure failures run again), and returns the records kept. Throws ResumeError for a different configuration or a corrupt file.
 */
export async function loadForResume(dir: string, configHash: string): Promise<{ records: EpisodeRecord[]; droppedTornLine: boolean; rerunErrors: number }> {
  const run = await readRunForResume(dir);
  if (run.config_hash !== configHash) {
    throw new ResumeError(
      `${dir} was run with another configuration (config hash ${run.config_hash}, now ${configHash}): models, prompts, suite or options differ`,
    );
  }
  const path = join(dir, EPISODES_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], droppedTornLine: false, rerunErrors: 0 };
    throw new ResumeError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const lastNewline = text.lastIndexOf('\n');
  const complete = text.slice(0, lastNewline + 1);
  const droppedTornLine = complete.length < text.length;
  if (droppedTornLine) await truncate(path, Buffer.byteLength(complete));
  const parsed = parseEpisodes(complete, path);
  if (!parsed.ok) throw new ResumeError(parsed.error);
  const byKey = new Map<string, EpisodeRecord>();
  for (const record of parsed.records) if (record.key.endsWith(`|${configHash}`)) byKey.set(record.key, record);
  // Infrastructure errors are not results: they run again. Rewrite the file without them (atomically), so
  // every episode still appears exactly once when the run ends.
  const errored = [...byKey.values()].filter((record) => record.outcome.status === 'error');
  if (errored.length > 0) {
    const kept = complete.split('\n').filter((line) => {
      if (line.trim() === '') return false;
      const key = /"key":"([^"]*)"/.exec(line)?.[1];
      return key === undefined || byKey.get(key)?.outcome.status !== 'error';
    });
    const tmp = `${path}.tmp`;
    await writeFile(tmp, kept.map((line) => `${line}\n`).join(''));
    await rename(tmp, path);
    for (const record of errored) byKey.delete(record.key);
  }
  return { records: [...byKey.values()], droppedTornLine, rerunErrors: errored.length };
}

/** The parts of run.json that define the episode matrix; shards must agree on all of them. */
function matrixOf(run: RunFile): string {
  const { strategies, tasks, epochs, seed } = run.config;
  return JSON.stringify({ hash: run.config_hash, strategies, tasks, epochs, seed });
}

/** What mergeFolders returns: the episodes kept, the first run.json, the shards not given and the overlap. */
export interface MergedFolders {
  records: EpisodeRecord[];
  run: RunFile;
  missingShards: number[];
  /** n of the --shard i/n split when the folders are shards. */
  shardCount?: number;
  overlap: { prefer: 'first' | 'last' | null; episodes: number };
}

const describeCell = (record: EpisodeRecord): string => `${record.strategy} × ${record.task} epoch ${record.epoch}`;

/**
 * `stratbench merge`: reads shard folders of one run. Refuses folders whose configuration hash or matrix
 * (strategies, tasks, epochs, seed) differ, shards of different splits (different n), a folder given twice, and
 * corrupt files. An episode (key: task|strategy|epoch|config hash) found in several folders is refused — naming how
 * many and a few — unless `prefer` says whose copy wins (`first` or `last` folder in argument order), so the order of
 * the arguments never silently decides the result. So a shard given twice (a re-run of that shard), or shards with an
 * unsharded run of the same configuration, are refused without `prefer` and merged as overlapping episodes with it
 * (no shard count then when an unsharded run is among them: it spans the whole matrix). Writes nothing.
 */
export async function mergeFolders(dirs: string[], options: { prefer?: 'first' | 'last' } = {}): Promise<MergedFolders> {
  if (dirs.length === 0) throw new ResumeError('merge needs at least one results folder');
  const runs = await Promise.all(dirs.map(readRunForResume));
  const matrices = new Set(runs.map(matrixOf));
  if (matrices.size > 1) {
    throw new ResumeError(
      `refusing to merge folders from different configurations (config hash, strategies, tasks, epochs or seed differ): ${dirs
        .map((dir, i) => `${dir} (${runs[i]!.config_hash})`)
        .join(', ')}`,
    );
  }
  if (new Set(dirs.map((dir) => resolve(dir))).size < dirs.length) throw new ResumeError('a folder is given twice');
  const shards = runs.map((run) => run.shard);
  const prefer = options.prefer;
  const resolves = 'or pass --prefer first|last to merge them, keeping the first or last folder’s copy of each episode they share';
  let missingShards: number[] = [];
  let shardCount: number | undefined;
  const unsharded = dirs.filter((_, i) => shards[i] === undefined);
  if (shards.some((shard) => shard !== undefined) && unsharded.length > 0) {
    // An unsharded run covers the whole matrix: with a shard of the same configuration it is a re-run of some episodes.
    if (prefer === undefined) throw new ResumeError(`refusing to merge a sharded folder with an unsharded one (${unsharded.join(', ')}); ${resolves}`);
  } else if (shards.some((shard) => shard !== undefined)) {
    const counts = new Set(shards.map((shard) => shard!.count));
    if (counts.size > 1) throw new ResumeError(`refusing to merge shards of different splits: ${[...counts].map((n) => `/${n}`).join(', ')}`);
    const seen = new Set<number>();
    for (const [i, shard] of shards.entries()) {
      // A shard given twice is a re-run of that shard: its episodes overlap, and only a policy says whose to keep.
      if (seen.has(shard!.index) && prefer === undefined) {
        throw new ResumeError(`shard ${shard!.index}/${shard!.count} is given twice (${dirs[i]}); ${resolves}`);
      }
      seen.add(shard!.index);
    }
    shardCount = shards[0]!.count;
    missingShards = Array.from({ length: shardCount }, (_, i) => i + 1).filter((index) => !seen.has(index));
  }
  const byKey = new Map<string, { record: EpisodeRecord; dir: string }>();
  const overlapping = new Map<string, string[]>();
  for (const dir of dirs) {
    const path = join(dir, EPISODES_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new ResumeError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    const parsed = parseEpisodes(text, path);
    if (!parsed.ok) throw new ResumeError(parsed.error);
    for (const record of parsed.records) {
      const earlier = byKey.get(record.key);
      if (earlier === undefined) {
        byKey.set(record.key, { record, dir });
        continue;
      }
      overlapping.set(record.key, [...(overlapping.get(record.key) ?? [earlier.dir]), dir]);
      if (options.prefer === 'last') byKey.set(record.key, { record, dir });
    }
  }
  if (overlapping.size > 0 && options.prefer === undefined) {
    const examples = [...overlapping.entries()].slice(0, 3).map(([key, where]) => `${describeCell(byKey.get(key)!.record)} (in ${where.join(' and ')})`);
    throw new ResumeError(
      `refusing to merge: ${overlapping.size} episode(s) are in more than one folder, e.g. ${examples.join('; ')}; ` +
        'say whose copy to keep with --prefer first or --prefer last (the first or last folder given)',
    );
  }
  return {
    records: [...byKey.values()].map((entry) => entry.record),
    run: runs[0]!,
    missingShards,
    ...(shardCount === undefined ? {} : { shardCount }),
    overlap: { prefer: overlapping.size > 0 ? (options.prefer ?? null) : null, episodes: overlapping.size },
  };
}
