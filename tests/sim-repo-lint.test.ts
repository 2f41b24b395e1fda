// `eslint` on the simulated repository: ESLint's Linter, the fixture's own config evaluated in the sandbox, and the real CLI as reference.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateEslintConfig } from '../src/sim-repo/lint/evaluate-eslint-config.js';
import { formatStylish, type LintResult } from '../src/sim-repo/lint/format-stylish.js';
import { runEslint, type EslintRun } from '../src/sim-repo/lint/run-eslint.js';
import { runInSandbox, type SandboxRunOptions, type SandboxRunResult } from '../src/sim-repo/sandbox/index.js';

type Files = Readonly<Record<string, string>>;

const CONFIG = `import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
];
`;

const CHECKOUT = `import { priceOf } from "./prices.js";

export function checkout(items) {
  let total = 0;
  for (const item of items) {
    total += priceOf(item);
  }
  if (total > 100) {
    let discount = total * 0.1;
  }
  return total;
}
`;

/** The shop fixture: `lint` is `eslint src tests`; src/orders/checkout-service.js has an unused variable at 9:9. */
const SHOP: Files = {
  'package.json': JSON.stringify(
    {
      name: 'shop',
      private: true,
      type: 'module',
      scripts: { lint: 'eslint src tests', test: 'vitest run' },
      devDependencies: { '@eslint/js': '9.39.1', eslint: '9.39.1', globals: '17.14.0' },
    },
    null,
    2,
  ),
  'eslint.config.js': CONFIG,
  'README.md': '# shop\n',
  'src/orders/checkout-service.js': CHECKOUT,
  'src/orders/prices.js': 'export function priceOf(item) {\n  return item.price * item.quantity;\n}\n',
  'src/util/format-money.js': 'export const formatMoney = (cents) => `${(cents / 100).toFixed(2)} EUR`;\n',
  'tests/checkout-service.test.js':
    'import { describe, expect, it } from "vitest";\nimport { checkout } from "../src/orders/checkout-service.js";\n\ndescribe("checkout", () => {\n  it("sums", () => {\n    expect(checkout([])).toBe(0);\n    console.log(process.env.CI);\n  });\n});\n',
};

const CLEAN: Files = { ...SHOP, 'src/orders/checkout-service.js': CHECKOUT.replace('    let discount = total * 0.1;\n', '    total -= total * 0.1;\n') };

const OOPS = '\nOops! Something went wrong! :(\n\nESLint: 9.39.1\n\n';

const lookup = (files: Files) => (path: string) => (Object.hasOwn(files, path) ? files[path] : undefined);

function lint(files: Files, args: readonly string[], runner: (options: SandboxRunOptions) => SandboxRunResult = runInSandbox): EslintRun {
  return runEslint({ files: lookup(files), paths: Object.keys(files).sort(), args, runInSandbox: runner });
}

const shown = (run: EslintRun) => ({ exit_code: run.exit_code, output: run.output });

describe('runEslint on the shop fixture', () => {
  it('reports the unused variable as ESLint does, exit 1, reading the config, package.json and every linted file', () => {
    expect(lint(SHOP, ['src', 'tests'])).toEqual({
      exit_code: 1,
      output:
        "\n/repo/src/orders/checkout-service.js\n  9:9  error  'discount' is assigned a value but never used  no-unused-vars\n\n" +
        '✖ 1 problem (1 error, 0 warnings)\n',
      reads: [
        ['eslint.config.js', CONFIG],
        ['package.json', SHOP['package.json']],
        ['src/orders/checkout-service.js', CHECKOUT],
        ['src/orders/prices.js', SHOP['src/orders/prices.js']],
        ['src/util/format-money.js', SHOP['src/util/format-money.js']],
        ['tests/checkout-service.test.js', SHOP['tests/checkout-service.test.js']],
      ],
    });
  });

  it('prints nothing and exits 0 when the tree is clean', () => {
    expect(shown(lint(CLEAN, ['src', 'tests']))).toEqual({ exit_code: 0, output: '' });
  });

  it('reports a syntax error in a linted file as a fatal parsing error (severity 2, no rule)', () => {
    const files = { ...CLEAN, 'src/orders/prices.js': 'export function priceOf(item {\n  return 1;\n}\n' };
    expect(shown(lint(files, ['src']))).toEqual({
      exit_code: 1,
      output: '\n/repo/src/orders/prices.js\n  1:30  error  Parsing error: Unexpected token {\n\n✖ 1 problem (1 error, 0 warnings)\n',
    });
  });

  it('honours eslint-disable comments, and warns about an unused one (fixable)', () => {
    const disabled = CHECKOUT.replace('    let discount', '    // eslint-disable-next-line no-unused-vars\n    let discount');
    expect(shown(lint({ ...SHOP, 'src/orders/checkout-service.js': disabled }, ['src', 'tests']))).toEqual({ exit_code: 0, output: '' });
    const unused = { ...CLEAN, 'src/util/format-money.js': `/* eslint-disable no-console */\n${CLEAN['src/util/format-money.js']}` };
    expect(shown(lint(unused, ['src']))).toEqual({
      exit_code: 0,
      output:
        "\n/repo/src/util/format-money.js\n  1:1  warning  Unused eslint-disable directive (no problems were reported from 'no-console')\n\n" +
        '✖ 1 problem (0 errors, 1 warning)\n  0 errors and 1 warning potentially fixable with the `--fix` option.\n',
    });
  });

  it('skips a folder the config ignores, and warns when an ignored file is named explicitly', () => {
    const config = CONFIG.replace('export default [\n', 'export default [\n  { ignores: ["src/orders/"] },\n');
    const files = { ...SHOP, 'eslint.config.js': config };
    expect(shown(lint(files, ['src', 'tests']))).toEqual({ exit_code: 0, output: '' });
    expect(shown(lint(files, ['src/orders/checkout-service.js']))).toEqual({
      exit_code: 0,
      output:
        '\n/repo/src/orders/checkout-service.js\n  0:0  warning  File ignored because of a matching ignore pattern. Use "--no-ignore" to disable file ignore settings or use "--no-warn-ignored" to suppress this warning\n\n' +
        '✖ 1 problem (0 errors, 1 warning)\n',
    });
    expect(shown(lint(files, ['src/orders']))).toEqual({
      exit_code: 2,
      output: expect.stringMatching(
        /^\nOops! Something went wrong! :\(\n\nESLint: 9\.39\.1\n\nYou are linting "src\/orders", but all of the files matching the glob pattern "src\/orders" are ignored\./,
      ),
    });
  });

  it('turns a rule off when the config says so, also through defineConfig and a spread of the recommended rules', () => {
    const off = CONFIG.replace('  { languageOptions', '  { rules: { "no-unused-vars": "off" } },\n  { languageOptions');
    expect(shown(lint({ ...SHOP, 'eslint.config.js': off }, ['src', 'tests']))).toEqual({ exit_code: 0, output: '' });
    const spread =
      'import { defineConfig } from "eslint/config";\nimport js from "@eslint/js";\nimport globals from "globals";\n\n' +
      'export default defineConfig([{ languageOptions: { globals: globals.node }, rules: { ...js.configs.recommended.rules, "no-unused-vars": "warn", "prefer-const": "error" } }]);\n';
    expect(shown(lint({ ...SHOP, 'eslint.config.js': spread }, ['src']))).toEqual({
      exit_code: 1,
      output:
        "\n/repo/src/orders/checkout-service.js\n  9:9  warning  'discount' is assigned a value but never used        no-unused-vars\n" +
        "  9:9  error    'discount' is never reassigned. Use 'const' instead  prefer-const\n\n" +
        '✖ 2 problems (1 error, 1 warning)\n  1 error and 0 warnings potentially fixable with the `--fix` option.\n',
    });
  });

  it('fails with exit 1 when warnings exceed --max-warnings, and --quiet hides warnings', () => {
    const warn = CONFIG.replace('  { languageOptions', '  { rules: { "no-unused-vars": "warn" } },\n  { languageOptions');
    const files = { ...SHOP, 'eslint.config.js': warn };
    expect(shown(lint(files, ['src', '--max-warnings', '0']))).toEqual({
      exit_code: 1,
      output:
        "\n/repo/src/orders/checkout-service.js\n  9:9  warning  'discount' is assigned a value but never used  no-unused-vars\n\n" +
        '✖ 1 problem (0 errors, 1 warning)\n\nESLint found too many warnings (maximum: 0).',
    });
    expect(shown(lint(files, ['src', '--max-warnings', '1']))).toEqual({ exit_code: 0, output: expect.stringContaining('1 warning') });
    expect(shown(lint(files, ['src', '--quiet']))).toEqual({ exit_code: 0, output: '' });
    expect(shown(lint(files, ['src', '--quiet', '--max-warnings', '0']))).toEqual({ exit_code: 1, output: 'ESLint found too many warnings (maximum: 0).' });
  });

  it('returns the fixed contents with --fix (the caller writes them) and reports what is left', () => {
    const config = CONFIG.replace('  { languageOptions', '  { rules: { "prefer-const": "error" } },\n  { languageOptions');
    const run = lint({ ...SHOP, 'eslint.config.js': config }, ['--fix', 'src']);
    expect(run.fixed).toEqual(new Map([['src/orders/checkout-service.js', CHECKOUT.replace('let discount', 'const discount')]]));
    expect(shown(run)).toEqual({
      exit_code: 1,
      output:
        "\n/repo/src/orders/checkout-service.js\n  9:11  error  'discount' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n",
    });
    expect(lint({ ...SHOP, 'eslint.config.js': config }, ['--fix-dry-run', 'src']).fixed).toBeUndefined();
  });

  it("fails a pattern that matches nothing with ESLint's message and exit 2", () => {
    expect(shown(lint(SHOP, ['lib']))).toEqual({
      exit_code: 2,
      output: `${OOPS}No files matching the pattern "lib" were found.\nPlease check for typing mistakes in the pattern.\n`,
    });
    expect(shown(lint(SHOP, ['src', 'lib/**/*.js']))).toEqual({
      exit_code: 2,
      output: `${OOPS}No files matching the pattern "lib/**/*.js" were found.\nPlease check for typing mistakes in the pattern.\n`,
    });
    expect(shown(lint(SHOP, ['lib', '--no-error-on-unmatched-pattern']))).toEqual({ exit_code: 0, output: '' });
  });

  it('refuses options as ESLint 9 does (with flat config) and options the simulation does not implement', () => {
    expect(shown(lint(SHOP, ['src', '--no-eslintrc']))).toEqual({
      exit_code: 2,
      output:
        "Invalid option '--eslintrc' - perhaps you meant '--ext'?\nYou're using eslint.config.js, some command line flags are no longer available. Please see https://eslint.org/docs/latest/use/command-line-interface for details.",
    });
    expect(shown(lint(SHOP, ['src', '--format', 'json']))).toEqual({
      exit_code: 2,
      output: 'eslint: --format json (only the stylish format is simulated) is not supported by the stratbench simulation of ESLint',
    });
    expect(shown(lint(SHOP, ['--stdin']))).toEqual({ exit_code: 2, output: 'eslint: --stdin is not supported by the stratbench simulation of ESLint' });
    expect(shown(lint(SHOP, ['--version']))).toEqual({ exit_code: 0, output: 'v9.39.1' });
  });
});

describe('runEslint config loading', () => {
  const withConfig = (config: string, name = 'eslint.config.js'): Files => {
    const { 'eslint.config.js': _config, ...rest } = SHOP;
    return { ...rest, [name]: config };
  };

  it('fails a config that is broken JavaScript, naming the file, line and column', () => {
    const broken = 'import js from "@eslint/js";\nexport default [\n  js.configs.recommended,\n  { rules: { "no-unused-vars": "off" }\n];\n';
    expect(shown(lint(withConfig(broken), ['src']))).toEqual({ exit_code: 2, output: `${OOPS}SyntaxError: expecting '}'\n    at /repo/eslint.config.js:5:1` });
  });

  it("fails a config that imports a package the sandbox cannot provide, in Node's words", () => {
    const plugin = 'import react from "eslint-plugin-react";\nexport default [react.configs.flat.recommended];\n';
    expect(shown(lint(withConfig(plugin), ['src']))).toEqual({
      exit_code: 2,
      output: `${OOPS}Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'eslint-plugin-react' imported from /repo/eslint.config.js`,
    });
  });

  it('fails a config that throws, with its stack frames in the repository', () => {
    const throws = 'const pick = (name) => { throw new TypeError(`no preset ${name}`); };\nexport default [pick("strict")];\n';
    expect(shown(lint(withConfig(throws), ['src']))).toEqual({
      exit_code: 2,
      output: `${OOPS}TypeError: no preset strict\n    at pick (/repo/eslint.config.js:1:45)\n    at <anonymous> (/repo/eslint.config.js:2:21)`,
    });
  });

  it('fails a config whose export holds code (a custom rule), naming the file and where the function is', () => {
    const custom = 'export default [{ plugins: { local: { rules: { "no-foo": { create() { return {}; } } } } }, rules: { "local/no-foo": "error" } }];\n';
    expect(shown(lint(withConfig(custom), ['src']))).toEqual({
      exit_code: 2,
      output:
        `${OOPS}Error: /repo/eslint.config.js: the default export holds a function at default[0].plugins.local.rules["no-foo"].create. ` +
        'In stratbench the config is evaluated in a sandbox and only data (arrays, plain objects, strings, numbers, booleans) reaches ESLint: ' +
        'custom rules, plugins, parsers and processors defined in code are not supported.',
    });
  });

  it("reports ESLint's own validation errors: a bad severity, an unknown key", () => {
    const severity = 'export default [{ rules: { "no-unused-vars": "bogus" } }];\n';
    expect(shown(lint(withConfig(severity), ['src']))).toEqual({
      exit_code: 2,
      output: `${OOPS}Configuration for rule "no-unused-vars" is invalid. Expected severity of "off", 0, "warn", 1, "error", or 2.\n\nYou passed '"bogus"'.\n\nSee https://eslint.org/docs/latest/use/configure/rules#using-configuration-files for configuring rules.\n`,
    });
    expect(shown(lint(withConfig('export default [{ foo: 1 }];\n'), ['src']))).toEqual({
      exit_code: 2,
      output: `${OOPS}ConfigError: Config (unnamed): Unexpected key "foo" found.`,
    });
  });

  it('finds eslint.config.mjs, takes -c FILE, and fails without a config or with a TypeScript one', () => {
    expect(lint(withConfig(CONFIG, 'eslint.config.mjs'), ['src']).exit_code).toBe(1);
    expect(
      lint({ ...CLEAN, 'config/strict.js': CONFIG.replace('  { languageOptions', '  { rules: { "no-console": "error" } },\n  { languageOptions') }, [
        '-c',
        'config/strict.js',
        'tests',
      ]).output,
    ).toContain('no-console');
    expect(shown(lint(SHOP, ['-c', 'nothere.js', 'src']))).toEqual({
      exit_code: 2,
      output: `${OOPS}Error: ENOENT: no such file or directory, stat '/repo/nothere.js'`,
    });
    const { 'eslint.config.js': _config, ...none } = SHOP;
    expect(shown(lint(none, ['src']))).toEqual({
      exit_code: 2,
      output: expect.stringContaining(`${OOPS}ESLint couldn't find an eslint.config.(js|mjs|cjs) file.\n`),
    });
    expect(shown(lint(withConfig('export default [];\n', 'eslint.config.ts'), ['src']))).toEqual({
      exit_code: 2,
      output: `${OOPS}Error: /repo/eslint.config.ts: TypeScript config files are not supported by the stratbench simulation of ESLint; use eslint.config.js`,
    });
  });

  it('runs a CommonJS config (eslint.config.cjs, or .js in a package without "type": "module") with require of the config packages', () => {
    const commonJs =
      'const js = require("@eslint/js");\nconst globals = require("globals");\n\nmodule.exports = [js.configs.recommended, { languageOptions: { globals: globals.node } }];\n';
    expect(shown(lint(withConfig(commonJs, 'eslint.config.cjs'), ['src', 'tests']))).toEqual(shown(lint(SHOP, ['src', 'tests'])));
    const untyped = { ...withConfig(commonJs), 'package.json': '{ "name": "shop" }\n' };
    expect(lint(untyped, ['src']).exit_code).toBe(1);
    const missing =
      'const js = require("@eslint/js");\nconst react = require("eslint-plugin-react");\nmodule.exports = [js.configs.recommended, react.configs.recommended];\n';
    expect(shown(lint(withConfig(missing, 'eslint.config.cjs'), ['src']))).toEqual({
      exit_code: 2,
      output: `${OOPS}Error: Cannot find module 'eslint-plugin-react'\nRequire stack:\n- /repo/eslint.config.cjs\n    at <anonymous> (/repo/eslint.config.cjs:2:22)`,
    });
  });

  it('evaluates each distinct config once: a hit needs the config and every file it imported to read the same', () => {
    let evaluations = 0;
    const counting = (options: SandboxRunOptions) => {
      evaluations++;
      return runInSandbox(options);
    };
    const split = { ...SHOP, 'eslint.config.js': 'import shared from "./eslint.shared.js";\nexport default shared;\n', 'eslint.shared.js': CONFIG };
    lint(split, ['src'], counting);
    lint({ ...split, 'src/orders/checkout-service.js': CHECKOUT.replace('discount', 'rebate') }, ['src'], counting);
    expect(evaluations).toBe(1);
    const changed = { ...split, 'eslint.shared.js': CONFIG.replace('globals.node', 'globals.browser') };
    expect(lint(changed, ['tests'], counting).output).toContain("'process' is not defined");
    expect(evaluations).toBe(2);
    lint(split, ['src'], counting);
    lint(changed, ['src'], counting);
    expect(evaluations).toBe(2);
  });

  it('brings the export to the host as data, undefined values included', () => {
    const result = evaluateEslintConfig({
      files: lookup({
        'eslint.config.js':
          'export default Promise.resolve([{ files: ["**/*.js"], name: undefined }, , { rules: { "no-console": ["warn", { allow: ["error"] }] } }]);\n',
      }),
      configPath: 'eslint.config.js',
      runInSandbox,
    });
    expect(result).toEqual({
      ok: true,
      config: [{ files: ['**/*.js'], name: undefined }, undefined, { rules: { 'no-console': ['warn', { allow: ['error'] }] } }],
      reads: [['eslint.config.js', expect.any(String)]],
    });
  });
});

describe('formatStylish', () => {
  const result = (filePath: string, messages: LintResult['messages'], fixable = 0): LintResult => ({
    filePath,
    messages,
    errorCount: messages.filter((message) => message.severity === 2).length,
    fatalErrorCount: 0,
    warningCount: messages.filter((message) => message.severity === 1).length,
    fixableErrorCount: fixable,
    fixableWarningCount: 0,
  });

  it('aligns line:column and the other columns as text-table does, sorts files by path, drops a final period', () => {
    const output = formatStylish([
      result('/repo/src/b.js', [{ ruleId: 'semi', severity: 2, message: 'Missing semicolon.', line: 120, column: 3 }], 1),
      result('/repo/src/a.js', [
        { ruleId: 'no-undef', severity: 2, message: "'x' is not defined.", line: 2, column: 14 },
        { ruleId: null, severity: 1, message: 'Unused eslint-disable directive.', line: 10, column: 1 },
      ]),
      result('/repo/src/clean.js', []),
    ]);
    expect(output).toBe(
      "\n/repo/src/a.js\n   2:14  error    'x' is not defined               no-undef\n  10:1   warning  Unused eslint-disable directive\n\n" +
        '/repo/src/b.js\n  120:3  error  Missing semicolon  semi\n\n' +
        '✖ 3 problems (2 errors, 1 warning)\n  1 error and 0 warnings potentially fixable with the `--fix` option.\n',
    );
  });

  it('prints nothing without messages', () => {
    expect(formatStylish([result('/repo/a.js', [])])).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The real ESLint CLI on the same states: `output + '\n'` must equal its stdout+stderr byte for byte.

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ESLINT_BIN = join(PROJECT_ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface RealCase {
  name: string;
  files: Files;
  args: string[];
  /** Compare only the error lines (Node's stack frames name host paths). */
  withoutFrames?: boolean;
  /** Files whose content after the real run is compared with `fixed`. */
  fixedFiles?: string[];
}

const DEFINE_CONFIG = `import { defineConfig, globalIgnores } from "eslint/config";
import js from "@eslint/js";
import globals from "globals";

export default defineConfig([
  globalIgnores(["src/generated/"]),
  {
    files: ["**/*.js"],
    plugins: { js },
    extends: ["js/recommended"],
    languageOptions: { globals: { ...globals.node } },
    rules: { "no-unused-vars": "warn", eqeqeq: "error" },
  },
]);
`;

const withRules = (rules: string): string => CONFIG.replace('  { languageOptions', `  { rules: ${rules} },\n  { languageOptions`);

const REAL_CASES: RealCase[] = [
  { name: 'the unused variable of the shop fixture (`lint`: eslint src tests)', files: SHOP, args: ['src', 'tests'] },
  { name: 'a clean state', files: CLEAN, args: ['src', 'tests'] },
  {
    name: 'disable comments, one of them unused',
    files: {
      ...SHOP,
      'src/orders/checkout-service.js': CHECKOUT.replace('    let discount', '    // eslint-disable-next-line no-unused-vars\n    let discount'),
      'src/util/format-money.js': `/* eslint-disable no-console */\n${SHOP['src/util/format-money.js']}`,
    },
    args: ['src', 'tests'],
  },
  {
    name: 'a file-wide eslint-disable comment (the same files are linted with --no-inline-config next)',
    files: { ...SHOP, 'src/orders/checkout-service.js': `/* eslint-disable */\n${CHECKOUT}` },
    args: ['src', 'tests'],
  },
  {
    name: '--no-inline-config on a file-wide eslint-disable comment',
    files: { ...SHOP, 'src/orders/checkout-service.js': `/* eslint-disable */\n${CHECKOUT}` },
    args: ['--no-inline-config', 'src', 'tests'],
  },
  {
    name: 'a parsing error',
    files: {
      ...SHOP,
      'tests/checkout-service.test.js': 'import { checkout } from "../src/orders/checkout-service.js";\nit("x", () => {\n  expect(checkout([]).toBe(0);\n});\n',
    },
    args: ['src', 'tests'],
  },
  {
    name: 'several files and columns of different widths, files sorted by path, the default pattern',
    files: {
      ...CLEAN,
      'src/a.js': `export const a = ${'1 + '.repeat(3)}1;\n\n\n\n\n\n\n\n\nfunction late() { return undefinedThing; }\n`,
      'src/a/x.js': 'let y = 1\nexport default y == null ? z : y;\n',
    },
    args: [],
  },
  {
    name: 'warnings over --max-warnings',
    files: { ...SHOP, 'eslint.config.js': withRules('{ "no-unused-vars": "warn" }') },
    args: ['src', 'tests', '--max-warnings', '0'],
  },
  {
    name: '--quiet with errors and warnings',
    files: { ...SHOP, 'eslint.config.js': withRules('{ "no-unused-vars": "warn", "no-console": "error" }') },
    args: ['--quiet', 'src', 'tests'],
  },
  {
    name: 'defineConfig with extends and globalIgnores; an ignored file named explicitly',
    files: {
      ...SHOP,
      'eslint.config.js': DEFINE_CONFIG,
      'src/generated/client.js': 'export const client = undefinedGlobal;\n',
      'src/orders/compare.js': 'export const same = (a, b) => a == b;\n',
    },
    args: ['src', 'tests', 'src/generated/client.js'],
  },
  {
    name: 'a folder whose files are all ignored',
    files: { ...SHOP, 'eslint.config.js': DEFINE_CONFIG, 'src/generated/client.js': 'export const client = 1;\n' },
    args: ['src/generated'],
  },
  { name: 'a glob', files: { ...SHOP, 'src/orders/legacy.cjs': 'module.exports = { unused: function (a) {} };\n' }, args: ['src/**/*.{js,cjs}'] },
  { name: 'a path matching nothing', files: SHOP, args: ['src', 'lib'] },
  { name: 'a glob matching nothing', files: SHOP, args: ['lib/**/*.js'] },
  { name: 'an option ESLint 9 no longer has', files: SHOP, args: ['src', '--no-eslintrc'] },
  { name: 'an invalid --max-warnings value', files: SHOP, args: ['src', '--max-warnings', 'many'] },
  { name: 'a rule turned off in the config', files: { ...SHOP, 'eslint.config.js': withRules('{ "no-unused-vars": "off" }') }, args: ['src', 'tests'] },
  { name: 'a fixable rule, not fixed', files: { ...SHOP, 'eslint.config.js': withRules('{ "prefer-const": "error" }') }, args: ['src'] },
  {
    name: 'a fixable rule with --fix',
    files: { ...SHOP, 'eslint.config.js': withRules('{ "prefer-const": "error" }') },
    args: ['--fix', 'src'],
    fixedFiles: ['src/orders/checkout-service.js'],
  },
  {
    name: 'a CommonJS config (eslint.config.cjs)',
    files: {
      ...(({ 'eslint.config.js': _config, ...rest }) => rest)(SHOP),
      'eslint.config.cjs':
        'const js = require("@eslint/js");\nconst globals = require("globals");\n\nmodule.exports = [js.configs.recommended, { languageOptions: { globals: globals.node } }, { rules: { "no-console": "warn" } }];\n',
    },
    args: ['src', 'tests'],
  },
  {
    name: 'an invalid rule severity in the config',
    files: { ...SHOP, 'eslint.config.js': 'export default [{ rules: { "no-unused-vars": "bogus" } }];\n' },
    args: ['src'],
  },
  { name: 'an unknown key in the config', files: { ...SHOP, 'eslint.config.js': 'export default [{ foo: 1 }];\n' }, args: ['src'], withoutFrames: true },
  {
    name: 'a config importing a missing package',
    files: { ...SHOP, 'eslint.config.js': 'import react from "eslint-plugin-react";\nexport default [react];\n' },
    args: ['src'],
    withoutFrames: true,
  },
];

interface RealRun {
  exit_code: number;
  output: string;
  fixed: Map<string, string>;
}

const runRoot = join(PROJECT_ROOT, '.scratch', `lint-real-${process.pid}-${randomBytes(4).toString('hex')}`);
const realRuns: RealRun[] = [];

async function runRealCli(dir: string, testCase: RealCase): Promise<RealRun> {
  for (const [path, content] of Object.entries(testCase.files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  const { code, text } = await new Promise<{ code: number; text: string }>((resolve) => {
    execFile(
      process.execPath,
      [ESLINT_BIN, ...testCase.args],
      { cwd: dir, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, text: stdout + stderr });
      },
    );
  });
  let output = text.split(dir).join('/repo');
  if (testCase.withoutFrames === true)
    output = output
      .split('\n')
      .filter((line) => !/^\s+at /.test(line))
      .join('\n');
  const fixed = new Map<string, string>();
  for (const path of testCase.fixedFiles ?? []) fixed.set(path, await readFile(join(dir, path), 'utf8'));
  return { exit_code: code, output, fixed };
}

describe('runEslint against the real ESLint CLI (eslint 9.39.1, same files, same arguments)', () => {
  beforeAll(async () => {
    const queue = REAL_CASES.map((testCase, index) => ({ testCase, index }));
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        realRuns[next.index] = await runRealCli(join(runRoot, `state-${next.index}`), next.testCase);
      }
    };
    await Promise.all([worker(), worker()]);
  });

  afterAll(async () => {
    await rm(runRoot, { recursive: true, force: true });
  });

  it.each(REAL_CASES.map((testCase, index) => [testCase.name, index] as const))('%s', (_name, index) => {
    const testCase = REAL_CASES[index]!;
    const simulated = lint(testCase.files, testCase.args);
    expect({
      exit_code: simulated.exit_code,
      output: simulated.output === '' ? '' : `${simulated.output}\n`,
      fixed: simulated.fixed ?? new Map<string, string>(),
    }).toEqual(realRuns[index]);
  });
});
