// The commands that read results folders instead of running episodes: report, merge, compare, explain.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { makeFolder } from '../files/make-folder.js';
import { basename, dirname, join, resolve } from 'node:path';
import { SCHEMA_VERSION, type RunCompleteness, type RunFile } from '../records/index.js';
import { judgeLine } from './judge-setup.js';
import { formatAgreement } from '../report/judge-agreement.js';
import {
  checkFolderNotInUse,
  collectMessages,
  commandLine,
  type FolderLock,
  LOCK_FILE,
  lockResultsFolder,
  type Disk,
  diskFaultCode,
  DiskWriteError,
  RUN_FILE,
  describeCompleteness,
  EPISODES_FILE,
  EPISODES_GZ_FILE,
  EpisodeWriter,
  FolderLockedError,
  MatrixPositions,
  mergeFolders,
  openResultsFolder,
  OutputFolderError,
  prepareOutputFolder,
  readMessages,
  readResultsFolder,
  referencesMissingText,
  ResumeError,
  scanEpisodes,
  writeRunFile,
  writeMessages,
  writeSummaryFile,
  removePartialFile,
} from '../results-folder/index.js';
import {
  explainEpisode,
  findEpisode,
  renderRunReport,
  renderRunReportMarkdown,
  SummaryBuilder,
  withStatistics,
  type RunHeader,
  type SummaryFile,
} from '../report/index.js';
import { runCompare } from '../report/compare.js';
import { checkPairs } from './pairs-check.js';
import { outputWriteError, UsageError } from './usage-error.js';
import { counterfactualLines } from './explain-counterfactual.js';
import { useColor } from './terminal.js';

function headerFrom(
  run: RunFile | null,
  builder: SummaryBuilder,
  positions: MatrixPositions | undefined,
): { header: RunHeader; groups: string[]; strategies: string[]; seed: number; completeness?: RunCompleteness } {
  const completeness = run && positions ? describeCompleteness(run, positions) : undefined;
  const summary = builder.build();
  const strategies = run?.strategies ?? summary.strategies.map((s) => s.strategy);
  const groups = run?.config.groups ?? summary.groups;
  return {
    header: {
      ...(run ? { suiteName: run.suite.name, epochs: run.epochs } : {}),
      // The matrix's tasks (a shard or an interrupted run holds episodes of fewer; the completeness line says so).
      tasks: run?.config.tasks.length ?? builder.tasks,
      strategies,
      models: run?.models ?? {},
      notes: [...Object.values(run?.model_notes ?? {}), ...(run?.judge ? [judgeLine(run.judge, formatAgreement)] : [])],
      completeness: completeness?.label ?? null,
    },
    groups,
    strategies,
    seed: run?.seed ?? 1,
    ...(completeness ? { completeness } : {}),
  };
}

/**
 * Reads a results folder one episode at a time into its summary (SummaryBuilder) and the matrix cells it holds:
 * memory does not grow with the traces, only by a few bytes an episode. Throws UsageError (exit 2) for an
 * unusable folder, naming the file and the problem.
 */
async function summariseFolder(dir: string, pairs?: [string, string][]): Promise<{ summary: SummaryFile; header: RunHeader; run: RunFile | null }> {
  const folder = await openResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  const { run } = folder;
  let builder = new SummaryBuilder(run?.config.groups ?? [], run?.strategies ?? [], run?.config.tasks ?? []);
  let positions = run ? new MatrixPositions(run.config) : undefined;
  const scanned = await scanEpisodes(
    folder.episodesPath,
    () => {
      builder = new SummaryBuilder(run?.config.groups ?? [], run?.strategies ?? [], run?.config.tasks ?? []);
      positions = run ? new MatrixPositions(run.config) : undefined;
      return (record) => {
        builder.add(record);
        positions?.add(record);
      };
    },
    run?.config,
  );
  if (!scanned.ok) throw new UsageError(`cannot read results folder ${dir}: ${scanned.error}`);
  for (const warning of [...scanned.warnings, ...folder.warnings]) process.stderr.write(`warning: ${warning}\n`);
  const { header, seed, completeness, strategies } = headerFrom(run, builder, positions);
  checkPairs(strategies, pairs);
  return { summary: { ...withStatistics(builder, seed, pairs), ...(completeness ? { completeness } : {}) }, header, run };
}

/** `stratbench report DIR`: re-prints the run's tables from its files; nothing runs. Exit 2 for an unusable folder. */
export async function reportCommand(dir: string, options: { markdown?: string; json?: boolean; wide?: boolean; pairs?: [string, string][] }): Promise<number> {
  const { summary, header } = await summariseFolder(dir, options.pairs);
  if (options.markdown === '-') {
    // "-": the markdown alone on stdout (as `--csv -`), e.g. into a CI step summary.
    process.stdout.write(renderRunReportMarkdown(summary, header));
    return 0;
  }
  if (options.markdown) {
    try {
      await makeFolder(dirname(options.markdown));
      await writeFile(options.markdown, renderRunReportMarkdown(summary, header));
    } catch (error) {
      await removePartialFile(options.markdown);
      throw outputWriteError(options.markdown, error);
    }
  }
  process.stdout.write(
    options.json ? `${JSON.stringify(summary, null, 2)}\n` : renderRunReport(summary, header, useColor(process.stdout), { wide: options.wide === true }),
  );
  return 0;
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
export async function mergeCommand(dirs: string[], out: string, options: { prefer?: 'first' | 'last'; compress?: boolean; disk?: Disk } = {}): Promise<number> {
  let staging: string | undefined;
  let stagingLock: FolderLock | undefined;
  let outExisted = true;
  try {
    // A folder a live run still writes would be merged half-written and labelled "interrupted": refused (exit 2).
    const notes: string[] = [];
    for (const dir of dirs) {
      const note = await checkFolderNotInUse(dir, 'merge');
      if (note !== null) notes.push(note);
    }
    for (const note of notes) process.stderr.write(`${note}\n`);
    // Everything is read and checked before the output folder is created: a refused merge leaves nothing.
    const { forEachKept, run, compressed, missingShards, shardCount, overlap } = await mergeFolders(dirs, options);
    const messages = await collectMessages(dirs);
    if (!messages.ok) throw new UsageError(messages.error);
    for (const warning of messages.warnings) process.stderr.write(`warning: ${warning}\n`);
    outExisted = await isFolder(out);
    // OUT is made only by the final rename when it does not exist yet: a merge killed before then leaves no empty OUT
    // that commands would read as a results folder (its parent is checked for writing instead).
    await prepareOutputFolder(outExisted ? out : dirname(resolve(out)));
    if (existsSync(join(out, RUN_FILE))) {
      throw new OutputFolderError(`${out} already holds a run (run.json exists): continue it with --resume ${out}, or choose another --out`);
    }
    const removed = await removeDeadStaging(out);
    if (removed.length > 0) process.stderr.write(`note: removed the staging folder(s) of merges into ${out} that were killed: ${removed.join(', ')}\n`);
    staging = await mkdtemp(join(dirname(resolve(out)), `.${basename(resolve(out))}.merging-`));
    // mkdtemp makes the folder 0700; the merged folder is read like a run's (a report server, another user).
    await chmod(staging, 0o777 & ~process.umask());
    const folder = staging;
    // The staging folder is held like a results folder (DIR/.lock: pid, process start, lease), so a later merge into
    // the same OUT can tell a live merge's staging from a killed one's and remove only the latter.
    stagingLock = await lockResultsFolder(folder, commandLine());
    await writeMessages(folder, messages.texts);
    // The kept episodes are copied line by line (never joined into one string) and summarised as they pass.
    const builder = new SummaryBuilder(run.config.groups, run.strategies, run.config.tasks);
    const positions = new MatrixPositions(run.config);
    // Compressed when asked, or when any folder given is: a merge never inflates shards that were stored compact.
    const compress = options.compress === true || compressed;
    const writer = new EpisodeWriter(join(folder, compress ? EPISODES_GZ_FILE : EPISODES_FILE), { compress, ...(options.disk ? { disk: options.disk } : {}) });
    let episodes = 0;
    let missingTexts = 0;
    try {
      await forEachKept((record, line) => {
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
    // Per-process figures (timing, per-host calls of pooled models) describe one shard's run, not the merge.
    const { shard: _shard, timing: _timing, model_hosts: _hosts, resumed_from: _resumed, completeness: _completeness, ...rest } = run;
    const described = {
      ...rest,
      schemaVersion: SCHEMA_VERSION,
      episodes,
      merged_from: dirs,
      ...(missingShards.length ? { missing_shards: missingShards } : {}),
      ...(shardCount === undefined ? {} : { shard_count: shardCount }),
      merge_overlap: overlap,
    };
    const completeness = describeCompleteness({ ...described, status: 'complete' }, positions);
    const merged: RunFile = { ...described, status: completeness.status === 'complete' ? 'complete' : 'partial', completeness };
    const { header, seed } = headerFrom(merged, builder, positions);
    const summary = { ...withStatistics(builder, seed), completeness };
    await writeSummaryFile(folder, summary, options.disk);
    await writeRunFile(folder, merged, options.disk);
    await stagingLock.release();
    await moveInto(folder, out, outExisted);
    staging = undefined;
    process.stdout.write(renderRunReport(summary, header, useColor(process.stdout)));
    process.stderr.write(`merged ${episodes} episode(s) from ${dirs.length} folder(s) into ${out}\n`);
    if (overlap.episodes > 0)
      process.stderr.write(`note: ${overlap.episodes} episode(s) were in several folders; kept the ${overlap.prefer} folder's (--prefer)\n`);
    if (completeness.status !== 'complete') process.stderr.write(`warning: the merged run is incomplete: ${completeness.label}\n`);
    if (missingTexts > 0) {
      process.stderr.write(
        `warning: ${missingTexts} merged episode(s) reference messages or thinking that no folder's messages.jsonl has (shown as their hashes); ` +
          `their verdicts stand (scored when each episode ended)\n`,
      );
    }
    return 0;
  } catch (error) {
    await stagingLock?.release();
    if (staging !== undefined) await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (error instanceof ResumeError || error instanceof OutputFolderError || error instanceof FolderLockedError) throw new UsageError(error.message);
    // A refused write names the file as the user knows it: in OUT, not in the staging folder.
    const code = diskFaultCode(error);
    if (code !== undefined && staging !== undefined) {
      const path = error instanceof DiskWriteError ? error.path : ((error as NodeJS.ErrnoException).path ?? staging);
      throw new DiskWriteError(path.replace(staging, out), code);
    }
    throw error;
  }
}

/** How old a staging folder without a lock must be before a later merge treats it as a killed one's, ms. */
const UNLOCKED_STAGING_MS = 60_000;

/**
 * Removes the staging folders (`.OUT.merging-XXXXXX` beside OUT) that merges killed by SIGKILL or a power cut left:
 * those whose DIR/.lock names a dead process (checkFolderNotInUse: this host's pid and start, another host's lease),
 * and those without a lock older than UNLOCKED_STAGING_MS (a merge killed between creating the folder and locking
 * it). A live merge's staging is left alone. Returns the paths removed.
 */
async function removeDeadStaging(out: string): Promise<string[]> {
  const parent = dirname(resolve(out));
  const prefix = `.${basename(resolve(out))}.merging-`;
  const names = (await readdir(parent).catch(() => [] as string[])).filter((name) => name.startsWith(prefix));
  const removed: string[] = [];
  for (const name of names) {
    const path = join(parent, name);
    let dead: boolean;
    if (existsSync(join(path, LOCK_FILE))) {
      dead = await checkFolderNotInUse(path, 'merge').then(
        () => true,
        () => false,
      );
    } else {
      const since = await stat(path).then(
        (found) => found.mtimeMs,
        () => undefined,
      );
      dead = since !== undefined && Date.now() - since > UNLOCKED_STAGING_MS;
    }
    if (!dead) continue;
    await rm(path, { recursive: true, force: true }).catch(() => undefined);
    removed.push(path);
  }
  return removed;
}

const isFolder = (path: string): Promise<boolean> =>
  stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );

/**
 * Puts the files of `staging` in `out`: renames the folder over `out` when `out` was created for this merge (empty),
 * else moves the files one by one, run.json last (a kill mid-way leaves no run.json describing a half-moved run),
 * and removes `staging`.
 */
async function moveInto(staging: string, out: string, outExisted: boolean): Promise<void> {
  if (!outExisted || (await readdir(out)).length === 0) {
    await rename(staging, out);
    return;
  }
  const names = (await readdir(staging)).sort((a, b) => Number(a === RUN_FILE) - Number(b === RUN_FILE));
  for (const name of names) await rename(join(staging, name), join(out, name));
  await rm(staging, { recursive: true, force: true });
}

/**
 * `stratbench compare BASE HEAD`: exit 0 no regression (or not gating), 1 regressed and 3 inconclusive (with
 * `failOnRegression`), 2 unusable input — a head lacking base episodes without `allowPartial` included.
 */
export async function compareCommand(
  base: string,
  head: string,
  options: {
    failOnRegression?: boolean;
    allowPartial?: boolean;
    maxErrorRate?: number;
    minEffect?: number;
    json?: boolean;
    markdown?: string;
    junit?: string;
    wide?: boolean;
  },
): Promise<number> {
  const result = await runCompare(base, head, {
    wide: options.wide === true,
    failOnRegression: options.failOnRegression === true,
    allowPartial: options.allowPartial === true,
    ...(options.maxErrorRate === undefined ? {} : { maxErrorRate: options.maxErrorRate }),
    ...(options.minEffect === undefined ? {} : { minEffect: options.minEffect }),
    json: options.json === true,
    ...(options.markdown ? { markdownFile: options.markdown } : {}),
    ...(options.junit ? { junitFile: options.junit } : {}),
    color: useColor(process.stdout),
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

/**
 * `stratbench explain DIR TASK STRATEGY [--epoch N] [--messages]`: prints one episode in order (see explainEpisode),
 * with the messages each model call was sent and the thinking it returned (in full with `messages`), and for a failed
 * episode its counterfactual replay (explain-counterfactual.ts). Throws
 * UsageError (exit 2) for an unusable folder (naming the file and the problem) or an episode it lacks.
 */
export async function explainCommand(dir: string, task: string, strategy: string, options: { epoch?: number; messages?: boolean } = {}): Promise<number> {
  const folder = await readResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  for (const warning of folder.warnings) process.stderr.write(`warning: ${warning}\n`);
  const found = findEpisode(folder.records, task, strategy, options.epoch);
  if (!found.ok) throw new UsageError(found.error);
  const messages = await readMessages(dir);
  if (!messages.ok) throw new UsageError(`cannot read results folder ${dir}: ${messages.error}`);
  for (const warning of messages.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (referencesMissingText(found.record, messages.texts)) {
    process.stderr.write(
      `warning: this episode references messages or thinking that ${dir}/messages.jsonl lacks (shown as their hashes); ` +
        'its verdict stands (scored when the episode ended)\n',
    );
  }
  const counterfactual = await counterfactualLines(folder.run, found.record);
  process.stdout.write(`${explainEpisode(found.record, { texts: messages.texts, full: options.messages === true, counterfactual })}\n`);
  return 0;
}
