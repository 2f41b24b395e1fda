// Proof (issue 8 §6): every final state the core suite's trajectories reach gives each test, and ESLint, the same verdict in the sandbox as with the real tools.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { untouchedTrajectory } from '../src/runner/replay.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { parseSuite, type LoadedTask } from '../src/suite/load-suite.js';
import type { Trajectory } from '../src/suite/schema.js';
import { executeToolCall } from '../src/tools/index.js';
import { runRealTools, vitestExitCode, type RealStateResult } from './support/real-runners.js';

const loaded = parseSuite(readFileSync('tasks/core.yaml', 'utf8'), 'tasks/core.yaml');
if (!loaded.ok)
  throw new Error(`tasks/core.yaml does not load:\n${loaded.errors.map((error) => `${error.line}:${error.col} ${error.path} ${error.message}`).join('\n')}`);

/** One distinct final state (trajectories that end in the same files share it). */
interface FinalState {
  /** `task/trajectory` of every trajectory that ends here. */
  reachedBy: string[];
  task: LoadedTask;
  repo: SimRepo;
  /** Working tree plus the task's hidden files: what the real tools run on. */
  files: Map<string, string>;
}

function replay(task: LoadedTask, trajectory: Pick<Trajectory, 'steps'>): SimRepo {
  const repo = SimRepo.fromSpec(task.repoSpec);
  for (const step of trajectory.steps) executeToolCall(repo, { tool: step.tool, args: step.args });
  return repo;
}

const states = new Map<string, FinalState>();
for (const task of loaded.tasks) {
  const trajectories: Array<[string, Pick<Trajectory, 'steps'>]> = [
    ['reference', task.reference],
    ...(task.naive ? [['naive', task.naive] as [string, Trajectory]] : []),
    ['untouched', untouchedTrajectory(task.expect)],
    ...task.counterexamples.map((counterexample) => [`counterexample ${counterexample.name}`, counterexample] as [string, Trajectory]),
  ];
  for (const [label, trajectory] of trajectories) {
    const repo = replay(task, trajectory);
    const files = new Map([...repo.allFiles(), ...Object.entries(task.repoSpec.hidden_files)].sort(([a], [b]) => (a < b ? -1 : 1)));
    const key = createHash('sha256')
      .update(JSON.stringify([repo.installed, [...files]]))
      .digest('hex');
    const state = states.get(key) ?? { reachedBy: [], task, repo, files };
    state.reachedBy.push(`${task.id}/${label}`);
    states.set(key, state);
  }
}
const finalStates = [...states.values()];
// A fresh clone without node_modules fails every test run before any test file loads; the real tools cannot stage that.
const comparable = finalStates.filter((state) => state.repo.installed);
const declaredFiles = [...new Set(loaded.tasks.flatMap((task) => task.repoSpec.tests.map((test) => test.file)))].sort();

type Verdict = 'passed' | 'failed' | 'skipped' | 'todo' | 'absent';

/** Per test id the verdict, plus `file:<path>` → `failed` for a file that failed as a whole. */
function simulatedTests(repo: SimRepo): Map<string, Verdict> {
  const results = repo.testResults({ hidden: true });
  const verdicts = new Map<string, Verdict>(results.tests.filter((test) => test.declared !== true).map((test) => [test.id, test.state]));
  for (const error of results.fileErrors) if (!declaredFiles.includes(error.file)) verdicts.set(`file:${error.file}`, 'failed');
  return verdicts;
}

function realTests(real: RealStateResult): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>(real.tests.map((test) => [test.id, test.state]));
  for (const error of real.fileErrors) verdicts.set(`file:${error.file}`, 'failed');
  return verdicts;
}

/** ESLint problems as `file:line:col rule` from the stylish output of `pnpm lint` in the sandbox. */
function simulatedLint(repo: SimRepo): { exitCode: number; problems: string[] } {
  const result = repo.clone({ faults: false }).run('pnpm lint');
  const problems: string[] = [];
  let file = '';
  for (const line of result.output.split('\n')) {
    const header = /^\/repo\/(\S+)$/.exec(line.trim());
    if (header) file = header[1]!;
    const problem = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)(?:\s{2,}(\S+))?$/.exec(line);
    if (problem && file !== '') problems.push(`${file}:${problem[1]}:${problem[2]} ${problem[3]} ${problem[5] ?? '(parse)'}`);
  }
  return { exitCode: result.exit_code, problems: problems.sort() };
}

function realLint(real: RealStateResult): { exitCode: number; problems: string[] } {
  const lint = real.lint!;
  const problems = lint.messages.map(
    (message) => `${message.file}:${message.line}:${message.column} ${message.severity === 2 ? 'error' : 'warning'} ${message.ruleId ?? '(parse)'}`,
  );
  return { exitCode: lint.crash !== undefined ? 2 : lint.errorCount > 0 ? 1 : 0, problems: problems.sort() };
}

describe('the core suite with the real vitest and ESLint', () => {
  let real: RealStateResult[] = [];
  let realMs = 0;
  beforeAll(async () => {
    const started = Date.now();
    const fixture = loaded.suite.fixtures['shop']!;
    const hidden = [...new Set(comparable.flatMap((state) => Object.keys(state.task.repoSpec.hidden_files)))];
    real = await runRealTools(
      comparable.map((state) => state.files),
      { exclude: declaredFiles, date: fixture.date, env: fixture.env, lintIgnore: hidden },
    );
    realMs = Date.now() - started;
  });

  it('gives every test of every final state the sandbox verdict', () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const [index, state] of comparable.entries()) {
      const simulated = simulatedTests(state.repo);
      const actual = realTests(real[index]!);
      for (const id of [...new Set([...simulated.keys(), ...actual.keys()])].sort()) {
        compared += 1;
        const sandbox = simulated.get(id) ?? 'absent';
        const vitest = actual.get(id) ?? 'absent';
        if (sandbox !== vitest) mismatches.push(`${state.reachedBy.join(', ')}: ${id}: sandbox ${sandbox}, vitest ${vitest}`);
      }
    }
    console.log(
      `${finalStates.length} distinct final states from ${finalStates.reduce((sum, state) => sum + state.reachedBy.length, 0)} trajectories; ` +
        `${comparable.length} run with the real tools in ${realMs} ms; ${compared} test verdicts compared, ${mismatches.length} differ.\n` +
        `Not run for real (declared environment-dependent tests): ${declaredFiles.join(', ')}.\n` +
        `Not comparable (dependencies not installed): ${
          finalStates
            .filter((state) => !state.repo.installed)
            .flatMap((state) => state.reachedBy)
            .join(', ') || '(none)'
        }.`,
    );
    expect(mismatches).toEqual([]);
  });

  it('gives every test script that runs for real the exit code vitest gives it', () => {
    const fixture = loaded.suite.fixtures['shop']!;
    // Scripts whose files are all declared environment-dependent (test:payments, test:e2e) do not run for real.
    const scripts = Object.entries(fixture.scripts).filter(
      ([, script]) =>
        script.kind === 'test' &&
        !declaredFiles.some((file) => vitestExitCode(script.cmd, { tests: [{ id: file, file, state: 'passed' }], fileErrors: [] }) === 0),
    );
    expect(scripts.map(([name]) => name)).toEqual(['test', 'test:checkout']);
    const mismatches = comparable.flatMap((state, index) =>
      scripts.flatMap(([name, script]) => {
        const sandbox = state.repo.clone({ faults: false }).run(`pnpm ${name}`).exit_code;
        const vitest = vitestExitCode(script.cmd, real[index]!, state.repo.hiddenFiles);
        return sandbox === vitest ? [] : [`${state.reachedBy.join(', ')}: pnpm ${name}: sandbox exit ${sandbox}, vitest exit ${vitest}`];
      }),
    );
    expect(mismatches).toEqual([]);
  });

  it('gives every final state the ESLint verdict and problems of the real ESLint', () => {
    const mismatches = comparable.flatMap((state, index) => {
      const sandbox = simulatedLint(state.repo);
      const eslint = realLint(real[index]!);
      return JSON.stringify(sandbox) === JSON.stringify(eslint)
        ? []
        : [`${state.reachedBy.join(', ')}: sandbox ${JSON.stringify(sandbox)}, eslint ${JSON.stringify(eslint)}`];
    });
    expect(mismatches).toEqual([]);
  });
});
