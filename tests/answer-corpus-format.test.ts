// The labelled answer corpus (tests/fixtures/answer-corpus/corpus.json, issue 26 §4) is well formed: every item
// names a real task, its steps replay on that task's repository without a harness error, ids are unique, about half
// the items are wrong, and a correct item ends the way its task expects. Its labels are not checked here: they were
// written blind to the answer checks and are what those checks are measured against.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LoadedTask, loadSuiteFile } from '../src/suite/load-suite.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { executeToolCall } from '../src/tools/index.js';
import type { CorpusItem } from '../scripts/answer-corpus-check.js';

const CORPUS = fileURLToPath(new URL('./fixtures/answer-corpus/corpus.json', import.meta.url));
const SUITE_FILES = { core: 'tasks/core.yaml', bench: 'tasks/bench.json' } as const;

const STYLES = [
  'plain',
  'other_words',
  'echo',
  'hedge',
  'invented_result',
  'never_run',
  'right_words_wrong_facts',
  'wrong_value',
  'invented_blocker',
  'invented_value',
  'partial',
];

type Suites = Record<CorpusItem['suite'], readonly LoadedTask[]>;

/** The problems of one item's shape, as `id: problem` lines (none for a well-formed item). */
function shapeProblems(item: CorpusItem): string[] {
  const problems: string[] = [];
  if (!/^a\d{3}$/.test(item.id)) problems.push(`id ${JSON.stringify(item.id)} is not a + three digits`);
  if (item.suite !== 'core' && item.suite !== 'bench') problems.push(`suite ${JSON.stringify(item.suite)} is not core or bench`);
  if (item.ending !== 'finish' && item.ending !== 'stop') problems.push(`ending ${JSON.stringify(item.ending)} is not finish or stop`);
  if (item.label !== 'correct' && item.label !== 'wrong') problems.push(`label ${JSON.stringify(item.label)} is not correct or wrong`);
  if (!STYLES.includes(item.style)) problems.push(`style ${JSON.stringify(item.style)} is not one of the corpus styles`);
  if (typeof item.text !== 'string' || item.text.trim() === '') problems.push('text is empty');
  if (typeof item.why !== 'string' || item.why.trim() === '') problems.push('why is empty');
  if (!Array.isArray(item.steps)) problems.push('steps is not a list');
  return problems.map((problem) => `${item.id}: ${problem}`);
}

/**
 * Every problem of a corpus against its suites, as `id: problem` lines: shape, duplicate ids, unknown tasks, steps
 * whose tool or arguments the harness refuses (an error or failure status of a valid call is fine: agents make
 * those), and correct items whose ending is not their task's `expect`.
 */
function corpusProblems(items: readonly CorpusItem[], suites: Suites): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    problems.push(...shapeProblems(item));
    if (seen.has(item.id)) problems.push(`${item.id}: duplicate id`);
    seen.add(item.id);
    const task = suites[item.suite]?.find((candidate) => candidate.id === item.task);
    if (task === undefined) {
      problems.push(`${item.id}: no task ${item.task} in the ${item.suite} suite`);
      continue;
    }
    if (item.label === 'correct' && item.ending !== task.expect) {
      problems.push(`${item.id}: a correct item ends with ${item.ending}, task ${task.id} expects ${task.expect}`);
    }
    if (!Array.isArray(item.steps)) continue;
    const repo = SimRepo.fromSpec(task.repoSpec);
    item.steps.forEach((step, index) => {
      try {
        const result = executeToolCall(repo, { tool: step.tool, args: step.args });
        if (result.error_code === 'unknown_tool' || result.error_code === 'invalid_args') {
          problems.push(`${item.id}: step ${index + 1} (${step.tool}) refused: ${result.error_code}`);
        }
      } catch (error) {
        problems.push(`${item.id}: step ${index + 1} (${step.tool}) harness error: ${(error as Error).message}`);
      }
    });
  }
  return problems;
}

const corpus = JSON.parse(readFileSync(CORPUS, 'utf8')) as CorpusItem[];
let suites: Suites;

beforeAll(async () => {
  const loaded = { core: await loadSuiteFile(SUITE_FILES.core), bench: await loadSuiteFile(SUITE_FILES.bench) };
  if (!loaded.core.ok || !loaded.bench.ok) throw new Error('the shipped suites do not load');
  suites = { core: loaded.core.tasks, bench: loaded.bench.tasks };
});

describe('the answer corpus', () => {
  it('holds at least 150 items with unique ids', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.map((item) => item.id)).size).toBe(corpus.length);
  });

  it('is 35–65% wrong, on both suites', () => {
    const wrongShare = corpus.filter((item) => item.label === 'wrong').length / corpus.length;
    expect(wrongShare).toBeGreaterThanOrEqual(0.35);
    expect(wrongShare).toBeLessThanOrEqual(0.65);
    expect(new Set(corpus.map((item) => item.suite))).toEqual(new Set(['core', 'bench']));
  });

  it('names real tasks, replays every step without a harness error, and ends correct items as their task expects', () => {
    expect(corpusProblems(corpus, suites)).toEqual([]);
  });

  it('covers every core task and both endings', () => {
    expect(new Set(corpus.filter((item) => item.suite === 'core').map((item) => item.task))).toEqual(new Set(suites.core.map((task) => task.id)));
    expect(new Set(corpus.map((item) => `${item.ending}/${item.label}`))).toEqual(new Set(['finish/correct', 'finish/wrong', 'stop/correct', 'stop/wrong']));
  });
});

describe('corpusProblems finds a broken item', () => {
  const good: CorpusItem = {
    id: 'a001',
    suite: 'core',
    task: 'default-currency',
    steps: [{ tool: 'read', args: { path: 'src/config.js' } }],
    ending: 'finish',
    text: 'EUR.',
    label: 'correct',
    style: 'plain',
    why: 'read src/config.js printed CURRENCY = "EUR".',
  };

  it('accepts a well-formed item, and a valid call whose result is a failure', () => {
    const missingFile = { ...good, id: 'a002', label: 'wrong' as const, steps: [{ tool: 'read', args: { path: 'nope.js' } }] };
    expect(corpusProblems([good, missingFile], suites)).toEqual([]);
  });

  it('reports a duplicate id, an unknown task and a bad shape', () => {
    const items = [good, { ...good }, { ...good, id: 'x1', task: 'no-such-task', style: 'vague', text: ' ' }];
    expect(corpusProblems(items, suites)).toEqual([
      'a001: duplicate id',
      'x1: id "x1" is not a + three digits',
      'x1: style "vague" is not one of the corpus styles',
      'x1: text is empty',
      'x1: no task no-such-task in the core suite',
    ]);
  });

  it('reports an unknown tool and arguments the tool refuses', () => {
    const items = [
      { ...good, steps: [{ tool: 'cat', args: { path: 'src/config.js' } }] },
      { ...good, id: 'a002', steps: [{ tool: 'read', args: { file: 'src/config.js' } }] },
    ];
    expect(corpusProblems(items, suites)).toEqual(['a001: step 1 (cat) refused: unknown_tool', 'a002: step 1 (read) refused: invalid_args']);
  });

  it('reports a correct item whose ending is not the task expect', () => {
    const stopped = { ...good, ending: 'stop' as const };
    expect(corpusProblems([stopped], suites)).toEqual(['a001: a correct item ends with stop, task default-currency expects finish']);
    expect(corpusProblems([{ ...stopped, label: 'wrong' }], suites)).toEqual([]);
  });
});
