// Owns evaluating a fixture's eslint.config.js in the sandbox and bringing its default export to the host as data.
import type { SandboxError, SandboxRunOptions, SandboxRunResult } from '../sandbox/index.js';
import { eslintConfigModules } from './eslint-config-modules.js';
import { DEFAULT_TIMEOUT_MS } from '../sandbox/limits.js';

/** The sandbox seam: `runInSandbox` from `src/sim-repo/sandbox/`, or a test double. */
export type SandboxRunner = (options: SandboxRunOptions) => SandboxRunResult;

type Reads = ReadonlyArray<readonly [string, string | undefined]>;

/**
 * A config file's evaluation. `ok`: `config` is the default export (an array, an object, or undefined), rebuilt on
 * the host from data. Failure: `message` is what ESLint prints after "Oops! Something went wrong!" for a config
 * that cannot load (the error line, then `at /repo/FILE:LINE:COLUMN` frames). `reads` lists every working-tree
 * file the evaluation looked up (the config and whatever it imports), with the content seen.
 */
export type EslintConfigEvaluation = { ok: true; config: unknown; reads: Reads } | { ok: false; message: string; reads: Reads };

export interface EvaluateEslintConfigInput {
  files: (path: string) => string | undefined;
  /** Repo-relative path of the config file (`eslint.config.js`, or the `-c` argument). */
  configPath: string;
  runInSandbox: SandboxRunner;
  /** `process.env` as the config sees it. */
  env?: Readonly<Record<string, string>>;
  /** Package names the fixture declares, for Node's "Cannot find package" wording. */
  packages?: readonly string[];
}

const GLOBAL = '__stratbench_eslint_config__';
const UNDEFINED = '__stratbench_undefined__';
/** Host ms a config evaluation may take (QuickJS parses the ~90 kB `globals` module in ~20 ms). */

/**
 * Runs in the sandbox after the config loaded: walks the default export and returns it as JSON, `undefined` kept
 * as a marker, or names the first value that cannot cross to the host (a function, a class instance, a cycle).
 */
const EXPORT_AS_DATA = `(() => {
  const ancestors = [];
  let problem;
  const kind = (value) => typeof value === "function" ? "a function" : typeof value === "symbol" ? "a symbol"
    : typeof value === "bigint" ? "a BigInt" : "a " + Object.prototype.toString.call(value).slice(8, -1) + " object";
  const member = (where, key) => /^[A-Za-z_$][\\w$]*$/.test(key) ? where + "." + key : where + "[" + JSON.stringify(key) + "]";
  const walk = (value, where) => {
    if (problem !== undefined) return null;
    if (value === undefined) return { ${UNDEFINED}: true };
    if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number") return value;
    const prototype = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
    if (typeof value !== "object" || (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null)) {
      problem = kind(value) + " at " + where;
      return null;
    }
    if (ancestors.includes(value)) {
      problem = "a circular reference at " + where;
      return null;
    }
    ancestors.push(value);
    let copy;
    if (Array.isArray(value)) {
      copy = [];
      for (let index = 0; index < value.length; index++) copy.push(walk(value[index], where + "[" + index + "]"));
    } else {
      copy = {};
      for (const key of Object.keys(value)) copy[key] = walk(value[key], member(where, key));
    }
    ancestors.pop();
    return copy;
  };
  const data = walk(globalThis.${GLOBAL}, "default");
  return JSON.stringify(problem === undefined ? { ok: true, data } : { ok: false, problem });
})()`;

interface CacheEntry {
  reads: Reads;
  evaluation: EslintConfigEvaluation;
}
const MAX_KEYS = 64;
const MAX_ENTRIES_PER_KEY = 8;
/** Per sandbox runner: evaluations by path/env/packages, each valid while every file it read still reads the same. */
const caches = new WeakMap<SandboxRunner, Map<string, CacheEntry[]>>();

/**
 * Evaluates `configPath` in the sandbox (fresh QuickJS runtime, the fixture's files, `@eslint/js`, `globals` and
 * `eslint/config` as synthetic modules) and returns its default export as host data; a promise export is awaited,
 * as ESLint does. Evaluations are cached: a config whose content and imports read the same is evaluated once.
 * Failures are values: a syntax error, a throw, an unknown import, a limit hit, or an export holding functions or
 * class instances (custom rules, plugins, processors cannot leave the sandbox) all return `ok: false` naming the file.
 */
export function evaluateEslintConfig(input: EvaluateEslintConfigInput): EslintConfigEvaluation {
  const key = JSON.stringify([input.configPath, input.env ?? {}, input.packages ?? []]);
  let cache = caches.get(input.runInSandbox);
  if (cache === undefined) caches.set(input.runInSandbox, (cache = new Map()));
  const hit = cache.get(key)?.find((entry) => entry.reads.every(([path, content]) => input.files(path) === content));
  if (hit !== undefined) return hit.evaluation;
  const evaluation = evaluate(input);
  const entries = cache.get(key) ?? [];
  cache.delete(key);
  cache.set(key, [{ reads: evaluation.reads, evaluation }, ...entries].slice(0, MAX_ENTRIES_PER_KEY));
  while (cache.size > MAX_KEYS) cache.delete(cache.keys().next().value as string);
  return evaluation;
}

function evaluate(input: EvaluateEslintConfigInput): EslintConfigEvaluation {
  const absolute = `/repo/${input.configPath}`;
  const ownReads = new Map<string, string | undefined>();
  const read = (path: string): string | undefined => {
    const content = input.files(path);
    ownReads.set(path, content);
    return content;
  };
  const source = read(input.configPath) ?? '';
  const commonJs = isCommonJs(input.configPath, source, read) ? commonJsEntry(input.configPath, source) : undefined;
  const options: SandboxRunOptions = {
    files: input.files,
    entry:
      commonJs !== undefined
        ? { code: commonJs.code, filename: input.configPath }
        : { code: `import config from ${JSON.stringify(`./${input.configPath}`)};\nglobalThis.${GLOBAL} = await config;\n`, filename: '[eslint]' },
    syntheticModules: eslintConfigModules(),
    after: EXPORT_AS_DATA,
    timeoutMs: DEFAULT_TIMEOUT_MS,
  };
  if (input.env !== undefined) options.env = input.env;
  if (input.packages !== undefined) options.packages = input.packages;
  const run = input.runInSandbox(options);
  const reads = [...ownReads, ...run.reads.filter(([path]) => !ownReads.has(path))];
  if (run.status !== 'ok') {
    const error = run.error ?? { name: 'Error', message: `${absolute} did not load (${run.status})`, stack: '' };
    return { ok: false, message: describeError(error, absolute, commonJs?.wrapper), reads };
  }
  if (run.value === undefined) return { ok: false, message: `Error: ${absolute}: the config's default export could not be read`, reads };
  const exported = JSON.parse(run.value) as { ok: true; data: unknown } | { ok: false; problem: string };
  if (!exported.ok) {
    return {
      ok: false,
      message:
        `Error: ${absolute}: the default export holds ${exported.problem}. ` +
        'In stratbench the config is evaluated in a sandbox and only data (arrays, plain objects, strings, numbers, booleans) ' +
        'reaches ESLint: custom rules, plugins, parsers and processors defined in code are not supported.',
      reads,
    };
  }
  return { ok: true, config: restoreUndefined(exported.data), reads };
}

/** Where the CommonJS wrapper sits in the entry module: its header precedes the config's first line. */
interface Wrapper {
  file: string;
  headerLength: number;
  lines: number;
}

/**
 * Node's wording for a config that failed to load: the error line, then `at … (/repo/FILE:LINE:COLUMN)` frames in
 * the repository (frames of the harness's entry and CommonJS wrapper dropped, wrapper columns mapped back).
 */
function describeError(error: SandboxError, absolute: string, wrapper: Wrapper | undefined): string {
  const notFound = error.name === 'Error' && /^Cannot find (package|module) .* imported from /.test(error.message);
  const head = notFound ? `Error [ERR_MODULE_NOT_FOUND]: ${error.message}` : `${error.name}: ${error.message}`;
  const frames: string[] = [];
  for (const line of error.stack.split('\n')) {
    const frame = /^(\s+at (?:.*? \()?)([^\s()[\]]+\.[cm]?js(?:on)?):(\d+):(\d+)(\)?)$/.exec(line);
    if (frame === null) continue;
    const position = repoPosition(frame[2]!, Number(frame[3]), Number(frame[4]), wrapper);
    if (position !== undefined) frames.push(`${frame[1]}/repo/${frame[2]}:${position}${frame[5]}`);
  }
  if (frames.length === 0) {
    const location = error.location;
    const position = location === undefined ? undefined : repoPosition(location.file, location.line, location.column, wrapper);
    if (location !== undefined && position !== undefined) frames.push(`    at /repo/${location.file}:${position}`);
    else if (!error.message.includes(absolute)) frames.push(`    at ${absolute}`);
  }
  return [head, ...frames].join('\n');
}

/** `LINE:COLUMN` in the repository file, undefined for a position inside the CommonJS wrapper. */
function repoPosition(file: string, line: number, column: number, wrapper: Wrapper | undefined): string | undefined {
  if (wrapper === undefined || file !== wrapper.file) return `${line}:${column}`;
  if (line > wrapper.lines || (line === 1 && column <= wrapper.headerLength)) return undefined;
  return `${line}:${line === 1 ? column - wrapper.headerLength : column}`;
}

/**
 * Whether Node would load the config as CommonJS: `.cjs`, or `.js` in a package without `"type": "module"` whose
 * source has no import/export statement (Node 20.19+ reparses such a file as an ES module).
 */
function isCommonJs(configPath: string, source: string, read: (path: string) => string | undefined): boolean {
  if (configPath.endsWith('.cjs')) return true;
  if (!configPath.endsWith('.js') || /^[ \t]*(import[\s{*"'(]|export[\s{*])/m.test(source)) return false;
  const parts = configPath.split('/').slice(0, -1);
  for (let depth = parts.length; depth >= 0; depth--) {
    const manifest = read([...parts.slice(0, depth), 'package.json'].join('/'));
    if (manifest === undefined) continue;
    try {
      return (JSON.parse(manifest) as { type?: unknown }).type !== 'module';
    } catch {
      return true;
    }
  }
  return true;
}

/**
 * An entry module running a CommonJS config: `require` of `@eslint/js`, `globals`, `eslint/config` and
 * `@eslint/config-helpers` works, any other `require` fails as Node's does for a missing module. The wrapper
 * header stays on the config's first line, so error lines are the file's own.
 */
function commonJsEntry(configPath: string, source: string): { code: string; wrapper: Wrapper } {
  const directory = configPath.includes('/') ? `/repo/${configPath.slice(0, configPath.lastIndexOf('/'))}` : '/repo';
  const header =
    'import __eslintJs from "@eslint/js"; import __globals from "globals"; import * as __configHelpers from "eslint/config"; ' +
    'const __provided = { "@eslint/js": __eslintJs, globals: __globals, "eslint/config": __configHelpers, "@eslint/config-helpers": __configHelpers }; ' +
    'const module = { exports: {} }; ' +
    `const require = (name) => { if (Object.prototype.hasOwnProperty.call(__provided, name)) return __provided[name]; ` +
    `const error = new Error("Cannot find module '" + name + "'\\nRequire stack:\\n- /repo/${configPath}" + ` +
    `(name.startsWith(".") ? " (the stratbench sandbox provides only @eslint/js, globals and eslint/config to a CommonJS config)" : "")); ` +
    'error.code = "MODULE_NOT_FOUND"; throw error; }; ' +
    '(function (exports, require, module, __filename, __dirname) {';
  const code = `${header}${source}\n}).call(module.exports, module.exports, require, module, ${JSON.stringify(`/repo/${configPath}`)}, ${JSON.stringify(directory)});\nglobalThis.${GLOBAL} = module.exports;\n`;
  return { code, wrapper: { file: configPath, headerLength: header.length, lines: source.split('\n').length } };
}

function restoreUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restoreUndefined);
  if (typeof value !== 'object' || value === null) return value;
  if (UNDEFINED in value) return undefined;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, restoreUndefined(item)]));
}
