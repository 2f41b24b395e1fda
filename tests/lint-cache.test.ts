// Per-file lint results kept across runs (LintFileResults): the same bytes as linting every file, never a stale result.
import { describe, expect, it } from 'vitest';
import type { LintResult } from '../src/sim-repo/lint/format-stylish.js';
import { LintFileResults, type LintFileMode } from '../src/sim-repo/lint/lint-file-results.js';
import type { FlatConfigArray } from '../src/sim-repo/lint/load-eslint.js';
import { runEslint, type EslintRun } from '../src/sim-repo/lint/run-eslint.js';
import { runInSandbox } from '../src/sim-repo/sandbox/index.js';

type Files = Readonly<Record<string, string>>;

const CONFIG = `import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  { rules: { "no-console": "warn", "prefer-const": "error" } },
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

/** `src/orders/checkout-service.js`: an unused variable (error) and a `let` never reassigned (error, fixable). */
const SHOP: Files = {
  'package.json': JSON.stringify({ name: 'shop', private: true, type: 'module', devDependencies: { '@eslint/js': '9.39.1', eslint: '9.39.1' } }, null, 2),
  'eslint.config.js': CONFIG,
  'src/orders/checkout-service.js': CHECKOUT,
  'src/orders/prices.js': 'export function priceOf(item) {\n  return item.price * item.quantity;\n}\n',
  'src/util/log.js': 'export const log = (text) => console.log(text);\n',
  'tests/checkout-service.test.js': 'import { checkout } from "../src/orders/checkout-service.js";\nconsole.log(checkout([]), process.env.CI);\n',
};

const lookup = (files: Files) => (path: string) => (Object.hasOwn(files, path) ? files[path] : undefined);

/** One run with `fileResults`; the default is a fresh cache that keeps nothing, i.e. every file linted as before the cache. */
function lint(files: Files, args: readonly string[], fileResults = new LintFileResults(0)): EslintRun {
  return runEslint({ files: lookup(files), paths: Object.keys(files).sort(), args, runInSandbox, fileResults });
}

/** Edits one file of a state. */
const edit = (files: Files, path: string, from: string, to: string): Files => {
  const content = files[path];
  if (content === undefined || !content.includes(from)) throw new Error(`${path} does not contain ${from}`);
  return { ...files, [path]: content.replace(from, to) };
};

const ARGUMENTS: ReadonlyArray<readonly string[]> = [
  ['src', 'tests'],
  ['.'],
  ['--quiet', 'src', 'tests'],
  ['--max-warnings', '0', 'src', 'tests'],
  ['--quiet', '--max-warnings', '0', 'src', 'tests'],
  ['--fix', 'src', 'tests'],
  ['--fix', '--quiet', 'src'],
  ['--fix-dry-run', 'src', 'tests'],
  ['--no-inline-config', 'src', 'tests'],
  ['--rule', '{"no-console": "error"}', 'src', 'tests'],
  ['src/orders/checkout-service.js'],
];

/** A sequence of states an agent could walk through: fix one thing at a time, break something, go back. */
function states(): Files[] {
  const fixedLet = edit(SHOP, 'src/orders/checkout-service.js', 'let discount', 'const discount');
  const noDiscount = edit(fixedLet, 'src/orders/checkout-service.js', '    const discount = total * 0.1;\n', '    total -= total * 0.1;\n');
  const quietLog = edit(noDiscount, 'src/util/log.js', 'export const', '/* eslint-disable */\nexport const');
  const broken = edit(quietLog, 'src/orders/prices.js', 'priceOf(item)', 'priceOf(item');
  const clean = {
    ...quietLog,
    'tests/checkout-service.test.js': 'import { checkout } from "../src/orders/checkout-service.js";\nexport const total = checkout([]);\n',
  };
  return [SHOP, fixedLet, noDiscount, quietLog, broken, quietLog, clean, SHOP, clean];
}

describe('runEslint with per-file results kept across runs', () => {
  it('prints the same bytes, exit codes, reads and fixes as linting every file, over a sequence of states and options', () => {
    const kept = new LintFileResults();
    let compared = 0;
    for (const state of states()) {
      for (const args of ARGUMENTS) {
        expect({ args, run: lint(state, args, kept) }).toEqual({ args, run: lint(state, args) });
        compared++;
      }
    }
    expect(compared).toBe(99);
    // The comparison is not vacuous: most files were served, and the runs cover dirty, clean and fixing outcomes.
    expect(kept.stats.hits).toBeGreaterThan(kept.stats.misses);
    const exitCodes = new Set(states().flatMap((state) => ARGUMENTS.map((args) => lint(state, args, kept).exit_code)));
    expect([...exitCodes].sort()).toEqual([0, 1]);
  });

  it('lints only the file that changed between two states, and reports the new text', () => {
    const kept = new LintFileResults();
    const before = lint(SHOP, ['src', 'tests'], kept);
    expect(kept.stats).toEqual({ hits: 0, misses: 4, entries: 4, bytes: expect.any(Number) });
    const changed = edit(SHOP, 'src/util/log.js', 'console.log(text)', 'console.error(text, extra)');
    const after = lint(changed, ['src', 'tests'], kept);
    expect(kept.stats).toMatchObject({ hits: 3, misses: 5, entries: 5 });
    expect(after).toEqual(lint(changed, ['src', 'tests']));
    expect(after.output).toContain("'extra' is not defined");
    expect(messageLines(after.output, '/repo/src/util/log.js')).not.toEqual(messageLines(before.output, '/repo/src/util/log.js'));
    for (const other of ['/repo/src/orders/checkout-service.js', '/repo/tests/checkout-service.test.js']) {
      expect(messageLines(after.output, other)).toEqual(messageLines(before.output, other));
    }
  });

  it('is not served a stale result when the config changes: its rules, a file it imports, package.json', () => {
    const kept = new LintFileResults();
    const split = { ...SHOP, 'eslint.config.js': 'import shared from "./eslint.shared.js";\nexport default shared;\n', 'eslint.shared.js': CONFIG };
    const changes: Array<[string, Files]> = [
      ['the config itself', edit(SHOP, 'eslint.config.js', '"no-console": "warn"', '"no-console": "off"')],
      ['a file the config imports', edit(split, 'eslint.shared.js', '"no-console": "warn"', '"no-console": "error"')],
      ['the globals the config gives', edit(split, 'eslint.shared.js', 'globals.node', 'globals.browser')],
    ];
    const baseline = lint(SHOP, ['src', 'tests'], kept);
    expect(lint(split, ['src', 'tests'], kept).output).toBe(baseline.output);
    for (const [what, files] of changes) {
      const run = lint(files, ['src', 'tests'], kept);
      expect({ what, run }).toEqual({ what, run: lint(files, ['src', 'tests']) });
      expect({ what, output: run.output }).not.toEqual({ what, output: baseline.output });
    }
    // package.json decides whether a .js config without import/export is CommonJS (Node's rule).
    const commonJs = {
      ...SHOP,
      'package.json': '{ "name": "shop" }\n',
      'eslint.config.js': 'const js = require("@eslint/js");\nmodule.exports = [js.configs.recommended, { rules: { "no-console": "error" } }];\n',
    };
    const asCommonJs = lint(commonJs, ['src'], kept);
    expect(asCommonJs).toEqual(lint(commonJs, ['src']));
    expect(asCommonJs.output).toContain('no-console');
    const asModule = lint({ ...commonJs, 'package.json': '{ "name": "shop", "type": "module" }\n' }, ['src'], kept);
    expect({ exit_code: asModule.exit_code, output: asModule.output }).toEqual({ exit_code: 2, output: expect.stringContaining('/repo/eslint.config.js') });
    expect(lint(commonJs, ['src'], kept)).toEqual(asCommonJs);
  });

  it('keeps inline configuration apart: a file-wide eslint-disable, the same text with --no-inline-config, and the comment removed', () => {
    const kept = new LintFileResults();
    const disabled = edit(SHOP, 'src/orders/checkout-service.js', 'import {', '/* eslint-disable */\nimport {');
    expect(messageLines(lint(disabled, ['src'], kept).output, '/repo/src/orders/checkout-service.js')).toEqual([]);
    const ignored = lint(disabled, ['--no-inline-config', 'src'], kept);
    expect(ignored).toEqual(lint(disabled, ['--no-inline-config', 'src']));
    expect(messageLines(ignored.output, '/repo/src/orders/checkout-service.js')).toEqual([
      "  10:9  error  'discount' is assigned a value but never used        no-unused-vars",
      "  10:9  error  'discount' is never reassigned. Use 'const' instead  prefer-const",
    ]);
    const rule = edit(SHOP, 'src/orders/checkout-service.js', 'import {', '/* eslint prefer-const: "off" */\nimport {');
    expect(lint(rule, ['src'], kept)).toEqual(lint(rule, ['src']));
    expect(lint(rule, ['src'], kept).output).not.toContain('prefer-const');
    expect(lint(SHOP, ['src'], kept)).toEqual(lint(SHOP, ['src']));
  });

  it('keeps --quiet, --fix and --fix --quiet apart on the same text', () => {
    const kept = new LintFileResults();
    const argsList = [['src'], ['--quiet', 'src'], ['--fix', 'src'], ['--fix', '--quiet', 'src'], ['--quiet', '--max-warnings', '0', 'src']];
    const runs = argsList.map((args) => lint(SHOP, args, kept));
    expect(runs).toEqual(argsList.map((args) => lint(SHOP, args)));
    const rules = runs.map((run) => ['no-unused-vars', 'prefer-const', 'no-console'].filter((rule) => run.output.includes(rule)));
    expect(rules).toEqual([
      ['no-unused-vars', 'prefer-const', 'no-console'],
      ['no-unused-vars', 'prefer-const'],
      ['no-unused-vars', 'no-console'],
      ['no-unused-vars'],
      ['no-unused-vars', 'prefer-const'],
    ]);
    expect(runs[2]!.fixed?.get('src/orders/checkout-service.js')).toContain('const discount');
    expect(runs[3]!.fixed).toEqual(runs[2]!.fixed);
  });
});

describe('LintFileResults bound', () => {
  const configs = {} as FlatConfigArray;
  const mode: LintFileMode = { fix: 'off', inlineConfig: true, errorsOnly: false };
  const resultFor = (filePath: string, message = 'm'): LintResult => ({
    filePath,
    messages: [{ ruleId: 'r', severity: 2, message }],
    errorCount: 1,
    fatalErrorCount: 0,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
  });

  it('keeps at most maxEntries results, dropping the least recently used', () => {
    const kept = new LintFileResults(2);
    let linted = 0;
    const get = (path: string) =>
      kept.resultOf(configs, mode, path, 'text', () => {
        linted++;
        return resultFor(path);
      });
    get('/repo/a.js');
    get('/repo/b.js');
    get('/repo/a.js');
    get('/repo/c.js');
    expect({ linted, entries: kept.stats.entries }).toEqual({ linted: 3, entries: 2 });
    get('/repo/a.js');
    expect(linted).toBe(3);
    get('/repo/b.js');
    expect(linted).toBe(4);
  });

  it('keeps at most maxBytes (estimated), never an entry larger than the bound, and a few texts per file', () => {
    const bySize = new LintFileResults(1_000, 10_000);
    for (let index = 0; index < 50; index++) bySize.resultOf(configs, mode, `/repo/f${index}.js`, 'x'.repeat(1_000), () => resultFor(`/repo/f${index}.js`));
    expect(bySize.stats.bytes).toBeLessThanOrEqual(10_000);
    expect(bySize.stats.entries).toBe(4);
    bySize.resultOf(configs, mode, '/repo/big.js', 'x'.repeat(20_000), () => resultFor('/repo/big.js'));
    expect(bySize.stats.entries).toBe(4);
    const perFile = new LintFileResults(1_000, 1_000_000, 3);
    for (let index = 0; index < 10; index++) perFile.resultOf(configs, mode, '/repo/a.js', `text ${index}`, () => resultFor('/repo/a.js'));
    expect(perFile.stats.entries).toBe(3);
  });

  it('tells configs, modes and texts apart', () => {
    const kept = new LintFileResults();
    const other = {} as FlatConfigArray;
    let linted = 0;
    const get = (configArray: FlatConfigArray, fileMode: LintFileMode, text: string) =>
      kept.resultOf(configArray, fileMode, '/repo/a.js', text, () => resultFor('/repo/a.js', `run ${++linted}`)).messages[0]!.message;
    const cases: Array<[FlatConfigArray, LintFileMode, string]> = [
      [configs, mode, 'same'],
      [other, mode, 'same'],
      [configs, { ...mode, inlineConfig: false }, 'same'],
      [configs, { ...mode, errorsOnly: true }, 'same'],
      [configs, { ...mode, fix: 'all' }, 'same'],
      [configs, { ...mode, fix: 'errors' }, 'same'],
      [configs, mode, 'same\n'],
    ];
    expect(cases.map((args) => get(...args))).toEqual(['run 1', 'run 2', 'run 3', 'run 4', 'run 5', 'run 6', 'run 7']);
    expect(cases.map((args) => get(...args))).toEqual(['run 1', 'run 2', 'run 3', 'run 4', 'run 5', 'run 6', 'run 7']);
    expect(kept.resultOf(configs, mode, '/repo/b.js', 'same', () => resultFor('/repo/b.js', 'b')).messages[0]!.message).toBe('b');
  });
});

/** The message lines printed under `file` in stylish output. */
function messageLines(output: string, file: string): string[] {
  const lines = output.split('\n');
  const start = lines.indexOf(file);
  if (start === -1) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end);
}
