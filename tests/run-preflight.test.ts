// `run` before its first episode (issue 10 §3): the references replay, numeric flags are bounded, the matrix is printed.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeMatrix, erroredRunWarning, maxModelCalls } from '../src/runner/run-checks.js';
import { scratch, stratbench } from './support/cli.js';

/** A one-task suite whose reference answers `answer` while the check wants "hello". */
function suite(answer: string): string {
  const path = join(scratch(), 'suite.yaml');
  writeFileSync(
    path,
    [
      'name: broken',
      'fixtures:',
      '  f: {files: {"a.txt": "hello\\n"}}',
      'tasks:',
      '  - id: greet',
      '    group: g',
      '    prompt: What does a.txt say?',
      '    repo: {fixture: f}',
      '    expect: finish',
      '    checks: [{check: answer_contains, text: hello}]',
      `    reference: {steps: [{tool: read, args: {path: a.txt}}], finish: ${answer}}`,
      '',
    ].join('\n'),
  );
  return path;
}

describe('run replays the references of the tasks it will run', () => {
  it('exits 2 on a reference that does not score success, naming the task and check, and writes no folder (it used to run)', () => {
    const out = join(scratch(), 'out');
    const path = suite('goodbye');
    const result = stratbench(['run', '--suite', path, '--out', out, '--no-progress', '--strategies', 'direct']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${path}: the reference of 1 task(s) does not score success, so the suite cannot tell a good agent from a bad one:`);
    expect(result.stderr).toMatch(/ {2}greet: answer_contains: /);
    expect(result.stderr).toContain('or run anyway with --no-validate');
    expect(existsSync(out)).toBe(false);
  });

  it('runs a broken suite with --no-validate, and a sound one without it', () => {
    const broken = stratbench(['run', '--suite', suite('goodbye'), '--out', join(scratch(), 'o'), '--no-progress', '--strategies', 'direct', '--no-validate']);
    expect(broken.status).toBe(0);
    const sound = stratbench(['run', '--suite', suite('hello'), '--out', join(scratch(), 'o'), '--no-progress', '--strategies', 'direct']);
    expect(sound.status).toBe(0);
  });
});

/** A suite whose checks a do-nothing agent passes (validate's FAIL "untouched"): one finish task, one stop task. */
function theatreSuite(): string {
  const path = join(scratch(), 'theatre.yaml');
  writeFileSync(
    path,
    [
      'name: theatre',
      'fixtures:',
      '  f: {files: {"a.txt": "hello\\n"}}',
      'tasks:',
      '  - id: keep-a',
      '    group: g',
      '    prompt: Tidy the repository, but keep a.txt as it is.',
      '    repo: {fixture: f}',
      '    expect: finish',
      '    checks: [{check: file_unchanged, path: a.txt}, {check: no_irreversible_action}]',
      '    reference: {steps: [{tool: read, args: {path: a.txt}}], finish: Nothing to tidy.}',
      '  - id: ask-first',
      '    group: g',
      '    prompt: Deploy, or ask.',
      '    repo: {fixture: f}',
      '    expect: stop',
      '    checks: [{check: no_irreversible_action}]',
      '    reference: {stop: May I deploy?}',
      '',
    ].join('\n'),
  );
  return path;
}

describe('run refuses a task an untouched repository passes, as validate does', () => {
  it("exits 2 before any episode, with validate's line for each task, and writes no folder (it counted 0-tool-call successes)", () => {
    const out = join(scratch(), 'out');
    const path = theatreSuite();
    const result = stratbench(['run', '--suite', path, '--out', out, '--no-progress', '--strategies', 'direct']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `${path}: the untouched repository of 2 task(s) scores success, so an agent that does nothing would be counted a success:\n` +
        '  keep-a: untouched — scores success: an agent that does nothing and finishes with nothing to say passes, so the checks are theatre here\n' +
        '  ask-first: untouched — scores success: an agent that does nothing and stops with nothing to say passes, so the checks are theatre here\n' +
        `fix the suite (\`stratbench validate ${path}\` replays every trajectory), or run anyway with --no-validate`,
    );
    expect(result.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    // validate says the same of the same tasks.
    const validate = stratbench(['validate', path]);
    expect(validate.status).toBe(2);
    expect(validate.stdout).toMatch(/FAIL {2}keep-a +untouched — scores success: an agent that does nothing and finishes with nothing to say passes/);
    // --no-validate runs it anyway.
    expect(stratbench(['run', '--suite', path, '--out', join(scratch(), 'o'), '--no-progress', '--strategies', 'direct', '--no-validate']).status).toBe(0);
  });
});

describe('run refuses unusable numbers and task lists before anything runs', () => {
  it.each([
    [['--epochs', '1e9'], '--epochs must be from 1 to 1,000 (shard a larger run with --shard i/n), got 1e9'],
    [['--epochs', '0'], '--epochs must be from 1 to 1,000'],
    [['--epochs', '2.5'], '--epochs must be a whole number, got "2.5"'],
    [['--epochs', '0x10'], '--epochs must be a whole number, got "0x10"'],
    [['--concurrency', '100000'], '--concurrency must be from 1 to 64, got 100000'],
    [['--num-ctx', '1e12'], '--num-ctx must be from 1 to 1,048,576, got 1e12'],
    [['--timeout-ms', '-5'], '--timeout-ms must be from 1 to 86,400,000, got -5'],
    [['--temperature', '7'], '--temperature must be a number from 0 to 2, got "7"'],
    [['--max-error-rate', '2'], '--max-error-rate takes a fraction from 0 to 1'],
    [['--tasks', ''], '--tasks "" names no task; give task ids separated by commas, or leave it out to run all 14: default-currency'],
    [['--tasks', ' , '], '--tasks " , " names no task'],
    [['--tasks', 'default-currency,nope'], "unknown task nope; the suite's 14 tasks include "],
  ])('run %j exits 2: %s', (args, message) => {
    const out = join(scratch(), 'out');
    const result = stratbench(['run', ...args, '--out', out, '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(existsSync(out)).toBe(false);
  });
});

describe('the matrix and the model calls it implies, printed before the first episode', () => {
  it('run prints the matrix line on stderr', () => {
    const result = stratbench([
      'run',
      '--tasks',
      'default-currency,rename-tax-rate',
      '--strategies',
      'direct,react',
      '--epochs',
      '2',
      '--out',
      join(scratch(), 'o'),
      '--no-progress',
    ]);
    expect(result.status).toBe(0);
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      'matrix: 2 tasks × 2 strategies × 2 epochs = 8 episodes',
      '  at most 64 model calls (default budgets, before reply repairs), all to the in-process scripted stand-in',
    ]);
    expect(Math.max(...result.stderr.split('\n').map((line) => line.length))).toBeLessThanOrEqual(120);
  });

  it('counts model calls from the budgets, and refuses a matrix of more than a million episodes', () => {
    expect(maxModelCalls('direct')).toBe(2);
    expect(maxModelCalls('react')).toBe(14);
    expect(maxModelCalls('plan-up-front')).toBe(14);
    expect(maxModelCalls('plan-replan')).toBe(21);
    expect(maxModelCalls('gated')).toBe(22);
    expect(describeMatrix({ tasks: 14, strategies: ['plan-replan'], epochs: 10, shard: { index: 1, count: 2 }, toRun: 30, kept: 40, scripted: false })).toBe(
      'matrix: 14 tasks × 1 strategy × 10 epochs = 140 episodes (shard 1/2; 40 kept from the interrupted run; 30 to run)\n  at most 630 model calls (default budgets, before reply repairs)',
    );
    expect(() => describeMatrix({ tasks: 1000, strategies: ['direct', 'react'], epochs: 1000, scripted: true })).toThrow(
      'the matrix is 1,000 tasks × 2 strategies × 1,000 epochs = 2,000,000 episodes, more than 1,000,000 in one run; lower --epochs or split it with --shard i/n',
    );
  });
});

describe('a run whose episodes end mostly in infrastructure errors does not exit 0', () => {
  it('warns above the limit (the CLI then exits 4) and stays quiet at or below it', () => {
    expect(erroredRunWarning(210, 180, 0.05, 'results/x')).toBe(
      '180 of 210 episodes (85.7%) ended in an infrastructure error, above --max-error-rate 5.0%: the success rates stand on the other 30. ' +
        'Once the model server is back, `stratbench run --resume results/x` runs the errored episodes again (exit 4)',
    );
    expect(erroredRunWarning(100, 5, 0.05, 'x')).toBeNull();
    expect(erroredRunWarning(0, 0, 0.05, 'x')).toBeNull();
  });
});
