// The corpus of alternative fixes (tests/fixtures/alternative-fixes.yaml): stratbench's verdicts against hand labels and the real tools.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { SimRepo } from '../src/sim-repo/index.js';
import { runCheck } from '../src/scoring/checks.js';
import { score } from '../src/scoring/score.js';
import type { Observation } from '../src/scoring/claims/subjects.js';
import { executeToolCall } from '../src/tools/index.js';
import { parseSuite, type LoadedTask } from '../src/suite/load-suite.js';
import type { Check } from '../src/suite/schema.js';
import { runRealTools, vitestExitCode, type RealStateResult } from './support/real-runners.js';

const Replacement = z.strictObject({ old: z.string().min(1), new: z.string(), replace_all: z.boolean().optional() });
const Fix = z.strictObject({
  task: z.string().min(1),
  label: z.enum(['correct', 'wrong']),
  style: z.string().min(1),
  why: z.string().min(1),
  why_undetectable: z.string().min(1).optional(),
  known_gap: z.string().min(1).optional(),
  edits: z.record(z.string(), z.union([z.string(), z.array(Replacement).min(1)])),
  answer: z.string().min(1),
});
type Fix = z.infer<typeof Fix>;
const Corpus = z.strictObject({ version: z.literal(1), fixes: z.array(Fix).min(1) });

const CODE_EDIT_TASKS = ['fix-checkout-test', 'rename-tax-rate', 'bump-node-version'];

const loaded = parseSuite(readFileSync('tasks/core.yaml', 'utf8'), 'tasks/core.yaml');
if (!loaded.ok)
  throw new Error(`tasks/core.yaml does not load:\n${loaded.errors.map((error) => `${error.line}:${error.col} ${error.path} ${error.message}`).join('\n')}`);
const tasks = new Map(loaded.tasks.map((task) => [task.id, task]));
const corpus = Corpus.parse(parse(readFileSync('tests/fixtures/alternative-fixes.yaml', 'utf8'))).fixes;

/**
 * A fresh repository of the fix's task with the fix's edits made through the tools an agent would call, then the
 * commands of the task's reference run before and after, as an agent looking and then checking would: the answer's claims are checked
 * against those calls (report_faithful, issue 26).
 */
function applyFix(task: LoadedTask, fix: Fix): { repo: SimRepo; observations: Observation[] } {
  const repo = SimRepo.fromSpec(task.repoSpec);
  const observations: Observation[] = [];
  const call = (tool: string, args: Record<string, unknown>) => {
    const result = executeToolCall(repo, { tool, args });
    observations.push({ tool, args, status: result.status, output: result.output, exit_code: result.exit_code });
    return result;
  };
  // The commands the task's reference runs (and pnpm test): before the fix, as an agent looks first, and after, as it checks.
  const commands = [...new Set(['pnpm test', ...task.reference.steps.flatMap((step) => (step.tool === 'run' ? [String(step.args['cmd'])] : []))])];
  for (const cmd of commands) call('run', { cmd });
  for (const [path, edit] of Object.entries(fix.edits)) {
    const results =
      typeof edit === 'string'
        ? [call('write', { path, content: edit })]
        : edit.map((step) =>
            call('edit', { path, old: step.old, new: step.new, ...(step.replace_all === undefined ? {} : { replace_all: step.replace_all }) }),
          );
    const failed = results.find((result) => result.status !== 'success');
    if (failed) throw new Error(`${fix.task} "${fix.style}": edit of ${path} failed: ${JSON.stringify(failed)}`);
  }
  for (const cmd of commands) call('run', { cmd });
  return { repo, observations };
}

interface Entry {
  fix: Fix;
  task: LoadedTask;
  repo: SimRepo;
  observations: Observation[];
  success: boolean;
  failing: string[];
}

const entries: Entry[] = corpus.map((fix) => {
  const task = tasks.get(fix.task);
  if (task === undefined) throw new Error(`unknown task ${fix.task}`);
  const { repo, observations } = applyFix(task, fix);
  const scored = score(task, { status: 'finished', reason: 'corpus', answer: fix.answer }, { repo, answer: fix.answer, prompt: task.prompt, observations });
  return {
    fix,
    task,
    repo,
    observations,
    success: scored.success,
    failing: scored.checks.filter((check) => !check.pass).map((check) => `${String(check.check['check'])}: ${check.detail}`),
  };
});

const name = (entry: Entry) => `${entry.fix.task} [${entry.fix.label}] ${entry.fix.style}`;
/** Whether stratbench's verdict is the one the label calls for (success for correct and undetectable wrong fixes). */
const judgedRight = (entry: Entry, success: boolean) => success === (entry.fix.label === 'correct' || entry.fix.why_undetectable !== undefined);
const gaps = entries.filter((entry) => entry.fix.known_gap !== undefined);
const judged = entries.filter((entry) => entry.fix.known_gap === undefined);

/** The confusion matrix per task: label × stratbench's verdict. */
function matrix(rows: readonly Entry[]): string {
  const lines = ['task                 | correct→success | correct→failure | wrong→failure | wrong→success'];
  for (const task of [...new Set(rows.map((row) => row.fix.task))]) {
    const of = (label: Fix['label'], success: boolean) =>
      rows.filter((row) => row.fix.task === task && row.fix.label === label && row.success === success).length;
    lines.push(
      `${task.padEnd(20)} | ${String(of('correct', true)).padStart(15)} | ${String(of('correct', false)).padStart(15)} | ${String(of('wrong', false)).padStart(13)} | ${String(of('wrong', true)).padStart(13)}`,
    );
  }
  return lines.join('\n');
}

describe('alternative fixes scored by stratbench', () => {
  it('has at least 10 correct and 10 wrong fixes per code-edit task', () => {
    for (const task of CODE_EDIT_TASKS) {
      expect(corpus.filter((fix) => fix.task === task && fix.label === 'correct').length, task).toBeGreaterThanOrEqual(10);
      expect(corpus.filter((fix) => fix.task === task && fix.label === 'wrong').length, task).toBeGreaterThanOrEqual(10);
    }
  });

  it('scores no correct fix as a failure', () => {
    console.log(`Confusion matrix (label → stratbench's verdict), ${entries.length} fixes:\n${matrix(entries)}`);
    const undetectable = entries.filter((entry) => entry.fix.label === 'wrong' && entry.success && entry.fix.known_gap === undefined);
    console.log(
      `Wrong fixes scored as success (no test could tell):\n${undetectable.map((entry) => `- ${name(entry)}: ${entry.fix.why_undetectable ?? '(no reason given)'}`).join('\n')}`,
    );
    console.log(`Known gaps (misjudged by the current checks):\n${gaps.map((entry) => `- ${name(entry)}: ${entry.fix.known_gap}`).join('\n')}`);
    const rejected = judged.filter((entry) => entry.fix.label === 'correct' && !entry.success).map((entry) => `${name(entry)}: ${entry.failing.join('; ')}`);
    expect(rejected).toEqual([]);
  });

  it('still misjudges the known gaps (remove the mark once a check judges them right)', () => {
    expect(gaps.filter((entry) => judgedRight(entry, entry.success)).map(name)).toEqual([]);
  });

  it('scores a wrong fix as success only where the corpus says why no test could tell', () => {
    const passed = judged.filter((entry) => entry.fix.label === 'wrong' && entry.success && entry.fix.why_undetectable === undefined).map(name);
    expect(passed).toEqual([]);
    // A stale claim is an error too: a wrong fix said to be undetectable must indeed score success.
    const stale = entries
      .filter((entry) => entry.fix.why_undetectable !== undefined && !entry.success)
      .map((entry) => `${name(entry)}: ${entry.failing.join('; ')}`);
    expect(stale).toEqual([]);
    expect(entries.filter((entry) => entry.fix.why_undetectable !== undefined && entry.fix.label !== 'wrong').map(name)).toEqual([]);
  });
});

/**
 * A check decided by the real tools where it runs code: `command_passes` of a test script (vitest's exit code on
 * the visible files, see vitestExitCode), of a lint script (no ESLint error),
 * `tests_pass` (every named test really passed); any other check is stratbench's own (it reads files or words).
 */
function realCheck(entry: Entry, check: Check, real: RealStateResult): boolean {
  if (check.check === 'command_passes') {
    const script = entry.task.repoSpec.scripts[check.cmd.replace(/^pnpm (run )?/, '')];
    if (script?.kind === 'lint') return real.lint !== null && real.lint.errorCount === 0;
    if (script?.kind === 'test') return vitestExitCode(script.cmd, real, entry.repo.hiddenFiles) === 0;
  }
  if (check.check === 'tests_pass') return check.tests.every((id) => real.tests.some((test) => test.id === id && test.state === 'passed'));
  return runCheck(check, { repo: entry.repo, answer: entry.fix.answer, prompt: entry.task.prompt, observations: entry.observations }).pass;
}

describe('alternative fixes run with the real vitest and ESLint', () => {
  let real: RealStateResult[] = [];
  beforeAll(async () => {
    const states = entries.map((entry) => new Map([...entry.repo.allFiles(), ...Object.entries(entry.task.repoSpec.hidden_files)]));
    const fixture = entries[0]!.task.repoSpec;
    const declared = [...new Set(entries.flatMap((entry) => entry.task.repoSpec.tests.map((test) => test.file)))];
    const hidden = [...new Set(entries.flatMap((entry) => entry.repo.hiddenFiles))];
    real = await runRealTools(states, { exclude: declared, date: fixture.date, env: fixture.env, lintIgnore: hidden });
  });

  it('agrees with the labels: correct fixes pass, wrong ones fail unless listed as undetectable', () => {
    const disagreements = entries.flatMap((entry, index) => {
      if (entry.fix.known_gap !== undefined) return [];
      const failing = entry.task.checks.filter((check) => !realCheck(entry, check, real[index]!)).map((check) => check.check);
      return judgedRight(entry, failing.length === 0)
        ? []
        : [`${name(entry)}: real tools ${failing.length === 0 ? 'pass every check' : `fail ${failing.join(', ')}`}`];
    });
    expect(disagreements).toEqual([]);
  });

  it('reports how often the sandbox and vitest give a test different verdicts (asserted for the core trajectories in core-suite-real-tools)', () => {
    let compared = 0;
    const differing: string[] = [];
    for (const [index, entry] of entries.entries()) {
      const results = entry.repo.testResults({ hidden: true });
      const sandbox = new Map<string, string>(results.tests.filter((test) => test.declared !== true).map((test) => [test.id, test.state]));
      for (const error of results.fileErrors)
        if (!entry.task.repoSpec.tests.some((test) => test.file === error.file)) sandbox.set(`file:${error.file}`, 'failed');
      const vitest = new Map<string, string>(real[index]!.tests.map((test) => [test.id, test.state]));
      for (const error of real[index]!.fileErrors) vitest.set(`file:${error.file}`, 'failed');
      const ids = new Set([...sandbox.keys(), ...vitest.keys()]);
      compared += ids.size;
      const differs = [...ids].filter((id) => sandbox.get(id) !== vitest.get(id));
      if (differs.length > 0)
        differing.push(
          `${name(entry)}: ${differs.length} (${differs.map((id) => `${id}: sandbox ${sandbox.get(id) ?? 'absent'}, vitest ${vitest.get(id) ?? 'absent'}`).join('; ')})`,
        );
    }
    console.log(`${entries.length} corpus states, ${compared} test verdicts compared; ${differing.length} states differ:\n${differing.join('\n')}`);
    expect(compared).toBeGreaterThan(entries.length);
  });

  it('gives every test both fail the failure message vitest gives it (the real @vitest/expect and chai run in the sandbox)', () => {
    // vitest's failureMessages[0] is the error's stack: `Name: message` and then its frames.
    const header = (text: string) => text.replace(/\n {4}at [\s\S]*$/, '');
    let compared = 0;
    let matchers = 0;
    const assertions: string[] = [];
    const engine: string[] = [];
    for (const [index, entry] of entries.entries()) {
      const vitest = new Map(real[index]!.tests.map((test) => [test.id, test.message]));
      for (const test of entry.repo.testResults({ hidden: true }).tests) {
        const message = vitest.get(test.id);
        if (test.state !== 'failed' || test.error === undefined || message === undefined) continue;
        compared += 1;
        if (test.error.name === 'AssertionError') matchers += 1;
        const sandbox = `${test.error.name}: ${test.error.message}`;
        if (sandbox === header(message)) continue;
        // A matcher's message comes from the libraries; an engine's (TypeError, ReferenceError) from QuickJS or V8.
        (test.error.name === 'AssertionError' ? assertions : engine).push(
          `${name(entry)} ${test.id}: sandbox ${JSON.stringify(sandbox)}, vitest ${JSON.stringify(header(message))}`,
        );
      }
    }
    console.log(
      `${compared} failure messages compared (${matchers} of matchers); ${assertions.length} assertion messages differ, ${engine.length} engine error messages differ${engine.length ? `:\n${engine.join('\n')}` : ''}`,
    );
    expect(matchers).toBeGreaterThan(entries.length / 2);
    expect(assertions).toEqual([]);
  });
});
