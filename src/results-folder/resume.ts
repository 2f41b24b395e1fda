// Resuming, sharding and merging runs: finished episodes are kept once, torn lines and members dropped, configurations compared.
import { readFile, rename, stat, truncate, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EpisodeRecord, RunFile, Shard } from '../records/index.js';
import { checkSummaryFile, readRunFile, SUMMARY_FILE } from './read.js';
import { locateEpisodes } from './episode-file.js';
import { scanEpisodes } from './episode-stream.js';
import { MatrixPositions } from './completeness.js';
import { EpisodeWriter } from './write.js';
import { DAMAGED_MESSAGES_FILE, MESSAGES_FILE, moveDamagedMessages, readMessages } from './messages.js';

/** Thrown when a results folder cannot be resumed or merged (a usage error: exit 2). */
export class ResumeError extends Error {
  override readonly name = 'ResumeError';
}

/**
 * Parses `--shard i/n` (1 ≤ i ≤ n) into a shard sliced by `unit`: 'row' (the default) or 'episode' (every n-th
 * episode, as folders written before rows are: Shard.unit absent). Throws ResumeError for anything else.
 */
export function parseShard(value: string, unit: 'row' | 'episode' = 'row'): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (!match || count < 1 || index < 1 || index > count) throw new ResumeError(`--shard takes i/n with 1 ≤ i ≤ n, e.g. 2/4; got "${value}"`);
  return unit === 'episode' ? { index, count } : { index, count, unit };
}

export { inShard } from './completeness.js';

/**
 * run.json of `dir` (required) after checking its summary.json; throws ResumeError naming the file and the problem.
 * With `repairSummary` (`--resume`, which writes summary.json anew from the episodes when it ends), a damaged
 * summary.json is moved aside to summary.damaged.json instead, and the returned warning says so.
 */
async function readRunForResume(dir: string, options: { repairSummary?: boolean } = {}): Promise<RunFile & { summaryWarning?: string }> {
  const run = await readRunFile(dir, { required: true });
  if (!run.ok) throw new ResumeError(run.error);
  if (run.run === null) throw new ResumeError(`${dir}: no run.json`);
  const summary = await checkSummaryFile(dir);
  if (summary.ok) return run.run;
  // Only a file that reads but is not a summary is moved aside; one that cannot be read (a folder, EACCES) is refused.
  const readable = await readFile(join(dir, SUMMARY_FILE)).then(
    () => true,
    () => false,
  );
  if (options.repairSummary !== true || !readable) throw new ResumeError(summary.error);
  try {
    await rename(join(dir, SUMMARY_FILE), join(dir, DAMAGED_SUMMARY_FILE));
  } catch (error) {
    throw new ResumeError(`${summary.error}; it cannot be moved aside (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return {
    ...run.run,
    summaryWarning: `${summary.error}: moved to ${join(dir, DAMAGED_SUMMARY_FILE)}; the resumed run writes ${SUMMARY_FILE} anew from the episodes`,
  };
}

/** Where `--resume` moves a damaged summary.json (the run rebuilds summary.json from the episodes when it ends). */
export const DAMAGED_SUMMARY_FILE = 'summary.damaged.json';

/** The finished episodes a resumed run keeps, streamed from disk on demand (never all in memory). */
export interface ResumeEpisodes {
  /** Episodes kept (of this configuration, not errored). */
  kept: number;
  /** The folder's episodes are episodes.jsonl.gz (true: the resumed run appends gzip members) or episodes.jsonl; null: no episodes file yet. */
  compressed: boolean | null;
  droppedTornLine: boolean;
  rerunErrors: number;
  /**
   * Of `kept`, the finished episodes whose model calls reference a text messages.jsonl lacks (a damaged or deleted
   * file, or a folder killed by an older version before messages were flushed ahead of episodes). They are kept as
   * they are — the verdict was scored when the episode ended and does not rest on the texts — and every reader marks
   * the missing texts ("[hash is not in messages.jsonl]", with a warning). Running them again would replace a
   * finished result by a new draw of the model.
   */
  keptWithLostTexts: number;
  /** What the read found: repeated episodes, corrupt lines of messages.jsonl skipped (file:line each). */
  warnings: string[];
  /** Reads the kept episodes again, in file order, calling `visit` for each. Throws ResumeError if the file changed under it. */
  replay(visit: (record: EpisodeRecord) => void): Promise<void>;
}

/**
 * Prepares the finished episodes of `dir` for `--resume`: checks that run.json has the same configuration hash
 * (model specs, prompts, suite, options), cuts a half-written last line off episodes.jsonl, or a half-written last
 * gzip member off episodes.jsonl.gz (so appends start on a clean line or member; a folder with both files is
 * refused), removes `error` episodes (infrastructure failures run again; the file is rewritten line by line, atomically), keeps
 * finished episodes whose referenced texts messages.jsonl lacks (counted in keptWithLostTexts) and counts the episodes kept, which `replay` streams. Memory: one line at a time and one bit per
 * matrix cell. Throws ResumeError for a different configuration or a corrupt file.
 */
export async function loadForResume(dir: string, configHash: string): Promise<ResumeEpisodes> {
  const run = await readRunForResume(dir, { repairSummary: true });
  const summaryWarnings = run.summaryWarning === undefined ? [] : [run.summaryWarning];
  if (run.config_hash !== configHash) {
    throw new ResumeError(
      `${dir} was run with another configuration (config hash ${run.config_hash}, now ${configHash}): models, prompts, suite, options or strategy modules differ`,
    );
  }
  const located = await locateEpisodes(dir);
  if ('error' in located) throw new ResumeError(located.error);
  const { path, compressed } = located;
  const size = await stat(path).then(
    (info) => info.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return -1;
      throw new ResumeError(`cannot read ${path}: ${error.code ?? String(error)}`);
    },
  );
  if (size < 0)
    return {
      kept: 0,
      droppedTornLine: false,
      rerunErrors: 0,
      keptWithLostTexts: 0,
      warnings: summaryWarnings,
      compressed: null,
      replay: async () => undefined,
    };
  const ours = (record: EpisodeRecord): boolean => record.key.endsWith(`|${configHash}`);
  const messages = await readMessages(dir);
  if (!messages.ok) throw new ResumeError(messages.error);
  // Damaged lines are moved aside (kept in messages.damaged.jsonl): the episodes that used their texts run again and
  // store them anew, and later readers do not warn about texts that are back.
  const moved = messages.damaged.length > 0 ? await moveDamagedMessages(dir) : 0;
  const messageWarnings =
    moved > 0 ? [...messages.warnings, `moved ${moved} damaged line(s) of ${MESSAGES_FILE} to ${DAMAGED_MESSAGES_FILE} in ${dir}`] : messages.warnings;
  const dangling = (record: EpisodeRecord): boolean => referencesMissingText(record, messages.texts);
  /** Episodes to run again: infrastructure errors only (a finished episode whose texts were lost is kept, marked). */
  const rerun = (record: EpisodeRecord): boolean => ours(record) && record.outcome.status === 'error';
  let kept = 0;
  let errored = 0;
  let lost = 0;
  const scanned = await scanEpisodes(
    path,
    () => (record) => {
      if (!ours(record)) return;
      if (record.outcome.status === 'error') errored += 1;
      else {
        kept += 1;
        if (dangling(record)) lost += 1;
      }
    },
    run.config,
  );
  if (!scanned.ok) throw new ResumeError(scanned.error);
  // A torn tail — half a line (plain) or a member cut short (gzip: completeBytes is where it starts) — is cut off,
  // so appends start on a clean line or member boundary.
  const droppedTornLine = scanned.completeBytes < size || (compressed === true && scanned.tornLastLine);
  if (droppedTornLine) await truncate(path, scanned.completeBytes);
  // A gzip file whose complete members end mid-line (gzipped by another tool), or whose last line is torn inside a
  // complete member, cannot be cut by bytes: rewritten.
  const endsMidLine = compressed && (scanned.endsMidLine || scanned.tornLastLine);
  if (errored > 0 || endsMidLine || scanned.warnings.some((warning) => warning.includes(' repeats '))) {
    // Infrastructure errors are not results: they run again. Rewrite the file without them (and with one line per
    // episode), atomically, so every episode still appears exactly once when the run ends.
    const tmp = `${path}.tmp`;
    const writer = new EpisodeWriter(tmp, { compress: compressed });
    try {
      const rewritten = await scanEpisodes(
        path,
        () => (record, line) => {
          if (!rerun(record)) return writer.writeLine(line);
        },
        run.config,
      );
      await writer.close();
      if (!rewritten.ok) throw new ResumeError(rewritten.error);
      await rename(tmp, path);
    } catch (error) {
      // A refused write (DiskWriteError) leaves the episodes file as it was, and no half-written copy beside it.
      await writer.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
  }
  return {
    kept,
    droppedTornLine,
    compressed,
    rerunErrors: errored,
    keptWithLostTexts: lost,
    // The torn line is reported by droppedTornLine; repeats are named here.
    warnings: [...summaryWarnings, ...messageWarnings, ...scanned.warnings.filter((warning) => warning.includes(' repeats '))],
    async replay(visit) {
      const replayed = await scanEpisodes(
        path,
        () => (record) => {
          if (ours(record) && !rerun(record)) visit(record);
        },
        run.config,
      );
      if (!replayed.ok) throw new ResumeError(replayed.error);
    },
  };
}

/** Whether a model_call event of `record` references (sent messages, thinking) a hash that `texts` lacks. */
export function referencesMissingText(record: EpisodeRecord, texts: ReadonlyMap<string, unknown>): boolean {
  for (const event of record.trace) {
    if (event.type !== 'model_call') continue;
    if (event.thinking !== undefined && !texts.has(event.thinking)) return true;
    for (const hash of event.sent?.messages ?? []) if (!texts.has(hash)) return true;
  }
  return false;
}

function matrixOf(run: RunFile): string {
  const { strategies, tasks, epochs, seed } = run.config;
  return JSON.stringify({ hash: run.config_hash, strategies, tasks, epochs, seed });
}

/** What mergeFolders returns: the episodes kept, the first run.json, the shards not given and the overlap. */
export interface MergedFolders {
  /**
   * Streams the episodes the merge keeps (one per matrix cell), with their JSON lines; ResumeError for a corrupt file,
   * a folder changed since, or (without `prefer`) episodes in several folders — then only after visiting every line
   * before the first repeat, so the caller must write into a folder it discards on error. Resolves to the reads'
   * warnings, folder by folder (a torn last line or gzip member skipped, an episode repeated within one file), for the
   * caller to show: every command that skips a line says so.
   */
  forEachKept(visit: (record: EpisodeRecord, line: string) => void | Promise<void>): Promise<string[]>;
  run: RunFile;
  /** Some folder's episodes are episodes.jsonl.gz (merge then writes episodes.jsonl.gz). */
  compressed: boolean;
  missingShards: number[];
  /** n of the --shard i/n split when the folders are shards. */
  shardCount?: number;
  /** How the shards were sliced (Shard.unit) when the folders are shards: 'row', or undefined for every n-th episode. */
  shardUnit?: 'row';
  /** Episodes found in several folders: final once forEachKept has run (with `prefer: 'last'`, at once). */
  readonly overlap: { prefer: 'first' | 'last' | null; episodes: number };
}

const identityOf = (record: EpisodeRecord): string => `${record.strategy}|${record.task}|${record.epoch}`;
const describeCell = (record: EpisodeRecord): string => `${record.strategy} × ${record.task} epoch ${record.epoch}`;

/**
 * `stratbench merge`: reads shard folders of one run. Refuses folders whose configuration hash or matrix
 * (strategies, tasks, epochs, seed) differ, shards of different splits (different n), a folder given twice, and
 * corrupt files. An episode (key: task|strategy|epoch|config hash) found in several folders is refused — naming how
 * many and a few — unless `prefer` says whose copy wins (`first` or `last` folder in argument order), so the order of
 * the arguments never silently decides the result. So a shard given twice (a re-run of that shard), or shards with an
 * unsharded run of the same configuration, are refused without `prefer` and merged as overlapping episodes with it
 * (no shard count then when an unsharded run is among them: it spans the whole matrix). Corrupt files and overlaps
 * are found by forEachKept, which reads each line once (twice with `prefer: 'last'`: a first pass here settles which
 * copy is kept). Writes nothing.
 */
export async function mergeFolders(dirs: string[], options: { prefer?: 'first' | 'last' } = {}): Promise<MergedFolders> {
  if (dirs.length === 0) throw new ResumeError('merge needs at least one results folder');
  if (dirs.length > 255) throw new ResumeError(`merge takes at most 255 folders at once (got ${dirs.length}): merge them in groups, then merge the groups`);
  const runs = await Promise.all(dirs.map((dir) => readRunForResume(dir)));
  const episodeFiles = await Promise.all(
    dirs.map(async (dir) => {
      const located = await locateEpisodes(dir);
      if ('error' in located) throw new ResumeError(located.error);
      return located;
    }),
  );
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
  let shardUnit: Shard['unit'];
  const unsharded = dirs.filter((_, i) => shards[i] === undefined);
  if (shards.some((shard) => shard !== undefined) && unsharded.length > 0) {
    // An unsharded run covers the whole matrix: with a shard of the same configuration it is a re-run of some episodes.
    if (prefer === undefined) throw new ResumeError(`refusing to merge a sharded folder with an unsharded one (${unsharded.join(', ')}); ${resolves}`);
  } else if (shards.some((shard) => shard !== undefined)) {
    const counts = new Set(shards.map((shard) => shard!.count));
    if (counts.size > 1) throw new ResumeError(`refusing to merge shards of different splits: ${[...counts].map((n) => `/${n}`).join(', ')}`);
    const byEpisode = dirs.filter((_, i) => shards[i]!.unit === undefined);
    if (byEpisode.length > 0 && byEpisode.length < dirs.length) {
      // The same i/n names different slices: every n-th episode (folders written before rows) or every n-th row.
      throw new ResumeError(
        `refusing to merge shards sliced differently: ${byEpisode.join(', ')} hold every n-th episode (written before shards were sliced by row), the others every n-th task × epoch; run those shards again`,
      );
    }
    const seen = new Set<number>();
    for (const [i, shard] of shards.entries()) {
      // A shard given twice is a re-run of that shard: its episodes overlap, and only a policy says whose to keep.
      if (seen.has(shard!.index) && prefer === undefined) {
        throw new ResumeError(`shard ${shard!.index}/${shard!.count} is given twice (${dirs[i]}); ${resolves}`);
      }
      seen.add(shard!.index);
    }
    shardCount = shards[0]!.count;
    shardUnit = shards[0]!.unit;
    missingShards = Array.from({ length: shardCount }, (_, i) => i + 1).filter((index) => !seen.has(index));
  }
  // Which folder's copy of each episode is kept — one byte per matrix cell (the folder's number), and a map only for
  // episodes outside the run's matrix (none, normally). Nothing of the records is kept.
  const config = runs[0]!.config;
  const positions = new MatrixPositions(config);
  const owner = new Uint8Array(positions.size);
  const outside = new Map<string, number>();
  let overlapping = 0;
  const examples: string[] = [];
  /** Notes folder `index`'s copy of `record`; returns whether that copy is the one kept (so far, for `last`). */
  const claim = (record: EpisodeRecord, index: number): boolean => {
    const position = positions.positionOf(record);
    const earlier = position >= 0 ? owner[position]! : (outside.get(identityOf(record)) ?? 0);
    if (earlier !== 0) {
      overlapping += 1;
      if (examples.length < 3) examples.push(`${describeCell(record)} (in ${dirs[earlier - 1]} and ${dirs[index]})`);
      if (prefer !== 'last') return false;
    }
    if (position >= 0) owner[position] = index + 1;
    else outside.set(identityOf(record), index + 1);
    return true;
  };
  const refuseOverlap = (): void => {
    if (overlapping > 0 && prefer === undefined) {
      throw new ResumeError(
        `refusing to merge: ${overlapping} episode(s) are in more than one folder, e.g. ${examples.join('; ')}; ` +
          'say whose copy to keep with --prefer first or --prefer last (the first or last folder given)',
      );
    }
  };
  // With `--prefer last` a folder's copy is known to be kept only once every later folder is read: a first pass
  // settles the owners, a second copies. Otherwise the first copy of each episode is the kept one, and one pass both
  // checks and copies (every line parsed and validated once, not twice): after the first overlap it copies nothing
  // more and refuses at the end, as the first pass would have (the caller writes into a staging folder it removes).
  const twoPasses = prefer === 'last';
  if (twoPasses) {
    for (const [index, file] of episodeFiles.entries()) {
      const scanned = await scanEpisodes(
        file.path,
        () => (record) => {
          claim(record, index);
        },
        config,
      );
      if (!scanned.ok) throw new ResumeError(scanned.error);
    }
  }
  return {
    run: runs[0]!,
    compressed: episodeFiles.some((file) => file.compressed),
    missingShards,
    ...(shardCount === undefined ? {} : { shardCount }),
    ...(shardUnit === undefined ? {} : { shardUnit }),
    get overlap() {
      return { prefer: overlapping > 0 ? (prefer ?? null) : null, episodes: overlapping };
    },
    async forEachKept(visit) {
      const warnings: string[] = [];
      // Each folder's kept lines, in folder order, then file order.
      for (const [index, file] of episodeFiles.entries()) {
        const scanned = await scanEpisodes(
          file.path,
          () => (record, line) => {
            if (!twoPasses) {
              if (claim(record, index) && (overlapping === 0 || prefer !== undefined)) return visit(record, line);
              return;
            }
            const position = positions.positionOf(record);
            const kept = position >= 0 ? owner[position] : outside.get(identityOf(record));
            if (kept === index + 1) return visit(record, line);
          },
          config,
        );
        if (!scanned.ok) throw new ResumeError(scanned.error);
        warnings.push(...scanned.warnings);
      }
      refuseOverlap();
      return warnings;
    },
  };
}
