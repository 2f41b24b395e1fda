// compare on result columns gives exactly what compare on per-episode outcome objects gave (golden files written by
// the last commit before the change, d7d594b): multi-epoch folders with errors, families, flips, a partial head, an
// interrupted base, lines out of order and repeated lines. Rewrite the golden with UPDATE_GOLDEN=1 only on purpose.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompare, type RunCompareOptions } from '../src/report/compare.js';
import type { EpisodeRecord, RunFile } from '../src/records/index.js';
import { episodeRecord, runFile } from './support/results-files.js';

const GOLDEN = join(import.meta.dirname, 'fixtures/compare-golden/multi-epoch.json');
const STRATEGIES = ['direct', 'react', 'plan-replan'];
const TASKS = Array.from({ length: 9 }, (_, index) => `t${index}`);
const EPOCHS = 5;

/** A deterministic result for strategy × task × epoch on one side: successes, failures, some infrastructure errors. */
function result(side: 'base' | 'head', strategy: number, task: number, epoch: number): boolean | 'error' {
  const mix = (strategy * 31 + task * 17 + epoch * 7 + (side === 'head' ? 5 : 0)) % 11;
  if (mix === 3 && epoch % 2 === 1) return 'error';
  // The head loses react on t0–t3 in every epoch (stable-pass → stable-fail flips) and gains direct on t6–t8.
  if (side === 'head' && strategy === 1 && task < 4) return false;
  if (side === 'head' && strategy === 0 && task >= 6) return true;
  if (side === 'base' && strategy === 1 && task < 4) return true;
  return mix < 6;
}

function record(side: 'base' | 'head', strategy: number, task: number, epoch: number): EpisodeRecord {
  const outcome = result(side, strategy, task, epoch);
  const name = STRATEGIES[strategy] as string;
  const id = TASKS[task] as string;
  return episodeRecord(id, {
    strategy: name,
    epoch,
    key: `${id}|${name}|${epoch}|h`,
    group: task % 3 === 0 ? 'single-action' : 'multi-step',
    ...(task >= 3 ? { family: `f${Math.floor(task / 3)}` } : {}),
    models: { direct: 'scripted', agent: 'scripted', planner: 'scripted' },
    outcome: outcome === 'error' ? { status: 'error', reason: 'model_unreachable' } : { status: 'finished', reason: 'answered' },
    success: outcome === true,
  });
}

/** Every cell in an order that is not the matrix's (epochs descending, tasks interleaved), minus `skip`. */
function lines(side: 'base' | 'head', skip: (strategy: number, task: number, epoch: number) => boolean = () => false): string[] {
  const out: string[] = [];
  for (let epoch = EPOCHS - 1; epoch >= 0; epoch -= 1)
    for (const task of [...TASKS.keys()].sort((a, b) => (a % 2) - (b % 2) || a - b))
      for (let strategy = 0; strategy < STRATEGIES.length; strategy += 1)
        if (!skip(strategy, task, epoch)) out.push(JSON.stringify(record(side, strategy, task, epoch)));
  return out;
}

const run = (overrides: Partial<RunFile> = {}): RunFile =>
  runFile({
    strategies: STRATEGIES,
    epochs: EPOCHS,
    models: { direct: 'scripted', agent: 'scripted', planner: 'scripted' },
    ...overrides,
    config: {
      ...runFile().config,
      strategies: STRATEGIES,
      tasks: TASKS,
      epochs: EPOCHS,
      groups: ['single-action', 'multi-step'],
      model_specs: { direct: 'scripted', agent: 'scripted', planner: 'scripted' },
    },
  });

let root: string;

async function folder(name: string, episodeLines: string[], runJson: RunFile | null): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'episodes.jsonl'), `${episodeLines.join('\n')}\n`);
  if (runJson !== null) await writeFile(join(dir, 'run.json'), JSON.stringify(runJson));
  return dir;
}

/** What a user sees of a comparison, the temporary root replaced by ROOT: exit code, stdout (text and JSON), stderr. */
async function compared(base: string, head: string, options: Partial<RunCompareOptions> = {}): Promise<unknown> {
  // --wide: the text does not depend on how long the temporary root's path is (fitting wraps long lines).
  const settings: RunCompareOptions = { failOnRegression: true, color: false, resamples: 500, wide: true, ...options };
  const text = await runCompare(base, head, settings);
  const json = await runCompare(base, head, { ...settings, json: true });
  const clean = (value: string): string => value.split(root).join('ROOT');
  return { exitCode: text.exitCode, stdout: clean(text.stdout), stderr: clean(text.stderr), json: JSON.parse(clean(json.stdout)) as unknown };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'stratbench-compare-golden-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('compare on result columns', () => {
  it('gives the same reports as compare on outcome objects did (golden, multi-epoch)', async () => {
    const base = await folder('base', lines('base'), run());
    const head = await folder('head', lines('head'), run({ prompts: { direct: 'b'.repeat(64) } }));
    // The head lacks two strategy × task pairs' later epochs; a repeated line; no run.json on one side.
    const partialHead = await folder(
      'partial-head',
      [
        ...lines('head', (strategy, task, epoch) => (strategy === 2 && task === 4 && epoch >= 2) || (strategy === 0 && task === 8 && epoch === 0)),
        lines('head')[0] as string,
      ],
      run(),
    );
    const interruptedBase = await folder(
      'interrupted-base',
      lines('base', (strategy, task, epoch) => epoch === 4 && task >= 5),
      run({ status: 'interrupted' }),
    );
    const bareHead = await folder('bare-head', lines('head'), null);
    const otherSuite = await folder(
      'other-suite',
      lines('head').map((line) => line.replace(/"task":"t(\d)"/, '"task":"u$1"')),
      null,
    );
    const cases = {
      full: await compared(base, head),
      withoutGate: await compared(base, head, { failOnRegression: false, minEffect: 0.5 }),
      partialRefused: await compared(base, partialHead),
      partialAllowed: await compared(base, partialHead, { allowPartial: true }),
      interruptedRefused: await compared(interruptedBase, head),
      interruptedAllowed: await compared(interruptedBase, head, { allowPartial: true }),
      noRunJson: await compared(base, bareHead),
      reversed: await compared(head, base),
      nothingShared: await compared(base, otherSuite, { allowPartial: true }),
      otherSuiteRefused: await compared(base, otherSuite),
    };
    if (process.env['UPDATE_GOLDEN'] === '1') {
      await mkdir(join(GOLDEN, '..'), { recursive: true });
      await writeFile(GOLDEN, `${JSON.stringify(cases)}\n`);
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing`).toBe(true);
    const golden = JSON.parse(await readFile(GOLDEN, 'utf8')) as typeof cases;
    for (const [name, value] of Object.entries(cases)) expect(value, name).toEqual(golden[name as keyof typeof cases]);
    // The cases exercise what they are named for.
    expect((cases.full as { exitCode: number }).exitCode).toBe(1);
    expect((cases.partialRefused as { exitCode: number }).exitCode).toBe(2);
    expect((cases.partialAllowed as { json: { report: { coverage: { partial: boolean } } } }).json.report.coverage.partial).toBe(true);
    expect((cases.interruptedRefused as { stderr: string }).stderr).toContain('lacks');
    expect((cases.nothingShared as { stderr: string }).stderr).toContain('nothing to compare');
  });
});
