// Zod issues on a suite turned into located SuiteErrors with plain messages, plus the misplaced-key hints (HB20).
import type { z } from 'zod';
import { formatPath, type SuiteError, type SuitePath } from './suite-error.js';
import { errorAt, lineColAt, nodeAt, walkPairs, type YamlSource } from './yaml-source.js';

type Issue = z.core.$ZodIssue;

/** Task keys that, found anywhere else, probably lost their indentation (HB20: `vars.checks`). */
export const RESERVED_TASK_KEYS = ['checks', 'expect', 'reference', 'prompt'] as const;

/** Message for a task whose `checks` list is missing or empty (the schema's `.min(1)` says the same). */
export const ZERO_CHECKS_MESSAGE = 'a task needs at least one check: zero checks never scores as a pass';

/** The value at `path` inside plain data, or undefined when any part is missing. */
export function valueAt(data: unknown, path: SuitePath): unknown {
  let value = data;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

const quoteAll = (values: readonly unknown[]): string => values.map((value) => String(value)).join(', ');

/** Names the kind of thing a key holds, for "unknown <noun>" messages. */
function nounFor(key: PropertyKey | undefined): string {
  if (key === 'check') return 'check kind';
  if (key === 'tool') return 'tool';
  return typeof key === 'string' ? key : 'value';
}

/**
 * A one-line message for one zod issue, in the suite author's terms. `data` is the value that was parsed,
 * used to tell a missing key from a wrong one and to quote the offending value.
 */
export function describeIssue(issue: Issue, data: unknown): string {
  const last = issue.path[issue.path.length - 1];
  const value = valueAt(data, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const expected = issue.message.replace(/^Invalid input: /, '');
      if (value === undefined && typeof last === 'string') return `missing required key \`${last}\` (${expected.replace(/, received undefined$/, '')})`;
      return expected;
    }
    case 'invalid_union':
      if (issue.discriminator !== undefined && 'options' in issue && issue.options !== undefined) {
        const allowed = quoteAll(issue.options);
        if (value === undefined) return `missing \`${issue.discriminator}\`; expected one of: ${allowed}`;
        return `unknown ${nounFor(issue.discriminator)} ${JSON.stringify(value)}; expected one of: ${allowed}`;
      }
      return issue.message;
    case 'invalid_value':
      if (value === undefined && typeof last === 'string') return `missing required key \`${last}\` (one of: ${quoteAll(issue.values)})`;
      return `unknown ${nounFor(last)} ${JSON.stringify(value)}; expected one of: ${quoteAll(issue.values)}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `\`${key}\``).join(', ')}`;
    default:
      return issue.message;
  }
}

/** A key found under an unrecognized key that is named like a task key. */
interface MisplacedKey {
  key: string;
  taskIndex: number | undefined;
  relativePath: string;
  line: number;
  error: SuiteError;
}

/** The task index of a path under `tasks[n]`, and the path relative to that task. */
function splitTaskPath(path: readonly (string | number)[]): { taskIndex: number | undefined; rest: (string | number)[] } {
  if (path[0] === 'tasks' && typeof path[1] === 'number') return { taskIndex: path[1], rest: path.slice(2) };
  return { taskIndex: undefined, rest: [...path] };
}

/** Reserved task keys inside the subtree of the unrecognized key `key` of the mapping at `parent` (HB20). */
function misplacedKeysUnder(source: YamlSource, parent: SuitePath, key: string): MisplacedKey[] {
  const found: MisplacedKey[] = [];
  const base = [...parent, key].map((segment) => (typeof segment === 'number' ? segment : String(segment)));
  const candidates = [{ key, path: base }];
  for (const entry of walkPairs(nodeAt(source, base), base)) candidates.push({ key: entry.path[entry.path.length - 1] as string, path: entry.path });
  for (const candidate of candidates) {
    if (!(RESERVED_TASK_KEYS as readonly string[]).includes(candidate.key)) continue;
    const { taskIndex, rest } = splitTaskPath(candidate.path);
    const relativePath = formatPath(rest);
    const message = `\`${relativePath}\` looks like a misplaced \`${candidate.key}\` (did you mean to put it at the task level?)`;
    const error = errorAt(source, candidate.path, message);
    found.push({ key: candidate.key, taskIndex, relativePath, line: error.line, error });
  }
  return found;
}

/** The task index and key when `path` is a task's own key (`tasks[n].<key>`). */
function taskLevelKey(path: SuitePath): { taskIndex: number; key: string } | undefined {
  const { taskIndex, rest } = splitTaskPath(path.filter((segment): segment is string | number => typeof segment !== 'symbol'));
  if (taskIndex === undefined || rest.length !== 1 || typeof rest[0] !== 'string') return undefined;
  return { taskIndex, key: rest[0] };
}

const isEmpty = (value: unknown): boolean => value === undefined || value === null || (Array.isArray(value) && value.length === 0);

/**
 * Every zod issue of a suite parse as SuiteErrors located in `source`. Unrecognized keys give one error per
 * key, at the key; a reserved task key found under one gives a hint (HB20); a missing or empty `checks`
 * gives `ZERO_CHECKS_MESSAGE`, naming a misplaced `checks` of the same task when there is one.
 */
export function schemaIssueErrors(source: YamlSource, issues: readonly Issue[], data: unknown): SuiteError[] {
  const errors: SuiteError[] = [];
  const misplaced: MisplacedKey[] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    for (const key of issue.keys) {
      errors.push(errorAt(source, [...issue.path, key], `unknown key \`${key}\``));
      misplaced.push(...misplacedKeysUnder(source, issue.path, key));
    }
  }
  errors.push(...misplaced.map((entry) => entry.error));

  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const value = valueAt(data, issue.path);
    const taskKey = taskLevelKey(issue.path);
    let message = taskKey?.key === 'checks' && isEmpty(value) ? ZERO_CHECKS_MESSAGE : describeIssue(issue, data);
    if (taskKey !== undefined && value === undefined) {
      const hints = misplaced.filter((entry) => entry.taskIndex === taskKey.taskIndex && entry.key === taskKey.key);
      if (hints.length > 0) {
        message += `; found ${hints.map((hint) => `\`${hint.relativePath}\` at line ${hint.line}`).join(', ')}: is it mis-indented?`;
      }
    }
    errors.push(errorAt(source, issue.path, message));
  }
  return errors;
}

/** The error for a document that is empty or not a mapping. */
export function notAMappingError(source: YamlSource, data: unknown): SuiteError {
  const what = data === null || data === undefined ? 'the suite file is empty' : `the suite file holds a ${Array.isArray(data) ? 'list' : typeof data}`;
  return { file: source.file, ...lineColAt(source, 0), path: formatPath([]), message: `${what}; expected a mapping with \`name\`, \`fixtures\` and \`tasks\`` };
}
