// `report DIR --csv FILE` and `export DIR --format csv|atif --out PATH`: a results folder as one CSV row per episode,
// or as one ATIF trajectory file per episode, for spreadsheets, Inspect Scout, Docent and other trajectory readers.
import { open, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFolder } from '../files/make-folder.js';
import type { EpisodeRecord, RunFile } from '../records/index.js';
import { readMessages, readResultsFolder, referencesMissingText, type ResultsFolder } from '../results-folder/index.js';
import { episodesCsvLines } from '../report/formats/episodes-csv.js';
import { episodeTrajectory } from '../report/formats/atif.js';
import { AtifTrajectory } from '../report/formats/atif-schema.js';
import { loadSuiteFile } from '../suite/load-suite.js';
import { counterfactualsOf } from './html-commands.js';
import { UsageError } from './usage-error.js';

/** The export formats (`export --format`). */
export const EXPORT_FORMATS = ['csv', 'atif'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Bytes gathered before each write of a streamed CSV file. */
const CHUNK_BYTES = 64 * 1024;

async function readFolder(dir: string): Promise<ResultsFolder> {
  const folder = await readResultsFolder(dir);
  if (!folder.ok) throw new UsageError(`cannot read results folder ${dir}: ${folder.error}`);
  for (const warning of folder.warnings) process.stderr.write(`warning: ${warning}\n`);
  return folder;
}

const writeError = (path: string, error: unknown): UsageError =>
  new UsageError(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);

/**
 * Writes the lines to stdout, waiting for it to drain when its buffer is full. A reader that closes the pipe early
 * (`| head`) ends the wait too: terminal.ts's handler then swallows the rest.
 */
async function streamToStdout(lines: Iterable<string>): Promise<void> {
  const drained = () =>
    new Promise<void>((done) => {
      const finish = () => {
        process.stdout.off('drain', finish);
        process.stdout.off('error', finish);
        done();
      };
      process.stdout.once('drain', finish);
      process.stdout.once('error', finish);
    });
  for (const line of lines) {
    if (!process.stdout.write(line)) await drained();
  }
}

/** Writes the lines to `file` in chunks of about 64 KB (the text is never held whole). Throws UsageError when it cannot. */
async function streamToFile(lines: Iterable<string>, file: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    await makeFolder(dirname(resolve(file)));
    handle = await open(file, 'w');
  } catch (error) {
    throw writeError(file, error);
  }
  try {
    let chunk = '';
    for (const line of lines) {
      chunk += line;
      if (chunk.length >= CHUNK_BYTES) {
        await handle.write(chunk);
        chunk = '';
      }
    }
    if (chunk) await handle.write(chunk);
  } catch (error) {
    throw writeError(file, error);
  } finally {
    await handle.close();
  }
}

/**
 * Writes DIR's episodes as CSV (episodes-csv.ts: a header, then one row per episode in the folder's order) to `out`,
 * or to stdout when `out` is `-`. Returns the number of rows. Throws UsageError (exit 2) for an unusable folder or
 * an unwritable file.
 */
export async function writeEpisodesCsv(dir: string, out: string): Promise<number> {
  const folder = await readFolder(dir);
  const lines = episodesCsvLines(folder.records, dir, await counterfactualsOf(dir, folder.records));
  if (out === '-') await streamToStdout(lines);
  else await streamToFile(lines, out);
  return folder.records.length;
}

/**
 * The task prompts of the run's suite (task id → prompt), when run.json names a suite file that still reads with the
 * hash the run recorded; otherwise null and a note on stderr (the trajectories then take the first user message a
 * model was sent, when messages.jsonl has it).
 */
async function suitePrompts(run: RunFile | null): Promise<Map<string, string> | null> {
  if (!run) return null;
  const loaded = await loadSuiteFile(run.suite.path).catch(() => null);
  if (!loaded?.ok || loaded.hash !== run.suite.hash) {
    process.stderr.write(
      `note: suite ${run.suite.path} is ${loaded?.ok ? 'changed since the run' : 'not readable'}; user steps carry the first message a model was sent, if stored\n`,
    );
    return null;
  }
  return new Map(loaded.tasks.map((task) => [task.id, task.prompt]));
}

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A name part safe on every file system: letters, digits, dot, dash and underscore; anything else becomes `_`. */
const safeName = (text: string): string => text.replace(/[^A-Za-z0-9._-]/g, '_');

/** The file an episode's trajectory is written to: `<task>__<strategy>__epoch-<n>.json`. */
export function trajectoryFileName(record: Pick<EpisodeRecord, 'task' | 'strategy' | 'epoch'>): string {
  return `${safeName(record.task)}__${safeName(record.strategy)}__epoch-${record.epoch}.json`;
}

/**
 * Writes one ATIF trajectory (report/formats/atif.ts) per episode of DIR into the folder `out`, which must be new or
 * empty (nothing is overwritten). Every trajectory is checked against the ATIF schema before it is written; one that
 * fails is a bug (thrown as an Error, exit 70). Returns the number of files, and of episodes referencing texts that
 * messages.jsonl lacks (exported without them). Throws UsageError (exit 2) for an
 * unusable folder, an `out` that holds files, or one that cannot be written.
 */
export async function writeAtifTrajectories(dir: string, out: string): Promise<{ files: number; missingTexts: number }> {
  const folder = await readFolder(dir);
  const existing = await readdir(out).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(writeError(out, error))));
  if (existing.length > 0) throw new UsageError(`cannot export into ${out}: it already holds ${existing.length} file(s); give a new or empty folder`);
  const messages = await readMessages(dir);
  if (!messages.ok) throw new UsageError(`cannot read results folder ${dir}: ${messages.error}`);
  for (const warning of messages.warnings) process.stderr.write(`warning: ${warning}\n`);
  const prompts = await suitePrompts(folder.run);
  const verdicts = new Map((await counterfactualsOf(dir, folder.records)).map((v) => [`${v.task}|${v.strategy}|${v.epoch}`, v]));
  const version = (JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  try {
    await makeFolder(out);
  } catch (error) {
    throw writeError(out, error);
  }
  const names = new Set<string>();
  let missingTexts = 0;
  for (const record of folder.records) {
    if (referencesMissingText(record, messages.texts)) missingTexts += 1;
    const trajectory = episodeTrajectory(record, {
      run: folder.run,
      texts: messages.texts,
      prompt: prompts?.get(record.task) ?? null,
      counterfactual: verdicts.get(`${record.task}|${record.strategy}|${record.epoch}`) ?? null,
      version,
    });
    const checked = AtifTrajectory.safeParse(trajectory);
    if (!checked.success) throw new Error(`the ATIF trajectory of ${record.key} does not match the schema (a stratbench bug): ${checked.error.message}`);
    const name = trajectoryFileName(record);
    if (names.has(name)) throw new UsageError(`cannot export ${dir}: two episodes map to the file name ${name}`);
    names.add(name);
    try {
      await writeFile(join(out, name), `${JSON.stringify(trajectory, null, 2)}\n`);
    } catch (error) {
      throw writeError(join(out, name), error);
    }
  }
  return { files: folder.records.length, missingTexts };
}

/** `stratbench export DIR --format csv|atif --out PATH`: prints what it wrote on stderr; exit 0, or 2 for bad input. */
export async function exportCommand(dir: string, options: { format: ExportFormat; out: string }): Promise<number> {
  if (options.format === 'csv') {
    const rows = await writeEpisodesCsv(dir, options.out);
    if (options.out !== '-') process.stderr.write(`wrote ${rows} episode row(s) to ${options.out}\n`);
    return 0;
  }
  if (options.out === '-') throw new UsageError('--format atif writes one file per episode into a folder; --out - (stdout) is for --format csv');
  const { files, missingTexts } = await writeAtifTrajectories(dir, options.out);
  process.stderr.write(`wrote ${files} ATIF trajectory file(s) to ${options.out}\n`);
  if (missingTexts > 0) {
    process.stderr.write(
      `warning: ${missingTexts} episode(s) reference messages or thinking that ${dir}/messages.jsonl lacks (a damaged line, ` +
        `or a run killed by an older stratbench); their trajectories lack those texts; their verdicts stand (scored when each episode ended)\n`,
    );
  }
  return 0;
}
