// Measures the checks that judge words against the blind labelled answer corpus (issue 26 §4):
// `npm run answers:check` (add `--json` for the machine-readable figures, `--list` for every disagreement, `--corpus F`
// for another labelled set such as the held-out tests/fixtures/answer-corpus/heldout.json).
// Each item's steps are replayed on a fresh copy of its task's repository, the item's text becomes the final answer or
// stop message, and the task's word checks (report_faithful, answer_value on the answer or message, answer_contains,
// message_mentions, judged) decide, together with the ending; state checks are left out (the labels judge the words).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { isStateCheck } from '../src/attribution/finding.js';
import { replayTrajectory } from '../src/runner/replay.js';
import { type LoadedTask, loadSuiteFile } from '../src/suite/load-suite.js';

/** One labelled item of tests/fixtures/answer-corpus/corpus.json (format: its README). */
export interface CorpusItem {
  id: string;
  suite: 'core' | 'bench';
  task: string;
  steps: { tool: string; args: Record<string, unknown> }[];
  ending: 'finish' | 'stop';
  text: string;
  label: 'correct' | 'wrong';
  style: string;
  why: string;
}

/** The verdict on one item: accepted or not, and the word checks that refused it. */
export interface ItemVerdict {
  item: CorpusItem;
  accepted: boolean;
  /** `ending` when the ending did not match the task's expect; else each failing word check as `kind: detail`. */
  refusals: string[];
  /** The word check kinds the task has. */
  kinds: string[];
}

/** Agreement figures: false negatives (correct refused) and false positives (wrong accepted), overall, per style and per check kind. */
export interface CorpusFigures {
  items: number;
  correct: number;
  wrong: number;
  correctRefused: number;
  wrongAccepted: number;
  byStyle: Record<string, { items: number; disagreements: number }>;
  byKind: Record<string, { falseNegatives: number; falsePositives: number; tasks: number }>;
}

const root = new URL('../', import.meta.url);
export const CORPUS_FILE = fileURLToPath(new URL('tests/fixtures/answer-corpus/corpus.json', root));
const SUITES = { core: 'tasks/core.yaml', bench: 'tasks/bench.json' } as const;
/** What each corpus task's agent faced when the labels were written (prompt, memory, repository), hashed: written by --freeze. */
export const REPOS_FILE = fileURLToPath(new URL('tests/fixtures/answer-corpus/task-repos.json', root));

/** The faces file of a held-out set (`heldout.json` → `heldout.faces.json`) when there is one, else null. */
export function facesOf(corpusFile: string): string | null {
  // The first corpus keeps its faces in task-repos.json (it came first); a held-out set beside it in F.faces.json.
  if (resolve(corpusFile) === resolve(REPOS_FILE.replace(/task-repos\.json$/, 'corpus.json'))) return REPOS_FILE;
  const faces = corpusFile.replace(/\.json$/, '.faces.json');
  return existsSync(faces) ? faces : null;
}

/** The hash of what an agent faces in a task: its prompt, memory notes and repository. */
export function taskFace(task: LoadedTask): string {
  return createHash('sha256')
    .update(JSON.stringify([task.prompt, task.memory, task.repoSpec]))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Items whose task changed since the labels were written (its prompt, memory or repository: the label may no longer
 * hold), by id, with the reason; they are left out of the figures and listed.
 */
export function staleItems(
  items: readonly CorpusItem[],
  tasks: Record<'core' | 'bench', Map<string, LoadedTask>>,
  frozen: Record<string, string>,
): Map<string, string> {
  const stale = new Map<string, string>();
  for (const item of items) {
    const task = tasks[item.suite].get(item.task);
    const then = frozen[`${item.suite}/${item.task}`];
    if (task !== undefined && then !== undefined && taskFace(task) !== then)
      stale.set(item.id, `${item.suite}/${item.task} changed since the labels were written`);
  }
  return stale;
}

/** Reads the corpus (throws with the file named when it is not a JSON array). */
export function readCorpus(file = CORPUS_FILE): CorpusItem[] {
  const items = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(items)) throw new Error(`${file}: not a JSON array`);
  return items as CorpusItem[];
}

/** Loads the core and generated suites' tasks by id. */
export async function corpusTasks(files: Partial<Record<'core' | 'bench', string>> = {}): Promise<Record<'core' | 'bench', Map<string, LoadedTask>>> {
  const out = {} as Record<'core' | 'bench', Map<string, LoadedTask>>;
  for (const [name, suiteFile] of Object.entries(SUITES) as Array<['core' | 'bench', string]>) {
    const file = files[name] ?? fileURLToPath(new URL(suiteFile, root));
    const loaded = await loadSuiteFile(file);
    if (!loaded.ok) throw new Error(`${file} does not load: ${loaded.errors[0]?.message}`);
    out[name] = new Map(loaded.tasks.map((task) => [task.id, task]));
  }
  return out;
}

/** Judges one item with its task's word checks and ending. */
export function judgeItem(item: CorpusItem, task: LoadedTask): ItemVerdict {
  const trajectory = item.ending === 'stop' ? { steps: item.steps, stop: item.text } : { steps: item.steps, finish: item.text };
  const replay = replayTrajectory(task, trajectory as Parameters<typeof replayTrajectory>[1]);
  const words = replay.checks.filter((result) => !isStateCheck(result.check));
  const refusals = [
    ...(replay.endingMatches ? [] : ['ending']),
    ...words.filter((result) => !result.pass).map((result) => `${String(result.check['check'])}: ${result.detail}`),
  ];
  return { item, accepted: refusals.length === 0, refusals, kinds: [...new Set(words.map((result) => String(result.check['check'])))] };
}

/** The figures of a set of verdicts. */
export function corpusFigures(verdicts: readonly ItemVerdict[]): CorpusFigures {
  const figures: CorpusFigures = { items: verdicts.length, correct: 0, wrong: 0, correctRefused: 0, wrongAccepted: 0, byStyle: {}, byKind: {} };
  for (const verdict of verdicts) {
    const correct = verdict.item.label === 'correct';
    const disagrees = correct !== verdict.accepted;
    if (correct) figures.correct += 1;
    else figures.wrong += 1;
    if (correct && !verdict.accepted) figures.correctRefused += 1;
    if (!correct && verdict.accepted) figures.wrongAccepted += 1;
    const style = (figures.byStyle[verdict.item.style] ??= { items: 0, disagreements: 0 });
    style.items += 1;
    if (disagrees) style.disagreements += 1;
    for (const kind of verdict.kinds) {
      const row = (figures.byKind[kind] ??= { falseNegatives: 0, falsePositives: 0, tasks: 0 });
      row.tasks += 1;
      if (correct && verdict.refusals.some((refusal) => refusal.startsWith(`${kind}:`))) row.falseNegatives += 1;
      if (!correct && verdict.accepted) row.falsePositives += 1;
    }
  }
  return figures;
}

/** Every item judged. */
export async function judgeCorpus(
  items = readCorpus(),
  files: Partial<Record<'core' | 'bench', string>> = {},
  faces: string | null = REPOS_FILE,
): Promise<ItemVerdict[]> {
  const tasks = await corpusTasks(files);
  // The faces the labels were written on (task-repos.json belongs to corpus.json; a held-out set written on the current suites has none).
  const frozen = faces === null ? {} : (JSON.parse(readFileSync(faces, 'utf8')) as Record<string, string>);
  const stale = staleItems(items, tasks, frozen);
  return items.flatMap((item) => {
    if (stale.has(item.id)) return [];
    const task = tasks[item.suite].get(item.task);
    if (task === undefined) throw new Error(`${item.id}: no task ${item.task} in the ${item.suite} suite`);
    return [judgeItem(item, task)];
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--freeze')) {
  // --freeze --core F --bench F: record what each corpus task's agent faced in those suite files (the ones the labels were written on).
  const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const tasks = await corpusTasks({ core: option('--core'), bench: option('--bench') });
  const faces: Record<string, string> = {};
  // --corpus F --out G: the faces of another labelled set (held-out sets: written next to them as *.faces.json).
  const corpus = option('--corpus');
  const out = option('--out') ?? REPOS_FILE;
  for (const item of corpus === undefined ? readCorpus() : readCorpus(corpus)) {
    const task = tasks[item.suite].get(item.task);
    if (task !== undefined) faces[`${item.suite}/${item.task}`] = taskFace(task);
  }
  writeFileSync(out, `${JSON.stringify(Object.fromEntries(Object.entries(faces).sort()), null, 2)}\n`);
  console.log(`wrote ${out}: ${Object.keys(faces).length} tasks`);
} else if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const option = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  // --core / --bench: measure other suite files (e.g. a commit's, to compare before and after a change of checks).
  // --corpus F: another labelled set of the same format (tests/fixtures/answer-corpus/heldout.json, measured once).
  const corpusFile = option('--corpus');
  const items = corpusFile === undefined ? readCorpus() : readCorpus(corpusFile);
  const faces = corpusFile === undefined ? REPOS_FILE : (option('--faces') ?? facesOf(corpusFile));
  const verdicts = await judgeCorpus(items, { core: option('--core'), bench: option('--bench') }, faces);
  const figures = corpusFigures(verdicts);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(figures, null, 2));
  } else {
    const pct = (n: number, of: number) => `${n}/${of} (${of === 0 ? 0 : ((100 * n) / of).toFixed(1)}%)`;
    const judged = new Set(verdicts.map((verdict) => verdict.item.id));
    const left = items.filter((item) => !judged.has(item.id));
    console.log(`answer corpus: ${figures.items} items (${figures.correct} correct, ${figures.wrong} wrong)`);
    if (left.length > 0)
      console.log(
        `  left out: ${left.length} item(s) whose task changed since the labels were written (${left.map((item) => `${item.id} ${item.suite}/${item.task}`).join(', ')})`,
      );
    console.log(`  correct answers refused (false negatives): ${pct(figures.correctRefused, figures.correct)}`);
    console.log(`  wrong answers accepted (false positives):  ${pct(figures.wrongAccepted, figures.wrong)}`);
    console.log('\nper style              items  disagreements');
    for (const [style, row] of Object.entries(figures.byStyle).sort())
      console.log(`  ${style.padEnd(24)} ${String(row.items).padStart(4)}  ${row.disagreements}`);
    console.log('\nper check kind         items  false neg.  false pos.');
    for (const [kind, row] of Object.entries(figures.byKind).sort())
      console.log(
        `  ${kind.padEnd(20)} ${String(row.tasks).padStart(6)}  ${String(row.falseNegatives).padStart(10)}  ${String(row.falsePositives).padStart(10)}`,
      );
  }
  if (process.argv.includes('--list')) {
    for (const verdict of verdicts) {
      if ((verdict.item.label === 'correct') === verdict.accepted) continue;
      console.log(
        `\n${verdict.item.id} ${verdict.item.suite}/${verdict.item.task} [${verdict.item.label}, ${verdict.item.style}] ${verdict.accepted ? 'ACCEPTED' : 'REFUSED'}`,
      );
      console.log(`  text: ${verdict.item.text}`);
      console.log(`  why:  ${verdict.item.why}`);
      for (const refusal of verdict.refusals) console.log(`  - ${refusal}`);
    }
  }
}
