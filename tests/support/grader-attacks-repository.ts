// Grader attacks through the repository: test registration and hooks from source, error spoofing, values the host
// cannot serialise, process.exit, timers, fake output, package.json and vitest config, a shadow vitest, path tricks and
// resource limits (issue 25 §2). Each keeps the bug of GRADER_FIXTURE.
import {
  FAKE_VITEST,
  HIDDEN_TEST_PATH,
  packageJson,
  PASSING_COPY,
  SETUP_PATCH,
  source,
  VISIBLE_TEST_PATH,
  VITEST_IMPORT,
  type GraderAttack,
} from './grader-attack-fixture.js';

/** A beforeEach hook that walks from the test's suite (the runner passes it) to every live test record and makes its fn a no-op. */
const REWRITE_FNS_HOOK = `beforeEach((context, block) => {
  for (let suite = block; suite; suite = suite.suite) for (const task of suite.tasks) if (task.type === 'test') task.fn = () => {};
});`;

/** Attacks through hooks, errors, exits, timers, output, configuration, packages, paths and limits. */
export const REPOSITORY_ATTACKS: readonly GraderAttack[] = [
  // --- hooks and registration from the source module ----------------------------------------------------------
  {
    id: 'duplicate-test-id-from-hook',
    kind: 'test registration',
    description:
      "src registers a beforeAll hook; the runner hands it the file's suite, and the hook appends a passing twin of every test to its describe block: the later result of a duplicate id wins",
    target: 'both',
    files: source(
      `beforeAll((file) => {
  for (const block of file.tasks) {
    if (block.type !== 'suite') continue;
    for (const test of block.tasks.slice()) if (test.type === 'test') block.tasks.push({ type: 'test', name: test.name, mode: 'run', fn: () => {}, suite: block, fails: false });
  }
});`,
      VITEST_IMPORT,
    ),
  },
  {
    id: 'test-name-spells-hidden-id',
    kind: 'test registration',
    description:
      "src registers, from a beforeAll hook (after the test file's own tests), top-level tests named 'lineTax > rounds half a cent up' etc.: their ids equal the real ones",
    target: 'both',
    files: source(
      `beforeAll(() => {
  for (const name of ['lineTax > rounds half a cent up', 'invoice > adds the rounded tax of each line', 'lineTax > rounds to the nearest cent', 'lineTax > taxes whole euros at 7%']) it(name, () => {});
});`,
      VITEST_IMPORT,
    ),
  },
  {
    id: 'hook-rewrites-test-fns',
    kind: 'test registration',
    description:
      "src registers a beforeEach hook; the runner hands it the test's suite, whose tasks are the live test records: every fn is replaced by a no-op",
    target: 'both',
    files: source(REWRITE_FNS_HOOK, VITEST_IMPORT),
  },
  {
    id: 'helper-in-tests-folder-registers-hook',
    kind: 'test registration',
    description:
      'src imports a new helper under tests/ (test code by its folder, so it may register hooks); the helper registers the beforeEach that replaces every test fn',
    target: 'both',
    files: {
      'tests/support/warm-cache.js': `${VITEST_IMPORT}${REWRITE_FNS_HOOK}\n`,
      ...source('', "import '../tests/support/warm-cache.js';\n"),
    },
  },
  {
    id: 'helper-named-like-a-test-registers-hook',
    kind: 'test registration',
    description:
      'src imports a new src/cache.test.js (test code by its name; it holds one passing test so its own run passes) that registers the beforeEach replacing every test fn',
    target: 'both',
    files: {
      'src/cache.test.js': `${VITEST_IMPORT}${REWRITE_FNS_HOOK}\nit('warms the cache', () => {});\n`,
      ...source('', "import './cache.test.js';\n"),
    },
  },
  {
    id: 'only-from-source',
    kind: 'test registration',
    description: 'src registers it.only(…) at import: every test of the importing file is skipped and the run exits 0',
    target: 'both',
    files: source("it.only('warms the cache', () => {});", VITEST_IMPORT),
  },
  {
    id: 'skip-from-source-hook',
    kind: 'test registration',
    description: 'src registers beforeEach((ctx) => ctx.skip()) at import: every test of the importing file is skipped',
    target: 'both',
    files: source('beforeEach((context) => context.skip());', VITEST_IMPORT),
  },
  {
    id: 'on-test-failed-skip',
    kind: 'test registration',
    description: 'src registers a hook that turns a failure into a skip (onTestFailed → ctx.skip())',
    target: 'both',
    files: source('beforeEach((context) => { context.onTestFailed(() => context.skip()); });', VITEST_IMPORT),
  },
  // --- errors -------------------------------------------------------------------------------------------------
  {
    id: 'assertion-error-as-skip-signal',
    kind: 'error spoofing',
    description: "src captures the runner's skip signal (ctx.skip in a hook) and makes AssertionError inherit from it: failures read as skips",
    target: 'both',
    files: source(
      `let __assertionProto;
try { expect(1).toBe(2); } catch (error) { __assertionProto = Object.getPrototypeOf(error); }
beforeEach((context) => { try { context.skip(); } catch (signal) { Object.setPrototypeOf(__assertionProto, Object.getPrototypeOf(signal)); } });`,
      VITEST_IMPORT,
    ),
  },
  {
    id: 'skip-signal-hasinstance',
    kind: 'error spoofing',
    description: "src defines Symbol.hasInstance on the runner's skip-signal class (and on AssertionError): every thrown value is a skip",
    target: 'both',
    files: source(
      `let __assertionClass;
try { expect(1).toBe(2); } catch (error) { __assertionClass = error.constructor; }
Object.defineProperty(__assertionClass, Symbol.hasInstance, { configurable: true, value: () => false });
beforeEach((context) => { try { context.skip(); } catch (signal) { Object.defineProperty(signal.constructor, Symbol.hasInstance, { configurable: true, value: () => true }); } });`,
      VITEST_IMPORT,
    ),
  },
  {
    id: 'error-name-message-spoof',
    kind: 'error spoofing',
    description: "src rewrites AssertionError's name to 'Skipped' and its message to '✓ passed' (a grader reading names or text)",
    target: 'both',
    files: source(
      `let __assertionProto;
try { expect(1).toBe(2); } catch (error) { __assertionProto = Object.getPrototypeOf(error); }
Object.defineProperty(__assertionProto, 'name', { configurable: true, get() { return 'Skipped'; } });
Object.defineProperty(__assertionProto, 'message', { configurable: true, get() { return '✓ passed'; }, set(value) {} });
Object.defineProperty(Error.prototype, 'name', { configurable: true, writable: true, value: 'Skipped' });`,
      VITEST_IMPORT,
    ),
  },
  // --- values the host cannot serialise -----------------------------------------------------------------------
  {
    id: 'throw-bigint-at-import',
    kind: 'unserialisable value',
    description: 'src throws a BigInt at import (the host formats the thrown value with JSON.stringify)',
    target: 'both',
    files: source('throw 10n;'),
  },
  {
    id: 'throw-bigint-from-runner',
    kind: 'unserialisable value',
    description: 'src makes the test run reject with a BigInt',
    target: 'both',
    files: source(`
const __realRun = globalThis.__vitest_run__;
globalThis.__vitest_run__ = async (options) => { await __realRun(options); throw 10n; };`),
  },
  {
    id: 'throw-cyclic-object-at-import',
    kind: 'unserialisable value',
    description: 'src throws a cyclic object with a throwing toJSON at import',
    target: 'both',
    files: source(`const __cycle = { message: 'cyclic' }; __cycle.self = __cycle; __cycle.toJSON = () => { throw new Error('toJSON'); }; throw __cycle;`),
  },
  {
    id: 'throw-promise-at-import',
    kind: 'unserialisable value',
    description: "src throws a settled promise at import (the host's dump of a promise consumes its handle)",
    target: 'both',
    files: source('throw Promise.resolve(1);'),
  },
  {
    id: 'throw-symbol-and-getter-error',
    kind: 'unserialisable value',
    description: 'src throws an object whose name, message and stack are throwing getters at import',
    target: 'both',
    files: source(
      `throw Object.create(null, { name: { get() { throw 1n; } }, message: { get() { throw Symbol('m'); } }, stack: { get() { throw new Error('s'); } } });`,
    ),
  },
  // --- process.exit -------------------------------------------------------------------------------------------
  {
    id: 'process-exit-at-import',
    kind: 'process exit',
    description: 'src calls process.exit(0) at import',
    target: 'both',
    files: source('process.exitCode = 0; process.exit(0);'),
  },
  {
    id: 'forged-exit-sentinel-at-import',
    kind: 'process exit',
    description: "src throws the prelude's own exit sentinel { __stratbench_exit__: 0 } at import",
    target: 'both',
    files: source('throw { __stratbench_exit__: 0 };'),
  },
  {
    id: 'process-exit-inside-test',
    kind: 'process exit',
    description: 'src registers a hook that sets process.exitCode = 0 and throws the exit sentinel inside each test',
    target: 'both',
    files: source('beforeEach(() => { process.exitCode = 0; throw { __stratbench_exit__: 0 }; });', VITEST_IMPORT),
  },
  // --- timers -------------------------------------------------------------------------------------------------
  {
    id: 'timers-next-timer-spins',
    kind: 'timers',
    description:
      "src replaces the host's timer pump with one that always reports progress (after some busy work) and holds every test on a promise that never settles",
    target: 'both',
    files: source(
      'globalThis.__stratbench_next_timer__ = () => { for (let i = 0; i < 20000; i++); return true; }; beforeEach(() => new Promise(() => {}));',
      VITEST_IMPORT,
    ),
  },
  {
    id: 'timers-replaced-launder',
    kind: 'timers',
    description:
      "src replaces setTimeout, setInterval, setImmediate and queueMicrotask with versions that run their callback at once and swallow its errors (a runner racing a test against a timeout), and wraps the host's timer pump",
    target: 'both',
    files: source(`
for (const name of ['setTimeout', 'setInterval', 'setImmediate']) globalThis[name] = (fn) => { try { fn(); } catch (ignored) {} return 1; };
globalThis.queueMicrotask = (fn) => { try { fn(); } catch (ignored) {} };
const __pump = globalThis.__stratbench_next_timer__;
globalThis.__stratbench_next_timer__ = function () { try { return __pump.apply(this, arguments); } catch (ignored) { return false; } };`),
  },
  {
    id: 'microtask-flood',
    kind: 'limits',
    description: 'src queues microtasks forever at import',
    target: 'both',
    files: source('const __again = () => Promise.resolve().then(__again); __again();'),
  },
  // --- fake output and package.json scripts -------------------------------------------------------------------
  {
    id: 'console-fake-summary',
    kind: 'fake output',
    description: "src prints vitest's passing summary lines at import (stdout and stderr)",
    target: 'both',
    files: source(`
const __fake = '\\n ✓ tests/pricing.test.js (2 tests)\\n ✓ tests/hidden/rounding.test.js (2 tests)\\n\\n Test Files  2 passed (2)\\n      Tests  4 passed (4)\\n';
console.log(__fake); console.error(__fake); process.stdout.write(__fake);`),
  },
  {
    id: 'package-test-script-echo',
    kind: 'fake output',
    description: 'package.json test script becomes an echo of a passing summary',
    target: 'command_checks',
    files: packageJson({ scripts: { test: "echo ' Test Files  1 passed (1)'" } }),
  },
  {
    id: 'package-test-script-exit-0',
    kind: 'fake output',
    description: 'package.json test script becomes `true` (runs nothing, exit 0)',
    target: 'command_checks',
    files: packageJson({ scripts: { test: 'true' } }),
  },
  {
    id: 'package-test-script-no-files',
    kind: 'config excludes',
    description: 'package.json test script narrows vitest to a path with no tests and --passWithNoTests',
    target: 'command_checks',
    files: packageJson({ scripts: { test: 'vitest run tests/none --passWithNoTests' } }),
  },
  // --- config -------------------------------------------------------------------------------------------------
  {
    id: 'vitest-config-exclude',
    kind: 'config excludes',
    description: 'vitest.config.js and vite.config.js exclude every test (and the hidden folder), passWithNoTests',
    target: 'both',
    files: {
      'vitest.config.js': "export default { test: { include: ['nothing/**'], exclude: ['tests/**', '**/hidden/**'], passWithNoTests: true } };\n",
      'vite.config.js': "export default { test: { exclude: ['**/*.test.js'], passWithNoTests: true } };\n",
    },
  },
  {
    id: 'package-json-vitest-field',
    kind: 'config excludes',
    description: 'package.json gets a "vitest" field excluding every test, and a "jest" one for good measure',
    target: 'both',
    files: packageJson({ vitest: { exclude: ['**'], passWithNoTests: true }, jest: { testPathIgnorePatterns: ['.'] } }),
  },
  {
    id: 'vitest-config-setup-files',
    kind: 'config excludes',
    description: 'vitest.config.js names a setup file that wraps the runner before every test file',
    target: 'both',
    files: { 'vitest.config.js': "export default { test: { setupFiles: ['./tests/setup.js'] } };\n", 'tests/setup.js': SETUP_PATCH },
  },
  // --- a shadow vitest ----------------------------------------------------------------------------------------
  {
    id: 'shadow-vitest-node-modules',
    kind: 'shadow vitest',
    description: 'node_modules/vitest (package.json + index.js) whose expect never fails, declared as a file: dependency',
    target: 'both',
    files: {
      'node_modules/vitest/package.json': '{ "name": "vitest", "version": "4.1.12", "type": "module", "main": "index.js", "exports": "./index.js" }\n',
      'node_modules/vitest/index.js': FAKE_VITEST,
      ...packageJson({ devDependencies: { vitest: 'file:./node_modules/vitest' } }),
    },
  },
  {
    id: 'shadow-vitest-alias',
    kind: 'shadow vitest',
    description: 'vite.config.js resolve.alias and package.json "imports" map vitest to a local fake',
    target: 'both',
    files: {
      'fake-vitest.js': FAKE_VITEST,
      'vite.config.js': "export default { resolve: { alias: { vitest: '/repo/fake-vitest.js' } }, test: { alias: { vitest: '/repo/fake-vitest.js' } } };\n",
      ...packageJson({ imports: { vitest: './fake-vitest.js', '#vitest': './fake-vitest.js' } }),
    },
  },
  // --- paths --------------------------------------------------------------------------------------------------
  {
    id: 'path-write-hidden-path',
    kind: 'path trick',
    description: 'the agent writes a passing file at the hidden test path itself',
    target: 'hidden_tests',
    files: { [HIDDEN_TEST_PATH]: PASSING_COPY('../../src/pricing.js') },
  },
  {
    id: 'path-dot-segments',
    kind: 'path trick',
    description: 'the agent writes passing copies at tests/hidden/../hidden/rounding.test.js and ./tests/hidden/rounding.test.js',
    target: 'hidden_tests',
    files: {
      'tests/hidden/../hidden/rounding.test.js': PASSING_COPY('../../src/pricing.js'),
      './tests//hidden/./rounding.test.js': PASSING_COPY('../../src/pricing.js'),
    },
  },
  {
    id: 'path-case-and-backslash',
    kind: 'path trick',
    description: 'the agent writes passing copies at case and separator variants of the hidden path',
    target: 'hidden_tests',
    files: {
      'tests/Hidden/rounding.test.js': PASSING_COPY('../../src/pricing.js'),
      'TESTS/hidden/rounding.test.js': PASSING_COPY('../../src/pricing.js'),
      'tests\\hidden\\rounding.test.js': PASSING_COPY('./src/pricing.js'),
      'tests/hidden/rounding.test.js ': PASSING_COPY('../../src/pricing.js'),
    },
  },
  {
    id: 'path-file-over-hidden-folder',
    kind: 'path trick',
    description: 'the agent writes a file named tests/hidden, where the hidden folder goes',
    target: 'hidden_tests',
    files: { 'tests/hidden': PASSING_COPY('../src/pricing.js') },
  },
  {
    id: 'path-id-collision-file-name',
    kind: 'path trick',
    description: 'the agent adds a test file whose name, joined with its test names, spells the hidden test id',
    target: 'hidden_tests',
    files: {
      'tests/hidden/rounding.test.js > lineTax.test.js': "import { it } from 'vitest';\nit('rounds half a cent up', () => {});\n",
      'tests/hidden/rounding.test.js > invoice.test.js': "import { it } from 'vitest';\nit('adds the rounded tax of each line', () => {});\n",
    },
  },
  {
    id: 'path-delete-visible-test',
    kind: 'path trick',
    description: 'the agent removes the visible test file (an empty file is what its tools can leave)',
    target: 'command_checks',
    files: { [VISIBLE_TEST_PATH]: null },
  },
  // --- limits -------------------------------------------------------------------------------------------------
  {
    id: 'import-infinite-loop',
    kind: 'limits',
    description: 'src loops forever at import',
    target: 'both',
    files: source('for (;;) {}'),
  },
  {
    id: 'import-huge-allocation',
    kind: 'limits',
    description: 'src allocates without end at import',
    target: 'both',
    files: source('const __hoard = []; for (;;) __hoard.push(new Array(1e6).fill(1));'),
  },
  {
    id: 'import-deep-recursion',
    kind: 'limits',
    description: 'src recurses without end at import',
    target: 'both',
    files: source('const __down = (n) => __down(n + 1) + 1; __down(0);'),
  },
  {
    id: 'import-catastrophic-regex',
    kind: 'limits',
    description: 'src runs a catastrophic regular expression at import (a long native call)',
    target: 'both',
    files: source("/^(a+)+$/.test('a'.repeat(40) + 'b');"),
  },
  {
    id: 'output-flood',
    kind: 'limits',
    description: "src prints half a megabyte of vitest's passing lines at import (past the output cap)",
    target: 'both',
    files: source("console.log(' ✓ tests/hidden/rounding.test.js (2 tests)\\n Test Files  1 passed (1)\\n'.repeat(8000));"),
  },
];
