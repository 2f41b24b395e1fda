// compare --junit: <failure> only for a regression, time attributes filled, valid against Jenkins' junit-10.xsd.
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompare } from '../src/report/compare.js';
import { episodeRecord, runFile } from './support/results-files.js';

const SCHEMA = join(import.meta.dirname, 'fixtures/junit/junit-10.xsd');
const HAS_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;

type Result = boolean | 'error';

let root: string;
let folders = 0;

/** A folder of strategies × `tasks` × `epochs`, each episode 250 ms of wall time. */
async function folder(shape: { strategies: string[]; tasks: number; epochs: number; result?: (strategy: string, task: number, epoch: number) => Result }) {
  folders += 1;
  const dir = join(root, `run-${folders}`);
  await mkdir(dir, { recursive: true });
  const lines: string[] = [];
  for (let epoch = 0; epoch < shape.epochs; epoch += 1) {
    for (let task = 0; task < shape.tasks; task += 1) {
      for (const strategy of shape.strategies) {
        const result = shape.result?.(strategy, task, epoch) ?? true;
        lines.push(
          JSON.stringify(
            episodeRecord(`t${task}`, {
              strategy,
              epoch,
              wall_ms: 250,
              success: result === true,
              outcome: result === 'error' ? { status: 'error', reason: 'infrastructure:unreachable' } : { status: 'finished', reason: 'answered' },
            }),
          ),
        );
      }
    }
  }
  await writeFile(join(dir, 'episodes.jsonl'), `${lines.join('\n')}\n`);
  const base = runFile();
  const config = { ...base.config, strategies: shape.strategies, tasks: Array.from({ length: shape.tasks }, (_, task) => `t${task}`), epochs: shape.epochs };
  await writeFile(join(dir, 'run.json'), JSON.stringify({ ...base, config, strategies: shape.strategies, epochs: shape.epochs, episodes: lines.length }));
  return dir;
}

async function junitOf(base: string, head: string, options: { maxErrorRate?: number } = {}): Promise<{ xml: string; exitCode: number; path: string }> {
  const path = join(root, `junit-${(folders += 1)}.xml`);
  const result = await runCompare(base, head, { failOnRegression: true, color: false, junitFile: path, ...options });
  return { xml: await readFile(path, 'utf8'), exitCode: result.exitCode, path };
}

/** The attributes of every `<name …>` start tag. */
function tags(xml: string, name: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<${name}((?:\\s+[\\w-]+="[^"]*")*)\\s*/?>`, 'g'))].map((match) =>
    Object.fromEntries([...(match[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((attribute) => [attribute[1], attribute[2]])),
  );
}

const SUREFIRE_TIME = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$/;

/**
 * Validates against junit-10.xsd with xmllint when it is installed (CI installs libxml2-utils); otherwise checks what
 * the schema says of the elements compare writes: allowed and required attributes, time format, nesting.
 */
function expectValid(xml: string, path: string): void {
  if (HAS_XMLLINT) {
    const lint = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, path], { encoding: 'utf8' });
    expect(lint.stderr.trim()).toBe(`${path} validates`);
    expect(lint.status).toBe(0);
    return;
  }
  const allowed = (list: string[]) => (attributes: Record<string, string>) =>
    expect(Object.keys(attributes).filter((name) => !list.includes(name))).toEqual([]);
  const [suites, ...more] = tags(xml, 'testsuites');
  expect(more).toEqual([]);
  allowed(['name', 'time', 'tests', 'failures', 'errors'])(suites as Record<string, string>);
  for (const suite of tags(xml, 'testsuite')) {
    for (const required of ['name', 'tests', 'failures', 'errors']) expect(suite[required], required).toBeDefined();
    expect(suite['time']).toMatch(SUREFIRE_TIME);
  }
  for (const testcase of tags(xml, 'testcase')) {
    allowed(['name', 'time', 'classname', 'group'])(testcase);
    expect(testcase['name']).toBeDefined();
  }
  for (const property of tags(xml, 'property')) expect(Object.keys(property)).toEqual(['name', 'value']);
  // <properties> only directly under <testsuite>, before its test cases.
  expect(xml).not.toMatch(/<testcase[^>]*>\s*<properties>/);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'stratbench-junit-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('compare --junit', () => {
  it('a run compared with itself has 0 failures (it had 14: every task not stable-pass), and is valid', async () => {
    // The core suite's shape: 14 tasks, flaky and failing ones included, 3 epochs.
    const run = await folder({ strategies: ['direct', 'react'], tasks: 14, epochs: 3, result: (_, task, epoch) => task < 7 || (task < 10 && epoch === 0) });
    const { xml, exitCode, path } = await junitOf(run, run);
    expect(exitCode).toBe(3);
    expect(tags(xml, 'testsuites')).toEqual([{ name: 'stratbench compare', tests: '29', failures: '0', errors: '0', time: '21.000' }]);
    expect(xml).not.toContain('<failure');
    expect(xml).not.toContain('<error');
    // Every test case has its time: the head's wall time for the task (3 epochs × 250 ms).
    expect(new Set(tags(xml, 'testcase').map((testcase) => testcase['time']))).toEqual(new Set(['0.000', '0.750']));
    expect(tags(xml, 'testsuite').map((suite) => [suite['name'], suite['failures'], suite['skipped'], suite['time']])).toEqual([
      ['gate', '0', '1', '0.000'],
      ['direct', '0', '0', '10.500'],
      ['react', '0', '0', '10.500'],
    ]);
    expectValid(xml, path);
  });

  it('a regression: the gate decision and each regressed task are failures, nothing else', async () => {
    const strategies = ['direct', 'react'];
    const base = await folder({ strategies, tasks: 30, epochs: 2 });
    // direct: t0 and t1 go stable-pass → stable-fail (gating); react: t2 goes flaky (worse, no regression).
    const head = await folder({
      strategies,
      tasks: 30,
      epochs: 2,
      result: (strategy, task, epoch) => (strategy === 'direct' ? task > 1 : task !== 2 || epoch === 0),
    });
    const { xml, exitCode, path } = await junitOf(base, head);
    expect(exitCode).toBe(1);
    expect(tags(xml, 'testsuites')[0]).toMatchObject({ tests: '61', failures: '3', errors: '0' });
    expect(tags(xml, 'failure')).toEqual([
      {
        message: 'regressed: direct / t0: stable-pass (2/2) became stable-fail (0/2); direct / t1: stable-pass (2/2) became stable-fail (0/2)',
        type: 'regression',
      },
      { message: 'regressed: base 2/2 stable-pass → head 0/2 stable-fail (stable-pass → stable-fail trips the gate)', type: 'regressed' },
      { message: 'regressed: base 2/2 stable-pass → head 0/2 stable-fail (stable-pass → stable-fail trips the gate)', type: 'regressed' },
    ]);
    expect(xml).toContain('flip: worse (not a regression the gate found)');
    expect(xml).toContain('<property name="verdict" value="regressed"/>');
    expect(xml).toContain('<property name="exit code with --fail-on-regression" value="1"/>');
    expectValid(xml, path);
  });

  it('infrastructure errors are skipped, not errors; an error-rate regression fails the gate decision alone', async () => {
    const base = await folder({ strategies: ['direct'], tasks: 20, epochs: 1 });
    const head = await folder({ strategies: ['direct'], tasks: 20, epochs: 1, result: (_, task) => (task < 4 ? 'error' : true) });
    const { xml, exitCode, path } = await junitOf(base, head);
    expect(exitCode).toBe(1);
    expect(tags(xml, 'skipped').filter((skipped) => skipped['type'] === 'infrastructure')).toHaveLength(4);
    expect(tags(xml, 'failure')).toHaveLength(1);
    expect(tags(xml, 'failure')[0]?.['message']).toMatch(/^regressed: head errors: 4 of 20 \(20\.0%\) episodes ended in an infrastructure error/);
    expectValid(xml, path);
  });

  it.runIf(HAS_XMLLINT)('xmllint rejects what the old output had: skipped on <testsuites>', async () => {
    const path = join(root, 'old.xml');
    await writeFile(path, '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" tests="0" failures="0" errors="0" skipped="0"></testsuites>\n');
    const lint = spawnSync('xmllint', ['--noout', '--schema', SCHEMA, path], { encoding: 'utf8' });
    expect(lint.status).not.toBe(0);
    expect(lint.stderr).toContain("The attribute 'skipped' is not allowed");
  });
});
