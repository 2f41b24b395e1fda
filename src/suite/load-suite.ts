// Loading a suite file: YAML → zod → semantic checks, every error located as `file:line:col  path  message`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument } from 'yaml';
import { RepoSpec } from '../sim-repo/spec.js';
import { checkPathErrors } from './check-paths.js';
import { jsonSuiteData, lazyYamlSource } from './json-suite.js';
import { applyRepoOverrides, resolveTaskRepo } from './resolve-task-repo.js';
import { Suite, suiteReferenceIssues, Task } from './schema.js';
import { notAMappingError, schemaIssueErrors } from './schema-issues.js';
import { taskSemanticErrors } from './semantic-checks.js';
import { formatSuiteError, sortSuiteErrors, type SuiteError } from './suite-error.js';
import { expandTemplates, locateTemplateErrors } from './templates/expand-templates.js';
import { errorAt, yamlSyntaxErrors, type YamlSource } from './yaml-source.js';

export { formatSuiteError, type SuiteError } from './suite-error.js';
export { resolveTaskRepo } from './resolve-task-repo.js';

/** A task with its repository resolved (fixture + overrides + the task's faults and memory). */
export type LoadedTask = Task & { repoSpec: RepoSpec };

/**
 * The outcome of loading a suite. `hash` is the sha256 hex of the file text (recorded in run.json);
 * `errors` are all the errors found, sorted by line then column.
 */
/** A loaded suite, with `warnings` that do not stop it (see wordCheckWarnings), or every error found. */
export type LoadResult = { ok: true; suite: Suite; tasks: LoadedTask[]; hash: string; warnings: SuiteError[] } | { ok: false; errors: SuiteError[] };

/**
 * A warning per `answer_contains` / `message_mentions` check (issue 26 §2): it judges a claim by its words, where
 * `answer_value` (the value the answer gives, typed, echoes and negation aside) or `report_faithful` (results checked
 * against the trace) judges it without accepting a wrong answer that holds the right token. Located at the `check:` key.
 */
export function wordCheckWarnings(source: YamlSource, tasks: readonly Task[]): SuiteError[] {
  return tasks.flatMap((task, taskIndex) =>
    task.checks.flatMap((check, checkIndex) => {
      if (check.check !== 'answer_contains' && check.check !== 'message_mentions') return [];
      const grounded = check.check === 'answer_contains' ? 'answer_value (the value the answer gives, compared as a value)' : 'answer_value with on: message';
      return [
        errorAt(
          source,
          ['tasks', taskIndex, 'checks', checkIndex, 'check'],
          `${check.check} judges a claim by a substring, which a wrong answer holding the right token passes: ${grounded}, or report_faithful for a result, judges it against the trace (docs/authoring.md, "Words judged as claims")`,
        ),
      ];
    }),
  );
}

/** sha256 hex of a suite file's text (utf-8). */
export function suiteHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The tasks that pass the task schema on their own, so their errors are reported even when a sibling is broken. */
function validTasks(data: Record<string, unknown>, parsed: ReturnType<typeof Suite.safeParse>): { task: Task; index: number }[] {
  if (parsed.success) return parsed.data.tasks.map((task, index) => ({ task, index }));
  if (!Array.isArray(data.tasks)) return [];
  return data.tasks.flatMap((candidate: unknown, index) => {
    const task = Task.safeParse(candidate);
    return task.success ? [{ task: task.data, index }] : [];
  });
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

const field = (value: unknown, key: string): unknown => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined);
const stringOrUndefined = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Cross-task errors (duplicate ids, unknown fixtures and groups) of a suite that failed the schema elsewhere,
 * read from the raw tasks: zod skips the suite refinement then, and every error should be reported at once.
 */
function referenceErrors(source: YamlSource, data: Record<string, unknown>): SuiteError[] {
  const fixtures = data.fixtures;
  const fixtureNames = fixtures !== null && typeof fixtures === 'object' && !Array.isArray(fixtures) ? Object.keys(fixtures) : undefined;
  const groups = isStringArray(data.groups) ? data.groups : undefined;
  const tasks: unknown[] = Array.isArray(data.tasks) ? data.tasks : [];
  const references = tasks.map((task, index) => ({
    index,
    id: stringOrUndefined(field(task, 'id')),
    group: stringOrUndefined(field(task, 'group')),
    fixture: stringOrUndefined(field(field(task, 'repo'), 'fixture')),
  }));
  return suiteReferenceIssues(fixtureNames, groups, references).map((issue) => errorAt(source, issue.path, issue.message));
}

/**
 * The resolved repository of a schema-valid task, for the path checks: from the parsed suite when it is valid,
 * else from the task's fixture when that fixture passes the schema on its own (undefined otherwise).
 */
function taskRepoSpec(data: Record<string, unknown>, parsed: ReturnType<typeof Suite.safeParse>, task: Task): RepoSpec | undefined {
  if (parsed.success) return resolveTaskRepo(parsed.data, task);
  const fixtures = data.fixtures;
  if (fixtures === null || typeof fixtures !== 'object' || !Object.hasOwn(fixtures, task.repo.fixture)) return undefined;
  const fixture = RepoSpec.safeParse((fixtures as Record<string, unknown>)[task.repo.fixture]);
  return fixture.success ? applyRepoOverrides(fixture.data, task.repo) : undefined;
}

/** Drops repeated errors (the same check may run in the schema and in the loader). */
function unique(errors: SuiteError[]): SuiteError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = formatSuiteError(error);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Parses and validates a suite from its text. Never throws on bad input: YAML errors (syntax, indentation,
 * duplicate keys — `uniqueKeys` stays on, HB18) stop there; otherwise every zod issue and every semantic
 * error (tools and their args, `after`, counterexample names; see `taskSemanticErrors`; paths checks name that
 * neither the fixture nor the reference provides, see `checkPathErrors`) is reported. `templates` are expanded
 * into tasks first (see `expandTemplates`); an error in a variant points at the template's line. A suite written as
 * JSON (a subset of YAML) without templates or repeated keys is read with JSON.parse (see `jsonSuiteData`): same
 * checks, same result, and any error is reported by the YAML path with its line.
 * `file` only labels errors.
 */
export function parseSuite(text: string, file: string): LoadResult {
  const json = jsonSuiteData(text);
  if (json !== undefined) {
    const fast = checkSuiteData(lazyYamlSource(file, text), json, new Map());
    // An error found on the fast path is reported by the YAML path, which is what locates it (same checks, same data).
    if (fast.ok) return fast;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const source: YamlSource = { file, text, doc, lineCounter };
  if (doc.errors.length > 0) return { ok: false, errors: sortSuiteErrors(yamlSyntaxErrors(source)) };
  const expansion = expandTemplates(source);
  if (!expansion.ok) return { ok: false, errors: sortSuiteErrors(expansion.errors) };

  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    return { ok: false, errors: [{ file, line: 1, col: 1, path: '(root)', message: `cannot read the YAML: ${(error as Error).message}` }] };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, errors: [notAMappingError(source, data)] };
  return checkSuiteData(source, data as Record<string, unknown>, expansion.origins);
}

/** Schema, references, semantic and path checks of a suite's data (templates already expanded). */
function checkSuiteData(source: YamlSource, record: Record<string, unknown>, origins: Parameters<typeof locateTemplateErrors>[1]): LoadResult {
  const parsed = Suite.safeParse(record);
  const tasks = validTasks(record, parsed);
  const errors = parsed.success ? [] : [...schemaIssueErrors(source, parsed.error.issues, record), ...referenceErrors(source, record)];
  const repoSpecs = new Map<number, RepoSpec>();
  for (const { task, index } of tasks) {
    errors.push(...taskSemanticErrors(source, task, index));
    const repoSpec = taskRepoSpec(record, parsed, task);
    if (repoSpec === undefined) continue;
    repoSpecs.set(index, repoSpec);
    errors.push(...checkPathErrors(source, task, index, repoSpec));
  }
  if (!parsed.success || errors.length > 0) {
    return { ok: false, errors: sortSuiteErrors(locateTemplateErrors(unique(errors), origins)) };
  }

  const suite = parsed.data;
  const loaded = suite.tasks.map((task, index) => ({ ...withSynonyms(task, suite.synonyms), repoSpec: repoSpecs.get(index) ?? resolveTaskRepo(suite, task) }));
  const warnings = sortSuiteErrors(locateTemplateErrors(wordCheckWarnings(source, suite.tasks), origins));
  return { ok: true, suite, tasks: loaded, hash: suiteHash(source.text), warnings };
}

/**
 * The task with the suite's `synonyms` added to the `forms` of each text/path answer_value check whose expected value
 * (or one of its forms) is a synonym key, compared case-insensitively; the recorded check shows every form it accepted.
 */
function withSynonyms(task: Task, synonyms: Readonly<Record<string, readonly string[]>> | undefined): Task {
  if (synonyms === undefined) return task;
  const byKey = new Map(Object.entries(synonyms).map(([key, forms]) => [key.toLowerCase(), forms]));
  const checks = task.checks.map((check) => {
    if (check.check !== 'answer_value' || (check.type !== 'text' && check.type !== 'path') || Array.isArray(check.expect)) return check;
    const known = [String(check.expect), ...(check.forms ?? [])];
    const added = known.flatMap((form) => byKey.get(form.toLowerCase()) ?? []).filter((form) => !known.some((k) => k.toLowerCase() === form.toLowerCase()));
    return added.length === 0 ? check : { ...check, forms: [...new Set([...(check.forms ?? []), ...added])] };
  });
  return { ...task, checks };
}

/**
 * Reads and parses a suite file (utf-8); see `parseSuite`. An unreadable file gives one error naming the
 * file and the OS reason (e.g. ENOENT). Never throws for a missing or invalid file.
 */
export async function loadSuiteFile(file: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, errors: [{ file, line: 1, col: 1, path: '(file)', message: `cannot read suite file ${file}: ${reason}` }] };
  }
  return parseSuite(text, file);
}
