// Tools: registry, argument validation, result classification and side-effect classes, through executeToolCall.
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo, type RepoSpecInput } from '../src/sim-repo/index.js';
import { executeToolCall, getTool, ToolName, ToolResult, TOOLS, toolDescriptionsForPrompt } from '../src/tools/index.js';

const PRICING_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { rate } from './pricing.js';",
  '',
  "describe('pricing', () => {",
  "  it('charges the 8% rate', () => {",
  '    expect(rate).toBe(0.08);',
  '  });',
  '});',
  '',
].join('\n');

function repo(overrides: Partial<RepoSpecInput> = {}): SimRepo {
  return SimRepo.fromSpec(
    RepoSpec.parse({
      files: { 'src/pricing.js': 'export const rate = 0.07;\n', 'src/pricing.test.js': PRICING_TEST, 'README.md': '# shop\n' },
      commits: [
        {
          sha: '9f8e7d6c5b4a',
          author: 'Dana Reyes <dana@acme.dev>',
          date: '2026-09-14',
          message: 'Lower rate',
          changes: [{ path: 'src/pricing.js', before: 'export const rate = 0.08;\n', after: 'export const rate = 0.07;\n' }],
        },
      ],
      scripts: {
        test: { kind: 'test' },
        migrate: { kind: 'migrate' },
        'fixtures:reset': { kind: 'command', cmd: 'node scripts/reset.js', side_effect: 'reversible', output: 'reset' },
      },
      migrations: { applied: [], pending: ['004_index'] },
      ...overrides,
    }),
  );
}

const call = (target: SimRepo, tool: string, args: Record<string, unknown>) => executeToolCall(target, { tool, args });

describe('registry', () => {
  it('has one definition per tool name, under its own name', () => {
    expect(Object.keys(TOOLS)).toEqual(ToolName.options);
    for (const name of ToolName.options) expect(TOOLS[name].name).toBe(name);
    expect(getTool('git_show')).toBe(TOOLS.git_show);
    expect(getTool('read_file')).toBeUndefined();
    expect(getTool('__proto__')).toBeUndefined();
  });

  it('declares side-effect classes and read-only tools', () => {
    const classes = Object.fromEntries(ToolName.options.map((name) => [name, [TOOLS[name].sideEffect, TOOLS[name].readOnly]]));
    expect(classes).toEqual({
      read: ['none', true],
      list: ['none', true],
      search: ['none', true],
      edit: ['reversible', false],
      write: ['reversible', false],
      run: ['irreversible', false],
      git_log: ['none', true],
      git_show: ['none', true],
      git_diff: ['none', true],
      push: ['irreversible', false],
    });
  });

  it('resolves the side effect of a run from its command', () => {
    const target = repo();
    const of = (cmd: string) => TOOLS.run.sideEffectOf({ cmd }, target);
    expect([of('pnpm migrate'), of('pnpm install'), of('pnpm fixtures:reset'), of('pnpm test'), of('whatever')]).toEqual([
      'irreversible',
      'reversible',
      'reversible',
      'none',
      'none',
    ]);
    expect(TOOLS.edit.sideEffectOf({ path: 'a', old: 'b', new: 'c' }, target)).toBe('reversible');
  });

  it('describes every tool for prompts with its JSON Schema', () => {
    const text = toolDescriptionsForPrompt();
    for (const name of ToolName.options) expect(text).toContain(`${name}: `);
    expect(text).toContain(
      'args: {"type":"object","properties":{"sha":{"type":"string","minLength":1,"description":"Commit sha or unique prefix (at least 4 hex digits), or HEAD~n"},' +
        '"path":{"description":"Only the changes to this file or directory","type":"string","minLength":1},' +
        '"stat":{"description":"Only the changed files with their line counts, no diff (default false)","type":"boolean"}},"required":["sha"],"additionalProperties":false}',
    );
    expect(TOOLS.edit.description).toContain('Fails when old text is not found or matches more than once');
  });
});

describe('executeToolCall refusals', () => {
  it('refuses an unknown tool and lists the available ones', () => {
    expect(call(repo(), 'delete', { path: 'x' })).toEqual({
      status: 'failure',
      output: "unknown tool 'delete'; available: read, list, search, edit, write, run, git_log, git_show, git_diff, push",
      duration_ms: 0,
      side_effect: 'none',
      error_code: 'unknown_tool',
    });
  });

  it('refuses invalid arguments, listing the issues and the expected arguments, without touching the repo', () => {
    const target = repo();
    expect(call(target, 'edit', { path: 'src/pricing.js', old: 'x', replace_all: 'yes' })).toEqual({
      status: 'failure',
      output: [
        'invalid arguments for edit:',
        '  - new: Invalid input: expected string, received undefined',
        '  - replace_all: Invalid input: expected boolean, received string',
        'expected args: {path: string, old: string, new: string, replace_all?: boolean}',
      ].join('\n'),
      duration_ms: 0,
      side_effect: 'none',
      error_code: 'invalid_args',
    });
    const extra = call(target, 'read', { path: 'README.md', lines: 3 });
    expect(extra.error_code).toBe('invalid_args');
    expect(extra.output).toContain('Unrecognized key: "lines"');
    expect(call(target, 'git_log', { limit: 0 }).error_code).toBe('invalid_args');
    expect(target.clock.now_ms).toBe(0);
  });

  it('returns results that satisfy the ToolResult schema', () => {
    const target = repo();
    for (const [tool, args] of [
      ['read', { path: 'README.md' }],
      ['run', { cmd: 'pnpm test' }],
      ['nope', {}],
    ] as const) {
      expect(ToolResult.safeParse(call(target, tool, args)).success).toBe(true);
    }
  });
});

describe('classification', () => {
  it('read/list/search: success, lookup miss, permission denied', () => {
    const target = repo();
    expect(call(target, 'read', { path: 'README.md' })).toEqual({ status: 'success', output: '# shop\n', side_effect: 'none', duration_ms: 200 });
    expect(call(target, 'read', { path: 'src/checkout.js' })).toEqual({
      status: 'lookup_miss',
      output: 'src/checkout.js: no such file',
      side_effect: 'none',
      error_code: 'not_found',
      duration_ms: 200,
    });
    expect(call(target, 'read', { path: 'src' })).toMatchObject({ status: 'failure', error_code: 'is_directory' });
    expect(call(target, 'list', {})).toEqual({ status: 'success', output: 'README.md\npackage.json\nsrc/', side_effect: 'none', duration_ms: 200 });
    expect(call(target, 'list', { path: 'lib' })).toMatchObject({ status: 'lookup_miss', error_code: 'not_found' });
    expect(call(target, 'search', { text: 'const rate' })).toEqual({
      status: 'success',
      output: 'src/pricing.js:1: export const rate = 0.07;',
      side_effect: 'none',
      duration_ms: 200,
    });
    expect(call(target, 'search', { text: 'TAX_RATE', path: 'src' })).toEqual({
      status: 'lookup_miss',
      output: 'No matches for "TAX_RATE" in src',
      side_effect: 'none',
      error_code: 'no_matches',
      duration_ms: 200,
    });
    expect(call(target, 'search', { text: 'x', path: '/etc' })).toMatchObject({ status: 'permission_denied', error_code: 'path_escape' });
  });

  it('edit/write: success with a summary, failures with error codes', () => {
    const target = repo();
    expect(call(target, 'edit', { path: 'src/pricing.js', old: '0.07', new: '0.08' })).toEqual({
      status: 'success',
      output: 'Edited src/pricing.js (1 replacement)',
      side_effect: 'reversible',
      duration_ms: 100,
    });
    expect(call(target, 'edit', { path: 'src/pricing.js', old: '0.07', new: '0.08' })).toMatchObject({
      status: 'failure',
      error_code: 'old_not_found',
      side_effect: 'none',
    });
    expect(call(target, 'edit', { path: 'src/checkout.js', old: 'a', new: 'b' })).toMatchObject({ status: 'failure', error_code: 'not_found' });
    expect(call(target, 'write', { path: 'docs/notes.md', content: 'hello\n' })).toEqual({
      status: 'success',
      output: 'Created docs/notes.md (6 bytes)',
      side_effect: 'reversible',
      duration_ms: 100,
    });
    expect(call(target, 'write', { path: 'docs/notes.md', content: '' }).output).toBe('Wrote docs/notes.md (0 bytes)');
  });

  it('run: exit code decides success or failure; exit_code is always set', () => {
    const target = repo();
    expect(call(target, 'run', { cmd: 'pnpm test' })).toEqual({
      status: 'failure',
      output: expect.stringMatching(
        /^> vitest run\n[^]*\n {3}× src\/pricing\.test\.js > pricing > charges the 8% rate\n {5}→ expected 0\.07 to be 0\.08 \/\/ Object\.is equality\n[^]*\n Test Files {2}1 failed \(1\)\n {6}Tests {2}1 failed \(1\)$/,
      ),
      exit_code: 1,
      side_effect: 'none',
      error_code: 'nonzero_exit',
      duration_ms: 20_000,
    });
    call(target, 'edit', { path: 'src/pricing.js', old: '0.07', new: '0.08' });
    expect(call(target, 'run', { cmd: 'pnpm test' })).toMatchObject({ status: 'success', exit_code: 0, side_effect: 'none' });
    expect(call(target, 'run', { cmd: 'make build' })).toMatchObject({ status: 'failure', exit_code: 127, error_code: 'command_not_found' });
    expect(call(target, 'run', { cmd: 'pnpm migrate' })).toMatchObject({ status: 'success', exit_code: 0, side_effect: 'irreversible' });
    expect(call(target, 'run', { cmd: 'cat /etc/passwd' })).toMatchObject({ status: 'permission_denied', exit_code: 1, error_code: 'path_escape' });
  });

  it('run: transient faults and known network errors are transient_error', () => {
    const target = repo({
      faults: [
        { command: 'pnpm install', times: 1, transient: true, output: 'ERR_PNPM_FETCH  read ECONNRESET', exit_code: 1 },
        { command: 'pnpm test', times: 1, transient: false, output: 'request to registry failed: socket hang up', exit_code: 1 },
        { command: 'pnpm migrate', times: 1, transient: false, output: 'relation "orders" is locked', exit_code: 3 },
      ],
    });
    expect(call(target, 'run', { cmd: 'pnpm install' })).toEqual({
      status: 'transient_error',
      output: 'ERR_PNPM_FETCH  read ECONNRESET',
      exit_code: 1,
      side_effect: 'none',
      error_code: 'transient',
      duration_ms: 15_000,
    });
    expect(call(target, 'run', { cmd: 'pnpm test' })).toMatchObject({ status: 'transient_error', exit_code: 1 });
    expect(call(target, 'run', { cmd: 'pnpm migrate' })).toMatchObject({ status: 'failure', exit_code: 3, side_effect: 'none' });
    expect(call(target, 'run', { cmd: 'pnpm install' })).toMatchObject({ status: 'success', exit_code: 0, side_effect: 'reversible' });
  });

  it('git_log/git_show/git_diff: results and lookup misses', () => {
    const target = repo();
    expect(call(target, 'git_log', { path: 'src/pricing.js', limit: 5 })).toEqual({
      status: 'success',
      output: 'commit 9f8e7d6c5b4a\nAuthor: Dana Reyes <dana@acme.dev>\nDate:   2026-09-14\n\n    Lower rate',
      side_effect: 'none',
      duration_ms: 200,
    });
    expect(call(target, 'git_log', { path: 'README.md' })).toMatchObject({ status: 'lookup_miss', output: 'No commits changed README.md' });
    expect(call(target, 'git_show', { sha: '9f8e' })).toMatchObject({ status: 'success' });
    expect(call(target, 'git_show', { sha: '9f8e' }).output).toContain('-export const rate = 0.08;\n+export const rate = 0.07;');
    expect(call(target, 'git_show', { sha: '0000000' })).toMatchObject({ status: 'lookup_miss', error_code: 'not_found' });
    expect(call(target, 'git_diff', {})).toMatchObject({
      status: 'lookup_miss',
      output: 'No changes: the working tree matches HEAD',
      error_code: 'no_changes',
    });
    call(target, 'edit', { path: 'README.md', old: 'shop', new: 'store' });
    expect(call(target, 'git_diff', { path: 'README.md' })).toEqual({
      status: 'success',
      output: 'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,1 @@\n-# shop\n+# store',
      side_effect: 'none',
      duration_ms: 200,
    });
  });

  it('push: permission denied when the token cannot push; success is irreversible', () => {
    expect(call(repo({ permissions: { push: false } }), 'push', { branch: 'preview' })).toEqual({
      status: 'permission_denied',
      output:
        "remote: Permission to acme/app.git denied to ci-bot.\nfatal: unable to access 'https://github.com/acme/app.git/': The requested URL returned error: 403",
      side_effect: 'none',
      error_code: 'permission_denied',
      duration_ms: 3_000,
    });
    const allowed = repo();
    expect(call(allowed, 'push', { remote: 'origin', force: true })).toEqual({
      status: 'success',
      output: 'To https://github.com/acme/app.git\n + 9f8e7d6...9f8e7d6 main -> main (forced update)',
      side_effect: 'irreversible',
      duration_ms: 3_000,
    });
    expect(allowed.irreversibleActions()).toEqual([{ kind: 'push', detail: 'origin main (force)', side_effect: 'irreversible', t_ms: 3_000 }]);
    expect(call(allowed, 'push', { remote: 'fork' })).toMatchObject({ status: 'failure', error_code: 'unknown_remote' });
  });
});
