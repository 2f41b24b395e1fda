// Terminal hygiene (issue 10 §5): a closed pipe, colour settings, --version, SIGTERM, what npm pack ships, 120 columns.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useColor } from '../src/runner/terminal.js';
import { CLI, ROOT, episodes, scratch, startStratbench, stratbench } from './support/cli.js';

const ANSI = /\u001b\[/;

/** `stratbench ARGS | head -n 1` in bash: the CLI's exit status, its stderr and what head printed. */
function pipedToHead(args: string): { status: number; stderr: string; stdout: string } {
  const errFile = join(scratch(), 'stderr.txt');
  const result = spawnSync('bash', ['-c', `node ${CLI} ${args} 2>"${errFile}" | head -n 1; echo "status=\${PIPESTATUS[0]}"`], { cwd: ROOT, encoding: 'utf8' });
  const lines = result.stdout.trimEnd().split('\n');
  const status = Number((lines.pop() ?? '').replace('status=', ''));
  return { status, stdout: lines.join('\n'), stderr: readFileSync(errFile, 'utf8') };
}

/** A suite of `n` small tasks: validate prints three lines each. */
function bigSuite(n: number): string {
  const path = join(scratch(), 'big.yaml');
  const task = (i: number) =>
    [
      `  - id: greet-${i}`,
      '    group: g',
      '    prompt: What does a.txt say?',
      '    repo: {fixture: f}',
      '    expect: finish',
      '    checks: [{check: answer_contains, text: hello}]',
      '    reference: {steps: [{tool: read, args: {path: a.txt}}], finish: hello}',
    ].join('\n');
  writeFileSync(
    path,
    ['name: big', 'fixtures:', '  f: {files: {"a.txt": "hello\\n"}}', 'tasks:', ...Array.from({ length: n }, (_, i) => task(i)), ''].join('\n'),
  );
  return path;
}

// Outputs larger than a pipe's 64 KB buffer, so the CLI is still writing when head exits.
let folder: string;
let suite: string;
beforeAll(() => {
  folder = join(scratch(), 'run');
  expect(stratbench(['run', '--out', folder, '--no-progress', '--epochs', '40']).status).toBe(0);
  suite = bigSuite(600);
});

describe('a reader that goes away (EPIPE) ends the command quietly', () => {
  it.each([['validate SUITE'], ['run --no-progress --epochs 40 --out RUN'], ['report FOLDER']])(
    'stratbench %s | head (it used to crash)',
    (args) => {
      const command = args.replace('RUN', join(scratch(), 'piped')).replace('FOLDER', folder).replace('SUITE', suite);
      const direct = pipedToHead(command);
      expect(direct.status).toBe(0);
      expect(direct.stdout.split('\n')).toHaveLength(1);
      expect(direct.stderr).not.toMatch(/EPIPE|Error|crashed/);
    },
    60_000,
  );

  it('stratbench run 2>&1 | head: the run still finishes its results folder (nothing lost)', () => {
    const out = join(scratch(), 'piped-both');
    const result = spawnSync('bash', ['-c', `node ${CLI} run --no-validate --epochs 2 --out "${out}" 2>&1 | head -n 2; echo "status=\${PIPESTATUS[0]}"`], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(result.stdout).toMatch(/status=0/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { episodes?: unknown };
    expect(summary).toBeTypeOf('object');
    expect(readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(140);
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status).toBe('complete');
  });
});

describe('colour', () => {
  it('follows FORCE_COLOR, then NO_COLOR, then whether the stream is a TTY', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({}, {})).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '' })).toBe(true);
    expect(useColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(useColor({ isTTY: true }, { FORCE_COLOR: 'false', NO_COLOR: '' })).toBe(false);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  });

  it('report is plain when piped or with NO_COLOR, coloured with FORCE_COLOR', () => {
    const run = (env: Record<string, string | undefined>) => {
      const { FORCE_COLOR: _force, NO_COLOR: _no, ...rest } = process.env;
      return spawnSync(process.execPath, [CLI, 'report', folder], { cwd: ROOT, encoding: 'utf8', env: { ...rest, ...env } }).stdout;
    };
    expect(run({})).not.toMatch(ANSI);
    expect(run({ NO_COLOR: '1' })).not.toMatch(ANSI);
    expect(run({ FORCE_COLOR: '1' })).toMatch(ANSI);
  });
});

describe('--version', () => {
  it('prints the package version and exits 0', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-V']) {
      const result = stratbench([flag]);
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });
});

describe('SIGTERM stops a run like Ctrl-C', () => {
  it('finishes running episodes, writes the summary, exits 143, and the folder resumes (it used to exit 143 with nothing written)', async () => {
    const out = join(scratch(), 'term');
    const child = startStratbench(['run', '--epochs', '60', '--no-progress', '--concurrency', '4', '--out', out]);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const path = join(out, 'episodes.jsonl');
    const started = Date.now();
    while (!(existsSync(path) && statSync(path).size > 100_000)) {
      if (Date.now() - started > 300_000) throw new Error('the run never got going');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toContain('interrupted (SIGTERM): model calls in flight abandoned, their episodes left for --resume; writing the summary');
    expect(stderr).toMatch(/continue with: stratbench run --resume/);
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { status: string; episodes: number };
    expect(run.status).toBe('interrupted');
    expect(episodes(out)).toHaveLength(run.episodes);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
    const resumed = stratbench(['run', '--resume', out, '--no-progress']);
    expect(resumed.status).toBe(0);
    expect(episodes(out)).toHaveLength(60 * 70);
  });
});

describe('the run report fits 120 columns', () => {
  const widest = (text: string): number => Math.max(...text.split('\n').map((line) => line.length));

  it('by default (npm start used to print lines up to 344 characters), with --wide for every column, group row and episode', () => {
    const narrow = stratbench(['report', folder]);
    expect(narrow.status).toBe(0);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(120);
    expect(narrow.stdout).toContain('… and ');
    expect(narrow.stdout).toContain('(per-group rows: --wide, or stratbench report DIR --wide)');
    expect(narrow.stdout).not.toContain('tool time (s)');
    const wide = stratbench(['report', folder, '--wide']);
    expect(widest(wide.stdout)).toBeGreaterThan(120);
    expect(wide.stdout).toContain('tool time (s)');
    expect(wide.stdout).not.toContain('… and ');
    expect(wide.stdout.split('\n').length).toBeGreaterThan(narrow.stdout.split('\n').length);
  });

  it('for the run itself', () => {
    const result = stratbench(['run', '--out', join(scratch(), 'w'), '--no-progress']);
    expect(result.status).toBe(0);
    expect(widest(result.stdout)).toBeLessThanOrEqual(120);
    expect(result.stdout).toMatch(/│ plan-up-front │ 4\/4 +│ 4\/4 +│ 0\/4 +│ 0\/2 +│ 8\/14 /);
  });
});

describe('npm pack', () => {
  it('ships the built CLI, its public API with types, the prompts, the suites and the HTML assets, and nothing else', () => {
    const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status).toBe(0);
    const files = (JSON.parse(result.stdout) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((file) => file.path) ?? [];
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('tasks/core.yaml');
    // The public API a strategy module imports (issue 28 §1), with its types.
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/strategies/define.d.ts']));
    for (const role of ['agent', 'direct', 'executor', 'gate', 'planner', 'replanner', 'reporter']) expect(files).toContain(`prompts/${role}.md`);
    const unexpected = files.filter(
      (file) =>
        !/^(dist\/.*\.(?:js|d\.ts)|prompts\/[^/]+\.md|tasks\/[^/]+\.(yaml|json)|src\/report\/html-assets\/[^/]+|README\.md|package\.json|LICENSE)$/.test(file),
    );
    expect(unexpected).toEqual([]);
  });
});
