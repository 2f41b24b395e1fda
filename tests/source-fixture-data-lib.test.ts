// Proof that the data-lib source fixture (tasks/sources/data-lib/) is a sound benchmark: its tests pass in the sandbox as with
// the real vitest and ESLint, its history matches its files, its notes' questions are answerable with the agent tools, and
// its source feeds at least 60 procedural-bug families whose every generated task validates.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { z } from 'zod';
import { validateTrajectories } from '../src/runner/replay.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';
import { MustStopSituation } from '../src/suite/generators/types.js';
import { generateMutantTasks, type MutantSuite } from '../src/suite/mutants/generate-mutant-tasks.js';
import { loadSourceFixture } from '../src/suite/source-fixture.js';
import { executeToolCall, getTool } from '../src/tools/index.js';
import { runRealTools, type RealStateResult } from './support/real-runners.js';

const DIR = 'tasks/sources/data-lib';
const spec = loadSourceFixture(DIR);
const declaredFiles = spec.tests.map((test) => test.file);
const sourceFiles = Object.keys(spec.files)
  .filter((file) => /^src\/.*\.js$/.test(file))
  .sort();

/**
 * Screening every mutant of every module (~650 sandbox runs, then validating ~600 tasks) takes minutes: `npm test` screens
 * two modules; STRATBENCH_FULL_FIXTURE_CHECK=1 screens them all (the figures in the fixture's closing note come from it).
 */
const FULL = process.env['STRATBENCH_FULL_FIXTURE_CHECK'] === '1';
const screenedFiles = FULL ? sourceFiles : ['src/histogram.js', 'src/units.js'];

const ToolCall = z.strictObject({ tool: z.string(), args: z.record(z.string(), z.unknown()) });
const Notes = z.strictObject({
  notes: z.array(z.strictObject({ text: z.string().min(1), truthful: z.boolean(), about: z.string().min(1) })).min(8),
  questions: z
    .array(z.strictObject({ prompt: z.string().min(1), answer_contains: z.array(z.string().min(1)).min(1), reference_steps: z.array(ToolCall).min(1) }))
    .min(10),
  must_stop: z.array(MustStopSituation).min(4),
});
const notes = Notes.parse(parseYaml(readFileSync(`${DIR}/notes.yaml`, 'utf8')));

describe('the data-lib fixture', () => {
  it("is a package whose scripts are the fixture's, with 8–14 source modules", () => {
    const manifest = JSON.parse(spec.files['package.json'] ?? '{}') as { type?: string; scripts?: Record<string, string> };
    expect(manifest.type).toBe('module');
    expect(manifest.scripts).toEqual(Object.fromEntries(Object.entries(spec.scripts).map(([name, script]) => [name, script.cmd])));
    expect(sourceFiles.length).toBeGreaterThanOrEqual(8);
    expect(sourceFiles.length).toBeLessThanOrEqual(14);
    const lines = sourceFiles.reduce((total, file) => total + (spec.files[file] ?? '').split('\n').length - 1, 0);
    expect(lines).toBeGreaterThanOrEqual(500);
    expect(lines).toBeLessThanOrEqual(900);
  });

  it('has a history of 10–20 commits, newest first, before its date, whose newest change to a file is in that file', () => {
    expect(spec.commits.length).toBeGreaterThanOrEqual(10);
    expect(spec.commits.length).toBeLessThanOrEqual(20);
    const dates = spec.commits.map((commit) => commit.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates.every((date) => date < spec.date.slice(0, 10))).toBe(true);
    const seen = new Set<string>();
    const stale: string[] = [];
    for (const commit of spec.commits) {
      for (const change of commit.changes) {
        if (seen.has(change.path)) continue;
        seen.add(change.path);
        const content = spec.files[change.path];
        if (content === undefined || change.after === null || !content.includes(change.after)) stale.push(`${commit.sha.slice(0, 7)} ${change.path}`);
      }
    }
    expect(stale).toEqual([]);
  });
});

describe('the data-lib fixture in the sandbox and with the real tools', () => {
  let real: RealStateResult;
  beforeAll(async () => {
    [real] = (await runRealTools([spec.files], { exclude: declaredFiles, date: spec.date, env: spec.env })) as [RealStateResult];
  });

  it('passes every executed test in the sandbox, with the verdicts of the real vitest', () => {
    const results = SimRepo.fromSpec(spec).testResults({ hidden: true });
    const executed = results.tests.filter((test) => test.declared !== true);
    expect(results.fileErrors).toEqual([]);
    expect(executed.filter((test) => test.state !== 'passed').map((test) => test.id)).toEqual([]);
    expect(executed.length).toBe(90);
    expect(new Set(executed.map((test) => test.file)).size).toBe(12);
    const sandbox = executed.map((test) => `${test.id}: ${test.state}`).sort();
    expect(real.fileErrors).toEqual([]);
    expect(real.tests.map((test) => `${test.id}: ${test.state}`).sort()).toEqual(sandbox);
  });

  it('runs pnpm test green and fails the network test until the network is up', () => {
    const repo = SimRepo.fromSpec(spec);
    const test = repo.run('pnpm test');
    expect(test.exit_code).toBe(0);
    expect(test.output).toMatch(/Tests\s+90 passed \(90\)/);
    const integration = repo.run('pnpm test:integration');
    expect(integration.exit_code).toBe(1);
    expect(integration.output).toContain('getaddrinfo ENOTFOUND data-api.ecb.europa.eu');
    expect(SimRepo.fromSpec({ ...spec, flags: { network: 'online' } }).run('pnpm test:integration').exit_code).toBe(0);
  });

  it('lints clean in the sandbox, as the real ESLint does', () => {
    const lint = SimRepo.fromSpec(spec).run('pnpm lint');
    expect([lint.exit_code, lint.output.trim()]).toEqual([0, '> eslint src tests']);
    expect(real.lint).toEqual({ errorCount: 0, warningCount: 0, messages: [] });
  });

  it('guards its release: no token or no build fails, a publish is irreversible', () => {
    const repo = SimRepo.fromSpec(spec);
    expect(repo.run('pnpm release')).toMatchObject({ exit_code: 1, output: expect.stringContaining('NPM_TOKEN is not set') });
    const armed = SimRepo.fromSpec({ ...spec, env: { ...spec.env, NPM_TOKEN: 'npm_x' } });
    expect(armed.run('pnpm release').exit_code).toBe(1);
    expect(armed.run('pnpm build').exit_code).toBe(0);
    expect(armed.run('pnpm release')).toMatchObject({ exit_code: 0, output: expect.stringContaining('+ @ledgerline/tally@2.4.0') });
    expect(getTool('run')?.sideEffectOf({ cmd: 'pnpm release' }, repo)).toBe('irreversible');
  });
});

describe('the data-lib notes', () => {
  it('answers every question from the outputs of its reference steps', () => {
    const unanswered = notes.questions.flatMap((question) => {
      const repo = SimRepo.fromSpec(spec);
      const outputs = question.reference_steps.map((step) => executeToolCall(repo, step));
      const failed = outputs.filter((result) => result.status !== 'success');
      const missing = question.answer_contains.filter((text) => !outputs.some((result) => result.output.includes(text)));
      return failed.length > 0 || missing.length > 0
        ? [`${question.prompt}: ${failed.map((result) => result.output).join('; ')} missing ${missing.join(', ')}`]
        : [];
    });
    expect(unanswered).toEqual([]);
  });

  it('names for every must-stop situation a wrong call that publishes, pushes, edits or cannot succeed', () => {
    const consequences = notes.must_stop.map((entry) => {
      const repo = SimRepo.fromSpec(spec);
      const declared = getTool(entry.wrong.tool)?.sideEffectOf(entry.wrong.args, repo);
      const result = executeToolCall(repo, entry.wrong);
      return `${entry.wrong.tool} ${declared} ${result.status}`;
    });
    // The publish fails on the bare fixture (no NPM_TOKEN); the situation's `repo` puts a token in the environment.
    expect(consequences).toEqual(['run irreversible failure', 'edit reversible success', 'edit reversible success', 'edit reversible success']);
    expect(notes.notes.filter((note) => !note.truthful).length).toBeGreaterThanOrEqual(3);
  });
});

describe('procedural bugs from the data-lib source', () => {
  let suite: MutantSuite;
  let generateMs = 0;
  // Screening runs the affected test files (and their hidden copies) once per mutant: about 650 sandbox runs.
  beforeAll(() => {
    const started = Date.now();
    const generated = generateMutantTasks({ fixture: 'data-lib', base: spec, files: screenedFiles, variants: 1 });
    if (!generated.ok) throw new Error(generated.message);
    generateMs = Date.now() - started;
    suite = generated.suite;
  });

  it('keeps at least 60 mutants (10 from the two sampled modules); every rejected one is a mutant no test notices', () => {
    const reasons = [...new Set(suite.rejected.map((entry) => entry.reason))].map(
      (reason) => `${reason} ${suite.rejected.filter((entry) => entry.reason === reason).length}`,
    );
    console.log(
      `data-lib: ${suite.kept.length + suite.rejected.length} mutants of ${screenedFiles.length} files screened in ${generateMs} ms: ${suite.kept.length} kept, ` +
        `${suite.rejected.length} rejected (${reasons.join(', ')}):\n  ${suite.rejected.map((entry) => `${entry.family}: ${entry.description}`).join('\n  ')}`,
    );
    expect(suite.kept.length).toBeGreaterThanOrEqual(FULL ? 60 : 10);
    expect(suite.rejected.every((entry) => entry.reason === 'no-visible-test-fails')).toBe(true);
    // Every module with code (all but the re-exporting index.js) has kept mutants.
    const modules = new Set(suite.kept.map((family) => `src/${family.replace(/^fix-([a-z]+)-.*$/, '$1')}.js`));
    expect(screenedFiles.filter((file) => !modules.has(file))).toEqual(FULL ? ['src/index.js'] : []);
  });

  it('makes tasks that all validate: the reference succeeds, the untouched repository and every counterexample fail', () => {
    const text = stringify(
      {
        name: 'data-lib-mutants',
        groups: ['single-action', 'multi-step', 'first-approach-fails', 'must-stop'],
        fixtures: { 'data-lib': suite.fixture },
        tasks: suite.tasks,
      },
      { lineWidth: 0, aliasDuplicateObjects: false },
    );
    const loaded = parseSuite(text, 'data-lib-mutants.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map(formatSuiteError).join('\n'));
    const validatedStarted = Date.now();
    const validations = validateTrajectories(loaded.tasks);
    const failures = validations.flatMap((task) =>
      task.trajectories
        .filter((trajectory) => !trajectory.ok)
        .map((trajectory) => `${task.id} ${trajectory.kind} ${trajectory.name ?? ''}: ${trajectory.detail}`),
    );
    console.log(`data-lib: ${validations.length} generated tasks validated in ${Date.now() - validatedStarted} ms`);
    expect(validations.length).toBe(suite.kept.length);
    expect(failures).toEqual([]);
  });
});
