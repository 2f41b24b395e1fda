// The editor schema (tasks/suite.schema.json) rejects every structural fault `stratbench validate` rejects: Ajv (draft
// 2020-12) and the loader run over the same bad suites, and every suite the project ships passes Ajv.
//
// Structural faults: the loader (src/suite/*) rejects them and so does the schema. Each row is a case in STRUCTURAL.
//
// | where            | fault                                                          | loader rule (src/suite, src/sim-repo/spec.ts) | schema rule                              |
// | ---------------- | -------------------------------------------------------------- | --------------------------------------------- | ---------------------------------------- |
// | suite            | not a mapping; unknown key; no name; version ≠ 1; no fixtures  | Suite (strictObject)                          | type, additionalProperties, required     |
// | suite            | no tasks and no templates (tasks: [] alone)                    | Suite.tasks .min(1) after expandTemplates     | anyOf tasks ≥ 1 / templates ≥ 1          |
// | suite            | a group not kebab-case; synonyms with no forms; a bad rejected | Group, synonyms, GeneratorReject              | pattern, minItems, required              |
// | fixture, repo    | a file path "" (files, hidden_files, a task's override)        | filesInsideRepo                               | propertyNames minLength                  |
// | fixture          | unknown key; file content not text; sha not hex; unknown       | RepoSpec, Commit, ScriptSpec, Predicate,      | additionalProperties, type, pattern,     |
// |                  | script kind; command without cmd; unknown/empty predicate;     | TestSpec, FaultSpec                           | oneOf by kind, minItems, enum, minimum   |
// |                  | test needs; fault times 0; negative duration; push not boolean |                                               |                                          |
// | task             | id / family not kebab-case; empty prompt; unknown key; expect  | Task, RepoOverrides, MemoryNote               | pattern, minLength, additionalProperties,|
// |                  | not finish/stop; split; no checks; repo without fixture; bad   |                                               | enum, minItems, required                 |
// |                  | override (unknown key, permissions / migrations half given)    |                                               |                                          |
// | check            | unknown kind; unknown key; missing field                       | Check (discriminated union)                   | oneOf by const, additionalProperties     |
// | file_contains    | both or neither of text and pattern; flags without pattern;    | FileContains superRefine; PATTERN_FLAGS       | oneOf required; dependentRequired;       |
// |                  | flags beyond i m s u                                           |                                               | pattern                                  |
// | answer_contains, | none or two of text / any_of / pattern (`text` with `any_of`); | wordCheckIssues; any_of .min(1)               | oneOf required; dependentRequired;       |
// | message_mentions | flags without pattern; any_of empty                            |                                               | minItems                                 |
// | tests_pass …     | a test id not "file > name"; judged `on`; report_faithful      | TestsPass, Judged, ReportFaithful             | pattern, enum                            |
// |                  | result not pass/fail                                           |                                               |                                          |
// | answer_value     | path without on: file, on: file without path; forms for a      | AnswerValue superRefine                       | if/then/else; dependentSchemas;          |
// |                  | number; a number's expect that is not a number; expect []      |                                               | if/then FINITE_NUMBER_TEXT; minItems     |
// | any number       | YAML .inf, -.inf, .nan (answer_value expect of any type, a     | z.number() (finite only)                      | type number (Ajv: finite), bounds        |
// |                  | generator bound)                                               |                                               | ±Number.MAX_VALUE (FINITE_NUMBER)        |
// | trajectory       | both or neither of finish and stop (reference, naive,          | exactlyOneEnding                              | oneOf required                           |
// |                  | counterexample); counterexample without why; unknown step key  | Counterexample, TrajectoryStep                | required, additionalProperties           |
// | step             | unknown tool; args the tool refuses (wrong type, missing,      | taskSemanticErrors: the tool's zod args       | enum; if tool then args $ref the tool's  |
// |                  | unknown argument, out of range), args absent for a tool that   |                                               | own schema (argsSchema, src/tools),      |
// |                  | needs some                                                     |                                               | required args                            |
// | step             | `after` naming itself, a later step, or a negative index       | trajectoryErrors; after .nonnegative()        | prefixItems exclusiveMaximum (first      |
// |                  |                                                                |                                               | AFTER_CHECKED_STEPS steps); minimum      |
// | plan done_when   | a check that does not read the state; a state check's rules    | StateCheck                                    | oneOf of the four state checks           |
// | template         | task with id or family; variants 0 or over the cap; unknown    | Template superRefine; Parameter;              | propertyNames not enum; maximum;         |
// |                  | key; family not kebab-case; parameter name not an identifier;  | MAX_VARIANTS_PER_TEMPLATE                     | additionalProperties; pattern;           |
// |                  | no values; unknown generator; sha length; day format; missing  |                                               | propertyNames; minItems; anyOf of        |
// |                  | bound; places over 6                                           |                                               | generators                               |
//
// Not structural (SEMANTIC below, each with its reason; the loader or validate rejects them and the schema accepts them):
// references between parts of the file (ids, fixtures, groups, names), paths resolved against a fixture, what regular
// expressions and text normalisation decide, comparisons of two values, template expansion, and the replays.
// Before the schema sees anything, the YAML parser refuses a syntax error or a repeated key (uniqueKeys, HB18).
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCommand } from '../src/runner/commands/validate.js';
import { UsageError } from '../src/runner/usage-error.js';
import { formatSuiteError, parseSuite } from '../src/suite/load-suite.js';
import { AFTER_CHECKED_STEPS, FINITE_NUMBER, FINITE_NUMBER_TEXT, suiteJsonSchema } from '../src/suite/suite-json-schema.js';
import { MAX_VARIANTS_PER_TEMPLATE } from '../src/suite/templates/template-schema.js';
import { TINY_SUITE } from './support/tiny-suite.js';
import fc from 'fast-check';

// strictRequired and strictTuples are off: `required` inside oneOf/if names properties defined beside it, and the
// `after` bounds are an open prefix (prefixItems without maxItems) by design. The other strict checks stay on.
const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTuples: false, allowUnionTypes: true, allErrors: true });
const committedSchema = JSON.parse(await readFile(new URL('../tasks/suite.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validateSchema = ajv.compile(committedSchema);
// The same schema under a validator that checks `type: number` with typeof alone (Ajv's strictNumbers off), as some
// editors do: a YAML `.inf` or `.nan` is then refused only by the schema's own bounds (FINITE_NUMBER).
const validateTypeofNumbers = new Ajv2020({ strict: true, strictRequired: false, strictTuples: false, strictNumbers: false, allowUnionTypes: true }).compile(
  committedSchema,
);

/** Ajv's verdict on a suite's text, read as an editor reads it (the yaml package, the core schema). */
function ajvErrors(text: string): ErrorObject[] {
  return validateSchema(parse(text)) ? [] : [...(validateSchema.errors ?? [])];
}

/** A loader path (`tasks[0].checks[0].any_of`, `files["a b"]`) as Ajv's JSON pointer (`/tasks/0/checks/0/any_of`); `(root)` is ''. */
function pointer(path: string): string {
  if (path === '(root)') return '';
  const segments = [...path.matchAll(/\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[\]]+)/g)].map(
    ([, index, quoted, key]) => index ?? (quoted === undefined ? (key as string) : (JSON.parse(quoted) as string)),
  );
  return segments.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A loader error (`path  message`) at `at` whose message holds `message`. */
const loaderLine = (at: string, message: string): unknown => expect.stringMatching(new RegExp(`^${escaped(at)}  .*${escaped(message)}`, 's'));

const isAtOrAbove = (ancestor: string, path: string): boolean => path === ancestor || path.startsWith(`${ancestor}/`);

/** TINY_SUITE (or `base`) with `search` replaced; throws when it is not there, so a case cannot silently test the base. */
function edited(search: string, replacement: string, base = TINY_SUITE): string {
  if (!base.includes(search)) throw new Error(`"${search}" is not in the suite text`);
  return base.replace(search, replacement);
}

const CHECK = `      - check: answer_contains
        text: hello
`;
const withCheck = (check: string): string => edited(CHECK, check);
const STEPS = `        - tool: read
          args: { path: a.txt }
`;
const withSteps = (steps: string): string => edited(STEPS, steps);
const FIXTURE = `  base:
    files:
      a.txt: hello
`;
const withFixture = (extra: string): string => edited(FIXTURE, `${FIXTURE}${extra}`);
const REPO = `    repo:
      fixture: base
`;
const withRepo = (extra: string): string => edited(REPO, `${REPO}${extra}`);
const withTask = (extra: string): string => edited('    expect: finish\n', `    expect: finish\n${extra}`);

/** A suite whose only task comes from a template (`tasks: []`, which templates make valid). */
const TEMPLATED = `${TINY_SUITE.slice(0, TINY_SUITE.indexOf('tasks:'))}tasks: []
templates:
  - family: say-word
    parameters:
      word: { values: [hello] }
    task:
      group: baseline
      prompt: Say \${word}
      repo: { fixture: base }
      expect: finish
      checks:
        - check: answer_contains
          text: \${word}
      reference:
        steps:
          - { tool: read, args: { path: a.txt } }
        finish: \${word}
`;
const TEMPLATE_PARAMETERS = '    parameters:\n      word: { values: [hello] }\n';
const withTemplate = (search: string, replacement: string): string => edited(search, replacement, TEMPLATED);
const withParameter = (parameter: string): string => withTemplate(TEMPLATE_PARAMETERS, `${TEMPLATE_PARAMETERS}${parameter}`);

interface Case {
  fault: string;
  text: string;
  /** The loader error's path, as `validate` prints it. */
  at: string;
  /** Part of the loader's message. */
  message: string;
}

const STRUCTURAL: Case[] = [
  // suite
  { fault: 'the file is a list, not a mapping', text: '- name: tiny\n', at: '(root)', message: 'mapping' },
  { fault: 'an unknown top-level key', text: `owner: me\n${TINY_SUITE}`, at: 'owner', message: 'unknown key `owner`' },
  { fault: 'no name', text: edited('name: tiny\n', ''), at: 'name', message: 'missing required key `name`' },
  { fault: 'an empty name', text: edited('name: tiny\n', 'name: ""\n'), at: 'name', message: '' },
  { fault: 'version 2', text: `version: 2\n${TINY_SUITE}`, at: 'version', message: '' },
  { fault: 'no fixtures', text: edited(FIXTURE, '').replace('fixtures:\n', ''), at: 'fixtures', message: 'missing required key `fixtures`' },
  { fault: 'no tasks and no templates', text: TINY_SUITE.slice(0, TINY_SUITE.indexOf('tasks:')), at: 'tasks', message: 'missing required key `tasks`' },
  { fault: 'tasks: [] and no templates', text: `${TINY_SUITE.slice(0, TINY_SUITE.indexOf('tasks:'))}tasks: []\n`, at: 'tasks', message: '' },
  { fault: 'a group in `groups` that is not kebab-case', text: `groups: [baseline, Other_Group]\n${TINY_SUITE}`, at: 'groups[1]', message: 'kebab-case' },
  { fault: 'a synonym with no forms', text: `synonyms: { write access: [] }\n${TINY_SUITE}`, at: 'synonyms["write access"]', message: '' },
  {
    fault: 'a rejected family without a reason',
    text: `rejected: [{ family: f, fixture: base, group: baseline }]\n${TINY_SUITE}`,
    at: 'rejected[0].reason',
    message: 'missing required key `reason`',
  },
  // fixture
  { fault: 'an unknown fixture key', text: withFixture('    branchez: main\n'), at: 'fixtures.base.branchez', message: 'unknown key `branchez`' },
  {
    fault: 'a fixture file whose path is the empty string',
    text: edited('      a.txt: hello\n', '      a.txt: hello\n      "": x\n'),
    at: 'fixtures.base.files[""]',
    message: 'file path "" is not a file inside the repository',
  },
  {
    fault: 'a hidden file whose path is the empty string',
    text: withFixture('    hidden_files: { "": x }\n'),
    at: 'fixtures.base.hidden_files[""]',
    message: 'file path "" is not a file inside the repository',
  },
  {
    fault: "a task override's file whose path is the empty string",
    text: withRepo('      files: { "": x }\n'),
    at: 'tasks[0].repo.files[""]',
    message: 'file path "" is not a file inside the repository',
  },
  {
    fault: 'file content that is not text',
    text: withFixture('    hidden_files: { t.test.js: 3 }\n'),
    at: 'fixtures.base.hidden_files["t.test.js"]',
    message: '',
  },
  {
    fault: 'a commit sha that is not hex',
    text: withFixture('    commits: [{ sha: XYZ1234, author: a, date: 2026-01-01, message: m }]\n'),
    at: 'fixtures.base.commits[0].sha',
    message: 'sha must be 7-40 lowercase hex digits',
  },
  {
    fault: 'an unknown script kind',
    text: withFixture('    scripts: { test: { kind: jest } }\n'),
    at: 'fixtures.base.scripts.test.kind',
    message: 'unknown kind',
  },
  {
    fault: 'a command script without cmd',
    text: withFixture('    scripts: { smoke: { kind: command } }\n'),
    at: 'fixtures.base.scripts.smoke.cmd',
    message: '',
  },
  {
    fault: 'a predicate `all` of nothing',
    text: withFixture('    scripts: { smoke: { kind: command, cmd: smoke, passes_when: { kind: all, of: [] } } }\n'),
    at: 'fixtures.base.scripts.smoke.passes_when.of',
    message: '',
  },
  {
    fault: 'an unknown predicate kind',
    text: withFixture('    scripts: { smoke: { kind: command, cmd: smoke, passes_when: { kind: file_missing, path: a.txt } } }\n'),
    at: 'fixtures.base.scripts.smoke.passes_when.kind',
    message: 'unknown kind',
  },
  {
    fault: 'a test that needs what the sandbox does not list',
    text: withFixture('    tests: [{ name: t, file: t.test.js, needs: gpu, passes_when: { kind: installed }, failure: f }]\n'),
    at: 'fixtures.base.tests[0].needs',
    message: '',
  },
  {
    fault: 'a fault that fires 0 times',
    text: withFixture('    faults: [{ command: pnpm install, times: 0, output: ECONNRESET }]\n'),
    at: 'fixtures.base.faults[0].times',
    message: '',
  },
  {
    fault: 'a negative duration',
    text: withFixture('    scripts: { test: { kind: test, duration_ms: -1 } }\n'),
    at: 'fixtures.base.scripts.test.duration_ms',
    message: '',
  },
  {
    fault: 'push permission that is not a boolean',
    text: withFixture('    permissions: { push: maybe }\n'),
    at: 'fixtures.base.permissions.push',
    message: '',
  },
  // task
  { fault: 'a task id that is not kebab-case', text: edited('- id: one', '- id: One'), at: 'tasks[0].id', message: 'task id is kebab-case' },
  { fault: 'a family that is not kebab-case', text: withTask('    family: Greetings\n'), at: 'tasks[0].family', message: 'family is kebab-case' },
  { fault: 'an empty prompt', text: edited('prompt: Say hello', 'prompt: ""'), at: 'tasks[0].prompt', message: '' },
  { fault: 'an unknown task key', text: withTask('    notes: remember\n'), at: 'tasks[0].notes', message: 'unknown key `notes`' },
  { fault: 'expect that is neither finish nor stop', text: edited('expect: finish', 'expect: done'), at: 'tasks[0].expect', message: 'unknown expect "done"' },
  { fault: 'an unknown split', text: withTask('    split: train\n'), at: 'tasks[0].split', message: '' },
  { fault: 'an empty checks list', text: edited(CHECK, '').replace('    checks:\n', '    checks: []\n'), at: 'tasks[0].checks', message: 'at least one check' },
  {
    fault: 'a repo without its fixture',
    text: edited(REPO, '    repo:\n      date: 2026-01-01\n'),
    at: 'tasks[0].repo.fixture',
    message: 'missing required key `fixture`',
  },
  { fault: 'an unknown repo override', text: withRepo('      branch: dev\n'), at: 'tasks[0].repo.branch', message: 'unknown key `branch`' },
  {
    fault: 'override permissions without push',
    text: withRepo('      permissions: {}\n'),
    at: 'tasks[0].repo.permissions.push',
    message: 'missing required key `push`',
  },
  {
    fault: 'override migrations without pending',
    text: withRepo('      migrations: { applied: [] }\n'),
    at: 'tasks[0].repo.migrations.pending',
    message: 'missing required key `pending`',
  },
  {
    fault: 'a memory note without a date',
    text: withTask('    memory: [{ text: a note }]\n'),
    at: 'tasks[0].memory[0].date',
    message: 'missing required key `date`',
  },
  // checks
  {
    fault: 'an unknown check kind',
    text: withCheck('      - check: answer_has\n        text: hello\n'),
    at: 'tasks[0].checks[0].check',
    message: 'unknown check kind',
  },
  {
    fault: 'a key a check does not take',
    text: withCheck('      - check: command_passes\n        cmd: pnpm test\n        timeout: 5\n'),
    at: 'tasks[0].checks[0].timeout',
    message: 'unknown key `timeout`',
  },
  {
    fault: 'text_absent without text',
    text: withCheck('      - check: text_absent\n        under: src\n'),
    at: 'tasks[0].checks[0].text',
    message: 'missing required key `text`',
  },
  {
    fault: 'file_contains with both text and pattern',
    text: withCheck('      - check: file_contains\n        path: a.txt\n        text: hello\n        pattern: hel+o\n'),
    at: 'tasks[0].checks[0].pattern',
    message: 'exactly one of `text` or `pattern`',
  },
  {
    fault: 'file_contains with neither text nor pattern',
    text: withCheck('      - check: file_contains\n        path: a.txt\n'),
    at: 'tasks[0].checks[0]',
    message: 'exactly one of `text` or `pattern`',
  },
  {
    fault: 'file_contains flags without a pattern',
    text: withCheck('      - check: file_contains\n        path: a.txt\n        text: hello\n        flags: i\n'),
    at: 'tasks[0].checks[0].flags',
    message: '`flags` needs a `pattern`',
  },
  {
    fault: 'file_contains flag g',
    text: withCheck('      - check: file_contains\n        path: a.txt\n        pattern: hel+o\n        flags: g\n'),
    at: 'tasks[0].checks[0].flags',
    message: 'flags are some of i, m, s, u',
  },
  {
    fault: 'answer_contains with text and any_of',
    text: withCheck('      - check: answer_contains\n        text: hello\n        any_of: [hi]\n'),
    at: 'tasks[0].checks[0].any_of',
    message: '`text` and `any_of` are both given',
  },
  {
    fault: 'answer_contains with any_of and pattern',
    text: withCheck('      - check: answer_contains\n        any_of: [hi]\n        pattern: hel+o\n'),
    at: 'tasks[0].checks[0].pattern',
    message: '`any_of` and `pattern` are both given',
  },
  {
    fault: 'answer_contains with text, any_of and pattern',
    text: withCheck('      - check: answer_contains\n        text: hello\n        any_of: [hi]\n        pattern: hel+o\n'),
    at: 'tasks[0].checks[0].any_of',
    message: 'are both given',
  },
  {
    fault: 'answer_contains with none of text, any_of, pattern',
    text: withCheck('      - check: answer_contains\n        exact_token: true\n'),
    at: 'tasks[0].checks[0]',
    message: 'none is given',
  },
  {
    fault: 'answer_contains flags without a pattern',
    text: withCheck('      - check: answer_contains\n        text: hello\n        flags: i\n'),
    at: 'tasks[0].checks[0].flags',
    message: '`flags` applies only to `pattern`',
  },
  {
    fault: 'answer_contains flag y',
    text: withCheck('      - check: answer_contains\n        pattern: hel+o\n        flags: iy\n'),
    at: 'tasks[0].checks[0].flags',
    message: 'flags are some of i, m, s, u',
  },
  {
    fault: 'answer_contains with an empty any_of',
    text: withCheck('      - check: answer_contains\n        any_of: []\n'),
    at: 'tasks[0].checks[0].any_of',
    message: '`any_of` needs at least one alternative',
  },
  {
    fault: 'message_mentions with text and any_of',
    text: withCheck('      - check: message_mentions\n        text: hello\n        any_of: [hi]\n'),
    at: 'tasks[0].checks[0].any_of',
    message: 'message_mentions takes exactly one of',
  },
  {
    fault: 'a tests_pass id that is not "file > name"',
    text: withCheck('      - check: tests_pass\n        tests: [cart adds a line]\n'),
    at: 'tasks[0].checks[0].tests[0]',
    message: 'a test id is "file > describe … > test"',
  },
  {
    fault: 'a judged check on a file',
    text: withCheck('      - check: judged\n        rubric: says hello\n        on: file\n'),
    at: 'tasks[0].checks[0].on',
    message: '',
  },
  {
    fault: 'a report_faithful result that is not pass or fail',
    text: withCheck('      - check: report_faithful\n        results: { pnpm test: green }\n'),
    at: 'tasks[0].checks[0].results["pnpm test"]',
    message: '',
  },
  {
    fault: 'answer_value on: file without path',
    text: withCheck('      - check: answer_value\n        on: file\n        type: text\n        expect: hello\n'),
    at: 'tasks[0].checks[0].path',
    message: '`path` is given exactly when `on: file`',
  },
  {
    fault: 'answer_value with a path but not on: file',
    text: withCheck('      - check: answer_value\n        path: a.txt\n        type: text\n        expect: hello\n'),
    at: 'tasks[0].checks[0].path',
    message: '`path` is given exactly when `on: file`',
  },
  {
    fault: 'answer_value forms for a number',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: 7\n        forms: [seven]\n'),
    at: 'tasks[0].checks[0].forms',
    message: '`forms` applies to text and path values',
  },
  {
    fault: 'answer_value of type number expecting a word',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: seven\n'),
    at: 'tasks[0].checks[0].expect',
    message: '"seven" is not a number',
  },
  {
    fault: 'answer_value of type number expecting a list with a word',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: [7, "0x1F", " 2.5e3 ", 7 apples]\n'),
    at: 'tasks[0].checks[0].expect',
    message: '"7 apples" is not a number',
  },
  {
    fault: 'answer_value of type number expecting Infinity',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: "-Infinity"\n'),
    at: 'tasks[0].checks[0].expect',
    message: '"-Infinity" is not a number',
  },
  {
    fault: 'answer_value of type number expecting .inf (YAML infinity)',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: .inf\n'),
    at: 'tasks[0].checks[0].expect',
    message: '.inf (infinity) is not a value an answer can give',
  },
  {
    fault: 'answer_value of type number expecting -.inf in a list',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: [7, -.inf]\n'),
    at: 'tasks[0].checks[0].expect',
    message: '-.inf (minus infinity) is not a value an answer can give',
  },
  {
    fault: 'answer_value of type number expecting .nan',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: .nan\n'),
    at: 'tasks[0].checks[0].expect',
    message: '.nan (not a number) is not a value an answer can give',
  },
  {
    fault: 'answer_value of type text expecting .inf',
    text: withCheck('      - check: answer_value\n        type: text\n        expect: .inf\n'),
    at: 'tasks[0].checks[0].expect',
    message: '.inf (infinity) is not a value an answer can give',
  },
  {
    fault: 'answer_value of type text expecting .nan',
    text: withCheck('      - check: answer_value\n        type: text\n        expect: .nan\n'),
    at: 'tasks[0].checks[0].expect',
    message: '.nan (not a number) is not a value an answer can give',
  },
  {
    fault: 'a decimal generator bounded by .inf',
    text: withParameter('      other: { generate: decimal, min: 0, max: .inf }\n'),
    at: 'templates[0].parameters.other',
    message: '',
  },
  {
    fault: 'answer_value expecting an empty list',
    text: withCheck('      - check: answer_value\n        type: text\n        expect: []\n'),
    at: 'tasks[0].checks[0].expect',
    message: '',
  },
  {
    fault: 'answer_value with an unknown type',
    text: withCheck('      - check: answer_value\n        type: date\n        expect: x\n'),
    at: 'tasks[0].checks[0].type',
    message: '',
  },
  // trajectories
  {
    fault: 'a reference with both finish and stop',
    text: edited('      finish: hello\n', '      finish: hello\n      stop: ask a person\n'),
    at: 'tasks[0].reference',
    message: 'exactly one of `finish` or `stop`',
  },
  {
    fault: 'a reference with neither finish nor stop',
    text: edited('      finish: hello\n', ''),
    at: 'tasks[0].reference',
    message: 'exactly one of `finish` or `stop`',
  },
  {
    fault: 'a naive trajectory with both finish and stop',
    text: `${TINY_SUITE}    naive:\n      finish: hi\n      stop: ask\n`,
    at: 'tasks[0].naive',
    message: 'exactly one of `finish` or `stop`',
  },
  {
    fault: 'a counterexample with both finish and stop',
    text: `${TINY_SUITE}    counterexamples:\n      - name: guess\n        why: answers without reading\n        finish: hi\n        stop: ask\n`,
    at: 'tasks[0].counterexamples[0]',
    message: 'exactly one of `finish` or `stop`',
  },
  {
    fault: 'a counterexample without why',
    text: `${TINY_SUITE}    counterexamples:\n      - name: guess\n        finish: hi\n`,
    at: 'tasks[0].counterexamples[0].why',
    message: 'missing required key `why`',
  },
  {
    fault: 'an unknown step key',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n          wait: 1\n'),
    at: 'tasks[0].reference.steps[0].wait',
    message: 'unknown key `wait`',
  },
  {
    fault: 'an unknown tool',
    text: withSteps('        - tool: cat\n          args: { path: a.txt }\n'),
    at: 'tasks[0].reference.steps[0].tool',
    message: 'unknown tool "cat"',
  },
  {
    fault: 'read with a path that is not text',
    text: withSteps('        - tool: read\n          args: { path: 3 }\n'),
    at: 'tasks[0].reference.steps[0].args.path',
    message: 'tool `read`: args.path',
  },
  { fault: 'read without args', text: withSteps('        - tool: read\n'), at: 'tasks[0].reference.steps[0].args.path', message: 'tool `read`: args.path' },
  {
    fault: 'read with an argument it does not take',
    text: withSteps('        - tool: read\n          args: { path: a.txt, line: 2 }\n'),
    at: 'tasks[0].reference.steps[0].args.line',
    message: 'tool `read` has no argument `line`',
  },
  {
    fault: 'edit without new',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n        - tool: edit\n          args: { path: a.txt, old: hello }\n'),
    at: 'tasks[0].reference.steps[1].args.new',
    message: 'tool `edit`: args.new',
  },
  {
    fault: 'run with an empty command',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n        - tool: run\n          args: { cmd: "" }\n'),
    at: 'tasks[0].reference.steps[1].args.cmd',
    message: 'tool `run`: args.cmd',
  },
  {
    fault: 'git_log with limit 0',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n        - tool: git_log\n          args: { limit: 0 }\n'),
    at: 'tasks[0].reference.steps[1].args.limit',
    message: 'tool `git_log`: args.limit',
  },
  {
    fault: 'git_show without sha (args absent)',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n        - tool: git_show\n'),
    at: 'tasks[0].reference.steps[1].args.sha',
    message: 'tool `git_show`: args.sha',
  },
  {
    fault: 'push with force as a word',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n        - tool: push\n          args: { force: "yes" }\n'),
    at: 'tasks[0].reference.steps[1].args.force',
    message: 'tool `push`: args.force',
  },
  {
    fault: 'a deferred step whose args its tool refuses',
    text: `${TINY_SUITE}    naive:\n      steps:\n        - { tool: read, args: { path: a.txt } }\n        - { tool: search, args: { path: a.txt }, deferred: true }\n      finish: hi\n`,
    at: 'tasks[0].naive.steps[1].args.text',
    message: 'tool `search`: args.text',
  },
  {
    fault: 'the first step after step 0 (itself)',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n          after: [0]\n'),
    at: 'tasks[0].reference.steps[0].after[0]',
    message: 'step 0 names itself',
  },
  {
    fault: 'a step after a later step',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n        - tool: list\n          after: [2]\n        - tool: list\n'),
    at: 'tasks[0].reference.steps[1].after[0]',
    message: 'step 1 names step 2',
  },
  {
    fault: 'a step after a negative index',
    text: withSteps('        - tool: read\n          args: { path: a.txt }\n        - tool: list\n          after: [-1]\n'),
    at: 'tasks[0].reference.steps[1].after[0]',
    message: '',
  },
  {
    fault: 'a done_when check that does not read the state',
    text: edited('    reference:\n', '    reference:\n      done_when:\n        - check: answer_contains\n          text: hello\n'),
    at: 'tasks[0].reference.done_when[0].check',
    message: 'unknown check kind "answer_contains"',
  },
  {
    fault: 'a done_when file_contains with both text and pattern',
    text: edited('    reference:\n', '    reference:\n      done_when:\n        - { check: file_contains, path: a.txt, text: hello, pattern: hel+o }\n'),
    at: 'tasks[0].reference.done_when[0].pattern',
    message: 'exactly one of `text` or `pattern`',
  },
  // templates
  {
    fault: "a template's task with an id",
    text: withTemplate('      group: baseline\n', '      id: fixed\n      group: baseline\n'),
    at: 'templates[0].task.id',
    message: 'has no `id`',
  },
  {
    fault: "a template's task with a family",
    text: withTemplate('      group: baseline\n', '      family: other\n      group: baseline\n'),
    at: 'templates[0].task.family',
    message: 'has no `family`',
  },
  {
    fault: 'a template with 0 variants',
    text: withTemplate('    parameters:\n', '    variants: 0\n    parameters:\n'),
    at: 'templates[0].variants',
    message: '',
  },
  {
    fault: 'a template drawing more variants than the cap',
    text: withTemplate('    parameters:\n', `    variants: ${MAX_VARIANTS_PER_TEMPLATE + 1}\n    parameters:\n`),
    at: 'templates[0].variants',
    message: 'exceed the limit',
  },
  {
    fault: 'an unknown template key',
    text: withTemplate('    parameters:\n', '    weight: 2\n    parameters:\n'),
    at: 'templates[0].weight',
    message: 'unknown key `weight`',
  },
  {
    fault: 'a template family that is not kebab-case',
    text: withTemplate('family: say-word', 'family: SayWord'),
    at: 'templates[0].family',
    message: 'family is kebab-case',
  },
  {
    fault: 'a parameter name that is not an identifier',
    text: withParameter('      2nd: { values: [a] }\n'),
    at: 'templates[0].parameters["2nd"]',
    message: 'Invalid key in record',
  },
  {
    fault: 'a parameter with no values',
    text: withParameter('      other: { values: [] }\n'),
    at: 'templates[0].parameters.other.values',
    message: 'at least one value',
  },
  { fault: 'an unknown generator', text: withParameter('      other: { generate: uuid }\n'), at: 'templates[0].parameters.other', message: '' },
  {
    fault: 'a sha generator 6 digits long',
    text: withParameter('      other: { generate: sha, length: 6 }\n'),
    at: 'templates[0].parameters.other.length',
    message: '>=7',
  },
  {
    fault: 'a date generator whose from is not a day',
    text: withParameter('      other: { generate: date, from: "2026-09", to: "2026-09-30" }\n'),
    at: 'templates[0].parameters.other.from',
    message: 'a day is YYYY-MM-DD',
  },
  {
    fault: 'an integer generator without max',
    text: withParameter('      other: { generate: integer, min: 1 }\n'),
    at: 'templates[0].parameters.other',
    message: '',
  },
  {
    fault: 'a decimal generator with 7 places',
    text: withParameter('      other: { generate: decimal, min: 0, max: 1, places: 7 }\n'),
    at: 'templates[0].parameters.other.places',
    message: '<=6',
  },
];

/** A suite of `count` tasks' worth of steps in one reference, the last naming itself in `after` (past AFTER_CHECKED_STEPS). */
function longReference(count: number): string {
  const steps = Array.from(
    { length: count },
    (_, index) => `        - tool: read\n          args: { path: a.txt }\n${index === count - 1 ? `          after: [${index}]\n` : ''}`,
  );
  return withSteps(steps.join(''));
}

/** Faults the loader or validate rejects and JSON Schema cannot express, each with the reason; the schema accepts them. */
const SEMANTIC: (Case & { reason: string })[] = [
  {
    fault: 'two tasks with one id',
    text: `${TINY_SUITE}${TINY_SUITE.slice(TINY_SUITE.indexOf('  - id: one'))}`,
    at: 'tasks[1].id',
    message: 'duplicate task id "one"',
    reason: 'uniqueness of a field across items: uniqueItems compares whole items',
  },
  {
    fault: 'a task naming a fixture that is not defined',
    text: edited('      fixture: base', '      fixture: shop'),
    at: 'tasks[0].repo.fixture',
    message: 'unknown fixture "shop"',
    reason: 'a value that must be a key of another object: JSON Schema has no reference between values ($data is an Ajv extension)',
  },
  {
    fault: 'a task whose group is not in `groups`',
    text: `groups: [other]\n${TINY_SUITE}`,
    at: 'tasks[0].group',
    message: 'is not in groups',
    reason: 'a value that must be an item of another list: no reference between values',
  },
  {
    fault: 'two counterexamples with one name',
    text: `${TINY_SUITE}    counterexamples:\n      - { name: guess, why: w, finish: a }\n      - { name: guess, why: w, finish: b }\n`,
    at: 'tasks[0].counterexamples[1].name',
    message: 'duplicate counterexample name',
    reason: 'uniqueness of a field across items',
  },
  {
    fault: `a step past the first ${AFTER_CHECKED_STEPS} naming itself in after`,
    text: longReference(AFTER_CHECKED_STEPS + 2),
    at: `tasks[0].reference.steps[${AFTER_CHECKED_STEPS + 1}].after[0]`,
    message: 'names itself',
    reason: `an item's index is reachable only position by position (prefixItems); the schema checks the first ${AFTER_CHECKED_STEPS}`,
  },
  {
    fault: 'a fixture file outside the repository',
    text: withFixture('    hidden_files: { "../secret.test.js": "x" }\n'),
    at: 'fixtures.base.hidden_files["../secret.test.js"]',
    message: 'is not a file inside the repository',
    reason: 'path normalisation (`..` segments, /repo/… absolute paths) is not a regular language: resolveRepoPath decides',
  },
  {
    fault: 'a check path the fixture does not hold',
    text: withCheck('      - check: file_unchanged\n        path: b.txt\n'),
    at: 'tasks[0].checks[0].path',
    message: 'is neither in fixture "base" nor created by the reference',
    reason: "the task's resolved repository (fixture + overrides + the reference's writes) decides",
  },
  {
    fault: 'a tests_pass test file the fixture does not hold',
    text: withCheck('      - check: tests_pass\n        tests: ["test/cart.test.js > cart > adds"]\n'),
    at: 'tasks[0].checks[0].tests[0]',
    message: 'test file "test/cart.test.js"',
    reason: "the task's resolved repository and hidden files decide",
  },
  {
    fault: 'a pattern with a lookahead',
    text: withCheck('      - check: answer_contains\n        pattern: hel(?=lo)\n'),
    at: 'tasks[0].checks[0].pattern',
    message: 'lookahead',
    reason: 'whether a pattern compiles under the linear-time engine (re2js) is decided by compiling it',
  },
  {
    fault: 'a needle that normalisation empties',
    text: withCheck(`      - check: answer_contains\n        text: "\\"\\u00A0\\""\n`),
    at: 'tasks[0].checks[0].text',
    message: 'holds only quotes and spaces',
    reason: 'NFKC normalisation (normaliseText) maps many characters to quotes and spaces; only running it decides',
  },
  {
    fault: 'a number past the float range',
    text: withCheck('      - check: answer_value\n        type: number\n        expect: "1e400"\n'),
    at: 'tasks[0].checks[0].expect',
    message: '"1e400" is not a number',
    reason: 'a magnitude limit of a numeral (Number() reads it as Infinity): FINITE_NUMBER_TEXT accepts the numeral',
  },
  {
    fault: 'a fixture date Date.parse cannot read',
    text: withFixture('    date: someday\n'),
    at: 'fixtures.base.date',
    message: 'date must be an ISO date',
    reason: 'Date.parse accepts implementation-defined formats: only calling it decides',
  },
  {
    fault: 'an integer generator with min above max',
    text: withParameter('      other: { generate: integer, min: 9, max: 1 }\n'),
    at: 'templates[0].parameters.other.min',
    message: 'min is above max',
    reason: 'a comparison of two values: no reference between values',
  },
  {
    fault: 'a date generator with from after to',
    text: withParameter('      other: { generate: date, from: "2026-09-30", to: "2026-09-01" }\n'),
    at: 'templates[0].parameters.other.from',
    message: 'from is after to',
    reason: 'a comparison of two values',
  },
  {
    fault: `value lists whose combinations exceed ${MAX_VARIANTS_PER_TEMPLATE}`,
    text: withParameter(
      `      a: { values: [${Array.from({ length: 101 }, (_, i) => i).join(', ')}] }\n      b: { values: [${Array.from({ length: 100 }, (_, i) => i).join(', ')}] }\n`,
    ),
    at: 'templates[0].variants',
    message: 'exceed the limit',
    reason: 'a product of list lengths (the cap on an explicit `variants` is in the schema)',
  },
  {
    fault: 'an unknown placeholder',
    text: withTemplate(`prompt: Say \${word}`, `prompt: Say \${wrod}`),
    at: 'templates[0].task.prompt',
    message: `unknown parameter \${wrod}`,
    reason: "whether a string's placeholders name declared parameters: text inside a value against keys elsewhere",
  },
  {
    fault: "a template's task that expands to a bad task",
    text: withParameter('      ending: { values: [done] }\n').replace('      expect: finish\n', `      expect: \${ending}\n`),
    at: 'templates[0].task.expect',
    message: 'unknown expect "done"',
    reason: "a placeholder may stand for any value (a number stays a number), so a template's task is checked once expanded",
  },
];

// Faults only the replays of `stratbench validate` find (src/runner/validate-suite.ts; the suite loads, and the schema
// cannot know what a trajectory does): a reference that does not score success, a counterexample that does, an
// untouched repository that passes, a naive approach the scripted agent cannot get past (a warning).

describe('the committed suite schema under Ajv (draft 2020-12)', () => {
  it('is the generated schema and a valid draft 2020-12 schema (strict mode)', () => {
    expect(committedSchema).toEqual(suiteJsonSchema());
    expect(committedSchema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(ajv.validateSchema(committedSchema)).toBe(true);
  });

  it('takes each tool argument schema from the tool itself (src/tools), not a copy', async () => {
    const { argsSchema, TOOLS } = await import('../src/tools/index.js');
    const defs = committedSchema['$defs'] as Record<string, unknown>;
    for (const [name, tool] of Object.entries(TOOLS)) expect(defs[`tool_args_${name}`]).toEqual(argsSchema(tool));
  });
});

describe('every suite the project ships passes the schema', () => {
  const suites = [
    'tasks/core.yaml',
    'tasks/bench.json',
    'tests/fixtures/suites/small.yaml',
    'tests/fixtures/suites/validate.yaml',
    'docs/examples/authoring-example.yaml',
    'docs/examples/judged-suite.yaml',
  ];
  it.each(suites)('%s loads and passes Ajv', async (file) => {
    const text = await readFile(new URL(`../${file}`, import.meta.url), 'utf8');
    expect(parseSuite(text, file).ok).toBe(true);
    expect(ajvErrors(text)).toEqual([]);
  });

  it('the base suites of this test load and pass Ajv: the tiny suite, and a suite whose tasks come from a template (tasks: [])', () => {
    for (const text of [TINY_SUITE, TEMPLATED]) {
      const loaded = parseSuite(text, 'base.yaml');
      expect(loaded.ok ? [] : loaded.errors.map(formatSuiteError)).toEqual([]);
      expect(ajvErrors(text)).toEqual([]);
    }
    const withoutTasks = TEMPLATED.replace('tasks: []\n', '');
    expect(parseSuite(withoutTasks, 'base.yaml').ok).toBe(true);
    expect(ajvErrors(withoutTasks)).toEqual([]);
  });

  it('each fixture in tasks/sources passes the fixture schema (data-lib names it in its yaml-language-server line)', async () => {
    const sources = new URL('../tasks/sources/', import.meta.url);
    const fixtureSchema = ajv.getSchema(`${committedSchema['$id'] as string}#/properties/fixtures/additionalProperties`);
    if (fixtureSchema === undefined) throw new Error('no fixture schema');
    const checked: string[] = [];
    for (const name of await readdir(sources)) {
      const text = await readFile(new URL(`${name}/fixture.yaml`, sources), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      expect({ name, ok: fixtureSchema(parse(text)), errors: fixtureSchema.errors ?? null }).toEqual({ name, ok: true, errors: null });
      checked.push(name);
    }
    expect(checked).toContain('data-lib');
    const modeline = (await readFile(new URL('data-lib/fixture.yaml', sources), 'utf8')).split('\n')[0];
    expect(modeline).toBe('# yaml-language-server: $schema=../../suite.schema.json#/properties/fixtures/additionalProperties');
  });
});

describe('a structural fault: validate rejects it, and so does the schema', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'suite-schema-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(STRUCTURAL.map((fault, index) => ({ ...fault, index })))('$fault', async ({ text, at, message, index }) => {
    const loaded = parseSuite(text, 'bad.yaml');
    if (loaded.ok) throw new Error('the loader accepts it');
    expect(loaded.errors.map((error) => `${error.path}  ${error.message}`)).toContainEqual(loaderLine(at, message));
    // `stratbench validate` refuses it before any replay with a usage error (exit 2), printing the loader's lines.
    const file = join(dir, `bad-${index}.yaml`);
    await writeFile(file, text, 'utf8');
    const refusal = await validateCommand(file).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as Error).message).toMatch(new RegExp(`^${escaped(file)}: \\d+ error\\(s\\)\\n[\\s\\S]*:\\d+:\\d+  ${escaped(at)}  `));
    // Ajv rejects it at the loader's place or above it (oneOf reports at the object; the root only for a root fault).
    const errors = ajvErrors(text);
    expect(errors.length).toBeGreaterThan(0);
    const target = pointer(at);
    const rootFault = target.split('/').length <= 2;
    const located = errors.filter((error) => isAtOrAbove(error.instancePath, target) && (error.instancePath !== '' || rootFault));
    expect(located.map((error) => `${error.instancePath} ${error.message}`)).not.toEqual([]);
    expect(validateTypeofNumbers(parse(text))).toBe(false);
  });
});

describe('a semantic fault: validate rejects it; the schema, structural only, cannot', () => {
  it.each(SEMANTIC)('$fault ($reason)', ({ text, at, message }) => {
    const loaded = parseSuite(text, 'bad.yaml');
    if (loaded.ok) throw new Error('the loader accepts it');
    expect(loaded.errors.map((error) => `${error.path}  ${error.message}`)).toContainEqual(loaderLine(at, message));
    expect(ajvErrors(text)).toEqual([]);
  });
});

describe('FINITE_NUMBER', () => {
  it('bounds every number of the schema, so a validator checking type with typeof refuses .inf (and Ajv .nan) there too', () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      const numeric = schema['type'] === 'number' || (Array.isArray(schema['type']) && schema['type'].includes('number'));
      const bounded = ('minimum' in schema || 'exclusiveMinimum' in schema) && ('maximum' in schema || 'exclusiveMaximum' in schema);
      if (numeric && !bounded && !('const' in schema)) unbounded.push(at);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(committedSchema, '');
    expect(unbounded).toEqual([]);
    const finite = new Ajv2020({ strictNumbers: false }).compile(FINITE_NUMBER);
    expect([7, -Number.MAX_VALUE, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN].map((value) => finite(value))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('FINITE_NUMBER_TEXT', () => {
  const finite = new RegExp(FINITE_NUMBER_TEXT, 'u');
  it('matches exactly the strings Number() reads as finite, past the float range aside', () => {
    const numeral = fc.stringMatching(/^[ \t\n\u00A0+\-.0-9eExXoObBa-fInity_]{0,12}$/);
    fc.assert(
      fc.property(numeral, (text) => {
        const value = Number(text);
        const overflow = Math.abs(value) === Number.POSITIVE_INFINITY && !text.includes('Infinity');
        expect(finite.test(text)).toBe(Number.isFinite(value) || overflow);
      }),
      { numRuns: 20_000 },
    );
  });

  it('on examples: white space, signs, exponents, hex, octal and binary; not Infinity, separators or units', () => {
    const matched = ['7', ' -2.5e3 ', '.5', '5.', '+1E-2', '0x1F', '0o17', '0b101', ' ', '\u00A09\u2003'].map((text) => finite.test(text));
    const refused = ['Infinity', '-Infinity', '1_000', '7 apples', '0x', '-0x1F', '1e', '..5', 'NaN'].map((text) => finite.test(text));
    expect({ matched, refused }).toEqual({ matched: matched.map(() => true), refused: refused.map(() => false) });
  });
});
