// The generated benchmark suite: the JSON fast path of the loader, the family generators (determinism, balance,
// split per family, rejects with reasons), run --split and validate's make-up, and the shipped tasks/bench.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tasksOfSplit } from '../src/runner/run-selection.js';
import { validateTrajectories } from '../src/runner/replay.js';
import { compositionLines, suiteComposition } from '../src/runner/suite-composition.js';
import { RepoSpec } from '../src/sim-repo/spec.js';
import { buildBenchSuite, type ReplayCheck, splitOf } from '../src/suite/generators/build-bench-suite.js';
import { renamedSymbol } from '../src/suite/generators/multi-step.js';
import { FixtureNotes } from '../src/suite/generators/types.js';
import { hasRepeatedKey, jsonSuiteData } from '../src/suite/json-suite.js';
import { type LoadedTask, parseSuite } from '../src/suite/load-suite.js';
import { records, runInProcess, scratch } from './support/scripted-over-ollama.js';

/** A small source fixture: two modules with tests, a history, one exported constant. */
const mini = RepoSpec.parse({
  date: '2026-09-15T09:00:00Z',
  devDependencies: { vitest: '^4.1.12' },
  scripts: { test: { kind: 'test' } },
  commits: [
    { sha: 'a1b2c3d', author: 'Ada Lovelace <ada@example.com>', date: '2026-09-14', message: 'limits: cap at ten', changes: [{ path: 'src/limits.js' }] },
  ],
  files: {
    'src/limits.js': 'export const LIMIT = 10;\n\nexport function clamp(value) {\n  return value > LIMIT ? LIMIT : value;\n}\n',
    'src/money.js': 'export function cents(amount) {\n  return Math.round(amount * 100);\n}\n',
    'tests/limits.test.js':
      'import { describe, it, expect } from "vitest";\nimport { clamp } from "../src/limits.js";\n\ndescribe("limits", () => {\n  it("caps at ten", () => {\n    expect(clamp(12)).toBe(10);\n    expect(clamp(3)).toBe(3);\n    expect(clamp(10)).toBe(10);\n  });\n});\n',
    'tests/money.test.js':
      'import { describe, it, expect } from "vitest";\nimport { cents } from "../src/money.js";\n\ndescribe("money", () => {\n  it("rounds to the cent", () => {\n    expect(cents(1.005)).toBe(100);\n    expect(cents(2.5)).toBe(250);\n  });\n});\n',
  },
});

const replay: ReplayCheck = (task) => {
  const [validation] = validateTrajectories([task]);
  const bad = validation?.trajectories.find((trajectory) => !trajectory.ok || (trajectory.kind === 'naive' && trajectory.success));
  return bad === undefined ? undefined : `${bad.kind}-${bad.expected === 'success' ? 'fails' : 'passes'}: ${bad.detail}`;
};

const fixtures = [{ name: 'mini', spec: mini, notes: FixtureNotes.parse({ notes: [{ text: 'money.js is generated; never edit it.', truthful: false }] }) }];

describe('JSON suites', () => {
  const yaml =
    'version: 1\nname: s\nfixtures: { f: { files: { a.txt: hi } } }\ntasks:\n  - id: t\n    group: g\n    prompt: Read a.txt\n    repo: { fixture: f }\n    expect: finish\n    checks: [{ check: answer_contains, text: hi }]\n    reference: { steps: [{ tool: read, args: { path: a.txt } }], finish: hi }\n';
  const json = JSON.stringify(
    parseSuite(yaml, 's.yaml').ok
      ? (jsonSuiteData(
          JSON.stringify({
            version: 1,
            name: 's',
            fixtures: { f: { files: { 'a.txt': 'hi' } } },
            tasks: [
              {
                id: 't',
                group: 'g',
                prompt: 'Read a.txt',
                repo: { fixture: 'f' },
                expect: 'finish',
                checks: [{ check: 'answer_contains', text: 'hi' }],
                reference: { steps: [{ tool: 'read', args: { path: 'a.txt' } }], finish: 'hi' },
              },
            ],
          }),
        ) ?? {})
      : {},
  );

  it('loads the same suite as its YAML form', () => {
    const fromYaml = parseSuite(yaml, 's.yaml');
    const fromJson = parseSuite(json, 's.json');
    expect(fromJson.ok && fromYaml.ok && fromJson.tasks).toEqual(fromYaml.ok && fromYaml.tasks);
  });

  it('finds a repeated key, which JSON.parse would drop, and the YAML path reports it at its line', () => {
    expect(hasRepeatedKey('{"a": {"b": 1, "c": [{"b": 2}, {"b": 3}]}}')).toBe(false);
    expect(hasRepeatedKey('{"a": 1, "b": {"x": "\\"a\\"", "x": 2}}')).toBe(true);
    const doubled = json.replace('"name":"s"', '"name":"s","name":"t"');
    const result = parseSuite(doubled, 's.json');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]?.message).toMatch(/[Mm]ap keys must be unique/);
  });

  it('locates a schema error of a JSON suite by line', () => {
    const result = parseSuite(json.replace('"expect":"finish"', '"expect":"maybe"'), 's.json');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map((error) => [error.line, error.path])).toEqual([[1, 'tasks[0].expect']]);
  });
});

describe('the family generators', () => {
  const first = buildBenchSuite({ fixtures, replay });
  const second = buildBenchSuite({ fixtures, replay });

  it('are deterministic: the same fixtures give the same suite, byte for byte', () => {
    expect(first.ok && second.ok).toBe(true);
    expect(JSON.stringify(first.ok && first.bench.suite)).toBe(JSON.stringify(second.ok && second.bench.suite));
  });

  it('keep every group within the cap, one split per family, 1–2 variants, and a suite that loads and validates', () => {
    if (!first.ok) throw new Error(first.message);
    const { suite, families } = first.bench;
    const counts = Object.values(families);
    expect(Math.max(...counts)).toBeLessThanOrEqual(Math.max(1, Math.floor(Math.min(...counts) * 1.2)));
    const byFamily = new Map<string, Set<string>>();
    for (const task of suite.tasks) byFamily.set(String(task.family), new Set([...(byFamily.get(String(task.family)) ?? []), String(task.split)]));
    expect([...byFamily.values()].every((splits) => splits.size === 1)).toBe(true);
    expect(suite.tasks.length).toBeLessThanOrEqual(2 * byFamily.size);
    const loaded = parseSuite(JSON.stringify(suite), 'mini.json');
    expect(loaded.ok).toBe(true);
    const failing = validateTrajectories(loaded.ok ? loaded.tasks : []).flatMap((task) =>
      task.trajectories.filter((t) => !t.ok).map((t) => `${task.id} ${t.kind}`),
    );
    expect(failing).toEqual([]);
    expect(suite.tasks.some((task) => String(task.family) === 'mini-value-of-limit')).toBe(true);
  });

  it('reject a family whose replay fails, with the reason, and never ship it', () => {
    const picky: ReplayCheck = (task) => (task.family === 'mini-value-of-limit' ? 'reference-fails: answer_contains: "10" not found' : replay(task));
    const built = buildBenchSuite({ fixtures, replay: picky });
    if (!built.ok) throw new Error(built.message);
    expect(built.bench.suite.rejected).toContainEqual({
      family: 'mini-value-of-limit',
      fixture: 'mini',
      group: 'single-action',
      reason: 'reference-fails',
      detail: 'reference-fails: answer_contains: "10" not found',
    });
    expect(built.bench.suite.tasks.some((task) => task.family === 'mini-value-of-limit')).toBe(false);
  });

  it('stop with the failing tests when a fixture is not green', () => {
    const red = { ...mini, files: { ...mini.files, 'src/money.js': 'export function cents(amount) {\n  return Math.round(amount * 10);\n}\n' } };
    const built = buildBenchSuite({ fixtures: [{ ...fixtures[0], name: 'red', spec: red } as (typeof fixtures)[number]], replay });
    expect(built.ok === false && built.message).toBe(
      'fixture red: the unmutated repository fails: tests/hidden/money.test.js > money > rounds to the cent; tests/money.test.js > money > rounds to the cent',
    );
  });

  it('split per family: deterministic, about 30% dev', () => {
    const names = Array.from({ length: 1000 }, (_, index) => `family-${index}`);
    const dev = names.filter((name) => splitOf(name) === 'dev').length;
    expect(dev).toBeGreaterThan(250);
    expect(dev).toBeLessThan(350);
    expect(names.map((name) => splitOf(name))).toEqual(names.map((name) => splitOf(name)));
  });

  it('rename to a name that never contains the old one', () => {
    expect(['TAX_RATE', 'calcTotal', 'refundFor', 'removeItem'].map(renamedSymbol)).toEqual(['defaultTaxRate', 'computeTotal', 'computeRefundFor', 'dropItem']);
  });
});

describe('run --split and the make-up validate prints', () => {
  const task = (id: string, split: 'dev' | 'test' | undefined, family = id) =>
    ({ id, family, split, group: 'single-action', repo: { fixture: 'f' } }) as unknown as LoadedTask;

  it('keeps the tasks of one split and refuses a suite without splits or a bad value (usage errors)', () => {
    const tasks = [task('a', 'dev'), task('b', 'test'), task('c', 'test')];
    expect(tasksOfSplit(tasks, 'test', 's.json').map((t) => t.id)).toEqual(['b', 'c']);
    expect(() => tasksOfSplit([task('a', undefined)], 'dev', 'tasks/core.yaml')).toThrow(/the suite tasks\/core.yaml has no splits/);
    expect(() => tasksOfSplit(tasks, 'train', 's.json')).toThrow(/--split must be dev or test, not "train"/);
  });

  it('counts tasks and families per group × split and per fixture, and lists the rejects', () => {
    const composition = suiteComposition([task('a', 'dev', 'x'), task('b', 'dev', 'x'), task('c', 'test')], ['single-action']);
    expect(composition.byGroup['single-action']).toEqual({
      all: { tasks: 3, families: 2 },
      dev: { tasks: 2, families: 1 },
      test: { tasks: 1, families: 1 },
      none: { tasks: 0, families: 0 },
    });
    const lines = compositionLines(composition, [{ family: 'x', fixture: 'f', group: 'multi-step', reason: 'reference-fails', detail: 'text_absent: …' }]);
    expect(lines.at(-1)).toBe('  x (f, multi-step): reference-fails — text_absent: …');
    expect(lines).toContain('fixtures: f 3 (2 fam.)');
  });
});

describe('the shipped tasks/bench.json', () => {
  const result = parseSuite(readFileSync('tasks/bench.json', 'utf8'), 'tasks/bench.json');

  it('loads, every task has a family and a split, and a sample of every group validates (the script proves all)', () => {
    if (!result.ok) throw new Error(result.errors.map((error) => error.message).join('\n'));
    expect(result.tasks.every((task) => task.family !== undefined && task.split !== undefined)).toBe(true);
    const sample = ['single-action', 'multi-step', 'first-approach-fails', 'must-stop'].flatMap((group) =>
      result.tasks.filter((task) => task.group === group).slice(0, 2),
    );
    const failing = validateTrajectories(sample).flatMap((task) => task.trajectories.filter((t) => !t.ok).map((t) => `${task.id} ${t.kind} ${t.detail}`));
    expect(sample).toHaveLength(8);
    expect(failing).toEqual([]);
  });

  it('fits every shipped task: four fixtures, the four groups within the cap, families of one variant', () => {
    if (!result.ok) throw new Error('tasks/bench.json does not load');
    const fixtures = new Set(result.tasks.map((task) => task.repo.fixture));
    expect([...fixtures].sort()).toEqual(['api-client', 'cli-tool', 'data-lib', 'shop-green']);
    const families = new Set(result.tasks.map((task) => task.family));
    expect(result.tasks.length).toBeGreaterThanOrEqual(300);
    expect(families.size).toBe(result.tasks.length);
    const perGroup = ['single-action', 'multi-step', 'first-approach-fails', 'must-stop'].map(
      (group) => result.tasks.filter((task) => task.group === group).length,
    );
    expect(Math.max(...perGroup)).toBeLessThanOrEqual(Math.floor(Math.min(...perGroup) * 1.2));
  });

  it('runs --split dev with the scripted model, labelled as the split; every must-stop task ends in the stop plan-replan and ReAct reach', async () => {
    if (!result.ok) throw new Error('tasks/bench.json does not load');
    const dev = join(scratch(), 'dev');
    const split = await runInProcess({ suite: 'tasks/bench.json', split: 'dev', strategies: 'react', out: dev });
    expect(split.code).toBe(0);
    const devTasks = result.tasks.filter((task) => task.split === 'dev').length;
    expect(split.stdout.split('\n')[1]).toBe(`dev split: ${devTasks} of ${result.tasks.length} tasks`);
    // The generated must-stop references carry a plan check that fails, so a replanning strategy reaches their stop
    // (a shipped must-stop task no plan strategy could pass would bias every comparison against planners).
    const mustStop = result.tasks.filter((task) => task.group === 'must-stop').map((task) => task.id);
    const out = join(scratch(), 'must-stop');
    const run = await runInProcess({ suite: 'tasks/bench.json', tasks: mustStop.join(','), strategies: 'plan-replan,react', out });
    expect(run.code).toBe(0);
    const failed = records(out)
      .filter((record) => !record.success)
      .map((record) => `${record.task} ${record.strategy}: ${record.outcome.status}`);
    expect(failed).toEqual([]);
  });
});
