// For `report DIR --csv FILE` and `export DIR --format csv|atif --out PATH`: a results folder as one CSV row per episode,
// or as one Harbor trial folder per episode holding its ATIF trajectories, for spreadsheets, Harbor, Inspect Scout,
// Docent and other trajectory readers.
import { createHash } from 'node:crypto';
import { open, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeFolder } from '../files/make-folder.js';
import type { EpisodeRecord, RunFile } from '../records/index.js';
import { readMessages, readResultsFolder, referencesMissingText, removePartialFile, type ResultsFolder } from '../results-folder/index.js';
import { episodesCsvLines } from '../report/formats/episodes-csv.js';
import { type AtifToolDefinition, episodeTrial } from '../report/formats/atif.js';
import { AtifTrajectory } from '../report/formats/atif-schema.js';
import { loadSuiteFile } from '../suite/load-suite.js';
import { argsSchema, TOOL_NAMES, TOOLS } from '../tools/index.js';
import { counterfactualsOf } from './html-commands.js';
import { outputWriteError, UsageError } from './usage-error.js';

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

const writeError = outputWriteError;

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
    await handle.close().catch(() => undefined);
    await removePartialFile(file);
    throw writeError(file, error);
  } finally {
    await handle.close().catch(() => undefined);
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

/** Longest trial folder name (bytes, all ASCII): well under the 255 of ext4, APFS and NTFS. */
const MAX_TRIAL_NAME = 200;

/**
 * The trial folder of an episode: `<task>__<strategy>__epoch-<n>`, the way Harbor names a trial `<task>__<id>`. Stable
 * (from the episode alone) and safe on every file system; when a part had to change (a character outside
 * `[A-Za-z0-9._-]`, a `__` that would blur the separator) or the name is longer than 200 characters, the first 8 hex
 * digits of the sha256 of `task|strategy|epoch` are appended (after shortening the task part), so that two episodes
 * never share a folder.
 */
export function trialName(record: Pick<EpisodeRecord, 'task' | 'strategy' | 'epoch'>): string {
  const plain = (part: string) => safeName(part) === part && !part.includes('__');
  const task = safeName(record.task).replaceAll('__', '_-');
  const rest = `__${safeName(record.strategy).replaceAll('__', '_-')}__epoch-${record.epoch}`;
  const name = `${task}${rest}`;
  if (plain(record.task) && plain(record.strategy) && name.length <= MAX_TRIAL_NAME) return name;
  const hash = createHash('sha256').update(`${record.task}|${record.strategy}|${record.epoch}`).digest('hex').slice(0, 8);
  const suffix = `${rest}__${hash}`;
  return `${task.slice(0, Math.max(1, MAX_TRIAL_NAME - suffix.length))}${suffix}`;
}

/** The repository tools (tools/) as ATIF's agent.tool_definitions lists them: OpenAI's function-calling form, registry order. */
export function atifToolDefinitions(): AtifToolDefinition[] {
  return TOOL_NAMES.map((name) => ({ type: 'function', function: { name, description: TOOLS[name].description, parameters: argsSchema(TOOLS[name]) } }));
}

/** Checks one trajectory against the ATIF schema; one that fails is a stratbench bug (thrown as an Error, exit 70). */
function checked(trajectory: AtifTrajectory, what: string): AtifTrajectory {
  const result = AtifTrajectory.safeParse(trajectory);
  if (!result.success) throw new Error(`the ATIF trajectory ${what} does not match the schema (a stratbench bug): ${result.error.message}`);
  return trajectory;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  try {
    await makeFolder(dirname(file));
    await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
  } catch (error) {
    await removePartialFile(file);
    throw writeError(file, error);
  }
}

/**
 * Writes each episode of DIR as a Harbor trial folder (report/formats/atif.ts, decision 0035) into the folder `out`,
 * which must be new or empty (nothing is overwritten): `out/<trial>/agent/trajectory.json` (trialName), where Harbor's
 * viewer and trace export read a trial's trajectory, and beside it `trajectory.sub-<role>-<n>.json` for each delegated
 * role call (the subagent trajectories it references; named to sort after `trajectory.json`, as Harbor picks the
 * first of the sorted names). Every trajectory is checked against the ATIF schema
 * (atif-schema.ts) before it is written; one that fails is a bug (thrown as an Error, exit 70). Returns the number of
 * trials, of files, and of episodes referencing texts that messages.jsonl lacks (exported without them). Throws
 * UsageError (exit 2) for an unusable folder, an `out` that holds files, or one that cannot be written.
 */
export async function writeAtifTrajectories(dir: string, out: string): Promise<{ trials: number; files: number; missingTexts: number }> {
  const folder = await readFolder(dir);
  const existing = await readdir(out).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(writeError(out, error))));
  if (existing.length > 0) throw new UsageError(`cannot export into ${out}: it already holds ${existing.length} file(s); give a new or empty folder`);
  const messages = await readMessages(dir);
  if (!messages.ok) throw new UsageError(`cannot read results folder ${dir}: ${messages.error}`);
  for (const warning of messages.warnings) process.stderr.write(`warning: ${warning}\n`);
  const prompts = await suitePrompts(folder.run);
  const verdicts = new Map((await counterfactualsOf(dir, folder.records)).map((v) => [`${v.task}|${v.strategy}|${v.epoch}`, v]));
  const version = (JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const tools = atifToolDefinitions();
  try {
    await makeFolder(out);
  } catch (error) {
    throw writeError(out, error);
  }
  const names = new Set<string>();
  let missingTexts = 0;
  let files = 0;
  for (const record of folder.records) {
    if (referencesMissingText(record, messages.texts)) missingTexts += 1;
    const trial = episodeTrial(record, {
      run: folder.run,
      texts: messages.texts,
      prompt: prompts?.get(record.task) ?? null,
      counterfactual: verdicts.get(`${record.task}|${record.strategy}|${record.epoch}`) ?? null,
      version,
      tools,
    });
    const name = trialName(record);
    if (names.has(name)) throw new UsageError(`cannot export ${dir}: two episodes map to the trial folder ${name}`);
    names.add(name);
    const agentDir = join(out, name, 'agent');
    for (const subagent of trial.subagents) {
      await writeJson(join(agentDir, subagent.file), checked(subagent.trajectory, `${subagent.file} of ${record.key}`));
    }
    // The episode's trajectory last: a trial whose trajectory.json exists has every file it references.
    await writeJson(join(agentDir, 'trajectory.json'), checked(trial.trajectory, `of ${record.key}`));
    files += 1 + trial.subagents.length;
  }
  return { trials: folder.records.length, files, missingTexts };
}
