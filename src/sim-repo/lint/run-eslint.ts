// Owns one `eslint …` run on the in-memory tree: config lookup and evaluation, file selection, linting, CLI output.
import { posix } from 'node:path';
import type { Linter } from 'eslint';
import { evaluateEslintConfig, type EslintConfigEvaluation, type SandboxRunner } from './evaluate-eslint-config.js';
import { findLintFiles, isEmptyPlan, planFileSearch, REPO_ROOT, type FindFilesError } from './find-lint-files.js';
import { formatStylish, type LintResult } from './format-stylish.js';
import { LintFileResults, type LintFileMode } from './lint-file-results.js';
import { loadEslint, type EslintModules, type FlatConfigArray, type LintMessage } from './load-eslint.js';
import { parseEslintArgs, type EslintRunOptions } from './parse-eslint-args.js';

/** The config files ESLint 9 looks for in the working directory, in its order (config-loader.js). */
const CONFIG_FILENAMES = ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts'];

export interface RunEslintInput {
  /** The working tree: repo-relative path → content, undefined when absent. */
  files: (path: string) => string | undefined;
  /** Every working-tree path, repo-relative and sorted. */
  paths: readonly string[];
  /** What follows `eslint` on the command line, e.g. `['src', 'tests']` or `['src/x.js', '--max-warnings', '0']`. */
  args: readonly string[];
  /** Evaluates the config file: `runInSandbox` from `src/sim-repo/sandbox/`. */
  runInSandbox: SandboxRunner;
  /** `process.env` as the config file sees it. */
  env?: Readonly<Record<string, string>>;
  /** Per-file results kept across runs; default: this thread's {@link lintFileResults}. */
  fileResults?: LintFileResults;
}

/** The per-file lint results this thread keeps for every run (see LintFileResults for the key and the bound). */
export const lintFileResults = new LintFileResults();

/**
 * The run as a terminal shows it. `output`: stdout then stderr, each console write without its final newline,
 * writes joined by `\n` (so the real CLI's bytes are `output + '\n'` when output is not empty). `reads`: every file
 * whose content the result depends on (the config and its imports, package.json, each linted file), with the
 * content seen; the result also depends on `paths` (which files exist). `fixed`: with `--fix`, repo-relative path →
 * fixed content for each file ESLint would rewrite (the caller writes them).
 */
export interface EslintRun {
  exit_code: number;
  output: string;
  reads: Array<[string, string | undefined]>;
  fixed?: Map<string, string>;
  /** Set by the code worker when a sandbox run of this lint reached its time limit (SandboxRunResult.timeLimitReached). */
  timeLimitReached?: true;
}

/**
 * Runs `eslint <args>` as ESLint 9.39's CLI does with an eslint.config.* file, on the in-memory tree: the config
 * is evaluated in the sandbox (see evaluateEslintConfig), files are selected as ESLint selects them (see
 * planFileSearch/findLintFiles), each is checked with ESLint's own `Linter#verifyAndFix` (or its result is taken
 * from `fileResults` when the same config, file, text and options were linted before), and the results are
 * printed in the stylish format. Exit codes as ESLint's: 0 clean (warnings within `--max-warnings`), 1 lint errors
 * or too many warnings, 2 a fatal error (bad option, missing or broken config, a pattern matching no file),
 * printed after ESLint's "Oops! Something went wrong! :(" header. Never throws for what the repository contains.
 */
export function runEslint(input: RunEslintInput): EslintRun {
  const eslint = loadEslint();
  const reads = new Map<string, string | undefined>();
  const read = (path: string): string | undefined => {
    const content = input.files(path);
    reads.set(path, content);
    return content;
  };
  const finish = (exit_code: number, output: string, fixed?: Map<string, string>): EslintRun => {
    const run: EslintRun = { exit_code, output, reads: [...reads.entries()] };
    if (fixed !== undefined) run.fixed = fixed;
    return run;
  };
  const fatal = (message: string): EslintRun => finish(2, `\nOops! Something went wrong! :(\n\nESLint: ${eslint.version}\n\n${message}`);

  const parsed = parseEslintArgs(input.args, eslint);
  if (parsed.kind === 'exit') return finish(parsed.exit_code, parsed.output);
  const options = parsed.options;
  if (options.patterns.length === 0 && options.passOnNoPatterns) return finish(0, '');
  const planned = planFileSearch({
    patterns: options.patterns.length === 0 ? ['.'] : options.patterns,
    paths: input.paths,
    errorOnUnmatchedPattern: options.errorOnUnmatchedPattern,
    eslint,
  });
  if (!planned.ok) return fatal(templateMessage(eslint, planned.error));
  if (isEmptyPlan(planned.plan)) return finish(0, '');

  let results: LintResult[];
  try {
    const configs = loadConfigs(input, options, eslint, read);
    if (!configs.ok) return fatal(configs.message);
    const found = findLintFiles(planned.plan, configs.configs, { errorOnUnmatchedPattern: options.errorOnUnmatchedPattern, eslint });
    if (!found.ok) return fatal(templateMessage(eslint, found.error));
    results = [];
    const fileResults = input.fileResults ?? lintFileResults;
    for (const filePath of found.files) {
      const result = lintFile(filePath, configs.configs, options, eslint, read, fileResults);
      if (result !== undefined) results.push(result);
    }
  } catch (error) {
    // ESLint's own validation (a malformed config object, invalid rule options) ends the run as its CLI does.
    return fatal(errorMessage(eslint, error));
  }

  let fixed: Map<string, string> | undefined;
  if (options.fix) {
    fixed = new Map();
    for (const result of results) if (result.output !== undefined) fixed.set(result.filePath.slice(REPO_ROOT.length + 1), result.output);
  }
  const printed = options.quiet ? errorResults(results) : results;
  const errorCount = results.reduce((sum, result) => sum + result.errorCount, 0);
  const warningCount = results.reduce((sum, result) => sum + result.warningCount, 0);
  const fatalErrorCount = results.reduce((sum, result) => sum + result.fatalErrorCount, 0);
  const tooManyWarnings = options.maxWarnings >= 0 && warningCount > options.maxWarnings;
  const writes: string[] = [];
  const stylish = formatStylish(printed);
  if (stylish !== '') writes.push(stylish);
  if (errorCount === 0 && tooManyWarnings) writes.push(`ESLint found too many warnings (maximum: ${options.maxWarnings}).`);
  const exitCode = options.exitOnFatalError && fatalErrorCount > 0 ? 2 : errorCount > 0 || tooManyWarnings ? 1 : 0;
  return finish(exitCode, writes.join('\n'), fixed);
}

type LoadedConfigs = { ok: true; configs: FlatConfigArray } | { ok: false; message: string };

/** Finds and evaluates the config file, then builds ESLint's config array (defaults, the file's configs, CLI configs). */
function loadConfigs(input: RunEslintInput, options: EslintRunOptions, eslint: EslintModules, read: (path: string) => string | undefined): LoadedConfigs {
  let evaluation: EslintConfigEvaluation | undefined;
  if (options.config !== undefined || options.configLookup) {
    let configPath: string | undefined;
    if (options.config !== undefined) {
      configPath = repoRelative(options.config);
      if (configPath === undefined || read(configPath) === undefined) {
        return { ok: false, message: `Error: ENOENT: no such file or directory, stat '${posix.resolve(REPO_ROOT, options.config)}'` };
      }
    } else {
      configPath = CONFIG_FILENAMES.find((name) => read(name) !== undefined);
      if (configPath === undefined) return { ok: false, message: templateMessage(eslint, { template: 'config-file-missing', data: {} }) };
    }
    if (/\.[mc]?ts$/.test(configPath)) {
      return {
        ok: false,
        message: `Error: ${REPO_ROOT}/${configPath}: TypeScript config files are not supported by the stratbench simulation of ESLint; use eslint.config.js`,
      };
    }
    evaluation = evaluateEslintConfig({
      files: input.files,
      configPath,
      runInSandbox: input.runInSandbox,
      env: input.env ?? {},
      packages: declaredPackages(read),
    });
    for (const [path] of evaluation.reads) read(path);
    if (!evaluation.ok) return { ok: false, message: evaluation.message };
  }
  return { ok: true, configs: configArrayFor(evaluation, options, eslint) };
}

const configArrays = new WeakMap<object, Map<string, FlatConfigArray>>();
const NO_CONFIG_FILE = {};

/**
 * ESLint's config-loader order: default configs, the config file's export (an array is spread, an empty array or
 * object adds nothing), `--ignore-pattern` globs, then the command-line override configs. Cached per evaluation
 * and options (a config array caches each file's merged config). @throws ConfigError on a malformed config.
 */
function configArrayFor(evaluation: EslintConfigEvaluation | undefined, options: EslintRunOptions, eslint: EslintModules): FlatConfigArray {
  const owner = evaluation ?? NO_CONFIG_FILE;
  const key = JSON.stringify([options.ignore, options.ignorePatterns, options.overrideConfig]);
  let byOptions = configArrays.get(owner);
  if (byOptions === undefined) configArrays.set(owner, (byOptions = new Map()));
  const cached = byOptions.get(key);
  if (cached !== undefined) return cached;
  const configs = eslint.createConfigArray({ basePath: REPO_ROOT, shouldIgnore: options.ignore });
  const exported = evaluation?.ok === true ? evaluation.config : undefined;
  if (Array.isArray(exported)) configs.push(...exported);
  else if (exported !== undefined && !(typeof exported === 'object' && exported !== null && Object.keys(exported).length === 0)) configs.push(exported);
  if (options.ignorePatterns.length > 0) configs.push({ basePath: REPO_ROOT, ignores: options.ignorePatterns });
  configs.push(...options.overrideConfig);
  configs.normalizeSync();
  byOptions.set(key, configs);
  return configs;
}

/**
 * ESLint's lintFile + verifyText for one absolute path; undefined for an unlinted file ESLint stays silent about.
 * The verified result comes from `fileResults` when this config, file, text and mode were linted before.
 */
function lintFile(
  filePath: string,
  configs: FlatConfigArray,
  options: EslintRunOptions,
  eslint: EslintModules,
  read: (path: string) => string | undefined,
  fileResults: LintFileResults,
): LintResult | undefined {
  const config = configs.getConfig(filePath);
  if (config === undefined) return options.warnIgnored ? ignoredResult(filePath, configs) : undefined;
  const text = read(filePath.slice(REPO_ROOT.length + 1)) ?? '';
  const mode: LintFileMode = {
    fix: options.fix || options.fixDryRun ? (options.quiet ? 'errors' : 'all') : 'off',
    inlineConfig: options.inlineConfig,
    errorsOnly: options.quiet && options.maxWarnings === -1,
  };
  return fileResults.resultOf(configs, mode, filePath, text, () => verifyFile(filePath, text, configs, mode, eslint));
}

/** `Linter#verifyAndFix` as ESLint's verifyText calls it, with everything it depends on besides the Linter named. */
function verifyFile(filePath: string, text: string, configs: FlatConfigArray, mode: LintFileMode, eslint: EslintModules): LintResult {
  const fix = mode.fix === 'off' ? false : mode.fix === 'errors' ? (message: LintMessage) => message.severity === 2 : true;
  const verified = eslint.linter.verifyAndFix(
    text,
    configs as unknown as Linter.Config[],
    {
      filename: filePath,
      fix: fix as boolean,
      allowInlineConfig: mode.inlineConfig,
      ruleFilter: mode.errorsOnly ? (rule: { severity: number }) => rule.severity === 2 : () => true,
      filterCodeBlock: (blockFilename: string) => configs.getConfig(blockFilename) !== undefined,
    } as Linter.FixOptions,
  );
  const result: LintResult = { filePath, messages: verified.messages as LintMessage[], ...countMessages(verified.messages as LintMessage[]) };
  if (verified.fixed) result.output = verified.output;
  return result;
}

/** ESLint's createIgnoreResult: one warning (no line) saying why an explicitly named file was not linted. */
function ignoredResult(filePath: string, configs: FlatConfigArray): LintResult {
  const status = configs.getConfigStatus(filePath);
  const inNodeModules = filePath
    .slice(REPO_ROOT.length + 1)
    .split('/')
    .slice(0, -1)
    .includes('node_modules');
  const message =
    status === 'external'
      ? 'File ignored because outside of base path.'
      : status === 'unconfigured'
        ? 'File ignored because no matching configuration was supplied.'
        : inNodeModules
          ? 'File ignored by default because it is located under the node_modules directory. Use ignore pattern "!**/node_modules/" to disable file ignore settings or use "--no-warn-ignored" to suppress this warning.'
          : 'File ignored because of a matching ignore pattern. Use "--no-ignore" to disable file ignore settings or use "--no-warn-ignored" to suppress this warning.';
  return {
    filePath,
    messages: [{ ruleId: null, fatal: false, severity: 1, message }],
    errorCount: 0,
    warningCount: 1,
    fatalErrorCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
  };
}

function countMessages(messages: readonly LintMessage[]): Omit<LintResult, 'filePath' | 'messages' | 'output'> {
  const counts = { errorCount: 0, fatalErrorCount: 0, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 };
  for (const message of messages) {
    if (message.fatal || message.severity === 2) {
      counts.errorCount++;
      if (message.fatal) counts.fatalErrorCount++;
      if (message.fix) counts.fixableErrorCount++;
    } else {
      counts.warningCount++;
      if (message.fix) counts.fixableWarningCount++;
    }
  }
  return counts;
}

/** ESLint.getErrorResults (`--quiet`): only error messages, files without any dropped. */
function errorResults(results: readonly LintResult[]): LintResult[] {
  return results.flatMap((result) => {
    const messages = result.messages.filter((message) => message.severity === 2);
    return messages.length === 0 ? [] : [{ ...result, messages, errorCount: messages.length, warningCount: 0, fixableWarningCount: 0 }];
  });
}

/** Package names package.json declares (any dependency field), for the sandbox's "Cannot find package" wording. */
function declaredPackages(read: (path: string) => string | undefined): string[] {
  const manifest = read('package.json');
  if (manifest === undefined) return [];
  try {
    const parsed = JSON.parse(manifest) as Record<string, unknown>;
    const fields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];
    return fields.flatMap((field) => (typeof parsed[field] === 'object' && parsed[field] !== null ? Object.keys(parsed[field]) : []));
  } catch {
    return [];
  }
}

function templateMessage(eslint: EslintModules, error: FindFilesError | { template: 'config-file-missing'; data: object }): string {
  return eslint.messageTemplate(error.template, error.data) ?? error.template;
}

/** bin/eslint.js getErrorMessage: a message template when the error names one, else its stack without frames. */
function errorMessage(eslint: EslintModules, error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { messageTemplate, messageData, stack, message } = error as { messageTemplate?: unknown; messageData?: unknown; stack?: unknown; message?: unknown };
  if (typeof messageTemplate === 'string') {
    const rendered = eslint.messageTemplate(messageTemplate, messageData);
    if (rendered !== undefined) return rendered;
  }
  if (typeof stack === 'string')
    return stack
      .split('\n')
      .filter((line) => !/^\s+at /.test(line))
      .join('\n');
  return String(message ?? error);
}

/** The repo-relative path of a command-line path, undefined when it leaves the repository or names its root. */
function repoRelative(path: string): string | undefined {
  const absolute = posix.resolve(REPO_ROOT, path);
  return absolute.startsWith(`${REPO_ROOT}/`) ? absolute.slice(REPO_ROOT.length + 1) : undefined;
}
