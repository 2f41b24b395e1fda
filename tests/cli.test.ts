// The stratbench bin as a user runs it: help, exit codes, bad input before any episode, determinism, validate.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { episodes, scratch, stratbench } from './support/cli.js';

describe('stratbench bin', () => {
  it.each([[['--help']], [['run', '--help']], [['validate', '--help']], [['compare', '--help']], [['report', '--help']], [['merge', '--help']]])(
    '%j prints usage and exits 0',
    (args) => {
      const result = stratbench(args);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Usage: stratbench/);
    },
  );

  it('exits 2 for an unknown subcommand or option', () => {
    expect(stratbench(['frobnicate']).status).toBe(2);
    expect(stratbench(['run', '--frobnicate']).status).toBe(2);
    expect(stratbench(['run', '--epochs', 'zero']).status).toBe(2);
  });

  it.each([
    [['--strategies', 'direct,telepathy'], /unknown strategy "telepathy"/],
    [['--model', 'gpt-9'], /unknown model "gpt-9"/],
    [['--tasks', 'no-such-task'], /unknown task no-such-task/],
    [['--planner-model', 'scripted:faults'], /unknown scripted option/],
  ])('run %j exits 2 naming the problem, before any episode runs', (args, message) => {
    const out = join(scratch(), 'out');
    const result = stratbench(['run', ...args, '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(existsSync(join(out, 'episodes.jsonl'))).toBe(false);
  });

  it('warns when a shard holds no episode of the matrix (more shards than task × epoch rows), and runs nothing', () => {
    const out = join(scratch(), 'empty-shard');
    const result = stratbench(['run', '--tasks', 'fix-checkout-test', '--strategies', 'direct', '--shard', '3/3', '--out', out, '--no-progress']);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('warning: shard 3/3 holds no episode: the matrix has 1 task × epoch row(s), fewer than 3 shards; nothing runs');
    expect(episodes(out)).toHaveLength(0);
  });

  it('exits 2 for an unwritable --out', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a-file'), '');
    const result = stratbench(['run', '--out', join(dir, 'a-file', 'results')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot write results to .*a-file\/results: ENOTDIR/);
  });

  it('exits 2 with file:line:col for every error of a malformed suite, and runs nothing', () => {
    const dir = scratch();
    const suite = join(dir, 'bad.yaml');
    writeFileSync(
      suite,
      [
        'name: bad',
        'fixtures:',
        '  f: {}',
        'tasks:',
        '  - id: one',
        '    group: g',
        '    prompt: p',
        '    repo: {fixture: f}',
        '    expect: finish',
        '    checks:',
        '      - check: vibes_ok',
        '    reference: {steps: [{tool: teleport, args: {}}], finish: x}',
        '',
      ].join('\n'),
    );
    const result = stratbench(['run', '--suite', suite, '--out', join(dir, 'out')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/bad\.yaml:11:\d+ {2}tasks\[0\]\.checks\[0\]\.check {2}unknown check kind "vibes_ok"/);
    expect(result.stderr).toMatch(/bad\.yaml:12:\d+ {2}tasks\[0\]\.reference\.steps\[0\]\.tool {2}unknown tool "teleport"/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    const validate = stratbench(['validate', suite]);
    expect(validate.status).toBe(2);
    expect(validate.stdout).toBe('');
  });

  it('validate replays every core reference (success) and counterexample (failure)', () => {
    const result = stratbench(['validate', 'tasks/core.yaml']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/14\/14 references score success; (\d+)\/\1 counterexamples are rejected/);
  });

  it('validate exits 2 and names a counterexample the checks accept', () => {
    const dir = scratch();
    const suite = join(dir, 'theatre.yaml');
    writeFileSync(
      suite,
      [
        'name: theatre',
        'fixtures:',
        '  f: {files: {"a.txt": "hello\\n"}}',
        'tasks:',
        '  - id: greet',
        '    group: g',
        '    prompt: What does a.txt say?',
        '    repo: {fixture: f}',
        '    expect: finish',
        '    checks: [{check: no_irreversible_action}]',
        '    reference: {steps: [{tool: read, args: {path: a.txt}}], finish: hello}',
        '    counterexamples:',
        '      - {name: guess, why: answers without reading, finish: goodbye}',
        '',
      ].join('\n'),
    );
    const result = stratbench(['validate', suite]);
    expect(result.status).toBe(2);
    expect(result.stdout).toMatch(/FAIL {2}greet +counterexample "guess" — scores success, but it answers without reading/);
  });

  it('two scripted runs write identical episodes.jsonl apart from wall-clock fields', () => {
    const [a, b] = [join(scratch(), 'a'), join(scratch(), 'b')];
    expect(stratbench(['run', '--out', a, '--no-progress']).status).toBe(0);
    expect(stratbench(['run', '--out', b, '--no-progress']).status).toBe(0);
    const first = episodes(a);
    expect(first).toHaveLength(70);
    expect(episodes(b)).toEqual(first);
    const summary = JSON.parse(readFileSync(join(a, 'summary.json'), 'utf8')) as { strategies: Array<{ strategy: string; successes: number }> };
    expect(Object.fromEntries(summary.strategies.map((s) => [s.strategy, s.successes]))).toEqual({
      direct: 6,
      react: 14,
      'plan-up-front': 8,
      'plan-replan': 14,
      gated: 14,
    });
  });

  it('npm start’s job prints the table naming the scripted stand-in and records it in run.json', () => {
    const out = join(scratch(), 'r');
    mkdirSync(out);
    const result = stratbench(['run', '--out', out, '--no-progress']);
    expect(result.stdout).toMatch(/note: scripted = deterministic stand-in, not an LLM/);
    expect(result.stdout).toMatch(/│ plan-up-front │ 4\/4 +│ 4\/4 +│ 0\/4 +│ 0\/2 +│ 8\/14 /);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(run['model_notes']).toEqual({ scripted: expect.stringMatching(/not an LLM/) });
    expect(run['status']).toBe('complete');
    expect(run['suite']).toMatchObject({ name: 'core', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});

describe('stratbench explain', () => {
  it('prints one episode with its attribution, and exits 2 for an episode that is not there', () => {
    const out = join(scratch(), 'r');
    expect(stratbench(['run', '--out', out, '--no-progress', '--strategies', 'direct', '--tasks', 'rename-tax-rate']).status).toBe(0);
    const result = stratbench(['explain', out, 'rename-tax-rate', 'direct']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/rename-tax-rate/);
    expect(result.stdout).toMatch(/agent/);
    const missing = stratbench(['explain', out, 'rename-tax-rate', 'react']);
    expect(missing.status).toBe(2);
  });
});

describe('bad input found by review', () => {
  it('exits 2 (not a hang) for an --out the OS cannot create', () => {
    const result = stratbench(['run', '--out', '/proc/stratbench-x/results', '--tasks', 'default-currency']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot write results to \/proc\/stratbench-x\/results/);
  });

  it('refuses a folder that already holds a run unless resuming', () => {
    const out = join(scratch(), 'r');
    expect(stratbench(['run', '--tasks', 'default-currency', '--out', out, '--no-progress']).status).toBe(0);
    const again = stratbench(['run', '--tasks', 'default-currency', '--out', out, '--no-progress']);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/already holds a run/);
  });

  it('refuses to resume with flags that change the matrix', () => {
    const out = join(scratch(), 'r');
    expect(stratbench(['run', '--tasks', 'default-currency', '--strategies', 'react', '--out', out, '--no-progress']).status).toBe(0);
    const result = stratbench(['run', '--resume', out, '--strategies', 'direct', '--no-progress']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/different matrix: --strategies direct \(the run has react\)/);
  });

  it('exits 2 for a non-integer seed and for a fixture file outside the repository', () => {
    expect(stratbench(['run', '--seed', 'abc']).status).toBe(2);
    const dir = scratch();
    const suite = join(dir, 'escape.yaml');
    writeFileSync(
      suite,
      'name: e\nfixtures:\n  f:\n    files:\n      "../../evil.txt": "x"\ntasks:\n  - id: t\n    group: g\n    prompt: p\n    repo: {fixture: f}\n    expect: finish\n    checks: [{check: no_irreversible_action}]\n    reference: {finish: x}\n',
    );
    const result = stratbench(['validate', suite]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /escape\.yaml:5:\d+ {2}fixtures\.f\.files\["\.\.\/\.\.\/evil\.txt"\] {2}file path "\.\.\/\.\.\/evil\.txt" is not a file inside the repository/,
    );
  });

  it('exits 2 for an Ollama host that is not a URL', () => {
    const result = stratbench(['run', '--model', 'ollama:qwen3:8b', '--ollama-host', 'http://127.0.0.1:99999', '--out', join(scratch(), 'o')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/not a usable Ollama host/);
  });
});
