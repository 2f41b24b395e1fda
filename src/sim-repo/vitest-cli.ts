// Owns what a `vitest` command line selects: file filters, -t/--testNamePattern, --exclude, and vitest's usage errors.

/** The selection a vitest command line makes, or the usage error vitest prints (exit 1). */
export type VitestArgs =
  | {
      ok: true;
      /** Positional filters: a test file runs when its path contains any of them (all files when empty). */
      filters: string[];
      /** `-t` regex source matched against "describe … test" full names, or null. */
      testNamePattern: string | null;
      /** `--exclude` globs, added to vitest's defaults (node_modules, .git). */
      exclude: string[];
      passWithNoTests: boolean;
    }
  | { ok: false; message: string };

/** Options that take a value (skipped: they do not change which tests run here). */
const VALUE_OPTIONS = new Set([
  '--reporter',
  '--config',
  '-c',
  '--project',
  '--environment',
  '--pool',
  '--root',
  '-r',
  '--dir',
  '--shard',
  '--outputFile',
  '--mode',
  '--testTimeout',
  '--hookTimeout',
  '--maxWorkers',
  '--minWorkers',
  '--retry',
  '--bail',
  '--sequence.seed',
  '--coverage.provider',
]);
/** Flags vitest accepts that do not change which tests run here. */
const FLAGS = new Set([
  '--run',
  '--watch=false',
  '--no-watch',
  '--silent',
  '--coverage',
  '--globals',
  '--no-color',
  '--color',
  '--ui',
  '--passWithNoTests',
  '--allowOnly',
  '--no-file-parallelism',
  '--no-isolate',
  '--isolate',
  '--update',
  '-u',
  '--changed',
  '--logHeapUsage',
  '--hideSkippedTests',
  '--clearScreen',
  '--no-clearScreen',
  '--typecheck',
  '--no-typecheck',
  '--standalone',
  '--expandSnapshotDiff',
  '--dangerouslyIgnoreUnhandledErrors',
]);

/**
 * Parses the words after `vitest` (a leading `run`/`watch`/`related` subcommand is dropped) as vitest 4's CLI
 * (cac) does: `-t/--testNamePattern X`, `--exclude X` (repeatable, also `--opt=value`), value options skipped,
 * words after `--` ignored, and an unknown option is `CACError: Unknown option \`--grep\``.
 */
export function parseVitestArgs(words: readonly string[]): VitestArgs {
  const args = words[0] === 'run' || words[0] === 'watch' || words[0] === 'dev' ? words.slice(1) : [...words];
  const filters: string[] = [];
  const exclude: string[] = [];
  let testNamePattern: string | null = null;
  let passWithNoTests = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') break;
    if (!arg.startsWith('-')) {
      filters.push(stripRoot(arg));
      continue;
    }
    const equals = arg.indexOf('=');
    const flag = arg.startsWith('--') && equals > 0 ? arg.slice(0, equals) : arg;
    const inline = arg.startsWith('--') && equals > 0 ? arg.slice(equals + 1) : undefined;
    const value = (): string | undefined => inline ?? args[++index];
    if (flag === '-t' || flag === '--testNamePattern') {
      const pattern = value();
      if (pattern === undefined) return { ok: false, message: `CACError: option \`${flag} <pattern>\` value is missing` };
      testNamePattern = pattern;
    } else if (flag === '--exclude') {
      const glob = value();
      if (glob === undefined) return { ok: false, message: 'CACError: option `--exclude <glob>` value is missing' };
      exclude.push(stripRoot(glob));
    } else if (flag === '--passWithNoTests') {
      passWithNoTests = true;
    } else if (VALUE_OPTIONS.has(flag)) {
      if (inline === undefined) index++;
    } else if (!FLAGS.has(arg) && !FLAGS.has(flag) && !flag.startsWith('--coverage.') && !flag.startsWith('--no-')) {
      return { ok: false, message: `CACError: Unknown option \`${flag}\`` };
    }
  }
  return { ok: true, filters, testNamePattern, exclude, passWithNoTests };
}

/** `./tests/x`, `/repo/tests/x` and `tests/x/` → `tests/x`. */
function stripRoot(path: string): string {
  return path.replace(/^(\/repo\/|\.\/)/, '').replace(/(.)\/+$/, '$1');
}
