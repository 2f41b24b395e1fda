// `stratbench merge DIR… --out OUT`: combines the folders of a sharded (or interrupted and resumed) run into one.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SCHEMA_VERSION, type RunCompleteness, type RunFile } from '../../records/index.js';
import { renderRunReport, SummaryBuilder, withStatistics } from '../../report/index.js';
import {
  checkFolderNotInUse,
  collectMessages,
  commandLine,
  describeCompleteness,
  diskFaultCode,
  DiskWriteError,
  EPISODES_FILE,
  EPISODES_GZ_FILE,
  EpisodeWriter,
  FolderLockedError,
  lockResultsFolder,
  MatrixPositions,
  mergeFolders,
  OutputFolderError,
  prepareOutputFolder,
  referencesMissingText,
  ResumeError,
  RUN_FILE,
  writeMessages,
  writeRunFile,
  writeSummaryFile,
  type Disk,
  type FolderLock,
} from '../../results-folder/index.js';
import { headerFrom } from '../folder-summary.js';
import { isFolder, moveInto, removeDeadStaging } from '../merge-staging.js';
import { useColor } from '../terminal.js';
import { UsageError } from '../usage-error.js';

/** The flags of `stratbench merge` (cli.ts), and the disk tests inject. */
export interface MergeOptions {
  /** `--prefer first|last`: which folder's copy wins when several hold the same episode (default: refuse, exit 2). */
  prefer?: 'first' | 'last';
  /** `--compress`: write episodes.jsonl.gz (the default when any folder given holds episodes.jsonl.gz). */
  compress?: boolean;
  /** Where the files are written (default: node:fs); tests pass a disk that refuses writes. */
  disk?: Disk;
}

/** What mergeFolders found, ready to copy. */
type Merged = Awaited<ReturnType<typeof mergeFolders>>;
/** The messages of every folder, collected. */
type Messages = Extract<Awaited<ReturnType<typeof collectMessages>>, { ok: true }>;

/** The episodes copied into the staging folder, summarised as they passed. */
interface CopiedEpisodes {
  episodes: number;
  /** Episodes referencing a message or thinking no folder's messages.jsonl has. */
  missingTexts: number;
  builder: SummaryBuilder;
  positions: MatrixPositions;
  /** What reading the folders skipped (a torn last line or gzip member, an episode repeated within a file). */
  warnings: string[];
}

/**
 * `stratbench merge DIR… --out OUT [--prefer first|last] [--compress]`: combines shard folders of one configuration
 * (mergeFolders) into OUT/episodes.jsonl, or episodes.jsonl.gz with `compress` or when any DIR holds episodes.jsonl.gz.
 * Exit 2 when they differ, share episodes without `prefer` (a shard given twice, a shard with an unsharded run), or
 * one is held by a live run (its DIR/.lock; a dead run's lock is read past with a note). An incomplete result (shards missing, an interrupted
 * run) is written with status `partial`, its completeness in run.json and summary.json, and a warning; exit 0.
 * Everything is written into a hidden staging folder beside OUT (`.OUT.merging-XXXXXX`), renamed to OUT at the end
 * (into an existing OUT without a run.json: file by file, run.json last), so a merge killed or refused by the disk
 * leaves no run.json in OUT that commands would describe as a run to `--resume`; a refused write removes the
 * staging folder and throws DiskWriteError naming OUT's file (exit 5). A staging folder a killed merge left behind is
 * removed by the next merge into the same OUT (removeDeadStaging), with a note. `disk`: where the files are written (tests).
 */
export async function mergeCommand(dirs: string[], out: string, options: MergeOptions = {}): Promise<number> {
  let staging: string | undefined;
  let stagingLock: FolderLock | undefined;
  try {
    await noteFoldersInUse(dirs);
    // The folders' run.json are checked before the output folder is created; their episodes are checked as they are
    // copied into the staging folder (each line parsed once), which a refused merge removes: it leaves nothing.
    const merged = await mergeFolders(dirs, options);
    const messages = await collectMessages(dirs);
    if (!messages.ok) throw new UsageError(messages.error);
    for (const warning of messages.warnings) process.stderr.write(`warning: ${warning}\n`);
    const outExisted = await prepareMergeTarget(out);
    staging = await makeStaging(out);
    const folder = staging;
    // The staging folder is held like a results folder (DIR/.lock: pid, process start, lease), so a later merge into
    // the same OUT can tell a live merge's staging from a killed one's and remove only the latter.
    stagingLock = await lockResultsFolder(folder, commandLine());
    await writeMessages(folder, messages.texts);
    const copied = await copyEpisodes(folder, merged, messages, options);
    const { run, completeness } = mergedRunFile(dirs, merged, copied);
    const { header, seed } = headerFrom(run, copied.builder, copied.positions);
    const summary = { ...withStatistics(copied.builder, seed), completeness };
    await writeSummaryFile(folder, summary, options.disk);
    await writeRunFile(folder, run, options.disk);
    await stagingLock.release();
    await moveInto(folder, out, outExisted);
    staging = undefined;
    process.stdout.write(renderRunReport(summary, header, useColor(process.stdout)));
    reportMerge(dirs, out, merged, copied, completeness);
    return 0;
  } catch (error) {
    await stagingLock?.release();
    if (staging !== undefined) await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw mergeError(error, staging, out);
  }
}

/** A folder a live run still writes would be merged half-written and labelled "interrupted": refused (exit 2); a dead run's lock is noted. */
async function noteFoldersInUse(dirs: readonly string[]): Promise<void> {
  const notes: string[] = [];
  for (const dir of dirs) {
    const note = await checkFolderNotInUse(dir, 'merge');
    if (note !== null) notes.push(note);
  }
  for (const note of notes) process.stderr.write(`${note}\n`);
}

/**
 * Checks OUT can take the merge and removes the staging folders of killed merges into it; returns whether OUT exists.
 * OUT is made only by the final rename when it does not exist yet: a merge killed before then leaves no empty OUT
 * that commands would read as a results folder (its parent is checked for writing instead). Throws OutputFolderError
 * for an OUT that holds a run.
 */
async function prepareMergeTarget(out: string): Promise<boolean> {
  const outExisted = await isFolder(out);
  await prepareOutputFolder(outExisted ? out : dirname(resolve(out)));
  if (existsSync(join(out, RUN_FILE))) {
    throw new OutputFolderError(`${out} already holds a run (run.json exists): continue it with --resume ${out}, or choose another --out`);
  }
  const removed = await removeDeadStaging(out);
  if (removed.length > 0) process.stderr.write(`note: removed the staging folder(s) of merges into ${out} that were killed: ${removed.join(', ')}\n`);
  return outExisted;
}

/** A new staging folder `.OUT.merging-XXXXXX` beside OUT, readable as a run's folder is (mkdtemp makes it 0700). */
async function makeStaging(out: string): Promise<string> {
  const staging = await mkdtemp(join(dirname(resolve(out)), `.${basename(resolve(out))}.merging-`));
  // The merged folder is read like a run's (a report server, another user).
  await chmod(staging, 0o777 & ~process.umask());
  return staging;
}

/**
 * Copies the kept episodes into `folder` line by line (never joined into one string), summarising them as they pass;
 * compressed when asked, or when any folder given is: a merge never inflates shards that were stored compact.
 */
async function copyEpisodes(folder: string, merged: Merged, messages: Messages, options: MergeOptions): Promise<CopiedEpisodes> {
  const { run } = merged;
  const builder = new SummaryBuilder(run.config.groups, run.strategies, run.config.tasks);
  const positions = new MatrixPositions(run.config);
  const compress = options.compress === true || merged.compressed;
  const writer = new EpisodeWriter(join(folder, compress ? EPISODES_GZ_FILE : EPISODES_FILE), { compress, ...(options.disk ? { disk: options.disk } : {}) });
  let episodes = 0;
  let missingTexts = 0;
  let warnings: string[] = [];
  try {
    warnings = await merged.forEachKept((record, line) => {
      episodes += 1;
      if (referencesMissingText(record, messages.texts)) missingTexts += 1;
      const written = writer.writeLine(line);
      builder.add(record);
      positions.add(record);
      return written;
    });
  } finally {
    await writer.close();
  }
  return { episodes, missingTexts, builder, positions, warnings };
}

/**
 * The merged folder's run.json: the folders' shared configuration, without the per-process figures (timing, per-host
 * calls of pooled models) that describe one shard's run, not the merge; `partial` with its completeness when the
 * merged matrix lacks episodes.
 */
function mergedRunFile(dirs: string[], merged: Merged, copied: CopiedEpisodes): { run: RunFile; completeness: RunCompleteness } {
  const { shard: _shard, timing: _timing, model_hosts: _hosts, resumed_from: _resumed, completeness: _completeness, ...rest } = merged.run;
  const described = {
    ...rest,
    schemaVersion: SCHEMA_VERSION,
    episodes: copied.episodes,
    merged_from: dirs,
    ...(merged.missingShards.length ? { missing_shards: merged.missingShards } : {}),
    ...(merged.shardCount === undefined ? {} : { shard_count: merged.shardCount }),
    ...(merged.shardUnit === undefined ? {} : { shard_unit: merged.shardUnit }),
    merge_overlap: merged.overlap,
  };
  const completeness = describeCompleteness({ ...described, status: 'complete' }, copied.positions);
  return { run: { ...described, status: completeness.status === 'complete' ? 'complete' : 'partial', completeness }, completeness };
}

/** What the merge did, on stderr: the lines its reads skipped, episodes and folders, the overlap `--prefer` settled, incompleteness, lost texts. */
function reportMerge(dirs: readonly string[], out: string, merged: Merged, copied: CopiedEpisodes, completeness: RunCompleteness): void {
  const { overlap } = merged;
  for (const warning of copied.warnings) process.stderr.write(`warning: ${warning}\n`);
  process.stderr.write(`merged ${copied.episodes} episode(s) from ${dirs.length} folder(s) into ${out}\n`);
  if (overlap.episodes > 0)
    process.stderr.write(`note: ${overlap.episodes} episode(s) were in several folders; kept the ${overlap.prefer} folder's (--prefer)\n`);
  if (completeness.status !== 'complete') process.stderr.write(`warning: the merged run is incomplete: ${completeness.label}\n`);
  if (copied.missingTexts > 0) {
    process.stderr.write(
      `warning: ${copied.missingTexts} merged episode(s) reference messages or thinking that no folder's messages.jsonl has (shown as their hashes); ` +
        `their verdicts stand (scored when each episode ended)\n`,
    );
  }
}

/**
 * The error a failed merge throws: UsageError (exit 2) for folders that cannot be merged or an OUT that cannot take
 * them; a refused write names the file as the user knows it, in OUT, not in the staging folder (DiskWriteError, exit 5).
 */
function mergeError(error: unknown, staging: string | undefined, out: string): unknown {
  if (error instanceof ResumeError || error instanceof OutputFolderError || error instanceof FolderLockedError) return new UsageError(error.message);
  const code = diskFaultCode(error);
  if (code !== undefined && staging !== undefined) {
    const path = error instanceof DiskWriteError ? error.path : ((error as NodeJS.ErrnoException).path ?? staging);
    return new DiskWriteError(path.replace(staging, out), code);
  }
  return error;
}
