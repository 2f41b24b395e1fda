// Writes tasks/bench.json (`npx tsx scripts/generate-suite.ts`): the benchmark suite generated from the shop (its
// pricing fix applied, plus tasks/sources/shop-extra) and every tasks/sources/<name>/fixture.yaml, each family proved
// by replay before it is kept; prints the families per group and every rejected family with its reason.
// See docs/templates.md and docs/decisions/0010-generated-suite-layout.md.
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { stopPlanCheckProblem, validateTrajectories } from '../src/runner/replay.js';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';
import { RepoSpec } from '../src/sim-repo/spec.js';
import { buildBenchSuite, type ReplayCheck } from '../src/suite/generators/build-bench-suite.js';
import { FixtureNotes, type GeneratorFixture } from '../src/suite/generators/types.js';
import { applyRepoOverrides } from '../src/suite/resolve-task-repo.js';
import { RepoOverrides } from '../src/suite/schema.js';
import { loadSourceFixture } from '../src/suite/source-fixture.js';

const root = new URL('../', import.meta.url);
const out = process.argv[2] ?? fileURLToPath(new URL('tasks/bench.json', root));

/** The shop as core.yaml's rename-tax-rate starts from (pricing fix applied) plus shop-extra's modules, tests and notes. */
async function shopGreen(): Promise<GeneratorFixture> {
  const core = parseDocument(await readFile(new URL('tasks/core.yaml', root), 'utf8')).toJS() as {
    fixtures: Record<string, unknown>;
    tasks: { id: string; repo: unknown }[];
  };
  const reverted = RepoOverrides.parse(core.tasks.find((task) => task.id === 'rename-tax-rate')?.repo);
  const green = applyRepoOverrides(RepoSpec.parse(core.fixtures.shop), { fixture: 'shop', files: reverted.files ?? {}, commits: reverted.commits ?? [] });
  const extraRoot = new URL('tasks/sources/shop-extra/', root);
  const extra: Record<string, string> = {};
  for (const folder of ['src', 'tests']) {
    for (const name of (await readdir(new URL(`${folder}/`, extraRoot))).sort())
      extra[`${folder}/${name}`] = await readFile(new URL(`${folder}/${name}`, extraRoot), 'utf8');
  }
  const notesPath = fileURLToPath(new URL('notes.yaml', extraRoot));
  const notes = FixtureNotes.parse(existsSync(notesPath) ? (parseDocument(await readFile(notesPath, 'utf8')).toJS() ?? {}) : {});
  return { name: 'shop-green', spec: { ...green, files: { ...green.files, ...extra }, hidden_files: {} }, notes };
}

/** Every tasks/sources/<name>/ with a fixture.yaml (and its notes.yaml when there is one), sorted by name. */
async function sourceFixtures(): Promise<GeneratorFixture[]> {
  const sources = fileURLToPath(new URL('tasks/sources/', root));
  const fixtures: GeneratorFixture[] = [];
  for (const name of (await readdir(sources)).sort()) {
    const dir = `${sources}${name}`;
    if (!existsSync(`${dir}/fixture.yaml`)) continue;
    const notesPath = `${dir}/notes.yaml`;
    const notes = FixtureNotes.parse(existsSync(notesPath) ? (parseDocument(await readFile(notesPath, 'utf8')).toJS() ?? {}) : {});
    fixtures.push({ name, spec: loadSourceFixture(dir), notes });
  }
  return fixtures;
}

/**
 * A variant is kept when its reference succeeds, the untouched repository and every counterexample fail, its naive
 * trajectory (when declared) fails, and (stop tasks) its reference plan check fails where the reference stops.
 */
const replay: ReplayCheck = (task) => {
  const planProblem = stopPlanCheckProblem(task);
  if (planProblem !== undefined) return `plan-check-passes: ${planProblem}`;
  const [validation] = validateTrajectories([task]);
  for (const trajectory of validation?.trajectories ?? []) {
    const label =
      trajectory.kind === 'counterexample'
        ? `counterexample-passes: ${trajectory.name}`
        : `${trajectory.kind}-${trajectory.expected === 'success' ? 'fails' : 'passes'}`;
    if (!trajectory.ok || (trajectory.kind === 'naive' && trajectory.success)) return `${label}: ${trajectory.detail}`;
  }
  return undefined;
};

/** The suite as JSON with one fixture, reject or task per line: reviewable, diffable per task, read with JSON.parse. */
function serialise(suite: Record<string, unknown>): string {
  const lines = Object.entries(suite).map(([key, value]) => {
    if (Array.isArray(value)) return `${JSON.stringify(key)}: [\n${value.map((item) => `  ${JSON.stringify(item)}`).join(',\n')}\n]`;
    if (key === 'fixtures' && value !== null && typeof value === 'object') {
      return `${JSON.stringify(key)}: {\n${Object.entries(value)
        .map(([name, spec]) => `  ${JSON.stringify(name)}: ${JSON.stringify(spec)}`)
        .join(',\n')}\n}`;
    }
    return `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

const started = performance.now();
const fixtures = [await shopGreen(), ...(await sourceFixtures())];
const result = buildBenchSuite({ fixtures, replay });
if (!result.ok) throw new Error(result.message);
const { suite, families, overCap } = result.bench;
// The suite must load as stratbench loads it (unique ids, schema, references) before it replaces the shipped one.
const text = serialise(suite);
const loaded = parseSuite(text, out);
if (!loaded.ok) throw new Error(`the generated suite does not load:\n${loaded.errors.map(formatSuiteError).join('\n')}`);
await writeFile(out, text, 'utf8');
for (const reject of suite.rejected)
  console.error(
    `rejected ${reject.family} (${reject.fixture}, ${reject.group}): ${reject.reason}${reject.detail === undefined || reject.detail.startsWith(reject.reason) ? '' : ` — ${reject.detail}`}${reject.detail?.startsWith(reject.reason) ? reject.detail.slice(reject.reason.length) : ''}`,
  );
console.error(
  `wrote ${out}: ${suite.tasks.length} tasks; families ${Object.entries(families)
    .map(([group, count]) => `${group} ${count} (+${overCap[group as keyof typeof overCap]} over the cap)`)
    .join(', ')}; ` +
    `${suite.rejected.length} rejected; fixtures ${fixtures.map((fixture) => fixture.name).join(', ')}; ${Math.round(performance.now() - started)} ms`,
);
