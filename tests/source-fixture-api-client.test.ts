// The api-client source fixture (issue 12 §3): its tests pass in the sandbox and with the real vitest and ESLint, its
// history matches its files, its notes' questions are answerable with the tools, and ≥ 60 of its mutants make tasks
// that validate.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { validateTrajectories } from '../src/runner/replay.js';
import { SimRepo, type RepoSpec } from '../src/sim-repo/index.js';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';
import { generateMutantTasks, type MutantSuite } from '../src/suite/mutants/generate-mutant-tasks.js';
import { loadSourceFixture } from '../src/suite/source-fixture.js';
import { executeToolCall } from '../src/tools/index.js';
import { runRealTools, type RealStateResult } from './support/real-runners.js';

const DIR = 'tasks/sources/api-client';
const spec: RepoSpec = loadSourceFixture(DIR);
const declaredFiles = spec.tests.map((test) => test.file);
const sourceFiles = Object.keys(spec.files)
  .filter((file) => /^src\/.*\.js$/.test(file) && file !== 'src/index.js')
  .sort();

/** `npm test` screens three modules; STRATBENCH_FULL_FIXTURE_CHECK=1 screens every one (minutes of sandbox runs). */
const FULL = process.env['STRATBENCH_FULL_FIXTURE_CHECK'] === '1';
const screenedFiles = FULL ? sourceFiles : ['src/backoff.js', 'src/rate-limit.js', 'src/retry-policy.js'].filter((file) => sourceFiles.includes(file));

interface Notes {
  notes: { text: string; truthful: boolean; about: string }[];
  questions: { prompt: string; answer_contains: string[]; reference_steps: { tool: string; args: Record<string, unknown> }[] }[];
  must_stop: { situation: string; why: string; wrong: { tool: string; args: Record<string, unknown> } }[];
}
const notes = parseYaml(readFileSync(`${DIR}/notes.yaml`, 'utf8')) as Notes;

describe('the api-client fixture in the sandbox and with the real tools', () => {
  let sandbox: ReturnType<SimRepo['testResults']>;
  let real: RealStateResult;
  beforeAll(async () => {
    sandbox = SimRepo.fromSpec(spec).testResults({ hidden: true });
    [real] = (await runRealTools([spec.files], {
      exclude: declaredFiles,
      date: spec.date,
      env: spec.env,
      lintTargets: ['src', 'tests', 'scripts'],
    })) as [RealStateResult];
  });

  it('passes every executed test in the sandbox, and the live test is declared, not run, and fails without the token', () => {
    const executed = sandbox.tests.filter((test) => test.declared !== true);
    expect(sandbox.fileErrors).toEqual([]);
    expect(executed.length).toBeGreaterThanOrEqual(70);
    expect(executed.filter((test) => test.state !== 'passed').map((test) => test.id)).toEqual([]);
    const live = sandbox.tests.filter((test) => test.declared === true);
    expect(live.map((test) => [test.id, test.state])).toEqual([
      ['tests/live/api.live.test.js > live API (sandbox project) > lists the open issues of the sandbox project', 'failed'],
    ]);
    const repo = SimRepo.fromSpec(spec);
    expect(repo.run('pnpm test').exit_code).toBe(0);
    expect(repo.run('pnpm test:live')).toMatchObject({ exit_code: 1, output: expect.stringContaining('LINDEN_API_TOKEN is not set') });
  });

  it('gives every test the verdict the real vitest gives it', () => {
    const simulated = Object.fromEntries(sandbox.tests.filter((test) => test.declared !== true).map((test) => [test.id, test.state]));
    const actual = Object.fromEntries(real.tests.map((test) => [test.id, test.state]));
    expect(real.fileErrors).toEqual([]);
    expect(actual).toEqual(simulated);
  });

  it('lints clean with pnpm lint in the sandbox and with the real ESLint', () => {
    const lint = SimRepo.fromSpec(spec).run('pnpm lint');
    expect([lint.exit_code, lint.output]).toEqual([0, '> eslint src tests scripts']);
    expect(real.lint).toEqual({ errorCount: 0, warningCount: 0, messages: [] });
  });

  it('lists in package.json exactly the scripts fixture.yaml declares, with the same commands', () => {
    const manifest = JSON.parse(spec.files['package.json'] ?? '{}') as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.scripts).toEqual(Object.fromEntries(Object.entries(spec.scripts).map(([name, script]) => [name, script.cmd])));
    expect(manifest.devDependencies).toEqual(spec.devDependencies);
  });
});

describe('the api-client fixture history', () => {
  it('has the newest change to every file end in text the file holds, newest commit first and before the fixture date', () => {
    const newest = new Map<string, string | null>();
    for (const commit of spec.commits) for (const change of commit.changes) if (!newest.has(change.path)) newest.set(change.path, change.after);
    const missing = [...newest].filter(([path, after]) => after !== null && !(spec.files[path] ?? '').includes(after)).map(([path]) => path);
    expect(missing).toEqual([]);
    const dates = spec.commits.map((commit) => commit.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates.every((date) => date < spec.date.slice(0, 10))).toBe(true);
    expect(spec.commits.length).toBeGreaterThanOrEqual(10);
  });

  it('shows the Retry-After fix through git_log on its file', () => {
    const log = executeToolCall(SimRepo.fromSpec(spec), { tool: 'git_log', args: { path: 'src/backoff.js' } });
    expect(log.output).toMatch(/^commit 2c7d9e1/m);
    expect(log.output).toContain('fixes #214');
  });
});

describe('the api-client notes', () => {
  it('answers every question with its reference steps', () => {
    expect(notes.questions.length).toBeGreaterThanOrEqual(10);
    const unanswered = notes.questions.flatMap((question) => {
      const repo = SimRepo.fromSpec(spec);
      const outputs = question.reference_steps.map((step) => executeToolCall(repo, step));
      const text = outputs.map((result) => result.output).join('\n');
      const failed = outputs.filter((result) => result.status !== 'success');
      const absent = question.answer_contains.filter((answer) => !text.includes(answer));
      return failed.length > 0 || absent.length > 0 ? [`${question.prompt}: ${absent.join(', ')} ${failed.map((result) => result.output).join(' ')}`] : [];
    });
    expect(unanswered).toEqual([]);
  });

  it('names a valid wrong call for every must-stop situation, and the irreversible ones are classified so', () => {
    expect(notes.must_stop.length).toBeGreaterThanOrEqual(4);
    const refused = notes.must_stop
      .map((situation) => executeToolCall(SimRepo.fromSpec(spec), situation.wrong))
      .filter((result) => result.error_code === 'invalid_args' || result.error_code === 'unknown_tool');
    expect(refused).toEqual([]);
    const repo = SimRepo.fromSpec(spec);
    expect(repo.classifyCommand('pnpm release')).toBe('irreversible');
    expect(repo.run('pnpm release')).toMatchObject({ exit_code: 1, output: expect.stringContaining('NPM_TOKEN is not set') });
  });

  it('keeps truthful and misleading notes about paths that exist', () => {
    expect(notes.notes.filter((note) => !note.truthful).length).toBeGreaterThanOrEqual(2);
    const topics = ['release'];
    expect(notes.notes.filter((note) => !topics.includes(note.about) && spec.files[note.about] === undefined).map((note) => note.about)).toEqual([]);
  });
});

describe('procedural bugs on the api-client fixture', () => {
  let suite: MutantSuite;
  let generationMs = 0;
  beforeAll(() => {
    const started = performance.now();
    const generated = generateMutantTasks({ fixture: 'api-client', base: spec, files: screenedFiles, variants: 1 });
    if (!generated.ok) throw new Error(generated.message);
    suite = generated.suite;
    generationMs = Math.round(performance.now() - started);
  });

  it('keeps at least 60 mutants (15 from the three sampled modules) and says why the others were rejected', () => {
    const reasons: Record<string, number> = {};
    for (const entry of suite.rejected) reasons[entry.reason] = (reasons[entry.reason] ?? 0) + 1;
    console.log(
      `api-client mutants: ${suite.kept.length} kept, ${suite.rejected.length} rejected ${JSON.stringify(reasons)} in ${generationMs} ms\n` +
        suite.rejected.map((entry) => `  ${entry.family} (${entry.reason}): ${entry.description}`).join('\n'),
    );
    expect(screenedFiles.length).toBe(FULL ? sourceFiles.length : 3);
    expect(suite.kept.length).toBeGreaterThanOrEqual(FULL ? 60 : 15);
    expect(new Set(suite.kept.map((family) => family.split('-')[1])).size).toBeGreaterThanOrEqual(FULL ? 10 : 2);
  });

  it('makes tasks that validate: the reference succeeds, the untouched repository and every counterexample fail', () => {
    const text = stringify(
      { name: 'api-client-mutants', fixtures: { 'api-client': suite.fixture }, tasks: suite.tasks },
      { lineWidth: 0, aliasDuplicateObjects: false },
    );
    const loaded = parseSuite(text, 'api-client-mutants.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map(formatSuiteError).join('\n'));
    expect(loaded.tasks).toHaveLength(suite.kept.length);
    const validationStarted = performance.now();
    const failures = validateTrajectories(loaded.tasks).flatMap((task) =>
      task.trajectories
        .filter((trajectory) => !trajectory.ok)
        .map((trajectory) => `${task.id} ${trajectory.kind} ${trajectory.name ?? ''}: ${trajectory.detail}`),
    );
    console.log(`api-client mutant tasks: ${loaded.tasks.length} validated in ${Math.round(performance.now() - validationStarted)} ms`);
    expect(failures).toEqual([]);
  });
});
