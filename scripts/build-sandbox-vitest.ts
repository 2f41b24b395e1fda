// `npm run build` step: bundles scripts/sandbox-vitest-libraries.ts (real chai, @vitest/expect, @vitest/spy, @vitest/runner, @vitest/utils) for QuickJS.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'acorn';
import { build, type Plugin } from 'esbuild';
import { analyze } from 'eslint-scope';
import { VITEST_LIBRARIES_PATH } from '../src/sim-repo/sandbox/vitest-libraries.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * The changes to the libraries' code, each a text replacement that fails the build if the text is gone:
 * - docs/decisions/0024 §3 and 0043: in @vitest/expect's `asymmetricMatch(a, b)`, a received value (`a`) decides an
 *   equality by its own `asymmetricMatch` only when a test's expect made it; jest and vitest let any object with that
 *   method decide, so a wrong result carrying one passed `toEqual`.
 * - toBeCloseTo's `10 ** -precision`: V8 and QuickJS round some powers of ten differently (V8: 10 ** -4 is
 *   0.00009999999999999999, QuickJS 0.0001), and the value is printed in the message; the bundle takes V8's values,
 *   computed here by Node, for precisions 0–100.
 */
const PATCHES: ReadonlyArray<readonly [string, string]> = [
  ['const asymmetricA = isAsymmetric(a);', 'const asymmetricA = isAsymmetric(a) && __stratbench_genuine_matchers.has(a);'],
  ['result = Math.abs(this.sample - other) < 10 ** -this.precision / 2;', 'result = Math.abs(this.sample - other) < __stratbench_pow10(-this.precision) / 2;'],
  ['expectedDiff = 10 ** -precision / 2;', 'expectedDiff = __stratbench_pow10(-precision) / 2;'],
];
const patchExpect: Plugin = {
  name: 'stratbench-patches',
  setup(context) {
    context.onLoad({ filter: /@vitest[\\/]expect[\\/]dist[\\/]index\.js$/ }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      for (const [text, replacement] of PATCHES) {
        if (!source.includes(text)) throw new Error(`@vitest/expect changed: "${text}" not found in ${args.path}`);
        source = source.replace(text, replacement);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

/** Powers of ten 10 ** -0 … 10 ** -100 as V8 computes them. */
const V8_POWERS_OF_TEN = JSON.stringify(Array.from({ length: 101 }, (_, digits) => 10 ** -digits));

/**
 * The global names `code` (a script: the wrapped bundle, one function expression) reads or writes without declaring
 * them, sorted: eslint-scope 8's references left unresolved by the global scope (`globalScope.through`), on acorn's AST.
 * The bundle binds each to its value at evaluation (docs/decisions/0043, "Free globals"): @vitest/expect's `eq()` read
 * `URL` at call time (`a instanceof URL` → `a.href === b.href`) and `toContain` read `Node`, so repository code planting
 * `globalThis.URL` with an always-true `Symbol.hasInstance` made `expect(0.03).toEqual(0.04)` pass.
 * Throws when a free name is assigned (a binding fixed at evaluation would change what the assignment does) or cannot
 * be a `const` name in strict code (`eval`, `arguments`, a reserved word); `globalThis` is bound by the wrapper itself.
 */
export function freeIdentifiers(code: string): string[] {
  const ast = parse(code, { ecmaVersion: 2024, sourceType: 'script', ranges: true });
  const scopes = analyze(ast, { ecmaVersion: 2024, sourceType: 'script' });
  const names = new Set<string>();
  for (const reference of scopes.globalScope?.through ?? []) {
    const name = reference.identifier.name;
    if (reference.isWrite()) throw new Error(`the sandbox vitest bundle assigns the global ${name}: bind it by hand or patch the library`);
    names.add(name);
  }
  names.delete('globalThis');
  const unbindable = [...names].filter((name) => !/^[A-Za-z_$][\w$]*$/.test(name) || name === 'eval' || name === 'arguments' || isReserved(name));
  if (unbindable.length > 0) throw new Error(`the sandbox vitest bundle reads globals a const cannot bind: ${unbindable.join(', ')}`);
  return [...names].sort();
}

/** Whether `name` is reserved in strict code (it cannot be declared there). */
function isReserved(name: string): boolean {
  try {
    new Function(`'use strict'; const ${name} = 0;`);
    return false;
  } catch {
    return true;
  }
}

/** Builds the bundle; returns its size in bytes. The IIFE runs with a private globalThis (see the entry's header). */
export async function buildSandboxVitest(): Promise<number> {
  const result = await build({
    entryPoints: [resolve(root, 'scripts/sandbox-vitest-libraries.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'libraries',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    // Whitespace and syntax only: names stay as the libraries wrote them (messages print function and class names).
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    plugins: [patchExpect],
    logLevel: 'warning',
  });
  const body = result.outputFiles[0]!.text;
  const libraries = `(function () {
'use strict';
var __stratbench_genuine_matchers = new WeakSet();
var __stratbench_powers_of_ten = ${V8_POWERS_OF_TEN};
var __stratbench_pow10 = (exponent) => (Number.isInteger(exponent) && exponent <= 0 && exponent >= -100 ? __stratbench_powers_of_ten[-exponent] : 10 ** exponent);
// chai's plugin events (chai/utils/events.js) need EventTarget and Event, which QuickJS lacks: no listener ever runs here.
var Event = class Event { constructor(type) { this.type = type; } };
var EventTarget = class EventTarget { addEventListener() {} removeEventListener() {} dispatchEvent() { return true; } };
// @vitest/runner gives each test context an AbortSignal (aborted when the test times out or fails): QuickJS lacks it.
var AbortSignal = class AbortSignal {
  constructor() { this.aborted = false; this.reason = undefined; this.listeners = []; }
  addEventListener(type, listener) { if (type === 'abort') this.listeners.push(listener); }
  removeEventListener(type, listener) { this.listeners = this.listeners.filter((each) => each !== listener); }
  throwIfAborted() { if (this.aborted) throw this.reason; }
};
var AbortController = class AbortController {
  constructor() { this.signal = new AbortSignal(); }
  abort(reason) {
    const signal = this.signal;
    if (signal.aborted) return;
    signal.aborted = true;
    signal.reason = reason === undefined ? new Error('This operation was aborted') : reason;
    for (const listener of signal.listeners.splice(0)) listener.call(signal, { type: 'abort', target: signal });
  }
};
${body}
return libraries;
})`;
  const free = freeIdentifiers(libraries);
  const source = `globalThis.__stratbench_vitest_libraries__ = (function (realm) {
'use strict';
// Every global the libraries name, bound to its value now, in the snapshot, before any repository code runs (see
// freeIdentifiers): a name the realm lacks is undefined, so typeof gives 'undefined' as before.
const ${free.map((name) => `${name} = realm.${name}`).join(', ')};
// The libraries' private global: keeps their symbol-keyed state (expect's matchers and testers, the safe timers) out of
// repository code's reach, and reads the realm's globals as they are now (a copy), not as repository code leaves them.
const globalThis = Object.create(Object.create(Object.getPrototypeOf(realm), Object.getOwnPropertyDescriptors(realm)));
return ${libraries}();
})(globalThis);
`;
  console.log(`sandbox vitest libraries: ${free.length} free identifiers bound at evaluation: ${free.join(' ')}`);
  const target = resolve(root, VITEST_LIBRARIES_PATH);
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, source);
  renameSync(temporary, target);
  return source.length;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const bytes = await buildSandboxVitest();
  console.log(`${VITEST_LIBRARIES_PATH}: ${(bytes / 1024).toFixed(0)} KB in ${(performance.now() - started).toFixed(0)} ms`);
}
