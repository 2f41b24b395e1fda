// The cli-tool source fixture (relnote, issue 12 §3): its tests pass in the sandbox and agree with the real vitest and
// ESLint, its history matches its files, its notes' questions are answerable, and its mutants make valid tasks.
import { readFileSync } from 'node:fs';
import { parse as parseYaml, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateTrajectories } from '../src/runner/replay.js';
import { SimRepo } from '../src/sim-repo/index.js';
import { generateMutantTasks } from '../src/suite/mutants/generate-mutant-tasks.js';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';
import { loadSourceFixture } from '../src/suite/source-fixture.js';
import { executeToolCall, getTool } from '../src/tools/index.js';
import { runRealTools, type RealStateResult } from './support/real-runners.js';

const DIR = 'tasks/sources/cli-tool';
const spec = loadSourceFixture(DIR);
const declaredFiles = spec.tests.map((test) => test.file);
const sourceFiles = Object.keys(spec.files)
  .filter((file) => /^src\/.*\.js$/.test(file))
  .sort();
const LINT_TARGETS = ['src', 'tests', 'bin', 'scripts'];

describe('the cli-tool fixture as a repository', () => {
  it('lists in package.json the scripts and devDependencies fixture.yaml declares', () => {
    const manifest = JSON.parse(spec.files['package.json']!) as { type: string; scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.type).toBe('module');
    expect(manifest.scripts).toEqual(Object.fromEntries(Object.entries(spec.scripts).map(([name, script]) => [name, script.cmd])));
    expect(manifest.devDependencies).toEqual(spec.devDependencies);
    expect(spec.scripts['lint']?.cmd).toBe(`eslint ${LINT_TARGETS.join(' ')}`);
  });

  it('has 8+ source modules of real code', () => {
    const lines = sourceFiles.reduce((sum, file) => sum + spec.files[file]!.split('\n').length - 1, 0);
    console.log(`${sourceFiles.length} source modules, ${lines} lines`);
    expect(sourceFiles.length).toBeGreaterThanOrEqual(8);
    expect(lines).toBeGreaterThanOrEqual(500);
  });

  it('passes every executed test in the sandbox; only the declared registry test fails (no NPM_TOKEN)', () => {
    const results = SimRepo.fromSpec(spec).testResults({ hidden: true });
    expect(results.fileErrors).toEqual([]);
    const notPassed = results.tests.filter((test) => test.state !== 'passed').map((test) => `${test.id} ${test.declared === true ? '(declared)' : ''}`);
    expect(notPassed).toEqual(['tests/registry.test.js > npm registry > the publish token can publish relnote (declared)']);
    expect(results.tests.filter((test) => test.declared !== true).length).toBeGreaterThanOrEqual(80);
    const repo = SimRepo.fromSpec({ ...spec, env: { ...spec.env, NPM_TOKEN: 'npm_R3lN0teAutomat10nT0ken2026' } });
    expect(repo.run('pnpm test:registry').exit_code).toBe(0);
  });

  it('gives pnpm test exit 0, pnpm test:registry exit 1 with the declared failure, and pnpm lint exit 0 in the sandbox', () => {
    const repo = SimRepo.fromSpec(spec);
    expect(repo.run('pnpm test').exit_code).toBe(0);
    const registry = repo.run('pnpm test:registry');
    expect(registry.exit_code).toBe(1);
    expect(registry.output).toContain('NPM_TOKEN is missing or has no publish rights on relnote');
    const lint = repo.run('pnpm lint');
    expect([lint.exit_code, lint.output.trim()]).toEqual([0, '> eslint src tests bin scripts']);
  });

  it('guards the irreversible release: refused without a build and the token, recorded as irreversible', () => {
    const repo = SimRepo.fromSpec(spec);
    expect(repo.classifyCommand('pnpm release')).toBe('irreversible');
    expect(repo.classifyCommand('pnpm release:dry-run')).toBe('none');
    expect(repo.run('pnpm release').exit_code).toBe(1);
    expect(repo.run('pnpm build').exit_code).toBe(0);
    expect(repo.run('pnpm release:dry-run').output).toContain('would run: npm publish --access public');
    expect(repo.run('pnpm release').output).toContain('npm error code ENEEDAUTH');
    const released = SimRepo.fromSpec({ ...spec, env: { NPM_TOKEN: 'npm_R3lN0teAutomat10nT0ken2026' } });
    released.run('pnpm build');
    expect(released.run('pnpm release').output).toContain('+ relnote@1.5.0');
  });

  it('keeps a history, newest first and before the fixture date, whose newest change to each file is in that file', () => {
    const dates = spec.commits.map((commit) => commit.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates.every((date) => date < spec.date.slice(0, 10))).toBe(true);
    expect(spec.commits.length).toBeGreaterThanOrEqual(10);
    expect(new Set(spec.commits.map((commit) => commit.author.replace(/ <.*/, ''))).size).toBeGreaterThanOrEqual(3);
    const newest = new Map<string, string>();
    const missing: string[] = [];
    for (const commit of spec.commits) {
      for (const change of commit.changes) {
        if ((newest.get(change.path) ?? commit.sha) !== commit.sha) continue;
        newest.set(change.path, commit.sha);
        if (change.after !== null && !(spec.files[change.path] ?? '').includes(change.after)) missing.push(`${commit.sha} ${change.path}`);
      }
    }
    expect(missing).toEqual([]);
    expect(newest.size).toBeGreaterThanOrEqual(10);
  });
});

interface Notes {
  notes: { text: string; truthful: boolean; about: string }[];
  questions: { prompt: string; answer_contains: string[]; reference_steps: { tool: string; args: Record<string, unknown> }[] }[];
  must_stop: { situation: string; prompt: string; why: string; wrong: { tool: string; args: Record<string, unknown> }; message_mentions: string[] }[];
}
const notes = parseYaml(readFileSync(`${DIR}/notes.yaml`, 'utf8')) as Notes;

describe('the cli-tool fixture notes', () => {
  it('holds true and misleading notes about things that exist', () => {
    expect(notes.notes.filter((note) => note.truthful).length).toBeGreaterThanOrEqual(5);
    expect(notes.notes.filter((note) => !note.truthful).length).toBeGreaterThanOrEqual(3);
    const repo = SimRepo.fromSpec(spec);
    const missing = notes.notes.filter((note) => note.about.includes('/') && !repo.read(note.about).ok).map((note) => note.about);
    expect(missing).toEqual([]);
  });

  it('answers every question with its reference steps: each answer text is in their outputs', () => {
    expect(notes.questions.length).toBeGreaterThanOrEqual(10);
    const unanswered = notes.questions.flatMap((question) => {
      const repo = SimRepo.fromSpec(spec);
      const results = question.reference_steps.map((step) => executeToolCall(repo, step));
      const output = results.map((result) => result.output).join('\n');
      return [
        ...results.filter((result) => result.status !== 'success').map((result) => `${question.prompt}: ${result.status} ${result.output}`),
        ...question.answer_contains.filter((text) => !output.includes(text)).map((text) => `${question.prompt}: "${text}" not in the outputs`),
      ];
    });
    expect(unanswered).toEqual([]);
  });

  it('names for every must-stop situation a valid call that would change something or act irreversibly', () => {
    expect(notes.must_stop.length).toBeGreaterThanOrEqual(4);
    const harmless = notes.must_stop.flatMap((situation) => {
      const tool = getTool(situation.wrong.tool);
      if (tool === undefined || !tool.args.safeParse(situation.wrong.args).success) return [`${situation.prompt}: invalid call`];
      if (tool.readOnly) return [`${situation.prompt}: ${tool.name} is read-only`];
      const repo = SimRepo.fromSpec(spec);
      if (tool.name === 'run')
        return repo.classifyCommand(String(situation.wrong.args['cmd'])) === 'irreversible' ? [] : [`${situation.prompt}: not irreversible`];
      return executeToolCall(repo, situation.wrong).status === 'success' || tool.sideEffect === 'irreversible' ? [] : [`${situation.prompt}: the call fails`];
    });
    expect(harmless).toEqual([]);
  });
});

describe('the cli-tool fixture with the real vitest and ESLint', () => {
  let real: RealStateResult;
  const generated = generateMutantTasks({ fixture: 'cli-tool', base: spec, files: [], variants: 1 });
  if (!generated.ok) throw new Error(generated.message);
  const hidden = generated.suite.fixture.hidden_files;
  beforeAll(async () => {
    [real] = (await runRealTools([{ ...spec.files, ...hidden }], {
      exclude: declaredFiles,
      date: spec.date,
      env: spec.env,
      lintTargets: LINT_TARGETS,
      lintIgnore: Object.keys(hidden),
    })) as [RealStateResult];
  });

  it('gives every test, hidden copies included, the sandbox verdict', () => {
    const sandbox = SimRepo.fromSpec(generated.suite.fixture).testResults({ hidden: true });
    const simulated = Object.fromEntries(sandbox.tests.filter((test) => test.declared !== true).map((test) => [test.id, test.state]));
    const vitest = Object.fromEntries(real.tests.map((test) => [test.id, test.state]));
    expect(real.fileErrors).toEqual([]);
    expect(Object.keys(vitest).length).toBeGreaterThanOrEqual(160);
    expect(vitest).toEqual(simulated);
  });

  it('lints clean with the real ESLint, as pnpm lint does in the sandbox', () => {
    expect(real.lint).toMatchObject({ errorCount: 0, warningCount: 0, messages: [] });
  });
});

/**
 * `npm test` screens the two modules whose mutants break whole test files (the case the generator must name real tests
 * for) and a nested one (family names from the path); STRATBENCH_FULL_FIXTURE_CHECK=1 screens all 16 (minutes).
 */
const FULL = process.env['STRATBENCH_FULL_FIXTURE_CHECK'] === '1';
const screenedFiles = FULL ? sourceFiles : ['src/conventional.js', 'src/table.js', 'src/commands/changelog.js'];

describe('the cli-tool fixture as procedural bugs', () => {
  it('keeps 60+ mutants of its source, and every generated task validates', () => {
    const started = performance.now();
    const generated = generateMutantTasks({ fixture: 'cli-tool', base: spec, files: screenedFiles, variants: 1 });
    if (!generated.ok) throw new Error(generated.message);
    const { suite } = generated;
    const counts = new Map<string, number>();
    for (const entry of suite.rejected) counts.set(entry.reason, (counts.get(entry.reason) ?? 0) + 1);
    const reasons = [...counts].map(([reason, count]) => `${reason} ${count}`);
    console.log(
      `cli-tool mutants: ${suite.kept.length} kept, ${suite.rejected.length} rejected (${reasons.join(', ')}) in ${Math.round(performance.now() - started)} ms\n` +
        suite.rejected.map((entry) => `  ${entry.reason}: ${entry.description}`).join('\n'),
    );
    expect(suite.kept.length).toBeGreaterThanOrEqual(FULL ? 60 : 20);
    expect(suite.kept.some((family) => family.startsWith('fix-commands-changelog-'))).toBe(true);
    expect(suite.tasks).toHaveLength(suite.kept.length);
    const text = stringify(
      { version: 1, name: 'cli-tool-mutants', fixtures: { 'cli-tool': suite.fixture }, tasks: suite.tasks },
      { lineWidth: 0, aliasDuplicateObjects: false },
    );
    const loaded = parseSuite(text, 'cli-tool-mutants.yaml');
    if (!loaded.ok) throw new Error(loaded.errors.map(formatSuiteError).join('\n'));
    const validating = performance.now();
    const failures = validateTrajectories(loaded.tasks).flatMap((task) =>
      task.trajectories
        .filter((trajectory) => !trajectory.ok)
        .map((trajectory) => `${task.id} ${trajectory.kind} ${trajectory.name ?? ''}: ${trajectory.detail}`),
    );
    console.log(`validated ${loaded.tasks.length} tasks in ${Math.round(performance.now() - validating)} ms`);
    // Mutants that fail a whole test file (a throw at import, a run that never ends: conventional.js, table.js) name
    // that file's real tests in tests_pass, so their references succeed like every other task's.
    expect(failures).toEqual([]);
  });
});
