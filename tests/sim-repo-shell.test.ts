// SimRepo.run: the test runner (executed and declared tests, vitest's selection), node, package scripts, env prefixes, faults, chains, built-ins.
import { describe, expect, it } from 'vitest';
import { RepoSpec, SimRepo, type RepoSpecInput } from '../src/sim-repo/index.js';

const PACKAGE_JSON = JSON.stringify(
  {
    name: 'shop',
    private: true,
    type: 'module',
    scripts: {
      test: 'vitest run',
      'test:checkout': 'vitest run tests/checkout',
      lint: 'eslint .',
      'fixtures:reset': 'node scripts/reset-fixtures.js',
      migrate: 'node scripts/migrate.js',
      'migrate:status': 'node scripts/migrate.js --status',
      format: 'prettier --write .',
    },
  },
  null,
  2,
);

const CHECKOUT = [
  "import { lineTax } from './pricing.js';",
  '',
  '/** The order total in euros: each line plus its tax, rounded to the cent. */',
  'export function total(lines) {',
  '  const sum = lines.reduce((running, amount) => running + amount + lineTax(amount), 0);',
  '  return Math.round(sum * 100) / 100;',
  '}',
  '',
].join('\n');

const CHECKOUT_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { total } from '../src/checkout.js';",
  '',
  "describe('checkout', () => {",
  "  it('computes total with tax', () => {",
  '    expect(total([50.5, 49.5])).toBe(107.01);',
  '  });',
  '});',
  '',
].join('\n');

const CART_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { cart } from '../src/cart.js';",
  '',
  "describe('cart', () => {",
  "  it('adds items', () => {",
  "    cart.push('apple');",
  '    expect(cart.length).toBe(1);',
  '  });',
  "  it('removes items', () => {",
  '    cart.pop();',
  '    expect(cart).toEqual([]);',
  '  });',
  '});',
  '',
].join('\n');

/** Needs the payment provider's sandbox key: declared (needs: secret), never executed. */
const PAYMENTS_TEST = [
  "import { describe, expect, it } from 'vitest';",
  "import { charge } from '../src/payments.js';",
  '',
  "describe('payments', () => {",
  "  it('charges card', async () => {",
  "    expect((await charge('4242424242424242', 1000)).status).toBe('succeeded');",
  '  });',
  '});',
  '',
].join('\n');

function shop(overrides: Partial<RepoSpecInput> = {}): SimRepo {
  return SimRepo.fromSpec(
    RepoSpec.parse({
      files: {
        'package.json': PACKAGE_JSON,
        'src/pricing.js': 'export const lineTax = (a) => Math.floor(a * 7) / 100;\n',
        'src/checkout.js': CHECKOUT,
        'src/cart.js': 'export const cart = [];\n',
        'tests/checkout.test.js': CHECKOUT_TEST,
        'tests/cart.test.js': CART_TEST,
        'tests/payments.test.js': PAYMENTS_TEST,
      },
      scripts: {
        test: { kind: 'test' },
        'test:checkout': { kind: 'test', cmd: 'vitest run tests/checkout', duration_ms: 8_000 },
        lint: {
          kind: 'command',
          cmd: 'eslint .',
          passes_when: { kind: 'file_lacks', path: 'src/cart.js', text: 'console.log' },
          output: 'No lint errors',
          failure: 'src/cart.js\n  2:1  error  Unexpected console statement  no-console',
        },
        'fixtures:reset': {
          kind: 'command',
          cmd: 'node scripts/reset-fixtures.js',
          output: 'Fixtures reset (3 orders, 2 customers).',
          sets_flags: { fixtures: 'fresh' },
          side_effect: 'reversible',
        },
        migrate: { kind: 'migrate' },
        'migrate:status': { kind: 'migrate_status' },
      },
      tests: [
        {
          name: 'payments > charges card',
          file: 'tests/payments.test.js',
          needs: 'secret',
          passes_when: { kind: 'env_set', name: 'PAYMENTS_SANDBOX_KEY' },
          failure: 'Error: PAYMENTS_SANDBOX_KEY is not set',
        },
      ],
      migrations: { applied: ['003_orders'], pending: ['004_index', '005_backfill'] },
      env: { HOME: '/home/dev' },
      ...overrides,
    }),
  );
}

const RULE = '⎯'.repeat(24);

const FAILING_RUN = [
  '> vitest run',
  '',
  '',
  ' RUN  v4.1.12 /repo',
  '',
  ' ✓ tests/cart.test.js (2 tests)',
  ' ❯ tests/checkout.test.js (1 test | 1 failed)',
  '   × tests/checkout.test.js > checkout > computes total with tax',
  '     → expected 106.99 to be 107.01 // Object.is equality',
  ' ❯ tests/payments.test.js (1 test | 1 failed)',
  '   × tests/payments.test.js > payments > charges card',
  '     → Error: PAYMENTS_SANDBOX_KEY is not set',
  '',
  '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯',
  '',
  ' FAIL  tests/checkout.test.js > checkout > computes total with tax',
  'AssertionError: expected 106.99 to be 107.01 // Object.is equality',
  '',
  '- Expected',
  '+ Received',
  '',
  '- 107.01',
  '+ 106.99',
  '',
  ' ❯ tests/checkout.test.js:6:37',
  "    4| describe('checkout', () => {",
  "    5|   it('computes total with tax', () => {",
  '    6|     expect(total([50.5, 49.5])).toBe(107.01);',
  '     |                                     ^',
  '    7|   });',
  '',
  `${RULE}[1/2]⎯`,
  '',
  ' FAIL  tests/payments.test.js > payments > charges card',
  'Error: PAYMENTS_SANDBOX_KEY is not set',
  '',
  `${RULE}[2/2]⎯`,
  '',
  '',
  ' Test Files  2 failed | 1 passed (3)',
  '      Tests  2 failed | 2 passed (4)',
].join('\n');

/** The per-file lines of a run (` ✓ tests/cart.test.js (2 tests)`) and its exit code: which files and tests it selected. */
function selection(repo: SimRepo, cmd: string): { exit_code: number; files: string[] } {
  const run = repo.run(cmd);
  return { exit_code: run.exit_code, files: run.output.split('\n').filter((line) => /^ [✓❯↓] \S+ \(/.test(line)) };
}

describe('the test runner', () => {
  it('executes the test files and prints vitest-style results, with the failure and its code frame, and exits 1 when a test fails', () => {
    expect(shop().run('pnpm test')).toEqual({ exit_code: 1, output: FAILING_RUN, duration_ms: 20_000, side_effect: 'none', transient: false });
  });

  it('computes results from the current files: an edit that fixes the code makes the test pass', () => {
    const repo = shop();
    expect(repo.run('pnpm test:checkout').exit_code).toBe(1);
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    expect(repo.run('pnpm test:checkout')).toEqual({
      exit_code: 0,
      output:
        '> vitest run tests/checkout\n\n\n RUN  v4.1.12 /repo\n\n ✓ tests/checkout.test.js (1 test)\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)',
      duration_ms: 8_000,
      side_effect: 'none',
      transient: false,
    });
  });

  it('reports tests marked .skip as skipped, executed or declared', () => {
    const repo = shop();
    repo.edit('tests/cart.test.js', "it('removes items'", "it.skip('removes items'");
    repo.edit('tests/payments.test.js', "it('charges", "it.skip('charges");
    const output = repo.run('pnpm test').output;
    expect(output).toContain(' ✓ tests/cart.test.js (2 tests | 1 skipped)\n');
    expect(output).toContain(' ↓ tests/payments.test.js (1 test | 1 skipped)\n');
    expect(output).toContain(' Test Files  1 failed | 1 passed | 1 skipped (3)\n');
    expect(output).toContain('      Tests  1 failed | 1 passed | 2 skipped (4)');
  });

  it('reads a missing named export as undefined, as vitest does, so the test calling it fails', () => {
    const repo = shop();
    repo.edit('src/checkout.js', 'export function total', 'export function orderTotal');
    const run = repo.run('npx vitest run tests/checkout');
    expect(run.exit_code).toBe(1);
    expect(run.output).toContain(
      ' ❯ tests/checkout.test.js (1 test | 1 failed)\n   × tests/checkout.test.js > checkout > computes total with tax\n     → TypeError: not a function\n',
    );
  });

  it('fails a test file that does not load (a syntax error) as a failed suite', () => {
    const repo = shop();
    repo.edit('src/checkout.js', 'export function total', 'export function total(');
    const run = repo.run('npx vitest run tests/checkout');
    expect(run.exit_code).toBe(1);
    expect(run.output).toContain(
      ' ❯ tests/checkout.test.js (0 tests)\n\n⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯\n\n FAIL  tests/checkout.test.js [ tests/checkout.test.js ]\nSyntaxError: ',
    );
  });

  it('fails with a missing-module error when dependencies are not installed, until pnpm install', () => {
    const repo = shop({ installed: false });
    expect(repo.run('npx vitest run')).toEqual({
      exit_code: 1,
      output:
        "Error: Cannot find module 'vitest'\nRequire stack:\n- /repo/node_modules/.bin/vitest\n" +
        ' WARN   Local package.json exists, but node_modules missing, did you mean to install?',
      duration_ms: 20_000,
      side_effect: 'none',
      transient: false,
    });
    expect(repo.run('pnpm install')).toEqual({
      exit_code: 0,
      output: 'Packages: +312\nDone in 15.0s',
      duration_ms: 15_000,
      side_effect: 'reversible',
      transient: false,
    });
    expect(repo.installed).toBe(true);
    expect(repo.run('npx vitest run cart').exit_code).toBe(0);
  });

  it('selects test files by positional filters (substrings of the path) and --exclude globs, as vitest does', () => {
    const repo = shop();
    expect(selection(repo, 'pnpm test tests/payments')).toEqual({ exit_code: 1, files: [' ❯ tests/payments.test.js (1 test | 1 failed)'] });
    expect(selection(repo, 'vitest run ./tests/checkout cart')).toEqual({
      exit_code: 1,
      files: [' ✓ tests/cart.test.js (2 tests)', ' ❯ tests/checkout.test.js (1 test | 1 failed)'],
    });
    expect(selection(repo, 'npx vitest run --exclude tests/payments.test.js --exclude=./tests/checkout.test.js')).toEqual({
      exit_code: 0,
      files: [' ✓ tests/cart.test.js (2 tests)'],
    });
    expect(repo.run('npx vitest run nothing-like-this')).toMatchObject({
      exit_code: 1,
      output: 'No test files found, exiting with code 1\n\nfilter: nothing-like-this',
    });
    expect(repo.run('npx vitest run nothing-like-this --passWithNoTests')).toMatchObject({ exit_code: 0, output: 'No test files found, exiting with code 0' });
  });

  it('excludes a folder given as a path or as a glob', () => {
    const repo = shop();
    repo.write('tests/e2e/checkout.test.js', CHECKOUT_TEST.replace("'../src/checkout.js'", "'../../src/checkout.js'"));
    expect(selection(repo, 'npx vitest run checkout')).toEqual({
      exit_code: 1,
      files: [' ❯ tests/checkout.test.js (1 test | 1 failed)', ' ❯ tests/e2e/checkout.test.js (1 test | 1 failed)'],
    });
    for (const exclude of ['tests/e2e', './tests/e2e', '"tests/e2e/**"']) {
      expect(selection(repo, `npx vitest run checkout --exclude ${exclude}`)).toEqual({
        exit_code: 1,
        files: [' ❯ tests/checkout.test.js (1 test | 1 failed)'],
      });
    }
    expect(repo.run('npx vitest run e2e --exclude tests/e2e')).toMatchObject({
      exit_code: 1,
      output: 'No test files found, exiting with code 1\n\nfilter: e2e --exclude tests/e2e',
    });
  });

  it('selects tests by -t / --testNamePattern, a regex on the describe and test names; the others are skipped', () => {
    const repo = shop();
    expect(selection(repo, 'npx vitest run -t adds')).toEqual({
      exit_code: 0,
      files: [
        ' ✓ tests/cart.test.js (2 tests | 1 skipped)',
        ' ↓ tests/checkout.test.js (1 test | 1 skipped)',
        ' ↓ tests/payments.test.js (1 test | 1 skipped)',
      ],
    });
    expect(selection(repo, 'pnpm test --testNamePattern "^cart (adds|removes) items$"')).toEqual({
      exit_code: 0,
      files: [' ✓ tests/cart.test.js (2 tests)', ' ↓ tests/checkout.test.js (1 test | 1 skipped)', ' ↓ tests/payments.test.js (1 test | 1 skipped)'],
    });
    expect(selection(repo, 'pnpm test tests/ --testNamePattern=payments')).toEqual({
      exit_code: 1,
      files: [' ↓ tests/cart.test.js (2 tests | 2 skipped)', ' ↓ tests/checkout.test.js (1 test | 1 skipped)', ' ❯ tests/payments.test.js (1 test | 1 failed)'],
    });
    expect(selection(repo, 'pnpm test:checkout -t adds')).toEqual({ exit_code: 0, files: [' ↓ tests/checkout.test.js (1 test | 1 skipped)'] });
  });

  it("fails an unknown option as vitest's CLI does: --grep is not a vitest option", () => {
    const repo = shop();
    expect(repo.run('pnpm test --grep removes')).toEqual({
      exit_code: 1,
      output: '> vitest run --grep removes\n\nCACError: Unknown option `--grep`',
      duration_ms: 20_000,
      side_effect: 'none',
      transient: false,
    });
    expect(repo.run('npx vitest run --grep=removes')).toMatchObject({ exit_code: 1, output: 'CACError: Unknown option `--grep`' });
  });

  it('decides declared environment-dependent tests by their predicate, without executing their file', () => {
    const repo = shop();
    // tests/payments.test.js imports src/payments.js, which does not exist: executed, the file would fail to load.
    expect(repo.fileAt('src/payments.js')).toBeUndefined();
    expect(repo.run('PAYMENTS_SANDBOX_KEY=sk_test_1 pnpm test tests/payments')).toMatchObject({
      exit_code: 0,
      output:
        '> vitest run tests/payments\n\n\n RUN  v4.1.12 /repo\n\n ✓ tests/payments.test.js (1 test)\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)',
    });
    expect(repo.run('pnpm test tests/payments').exit_code).toBe(1);
    expect(repo.testResults().tests.map((test) => [test.id, test.state, test.declared ?? false])).toEqual([
      ['tests/cart.test.js > cart > adds items', 'passed', false],
      ['tests/cart.test.js > cart > removes items', 'passed', false],
      ['tests/checkout.test.js > checkout > computes total with tax', 'failed', false],
      ['tests/payments.test.js > payments > charges card', 'failed', true],
    ]);
  });

  it('serves a repeated state from the run cache, and runs again when an imported module, a declared condition or the set of files changes', () => {
    const repo = shop({
      tests: [
        {
          name: 'payments > charges card',
          file: 'tests/payments.test.js',
          needs: 'database',
          passes_when: { kind: 'migrations_applied', ids: ['004_index', '005_backfill'] },
          failure: 'Error: relation "orders_by_day" does not exist',
        },
      ],
    });
    const before = repo.run('pnpm test').output;
    expect(repo.run('pnpm test').output).toBe(before);
    expect(repo.testResults().tests.find((test) => test.declared)?.state).toBe('failed');
    // The declared test's condition (the database's migrations) changed: nothing in the tree did.
    repo.run('pnpm migrate');
    expect(repo.testResults().tests.find((test) => test.declared)?.state).toBe('passed');
    // A module the checkout test imports (not the test file itself) changed.
    const checkout = () => repo.testResults().tests.find((test) => test.id.startsWith('tests/checkout.test.js'))?.state;
    const failing = checkout();
    const pricing = repo.fileAt('src/pricing.js')!;
    expect(repo.write('src/pricing.js', pricing.replace('Math.floor', 'Math.round')).ok).toBe(true);
    expect(checkout()).not.toBe(failing);
    expect(repo.write('src/pricing.js', pricing).ok).toBe(true);
    expect(checkout()).toBe(failing);
    // A new test file is collected.
    expect(repo.write('tests/extra.test.js', "import { it, expect } from 'vitest';\nit('runs', () => expect(1).toBe(1));\n").ok).toBe(true);
    expect(repo.run('pnpm test').output).toMatch(/✓ tests\/extra\.test\.js \(1 test\)/);
  });

  it("fails a test that calls process.exit with vitest's message, and node FILE still exits with the code", () => {
    const repo = shop();
    expect(repo.write('tests/exit.test.js', "import { it } from 'vitest';\nit('exits', () => { process.exit(0); });\n").ok).toBe(true);
    expect(repo.run('pnpm test tests/exit').output).toContain('Error: process.exit unexpectedly called with "0"');
    expect(repo.write('scripts/quit.js', 'process.exit(3);\n').ok).toBe(true);
    expect(repo.run('node scripts/quit.js').exit_code).toBe(3);
  });

  it('requires a declared test to say what it needs, and takes no suite', () => {
    const declared = { name: 'payments > charges card', file: 'tests/payments.test.js', passes_when: { kind: 'env_set', name: 'KEY' }, failure: 'no key' };
    expect(RepoSpec.safeParse({ tests: [{ ...declared, needs: 'secret' }] }).success).toBe(true);
    expect(RepoSpec.safeParse({ tests: [declared] }).error?.issues.map((issue) => [issue.path, issue.code])).toEqual([
      [['tests', 0, 'needs'], 'invalid_value'],
    ]);
    expect(RepoSpec.safeParse({ tests: [{ ...declared, needs: 'secret', suite: 'payments' }] }).error?.issues.map((issue) => issue.message)).toEqual([
      'Unrecognized key: "suite"',
    ]);
    expect(RepoSpec.safeParse({ scripts: { test: { kind: 'test', suites: ['checkout'] } } }).error?.issues.map((issue) => issue.message)).toEqual([
      'Unrecognized key: "suites"',
    ]);
  });

  it('applies a VAR=value prefix to that command only', () => {
    const repo = shop();
    expect(repo.run('PAYMENTS_SANDBOX_KEY=sk_test_1 pnpm test -t charges').exit_code).toBe(0);
    expect(repo.run('pnpm test -t charges').exit_code).toBe(1);
    expect(repo.run('X=1 printenv X; printenv X')).toMatchObject({ exit_code: 1, output: '1' });
    expect(repo.run('echo "$HOME" \'$HOME\'').output).toBe('/home/dev $HOME');
  });
});

describe('node', () => {
  it('evaluates -e code and prints the value of -p code, importing the working tree', () => {
    const repo = shop();
    expect(repo.run('node -p "[50.5, 49.5].map((amount) => amount * 2)"')).toEqual({
      exit_code: 0,
      output: '[ 101, 99 ]',
      duration_ms: 500,
      side_effect: 'none',
      transient: false,
    });
    expect(repo.run('node -e "import(\'./src/checkout.js\').then(({ total }) => console.log(total([50.5, 49.5])))"')).toMatchObject({
      exit_code: 0,
      output: '106.99',
    });
    expect(repo.run('node -e "process.exit(3)"')).toMatchObject({ exit_code: 3, output: '' });
    expect(repo.run('node --version')).toMatchObject({ exit_code: 0, output: 'v20.20.2' });
  });

  it('runs a file, and fails like Node when it is missing or throws', () => {
    const repo = shop();
    expect(repo.run('node scripts/check-total.js')).toEqual({
      exit_code: 1,
      output: "node:internal/modules/run_main:123\nError: Cannot find module '/repo/scripts/check-total.js'\n  code: 'MODULE_NOT_FOUND'",
      duration_ms: 500,
      side_effect: 'none',
      transient: false,
    });
    repo.write(
      'scripts/check-total.js',
      "import { total } from '../src/checkout.js';\n\nconst got = total([50.5, 49.5]);\nif (got !== 107.01) throw new Error(`total is ${got}, not 107.01`);\nconsole.log('total ok');\n",
    );
    expect(repo.run('node scripts/check-total.js')).toMatchObject({
      exit_code: 1,
      output: '/repo/scripts/check-total.js:4\n\nError: total is 106.99, not 107.01\n    at <anonymous> (scripts/check-total.js:4:36)\n\nNode.js v20.20.2',
    });
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    expect(repo.run('node ./scripts/check-total.js')).toMatchObject({ exit_code: 0, output: 'total ok' });
  });
});

describe('package scripts', () => {
  it('runs a command script whose result depends on the files', () => {
    const repo = shop();
    repo.edit('src/cart.js', 'export const cart = [];\n', 'export const cart = [];\nconsole.log(cart);\n');
    expect(repo.run('pnpm lint')).toEqual({
      exit_code: 1,
      output: '> eslint .\n\nsrc/cart.js\n  2:1  error  Unexpected console statement  no-console',
      duration_ms: 2_000,
      side_effect: 'none',
      transient: false,
    });
    repo.edit('src/cart.js', 'console.log(cart);\n', '');
    expect(repo.run('pnpm run lint')).toMatchObject({ exit_code: 0, output: '> eslint .\n\nNo lint errors' });
    expect(repo.run('eslint .')).toMatchObject({ exit_code: 0, output: 'No lint errors' });
  });

  it('sets flags and records side-effecting commands', () => {
    const repo = shop();
    expect(repo.run('pnpm fixtures:reset').output).toBe('> node scripts/reset-fixtures.js\n\nFixtures reset (3 orders, 2 customers).');
    expect(repo.flags).toEqual({ fixtures: 'fresh' });
    expect(repo.changes).toEqual([{ kind: 'command', cmd: 'pnpm fixtures:reset', side_effect: 'reversible', t_ms: 2_000 }]);
  });

  it('explains a missing script like pnpm, npm and yarn do', () => {
    const repo = shop();
    expect(repo.run('pnpm db:migrate')).toEqual({
      exit_code: 1,
      output: ' ERR_PNPM_NO_SCRIPT  Missing script: db:migrate\n\nCommand "db:migrate" not found. To list the available scripts, run: pnpm run',
      duration_ms: 500,
      side_effect: 'none',
      transient: false,
    });
    expect(repo.run('npm run db:migrate').output).toBe(
      'npm error Missing script: "db:migrate"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run',
    );
    expect(repo.run('yarn db:migrate').exit_code).toBe(1);
  });

  it('reads the scripts from the current package.json', () => {
    const repo = shop();
    expect(repo.run('pnpm format')).toMatchObject({ exit_code: 0, output: '> prettier --write .' });
    repo.edit('package.json', '    "format": "prettier --write ."\n', '    "format": "prettier --write .",\n    "ci": "pnpm lint"\n');
    expect(repo.run('pnpm ci')).toMatchObject({ exit_code: 0, output: '> pnpm lint' });
    repo.edit('package.json', '"lint": "eslint .",', '');
    expect(repo.run('pnpm lint').output).toContain('Missing script: lint');
    repo.write('package.json', '{ "scripts": { ');
    const broken = repo.run('pnpm test');
    expect(broken.exit_code).toBe(1);
    expect(broken.output).toMatch(/^ ERR_PNPM_JSON_PARSE {2}.* while parsing \/repo\/package\.json$/);
  });

  it('applies pending migrations once (irreversibly) and reports status', () => {
    const repo = shop();
    expect(repo.run('pnpm migrate:status')).toMatchObject({
      exit_code: 1,
      output: '> node scripts/migrate.js --status\n\nApplied: 003_orders\nPending: 004_index, 005_backfill',
    });
    expect(repo.run('pnpm migrate')).toEqual({
      exit_code: 0,
      output: '> node scripts/migrate.js\n\nApplied 004_index, 005_backfill',
      duration_ms: 5_000,
      side_effect: 'irreversible',
      transient: false,
    });
    expect(repo.run('node scripts/migrate.js')).toMatchObject({ exit_code: 0, output: 'No pending migrations', side_effect: 'none' });
    expect(repo.run('pnpm migrate:status')).toMatchObject({
      exit_code: 0,
      output: '> node scripts/migrate.js --status\n\nApplied: 003_orders, 004_index, 005_backfill\nPending: (none)',
    });
    expect(repo.irreversibleActions().map((entry) => entry.detail)).toEqual(['004_index', '005_backfill']);
  });

  it('looks package-manager commands up by script name, never by another script whose cmd is that text', () => {
    const repo = shop({
      files: { 'package.json': '{"scripts":{"lint":"eslint .","check":"pnpm lint"}}', 'src/cart.js': 'console.log(1);\n' },
      scripts: {
        lint: { kind: 'command', cmd: 'eslint .', passes_when: { kind: 'file_lacks', path: 'src/cart.js', text: 'console.log' }, failure: 'lint failed' },
        check: { kind: 'command', cmd: 'pnpm lint', output: 'all checks passed' },
      },
    });
    expect(repo.run('pnpm lint')).toMatchObject({ exit_code: 1, output: '> eslint .\n\nlint failed' });
    expect(repo.run('pnpm check')).toMatchObject({ exit_code: 0, output: '> pnpm lint\n\nall checks passed' });
  });

  it('lists the scripts with pnpm run', () => {
    expect(shop().run('pnpm run').output.split('\n').slice(0, 3)).toEqual(['Commands available via "run":', '  test', '    vitest run']);
  });

  it('classifies commands before they run', () => {
    const repo = shop();
    expect(repo.classifyCommand('pnpm migrate')).toBe('irreversible');
    expect(repo.classifyCommand('pnpm install && pnpm test')).toBe('reversible');
    expect(repo.classifyCommand('pnpm fixtures:reset')).toBe('reversible');
    expect(repo.classifyCommand('pnpm test')).toBe('none');
    expect(repo.classifyCommand('git push')).toBe('irreversible');
    expect(repo.classifyCommand('rm -rf /')).toBe('none');
    expect(repo.changes).toEqual([]);
  });
});

describe('faults', () => {
  it('fails the first matching command with the fault output, then runs normally', () => {
    const repo = shop({
      installed: false,
      faults: [
        {
          command: 'pnpm  install',
          times: 1,
          transient: true,
          output: 'ERR_PNPM_META_FETCH_FAIL  GET https://registry.npmjs.org/vitest: request failed, reason: read ECONNRESET',
          exit_code: 1,
        },
      ],
    });
    expect(repo.run('pnpm install --frozen-lockfile')).toEqual({
      exit_code: 1,
      output: 'ERR_PNPM_META_FETCH_FAIL  GET https://registry.npmjs.org/vitest: request failed, reason: read ECONNRESET',
      duration_ms: 15_000,
      side_effect: 'none',
      transient: true,
    });
    expect(repo.installed).toBe(false);
    expect(repo.changes).toEqual([]);
    expect(repo.run('pnpm   install')).toMatchObject({ exit_code: 0, transient: false, side_effect: 'reversible' });
    expect(repo.installed).toBe(true);
  });

  it('matches on word boundaries only', () => {
    const repo = shop({ faults: [{ command: 'pnpm test', times: 1, transient: false, output: 'boom', exit_code: 2 }] });
    expect(repo.run('pnpm test:checkout').output).not.toBe('boom');
    expect(repo.run('pnpm test')).toMatchObject({ exit_code: 2, output: 'boom', transient: false });
  });
});

describe('the shell', () => {
  it('answers unknown commands like sh, with exit 127', () => {
    expect(shop().run('terraform apply')).toEqual({
      exit_code: 127,
      output: 'sh: 1: terraform: not found',
      duration_ms: 10,
      side_effect: 'none',
      transient: false,
    });
  });

  it('stops an && chain at the first failure; ; and || continue as in sh', () => {
    const repo = shop();
    expect(repo.run('pnpm lint && false && pnpm migrate')).toMatchObject({ exit_code: 1, output: '> eslint .\n\nNo lint errors' });
    expect(repo.migrations.pending).toEqual(['004_index', '005_backfill']);
    expect(repo.run('false; echo after')).toMatchObject({ exit_code: 0, output: 'after' });
    expect(repo.run('false || echo fallback')).toMatchObject({ exit_code: 0, output: 'fallback' });
    expect(repo.run('true || echo skipped')).toMatchObject({ exit_code: 0, output: '' });
  });

  it('sums the durations of a chain', () => {
    const repo = shop();
    expect(repo.run('pnpm lint && pnpm test:checkout').duration_ms).toBe(10_000);
  });

  it('refuses pipes, redirections and bad syntax with exit 2', () => {
    const repo = shop();
    expect(repo.run('pnpm test | tail -5')).toMatchObject({ exit_code: 2, duration_ms: 10 });
    expect(repo.run('echo "unterminated')).toMatchObject({ exit_code: 2, output: 'sh: 1: Syntax error: Unterminated quoted string' });
    expect(repo.run('&& ls').exit_code).toBe(2);
    expect(repo.run('pnpm lint 2>&1')).toMatchObject({ exit_code: 0, output: '> eslint .\n\nNo lint errors' });
  });

  it('maps cat, ls, pwd, grep and git onto the repository', () => {
    const repo = shop();
    expect(repo.run('cat src/cart.js')).toMatchObject({ exit_code: 0, output: 'export const cart = [];', duration_ms: 50 });
    expect(repo.run('cat "src/nope.js"')).toMatchObject({ exit_code: 1, output: 'cat: src/nope.js: No such file or directory' });
    expect(repo.run('cat ../secrets')).toMatchObject({ exit_code: 1, output: 'cat: ../secrets: Permission denied', error_code: 'path_escape' });
    expect(repo.run('ls')).toMatchObject({ output: 'package.json\nsrc/\ntests/' });
    expect(repo.run('ls -la tests')).toMatchObject({ output: 'cart.test.js\ncheckout.test.js\npayments.test.js' });
    expect(repo.run('pwd').output).toBe('/repo');
    expect(repo.run("grep -rn 'Math.floor' src")).toMatchObject({
      exit_code: 0,
      output: 'src/pricing.js:1:export const lineTax = (a) => Math.floor(a * 7) / 100;',
    });
    expect(repo.run('grep -rn nothing-here .')).toMatchObject({ exit_code: 1, output: '' });
    repo.edit('src/pricing.js', 'Math.floor', 'Math.round');
    expect(repo.run('git status --short').output).toBe(' M src/pricing.js');
    expect(repo.run('git diff src/pricing.js').output).toContain('+export const lineTax = (a) => Math.round(a * 7) / 100;');
    expect(repo.run('git checkout -- src/pricing.js')).toMatchObject({ exit_code: 0, side_effect: 'reversible' });
    expect(repo.fileAt('src/pricing.js')).toContain('Math.floor');
    expect(repo.run('git show deadbeef')).toMatchObject({ exit_code: 128 });
    expect(repo.run('git commit -m x')).toMatchObject({ exit_code: 1, output: "fatal: 'git commit' is not available in this environment" });
  });

  it('routes git push through the token permission', () => {
    const repo = shop({ permissions: { push: false } });
    expect(repo.run('git push --force origin main:preview')).toMatchObject({
      exit_code: 128,
      error_code: 'permission_denied',
      side_effect: 'none',
      duration_ms: 3_000,
    });
    expect(repo.irreversibleActions()).toEqual([]);
  });
});
