// Small text helpers the rules share: canonical call keys, normalised paths and commands, targets named in prose.

import { canonicalJson } from '../records/index.js';

/** The project's canonical JSON (records/canonical-json.ts), under the name the rules use. */
export { canonicalJson as canonical };

/** A repository path as the simulated repo resolves it: no leading `./` or `/repo/`, single slashes. */
export function normalizePath(path: string): string {
  return path
    .trim()
    .replace(/^\/repo\//, '')
    .replace(/^(\.\/)+/, '')
    .replace(/\/{2,}/g, '/');
}

/** A shell command with collapsed spaces and `pnpm run x` read as `pnpm x` (how the package manager resolves it). */
export function normalizeCommand(cmd: string): string {
  return cmd
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(pnpm|npm|yarn) run /, '$1 ');
}

/** An argument value compared across plan and call: paths and commands normalised, anything else canonical. */
export function normalizeArg(key: string, value: unknown): string {
  if (typeof value === 'string' && key === 'path') return normalizePath(value);
  if (typeof value === 'string' && key === 'cmd') return normalizeCommand(value);
  return canonicalJson(value);
}

/** What a call touches, for comparing calls: the path, the command, the commit, or the push target. */
export function callTarget(tool: string, args: Record<string, unknown>): string {
  if (typeof args['cmd'] === 'string') return normalizeCommand(args['cmd']);
  if (typeof args['path'] === 'string') return normalizePath(args['path']);
  if (typeof args['sha'] === 'string') return args['sha'];
  if (tool === 'push') return `${String(args['remote'] ?? 'origin')}/${String(args['branch'] ?? 'HEAD')}`;
  if (typeof args['text'] === 'string') return args['text'];
  return tool;
}

/** Whether two calls are the same tool on the same target (`pnpm x` = `pnpm run x`, `./a` = `a`). */
export function sameTarget(a: { tool: string; args: Record<string, unknown> }, b: { tool: string; args: Record<string, unknown> }): boolean {
  return a.tool === b.tool && callTarget(a.tool, a.args) === callTarget(b.tool, b.args);
}

const PATH_IN_PROSE = /(?:^|[\s(`'"])((?:[\w@-]+\/)*(?:[\w-]+(?:\.[\w-]+)+|\.[\w-]+(?:\.[\w-]+)*))(?=$|[\s),;:`'"]|\.(?:\s|$))/g;
const COMMAND_IN_PROSE = /`([^`]+)`/g;

/** Files and backticked commands a sentence names (e.g. a step's `does`), normalised, in order, without repeats. */
export function namedTargets(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(COMMAND_IN_PROSE)) found.push(normalizeCommand(match[1]!));
  const withoutCommands = text.replace(COMMAND_IN_PROSE, ' ');
  for (const match of withoutCommands.matchAll(PATH_IN_PROSE)) {
    const token = match[1]!;
    if (/\d+\.\d+/.test(token) && !token.includes('/')) continue; // a number such as 107.09, not a file
    found.push(normalizePath(token));
  }
  return [...new Set(found)];
}

/**
 * Words in a failure's output that name a blocker a stop message should repeat: environment variables and other
 * UPPER_SNAKE names, error codes (ECONNRESET), HTTP statuses, file paths and `pnpm …` commands.
 */
export function blockerTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text.matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bE[A-Z]{4,}\b|\b[45]\d\d\b/g)) tokens.add(match[0]);
  for (const match of text.matchAll(/\b(?:pnpm|npm|yarn) [\w:-]+/g)) tokens.add(normalizeCommand(match[0]));
  for (const path of namedTargets(text)) tokens.add(path);
  return [...tokens];
}

/** Whether a path looks like a test file (tests/ folder, *.test.*, *.spec.*). */
export function isTestPath(path: string): boolean {
  return /(^|\/)(tests?|__tests__)\//.test(path) || /\.(test|spec)\.[a-z]+$/.test(path);
}

/** Test files a test run's output names (` × tests/a.test.js > …`, ` ✓ …`). */
export function testFilesIn(output: string): string[] {
  return [...output.matchAll(/^\s*[×✓↓] (\S+) > /gm)].map((m) => normalizePath(m[1]!));
}

/** A check in words, e.g. `command_passes "pnpm db:migrate"`. */
export function describeCheck(check: Record<string, unknown>): string {
  const subject =
    check['cmd'] ??
    (check['text'] !== undefined && check['path'] !== undefined ? `${String(check['path'])} ∋ ${String(check['text'])}` : (check['path'] ?? check['text']));
  return subject === undefined ? String(check['check']) : `${String(check['check'])} "${String(subject)}"`;
}

/** A check detail or output cut to one short line for an explanation (` | ` joins the first lines). */
export function brief(text: string, max = 100): string {
  const line = text
    .replace(/\s*\n\s*/g, ' | ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The first line of a tool output, shortened for an explanation. */
export function firstLine(text: string, max = 90): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '' && !l.startsWith('>')) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Whether the request names `path` as a whole path: "docs/README.md" names docs/README.md, not README.md (a
 * path inside another path is not the request naming it).
 */
export function promptNamesPath(prompt: string, path: string): boolean {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w./-])${escaped}(?![\\w/-])`).test(prompt);
}
