// Owns reading an `eslint …` command line: ESLint's own option parser, then the options the simulation supports.
import type { EslintModules } from './load-eslint.js';

/** The options of one lint run (the subset of ESLint 9's CLI the simulation implements). */
export interface EslintRunOptions {
  /** Positional arguments: files, directories, globs (`.` when none). */
  patterns: string[];
  /** `-c FILE`: the config file (repo-relative as typed); undefined: look up eslint.config.*. */
  config?: string;
  /** `--no-config-lookup`: no config file, only ESLint's defaults and command-line options. */
  configLookup: boolean;
  fix: boolean;
  fixDryRun: boolean;
  quiet: boolean;
  /** `--max-warnings N`; -1 when not given. */
  maxWarnings: number;
  /** `--no-ignore` makes this false. */
  ignore: boolean;
  ignorePatterns: string[];
  /** `--no-inline-config` makes this false. */
  inlineConfig: boolean;
  errorOnUnmatchedPattern: boolean;
  warnIgnored: boolean;
  passOnNoPatterns: boolean;
  exitOnFatalError: boolean;
  /** Configs ESLint appends after the config file (`--rule`, `--global`, `--report-unused-disable-directives`, `--ext`, …). */
  overrideConfig: object[];
}

/** A parsed command line: run ESLint, or print and exit (help, version, an invalid option). */
export type ParsedEslintArgs = { kind: 'run'; options: EslintRunOptions } | { kind: 'exit'; exit_code: number; output: string };

const FLAT_CONFIG_NOTICE =
  "You're using eslint.config.js, some command line flags are no longer available. Please see https://eslint.org/docs/latest/use/command-line-interface for details.";

/** Parsed option keys the simulation honours (any other option given on the command line is refused). */
const SUPPORTED = new Set([
  '_',
  'config',
  'configLookup',
  'fix',
  'fixDryRun',
  'quiet',
  'maxWarnings',
  'format',
  'ignore',
  'ignorePattern',
  'inlineConfig',
  'errorOnUnmatchedPattern',
  'warnIgnored',
  'passOnNoPatterns',
  'exitOnFatalError',
  'rule',
  'global',
  'parserOptions',
  'reportUnusedDisableDirectives',
  'reportUnusedDisableDirectivesSeverity',
  'reportUnusedInlineConfigs',
  'ext',
  'cache',
  'cacheFile',
  'cacheLocation',
  'cacheStrategy',
  'concurrency',
  'stats',
  'color',
  'help',
  'version',
]);

let defaults: Record<string, unknown> | undefined;

/**
 * Parses what follows `eslint` on a command line with ESLint's own optionator parser (flat-config mode), so an
 * unknown option or a bad value fails with ESLint's message and exit code 2 (e.g. `Invalid option '--foo' - perhaps
 * you meant '--fix'?`; `--no-eslintrc` is not an option of ESLint 9 with eslint.config.js). `--help` and
 * `--version` print as ESLint does. Options ESLint has but the simulation does not implement (`--format json`,
 * `--stdin`, `--plugin`, `--parser`, `--print-config`, `--output-file`, `--fix-type`, suppressions, …) exit 2 with a
 * message naming the option. The cross-option checks ESLint makes before linting are kept (`--fix` with
 * `--fix-dry-run`, `--report-unused-disable-directives` with its `-severity` variant, an empty `--ext`).
 */
export function parseEslintArgs(args: readonly string[], eslint: Pick<EslintModules, 'cliOptions' | 'version'>): ParsedEslintArgs {
  let parsed: Record<string, unknown> & { _: string[] };
  try {
    parsed = eslint.cliOptions.parse(['node', 'eslint', ...args]);
    validateConcurrency(parsed['concurrency']);
  } catch (error) {
    return { kind: 'exit', exit_code: 2, output: `${(error as Error).message}\n${FLAT_CONFIG_NOTICE}` };
  }
  if (parsed['help'] === true) return { kind: 'exit', exit_code: 0, output: eslint.cliOptions.generateHelp() };
  if (parsed['version'] === true) return { kind: 'exit', exit_code: 0, output: `v${eslint.version}` };
  defaults ??= eslint.cliOptions.parse(['node', 'eslint']);
  for (const [key, value] of Object.entries(parsed)) {
    if (SUPPORTED.has(key) || JSON.stringify(value) === JSON.stringify(defaults[key])) continue;
    return unsupported(`--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`);
  }
  if (parsed['format'] !== 'stylish') return unsupported(`--format ${String(parsed['format'])} (only the stylish format is simulated)`);
  if (parsed['color'] === true) return unsupported('--color');
  if (parsed['fix'] === true && parsed['fixDryRun'] === true) {
    return { kind: 'exit', exit_code: 2, output: 'The --fix option and the --fix-dry-run option cannot be used together.' };
  }
  const reportUnused = parsed['reportUnusedDisableDirectives'] === true;
  const reportUnusedSeverity = parsed['reportUnusedDisableDirectivesSeverity'];
  if (reportUnused && reportUnusedSeverity !== undefined) {
    return {
      kind: 'exit',
      exit_code: 2,
      output: 'The --report-unused-disable-directives option and the --report-unused-disable-directives-severity option cannot be used together.',
    };
  }
  const ext = parsed['ext'] as string[] | undefined;
  if (ext !== undefined && ext.length === 0) return { kind: 'exit', exit_code: 2, output: 'The --ext option value cannot be empty.' };
  if (ext !== undefined && ext.includes('')) {
    return { kind: 'exit', exit_code: 2, output: `The --ext option arguments cannot be empty strings. Found an empty string at index ${ext.indexOf('')}.` };
  }
  const options: EslintRunOptions = {
    patterns: parsed._.map(String),
    configLookup: parsed['configLookup'] !== false,
    fix: parsed['fix'] === true,
    fixDryRun: parsed['fixDryRun'] === true,
    quiet: parsed['quiet'] === true,
    maxWarnings: typeof parsed['maxWarnings'] === 'number' ? parsed['maxWarnings'] : -1,
    ignore: parsed['ignore'] !== false,
    ignorePatterns: (parsed['ignorePattern'] as string[] | undefined) ?? [],
    inlineConfig: parsed['inlineConfig'] !== false,
    errorOnUnmatchedPattern: parsed['errorOnUnmatchedPattern'] !== false,
    warnIgnored: parsed['warnIgnored'] !== false,
    passOnNoPatterns: parsed['passOnNoPatterns'] === true,
    exitOnFatalError: parsed['exitOnFatalError'] === true,
    overrideConfig: overrideConfigOf(parsed, ext),
  };
  if (typeof parsed['config'] === 'string') options.config = parsed['config'];
  return { kind: 'run', options };
}

/** ESLint's translate-cli-options (flat): one config with languageOptions/rules/linterOptions, then `--ext` files. */
function overrideConfigOf(parsed: Record<string, unknown>, ext: string[] | undefined): object[] {
  const languageOptions: Record<string, unknown> = {};
  const globals = parsed['global'] as string[] | undefined;
  if (globals !== undefined) {
    languageOptions['globals'] = Object.fromEntries(globals.map((name) => (name.endsWith(':true') ? [name.slice(0, -5), 'writable'] : [name, 'readonly'])));
  }
  if (parsed['parserOptions'] !== undefined) languageOptions['parserOptions'] = parsed['parserOptions'];
  const config: Record<string, unknown> = {
    ...(Object.keys(languageOptions).length > 0 ? { languageOptions } : {}),
    rules: parsed['rule'] ?? {},
  };
  const linterOptions: Record<string, unknown> = {};
  const severity = parsed['reportUnusedDisableDirectivesSeverity'];
  if (parsed['reportUnusedDisableDirectives'] === true) linterOptions['reportUnusedDisableDirectives'] = 'error';
  else if (severity !== undefined) linterOptions['reportUnusedDisableDirectives'] = severityName(severity);
  if (parsed['reportUnusedInlineConfigs'] !== undefined) linterOptions['reportUnusedInlineConfigs'] = severityName(parsed['reportUnusedInlineConfigs']);
  if (Object.keys(linterOptions).length > 0) config['linterOptions'] = linterOptions;
  const configs: object[] = [config];
  if (ext !== undefined) configs.push({ files: ext.map((extension) => `**/*${extension.startsWith('.') ? '' : '.'}${extension}`) });
  return configs;
}

function severityName(value: unknown): unknown {
  return value === 0 || value === '0' ? 'off' : value === 1 || value === '1' ? 'warn' : value === 2 || value === '2' ? 'error' : value;
}

function validateConcurrency(concurrency: unknown): void {
  if (concurrency === undefined || concurrency === 'auto' || concurrency === 'off') return;
  const value = Number(concurrency);
  if (!Number.isInteger(value) || value < 1) throw new Error(`Option concurrency: '${String(concurrency)}' is not a positive integer, 'auto' or 'off'.`);
}

function unsupported(option: string): ParsedEslintArgs {
  return { kind: 'exit', exit_code: 2, output: `eslint: ${option} is not supported by the stratbench simulation of ESLint` };
}
