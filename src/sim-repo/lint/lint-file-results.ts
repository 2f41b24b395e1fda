// Owns ESLint's per-file results kept across lint runs (ESLint's own `--cache`, in memory): one file is linted once per config, text and options.
import type { FlatConfigArray } from './load-eslint.js';
import type { LintResult } from './format-stylish.js';

/**
 * What, besides the config, the file and its text, changes `Linter#verifyAndFix`'s result in run-eslint.ts's lintFile:
 * `fix` (`--fix`/`--fix-dry-run`: `'all'`, or `'errors'` with `--quiet`, or `'off'`), `inlineConfig`
 * (`--no-inline-config` makes it false) and `errorsOnly` (`--quiet` without `--max-warnings`: the rule filter that
 * runs only rules set to "error").
 */
export interface LintFileMode {
  fix: 'off' | 'all' | 'errors';
  inlineConfig: boolean;
  errorsOnly: boolean;
}

/** Hits, misses, and what is held now (`bytes` is the estimate the bound is checked against). */
export interface LintFileResultsStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

interface Entry {
  text: string;
  result: LintResult;
  bytes: number;
}

/** Bytes counted per entry and per message besides their strings (object headers, the slot in the maps). */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * The lint results of single files, kept across runs and states: a state that differs from the last one by one
 * file lints only that file. An entry is found by
 * - the config: the identity of the `FlatConfigArray` (run-eslint.ts builds one per config evaluation and command-line
 *   options, and evaluateEslintConfig returns the same evaluation while the config file, every file it imported,
 *   package.json's dependencies and the environment read the same; a changed config is a new array, so a miss);
 * - the absolute file name, its exact text (compared with `===`), and the {@link LintFileMode}.
 *
 * Why that is the whole key (read from eslint 9.39.1's lib/linter/linter.js): `verifyAndFix(text, configArray,
 * options)` calls `verify` up to 11 times on its own output; `verify` takes the file's merged config from
 * `configArray.getConfig(filename)` (a function of the array and the name), parses the text afresh (a string input
 * resets `lastSourceCode`), and runs the config's rules with the filename, the Linter's cwd (`/repo`, fixed in
 * load-eslint.ts), `allowInlineConfig`, `ruleFilter` and the fix filter; `reportUnusedDisableDirectives` and
 * `reportUnusedInlineConfigs` come from the config (the command-line flags reach it as override configs, part of
 * the array). `filterCodeBlock` reads only the array. The core rules and espree read nothing else: no file system,
 * no clock, no state kept between files. The Linter's own leftovers (`lastSourceCode`, `lastConfigArray`,
 * circular-fix warnings) are never read by run-eslint.ts.
 *
 * Bounded: at most `maxEntries` results and `maxBytes` estimated bytes (two bytes per character of the text, the fixed
 * output and the messages as JSON, plus 200 per entry), least recently used dropped first. The results are shared between
 * runs: callers must not change them.
 */
export class LintFileResults {
  private readonly entries = new Map<string, Entry[]>();
  private readonly configIds = new WeakMap<FlatConfigArray, number>();
  private nextConfigId = 1;
  private held = 0;
  readonly stats: LintFileResultsStats = { hits: 0, misses: 0, entries: 0, bytes: 0 };

  /**
   * @param maxEntries results kept at most (0 keeps none: every file is linted every time).
   * @param maxBytes estimated bytes kept at most; default 32 MiB.
   * @param perFile texts kept per file, config and mode (the fixture's text and the agent's last few edits).
   */
  constructor(
    private readonly maxEntries = 5_000,
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly perFile = 4,
  ) {}

  /** The result of `filePath` (absolute) with `text` under `configs` and `mode`, or the one `lint` computes and keeps. */
  resultOf(configs: FlatConfigArray, mode: LintFileMode, filePath: string, text: string, lint: () => LintResult): LintResult {
    const key = this.keyOf(configs, mode, filePath);
    const entries = this.entries.get(key);
    const hit = entries?.find((entry) => entry.text === text);
    if (entries !== undefined && hit !== undefined) {
      this.stats.hits++;
      // Most recently used last, in the map and in its list.
      this.entries.delete(key);
      this.entries.set(key, entries);
      if (entries[0] !== hit) {
        entries.splice(entries.indexOf(hit), 1);
        entries.unshift(hit);
      }
      return hit.result;
    }
    this.stats.misses++;
    const result = lint();
    this.keep(key, { text, result, bytes: estimateBytes(text, result) });
    return result;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
    this.stats.entries = 0;
    this.stats.bytes = 0;
  }

  private keyOf(configs: FlatConfigArray, mode: LintFileMode, filePath: string): string {
    let id = this.configIds.get(configs);
    if (id === undefined) this.configIds.set(configs, (id = this.nextConfigId++));
    return `${id}\u0000${mode.fix}\u0000${mode.inlineConfig ? 1 : 0}\u0000${mode.errorsOnly ? 1 : 0}\u0000${filePath}`;
  }

  private keep(key: string, entry: Entry): void {
    if (this.maxEntries === 0 || entry.bytes > this.maxBytes) return;
    const entries = this.entries.get(key) ?? [];
    this.entries.delete(key);
    this.entries.set(key, entries);
    entries.unshift(entry);
    this.held++;
    this.stats.bytes += entry.bytes;
    if (entries.length > this.perFile) this.drop(entries.pop()!);
    while (this.held > this.maxEntries || this.stats.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry[]];
      this.drop(oldest.pop()!);
      if (oldest.length === 0) this.entries.delete(oldestKey);
    }
    this.stats.entries = this.held;
  }

  private drop(entry: Entry): void {
    this.held--;
    this.stats.bytes -= entry.bytes;
  }
}

function estimateBytes(text: string, result: LintResult): number {
  return ENTRY_OVERHEAD_BYTES + 2 * (text.length + result.filePath.length + (result.output?.length ?? 0) + JSON.stringify(result.messages).length);
}
