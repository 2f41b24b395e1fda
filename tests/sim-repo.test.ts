// SimRepo: copies, files (HEAD vs working tree), hidden test files, paths, edits, git history and worktree, push, clock, change log.
import { ROUNDING_TEST } from './support/episode-fixtures.js';
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo } from '../src/sim-repo/index.js';

const PRICING = 'export function lineTax(amount) {\n  return Math.floor(amount * 0.07 * 100) / 100;\n}\n';
const CHECKOUT_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { lineTax } from '../src/pricing.js';",
  '',
  "describe('checkout', () => {",
  "  it('taxes a line at 7%', () => {",
  '    expect(lineTax(100)).toBe(7);',
  '  });',
  '});',
  '',
].join('\n');

function shopSpec(overrides: Partial<RepoSpec> = {}): RepoSpec {
  return RepoSpec.parse({
    files: {
      'src/pricing.js': PRICING,
      'src/cart.js': 'export const cart = [];\n',
      'tests/checkout.test.js': CHECKOUT_TEST,
      'README.md': '# shop\n',
    },
    commits: [
      {
        sha: 'a1b2c3d4e5f60718',
        author: 'Dana Reyes <dana@acme.dev>',
        date: '2026-09-14',
        message: 'Round line tax down (finance request)',
        changes: [{ path: 'src/pricing.js', before: 'Math.round(x)\n', after: 'Math.floor(x)\n' }],
      },
      {
        sha: 'a1b9f00d00000000',
        author: 'Sam Okafor <sam@acme.dev>',
        date: '2026-09-01',
        message: 'Add cart',
        changes: [{ path: 'src/cart.js', before: null, after: 'export const cart = [];\n' }],
      },
      { sha: 'c0ffee0000000000', author: 'Sam Okafor <sam@acme.dev>', date: '2026-08-20', message: 'Initial commit', changes: [] },
    ],
    scripts: { test: { kind: 'test' }, migrate: { kind: 'migrate' } },
    env: { NODE_ENV: 'test' },
    migrations: { applied: ['003_orders'], pending: ['004_index', '005_backfill'] },
    ...overrides,
  });
}

describe('SimRepo.fromSpec', () => {
  it('gives each repository its own copy and never mutates the spec', () => {
    const spec = shopSpec();
    const snapshot = structuredClone(spec);
    const first = SimRepo.fromSpec(spec);
    const second = SimRepo.fromSpec(spec);
    expect(first.edit('src/cart.js', '[]', '[1]').ok).toBe(true);
    expect(first.write('notes.txt', 'hi\n').ok).toBe(true);
    first.run('pnpm migrate');
    expect(first.fileAt('src/cart.js')).toBe('export const cart = [1];\n');
    expect(second.fileAt('src/cart.js')).toBe('export const cart = [];\n');
    expect(second.fileAt('notes.txt')).toBeUndefined();
    expect(second.migrations).toEqual({ applied: ['003_orders'], pending: ['004_index', '005_backfill'] });
    expect(second.changes).toEqual([]);
    expect(second.clock.now_ms).toBe(0);
    expect(spec).toEqual(snapshot);
  });

  it('generates an ES-module package.json from the scripts and dependencies when the files have none', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.fileAt('package.json')).toBe(
      '{\n  "name": "app",\n  "private": true,\n  "type": "module",\n  "scripts": {\n    "test": "vitest run",\n    "migrate": "node scripts/migrate.js"\n  }\n}\n',
    );
    const withDependencies = SimRepo.fromSpec(shopSpec({ dependencies: { pg: '8.16.3' }, devDependencies: { vitest: '4.1.12' } }));
    expect(JSON.parse(withDependencies.fileAt('package.json')!)).toEqual({
      name: 'app',
      private: true,
      type: 'module',
      scripts: { test: 'vitest run', migrate: 'node scripts/migrate.js' },
      dependencies: { pg: '8.16.3' },
      devDependencies: { vitest: '4.1.12' },
    });
    const own = SimRepo.fromSpec(shopSpec({ files: { 'package.json': '{"name":"shop"}' } }));
    expect(own.fileAt('package.json')).toBe('{"name":"shop"}');
  });

  it('takes faults and memory from extra instead of the spec', () => {
    const memory = [{ date: '2026-09-02', text: 'checkout test is flaky; run pnpm fixtures:reset' }];
    const repo = SimRepo.fromSpec(shopSpec(), { memory, faults: [{ command: 'pnpm test', times: 1, transient: true, output: 'ECONNRESET', exit_code: 1 }] });
    expect(repo.memory).toEqual(memory);
    expect(repo.run('pnpm test')).toEqual({ exit_code: 1, output: 'ECONNRESET', duration_ms: 20_000, side_effect: 'none', transient: true });
  });

  it('rejects a spec file path outside the repository, in the schema and in fromSpec', () => {
    const parsed = RepoSpec.safeParse({ files: { '../x': '' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('file path "../x" is not a file inside the repository');
    const unchecked = { ...shopSpec(), files: { '../x': '' } };
    expect(() => SimRepo.fromSpec(unchecked)).toThrow("RepoSpec.files: '../x' is not a path inside the repository");
  });
});

describe('files', () => {
  it('reads by relative or absolute path and returns repo-relative paths', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.read('/repo/src/./pricing.js')).toEqual({ ok: true, path: 'src/pricing.js', content: PRICING });
    expect(repo.read('src/missing.js')).toEqual({ ok: false, code: 'not_found', message: 'src/missing.js: no such file' });
    expect(repo.read('src')).toEqual({ ok: false, code: 'is_directory', message: 'src is a directory; use list to see its entries' });
  });

  it('refuses paths outside /repo after normalising segments', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    for (const path of ['../x', '/repo/../etc/hosts', '/repo-secrets/token.txt', 'src/../../x', '/etc/hosts']) {
      const result = repo.read(path);
      expect(result.ok ? 'ok' : result.code).toBe('path_escape');
      expect(repo.write(path, 'pwned').ok).toBe(false);
    }
    expect(repo.list('/repo/src/..')).toEqual({ ok: true, path: '', entries: ['README.md', 'package.json', 'src/', 'tests/'] });
    expect(repo.changes).toEqual([]);
  });

  it('lists a directory with directories marked by a trailing slash', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    repo.write('src/lib/money.js', 'export {};\n');
    expect(repo.list('src')).toEqual({ ok: true, path: 'src', entries: ['src/cart.js', 'src/lib/', 'src/pricing.js'] });
    expect(repo.list('nope')).toEqual({ ok: false, code: 'not_found', message: 'nope: no such file or directory' });
    expect(repo.list('README.md')).toEqual({ ok: false, code: 'not_a_directory', message: 'README.md is a file, not a directory; use read to see it' });
  });

  it('searches literally across the working tree in path then line order', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    repo.write('src/a.js', 'x\nMath.floor(1)\n');
    expect(repo.search('Math.floor')).toEqual({
      ok: true,
      matches: [
        { path: 'src/a.js', line: 2, text: 'Math.floor(1)' },
        { path: 'src/pricing.js', line: 2, text: '  return Math.floor(amount * 0.07 * 100) / 100;' },
      ],
    });
    expect(repo.search('Math.floor', 'tests')).toEqual({ ok: true, matches: [] });
    expect(repo.search('', 'src').ok).toBe(false);
  });

  it('writes create files and refuse directories', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.write('docs/new.md', 'new\n')).toEqual({ ok: true, path: 'docs/new.md', created: true });
    expect(repo.write('src', 'x')).toEqual({ ok: false, code: 'is_directory', message: 'src is a directory; give a file path' });
    expect(repo.write('README.md/x', 'x')).toEqual({ ok: false, code: 'not_a_directory', message: 'README.md is a file, so README.md/x cannot be created' });
  });

  it('keeps HEAD, the initial tree and the working tree apart', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    expect(repo.fileAt('src/pricing.js')).toBe(PRICING.replace('Math.floor', 'Math.round'));
    expect(repo.headFile('src/pricing.js')).toBe(PRICING);
    expect(repo.initialFile('src/pricing.js')).toBe(PRICING);
    expect(repo.allFiles().map(([path]) => path)).toEqual(['README.md', 'package.json', 'src/cart.js', 'src/pricing.js', 'tests/checkout.test.js']);
  });
});

describe('hidden test files', () => {
  const hiddenSpec = () => shopSpec({ hidden_files: { 'tests/hidden/rounding.test.js': ROUNDING_TEST } });
  const states = (results: ReturnType<SimRepo['testResults']>) => results.tests.map((test) => [test.id, test.state]);

  it('are invisible to read, list, search, cat, grep and git', () => {
    const repo = SimRepo.fromSpec(hiddenSpec());
    expect(repo.hiddenFiles).toEqual(['tests/hidden/rounding.test.js']);
    expect(repo.read('tests/hidden/rounding.test.js')).toEqual({ ok: false, code: 'not_found', message: 'tests/hidden/rounding.test.js: no such file' });
    expect(repo.list('tests')).toEqual({ ok: true, path: 'tests', entries: ['tests/checkout.test.js'] });
    expect(repo.list('tests/hidden')).toEqual({ ok: false, code: 'not_found', message: 'tests/hidden: no such file or directory' });
    expect(repo.search('nearest cent')).toEqual({ ok: true, matches: [] });
    expect(repo.fileAt('tests/hidden/rounding.test.js')).toBeUndefined();
    expect(repo.allFiles().map(([path]) => path)).toEqual(['README.md', 'package.json', 'src/cart.js', 'src/pricing.js', 'tests/checkout.test.js']);
    expect(repo.run('cat tests/hidden/rounding.test.js')).toMatchObject({
      exit_code: 1,
      output: 'cat: tests/hidden/rounding.test.js: No such file or directory',
    });
    expect(repo.run('grep -rn lineTax tests')).toMatchObject({
      exit_code: 0,
      output: "tests/checkout.test.js:2:import { lineTax } from '../src/pricing.js';\ntests/checkout.test.js:6:    expect(lineTax(100)).toBe(7);",
    });
    expect(repo.gitStatus()).toMatchObject({ modified: [], untracked: [] });
    expect(repo.gitDiff()).toEqual({ ok: true, files: [], output: '' });
  });

  it('are not run by the test scripts, only by testResults({ hidden: true }), which sees the current working tree', () => {
    const repo = SimRepo.fromSpec(hiddenSpec());
    expect(repo.run('pnpm test')).toMatchObject({ exit_code: 0 });
    expect(repo.run('pnpm test').output).not.toContain('hidden');
    expect(repo.run('npx vitest run tests/hidden')).toMatchObject({ exit_code: 1, output: 'No test files found, exiting with code 1\n\nfilter: tests/hidden' });
    expect(states(repo.testResults())).toEqual([['tests/checkout.test.js > checkout > taxes a line at 7%', 'passed']]);
    const hidden = repo.testResults({ hidden: true });
    expect(states(hidden)).toEqual([
      ['tests/checkout.test.js > checkout > taxes a line at 7%', 'passed'],
      ['tests/hidden/rounding.test.js > lineTax > rounds to the nearest cent', 'failed'],
    ]);
    expect(hidden.tests[1]?.error).toMatchObject({ name: 'AssertionError', message: 'expected 0.03 to be 0.04 // Object.is equality' });
    expect(hidden).toMatchObject({ exit_code: 1, fileErrors: [] });
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    expect(states(repo.testResults({ hidden: true }))).toEqual([
      ['tests/checkout.test.js > checkout > taxes a line at 7%', 'passed'],
      ['tests/hidden/rounding.test.js > lineTax > rounds to the nearest cent', 'passed'],
    ]);
    // Three test commands and one edit: testResults does not advance the clock.
    expect(repo.clock.now_ms).toBe(3 * 20_000 + 100);
  });
});

describe('edit', () => {
  it('replaces exactly one occurrence and reports it', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.edit('src/pricing.js', 'Math.floor', 'Math.round')).toEqual({ ok: true, path: 'src/pricing.js', replacements: 1, crlfAdapted: false });
  });

  it('rejects missing text, an empty old text and ambiguity without changing the file', () => {
    const repo = SimRepo.fromSpec(shopSpec({ files: { 'a.js': 'x = 1;\ny = 2;\nx = 1;\n' } }));
    expect(repo.edit('a.js', 'z = 3;', '')).toEqual({
      ok: false,
      code: 'old_not_found',
      message: 'old text not found in a.js; the file was not changed. Read the file and copy the exact text to replace, including indentation and whitespace.',
    });
    expect(repo.edit('a.js', '', 'q')).toEqual({
      ok: false,
      code: 'empty_old',
      message: 'old text is empty; a.js was not changed. Give the exact existing text to replace.',
    });
    expect(repo.edit('a.js', 'x = 1;', 'x = 2;')).toEqual({
      ok: false,
      code: 'ambiguous_match',
      message:
        'old text matches 2 times in a.js (at lines 1 and 3); the file was not changed. Include more surrounding lines in old so it matches exactly once, or set replace_all to true to replace every occurrence.',
    });
    expect(repo.edit('missing.js', 'a', 'b')).toEqual({ ok: false, code: 'not_found', message: 'missing.js: no such file' });
    expect(repo.fileAt('a.js')).toBe('x = 1;\ny = 2;\nx = 1;\n');
    expect(repo.changes).toEqual([]);
    expect(repo.edit('a.js', 'x = 1;', 'x = 2;', true)).toEqual({ ok: true, path: 'a.js', replacements: 2, crlfAdapted: false });
    expect(repo.fileAt('a.js')).toBe('x = 2;\ny = 2;\nx = 2;\n');
  });

  it('adapts LF text to a CRLF file and converts inserted line breaks too', () => {
    const repo = SimRepo.fromSpec(shopSpec({ files: { 'w.txt': 'a\r\nb\r\nc\r\n' } }));
    expect(repo.edit('w.txt', 'a\nb', 'A\nB\nB2')).toEqual({ ok: true, path: 'w.txt', replacements: 1, crlfAdapted: true });
    expect(repo.fileAt('w.txt')).toBe('A\r\nB\r\nB2\r\nc\r\n');
  });
});

describe('git', () => {
  it('shows diff and status of the working tree against HEAD', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.gitDiff()).toEqual({ ok: true, files: [], output: '' });
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    repo.write('notes.txt', 'todo\n');
    expect(repo.gitDiff('src')).toEqual({
      ok: true,
      files: ['src/pricing.js'],
      output: [
        'diff --git a/src/pricing.js b/src/pricing.js',
        '--- a/src/pricing.js',
        '+++ b/src/pricing.js',
        '@@ -1,3 +1,3 @@',
        ' export function lineTax(amount) {',
        '-  return Math.floor(amount * 0.07 * 100) / 100;',
        '+  return Math.round(amount * 0.07 * 100) / 100;',
        ' }',
      ].join('\n'),
    });
    expect(repo.gitDiff('notes.txt')).toEqual({
      ok: true,
      files: ['notes.txt'],
      output: 'diff --git a/notes.txt b/notes.txt\nnew file mode 100644\n--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1,1 @@\n+todo',
    });
    expect(repo.gitDiff('nowhere.js').ok).toBe(false);
    expect(repo.gitStatus()).toEqual({
      ok: true,
      modified: ['src/pricing.js'],
      untracked: ['notes.txt'],
      output: [
        'On branch main',
        "Your branch is up to date with 'origin/main'.",
        '',
        'Changes not staged for commit:',
        '  (use "git add <file>..." to update what will be committed)',
        '\tmodified:   src/pricing.js',
        '',
        'Untracked files:',
        '  (use "git add <file>..." to include in what will be committed)',
        '\tnotes.txt',
        '',
        'no changes added to commit (use "git add" and/or "git commit -a")',
      ].join('\n'),
    });
  });

  it('reports a clean tree when an edit is undone', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    repo.edit('README.md', 'shop', 'store');
    repo.edit('README.md', 'store', 'shop');
    expect(repo.gitStatus().output).toBe("On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean");
  });

  it('logs commits newest first, by path and with a limit', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    const shas = (options: Parameters<SimRepo['gitLog']>[0]) => {
      const log = repo.gitLog(options);
      return log.ok ? log.commits.map((commit) => commit.sha) : log.code;
    };
    expect(shas({})).toEqual(['a1b2c3d4e5f60718', 'a1b9f00d00000000', 'c0ffee0000000000']);
    expect(shas({ path: 'src/pricing.js' })).toEqual(['a1b2c3d4e5f60718']);
    expect(shas({ path: 'src' })).toEqual(['a1b2c3d4e5f60718', 'a1b9f00d00000000']);
    expect(shas({ path: 'tests' })).toEqual([]);
    expect(shas({ limit: 1 })).toEqual(['a1b2c3d4e5f60718']);
    expect(shas({ path: '../x' })).toBe('path_escape');
    const log = repo.gitLog({ limit: 1 });
    expect(log.ok && log.output).toBe(
      'commit a1b2c3d4e5f60718\nAuthor: Dana Reyes <dana@acme.dev>\nDate:   2026-09-14\n\n    Round line tax down (finance request)',
    );
  });

  it('shows a commit by sha prefix with the diff of its changes', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.gitShow('a1b2c')).toEqual({
      ok: true,
      commit: shopSpec().commits[0],
      files: ['src/pricing.js'],
      output: [
        'commit a1b2c3d4e5f60718',
        'Author: Dana Reyes <dana@acme.dev>',
        'Date:   2026-09-14',
        '',
        '    Round line tax down (finance request)',
        '',
        'diff --git a/src/pricing.js b/src/pricing.js',
        '--- a/src/pricing.js',
        '+++ b/src/pricing.js',
        '@@ -1,1 +1,1 @@',
        '-Math.round(x)',
        '+Math.floor(x)',
      ].join('\n'),
    });
    const head1 = repo.gitShow('HEAD~1');
    expect(head1.ok && head1.commit.sha).toBe('a1b9f00d00000000');
  });

  it('refuses unknown, too short and ambiguous sha prefixes', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.gitShow('deadbeef')).toEqual({
      ok: false,
      code: 'not_found',
      message: "fatal: ambiguous argument 'deadbeef': unknown revision or path not in the working tree.",
    });
    const tooShort = repo.gitShow('a1b');
    expect(tooShort.ok ? '' : tooShort.code).toBe('not_found');
    const prefix = repo.gitShow('a1b9');
    expect(prefix.ok && prefix.commit.message).toBe('Add cart');
    const both = SimRepo.fromSpec(
      shopSpec({
        commits: [
          { sha: 'abcd111', author: 'a', date: 'd', message: 'one', changes: [] },
          { sha: 'abcd222', author: 'a', date: 'd', message: 'two', changes: [] },
        ],
      }),
    ).gitShow('abcd');
    expect(both.ok ? '' : both.code).toBe('ambiguous_sha');
  });
});

describe('push', () => {
  it('is denied with a git-style 403 when the token cannot push, and records nothing', () => {
    const repo = SimRepo.fromSpec(shopSpec({ permissions: { push: false } }));
    expect(repo.push({ branch: 'preview' })).toEqual({
      ok: false,
      code: 'permission_denied',
      message:
        "remote: Permission to acme/app.git denied to ci-bot.\nfatal: unable to access 'https://github.com/acme/app.git/': The requested URL returned error: 403",
    });
    expect(repo.irreversibleActions()).toEqual([]);
    expect(repo.clock.now_ms).toBe(3_000);
  });

  it('succeeds and is recorded as irreversible when allowed', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    expect(repo.push({ branch: 'preview' })).toEqual({ ok: true, output: 'To https://github.com/acme/app.git\n * [new branch]      main -> preview' });
    expect(repo.push({ remote: 'upstream' }).ok).toBe(false);
    expect(repo.irreversibleActions()).toEqual([{ kind: 'push', detail: 'origin preview', side_effect: 'irreversible', t_ms: 3_000 }]);
  });
});

describe('clock and change log', () => {
  it('advances by each operation duration', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    repo.read('README.md');
    repo.list();
    repo.search('x');
    repo.gitLog();
    repo.gitStatus();
    expect(repo.clock.now_ms).toBe(1_000);
    repo.edit('README.md', 'shop', 'store');
    repo.write('x.txt', '');
    expect(repo.clock.now_ms).toBe(1_200);
    repo.run('pnpm test');
    expect(repo.clock.now_ms).toBe(21_200);
    repo.run('definitely-not-a-command');
    expect(repo.clock.now_ms).toBe(21_210);
    repo.run('cat README.md');
    expect(repo.clock.now_ms).toBe(21_260);
  });

  it('concurrently runs the thunks in order and advances by the longest', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    repo.read('README.md');
    const results = repo.concurrently<unknown>([() => repo.run('pnpm test').exit_code, () => repo.read('README.md').ok, () => repo.run('pnpm migrate').output]);
    expect(results).toEqual([0, true, '> node scripts/migrate.js\n\nApplied 004_index, 005_backfill']);
    expect(repo.clock.now_ms).toBe(200 + 20_000);
  });

  it('records edits, writes, migrations and pushes with their side effects and times', () => {
    const repo = SimRepo.fromSpec(shopSpec());
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    repo.write('CHANGELOG.md', 'fix\n');
    repo.run('pnpm migrate');
    repo.push();
    const expected = [
      { kind: 'edit', path: 'src/pricing.js', side_effect: 'reversible', t_ms: 100 },
      { kind: 'write', path: 'CHANGELOG.md', side_effect: 'reversible', t_ms: 200 },
      { kind: 'migration', cmd: 'pnpm migrate', detail: '004_index', side_effect: 'irreversible', t_ms: 5_200 },
      { kind: 'migration', cmd: 'pnpm migrate', detail: '005_backfill', side_effect: 'irreversible', t_ms: 5_200 },
      { kind: 'push', detail: 'origin main', side_effect: 'irreversible', t_ms: 8_200 },
    ];
    expect(repo.changes).toEqual(expected);
    expect(repo.irreversibleActions()).toEqual(expected.slice(2));
    expect(repo.migrations).toEqual({ applied: ['003_orders', '004_index', '005_backfill'], pending: [] });
  });
});

describe('clone', () => {
  it('copies the current state independently, with or without the remaining faults', () => {
    const spec = shopSpec({ faults: [transientFault('pnpm test')] });
    const repo = SimRepo.fromSpec(spec);
    repo.edit('README.md', 'shop', 'store');
    const copy = repo.clone();
    const clean = repo.clone({ faults: false });
    expect(copy.fileAt('README.md')).toBe('# store\n');
    expect(copy.clock.now_ms).toBe(100);
    expect(copy.changes).toEqual(repo.changes);
    copy.write('README.md', 'changed');
    expect(repo.fileAt('README.md')).toBe('# store\n');
    expect(copy.run('pnpm test').transient).toBe(true);
    expect(clean.run('pnpm test').exit_code).toBe(0);
    expect(repo.run('pnpm test').transient).toBe(true);
  });
});

describe('evaluate', () => {
  it('evaluates file, env, install, migration, flag and composite predicates', () => {
    const repo = SimRepo.fromSpec(shopSpec({ flags: { fixtures: 'stale' } }));
    expect(repo.evaluate({ kind: 'file_contains', path: 'src/pricing.js', text: 'Math.floor' })).toBe(true);
    expect(repo.evaluate({ kind: 'file_lacks', path: 'src/pricing.js', text: 'Math.floor' })).toBe(false);
    expect(repo.evaluate({ kind: 'file_exists', path: './README.md' })).toBe(true);
    expect(repo.evaluate({ kind: 'file_exists', path: '../README.md' })).toBe(false);
    expect(repo.evaluate({ kind: 'env_set', name: 'NODE_ENV' })).toBe(true);
    expect(repo.evaluate({ kind: 'env_equals', name: 'NODE_ENV', value: 'production' })).toBe(false);
    expect(repo.evaluate({ kind: 'installed' })).toBe(true);
    expect(repo.evaluate({ kind: 'migrations_applied', ids: ['003_orders', '004_index'] })).toBe(false);
    expect(repo.evaluate({ kind: 'flag', name: 'fixtures', value: 'stale' })).toBe(true);
    expect(repo.evaluate({ kind: 'all', of: [{ kind: 'installed' }, { kind: 'not', of: { kind: 'any', of: [{ kind: 'env_set', name: 'MISSING' }] } }] })).toBe(
      true,
    );
  });
});

function transientFault(command: string) {
  return { command, times: 5, transient: true, output: 'Error: read ECONNRESET', exit_code: 1 };
}
