// The YAML suite format as zod schemas: fixtures, tasks, checks, trajectories. Types come from z.infer.
import { z } from 'zod';
import { FaultSpec, MemoryNote, RepoSpec, ScriptSpec, TestSpec, Commit, filesInsideRepo } from '../sim-repo/spec.js';
import { ToolName } from '../tools/types.js';
import { Template } from './templates/template-schema.js';
import { compilePattern, DEFAULT_PATTERN_FLAGS, normaliseText, patternIssue } from './text-match.js';

/** Checks the harness can run on a final state (closed list; seed 001, "Write the goal as checks"). */
export const CHECK_KINDS = [
  'command_passes',
  'file_unchanged',
  'file_contains',
  'text_absent',
  'answer_contains',
  'message_mentions',
  'no_irreversible_action',
  'tests_pass',
  'judged',
  'report_faithful',
  'answer_value',
] as const;

/** Checks a plan's done_when may use: those that read the repository state, not the answer. */
export const STATE_CHECK_KINDS = ['command_passes', 'file_unchanged', 'file_contains', 'text_absent'] as const;

/** Flags a `pattern` takes (see compileLinear): g and y do not apply to a check; v's set notation has no linear-time engine. */
const PATTERN_FLAGS = /^[imsu]*$/;
const PATTERN_FLAGS_MESSAGE = 'flags are some of i, m, s, u (g and y do not apply: a check looks anywhere; v is not supported)';

const CommandPasses = z.strictObject({
  check: z.literal('command_passes'),
  cmd: z.string().min(1).describe('Shell command run on a copy of the final repository; passes on exit 0'),
});
const FileUnchanged = z.strictObject({
  check: z.literal('file_unchanged'),
  path: z.string().min(1).describe('Passes when the file is byte-for-byte as it was at the start'),
});
const FileContains = z
  .strictObject({
    check: z.literal('file_contains'),
    path: z.string().min(1),
    text: z.string().min(1).optional().describe('Exact substring (give exactly one of text or pattern)'),
    pattern: z
      .string()
      .min(1)
      .optional()
      .describe(
        'JavaScript regular expression matched against the whole file content (^ and $ anchor the whole file unless flags has m), in linear time: no lookaround or backreferences',
      ),
    flags: z.string().regex(PATTERN_FLAGS, PATTERN_FLAGS_MESSAGE).optional().describe('Flags of pattern (default none; some of i, m, s, u)'),
  })
  .superRefine((value, ctx) => {
    if ((value.text === undefined) === (value.pattern === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'file_contains takes exactly one of `text` or `pattern`', path: value.text === undefined ? [] : ['pattern'] });
    }
    if (value.flags !== undefined && value.pattern === undefined) ctx.addIssue({ code: 'custom', message: '`flags` needs a `pattern`', path: ['flags'] });
    if (value.pattern !== undefined && (value.flags === undefined || PATTERN_FLAGS.test(value.flags))) {
      const compiled = compilePattern(value.pattern, value.flags ?? '');
      if (!compiled.ok) ctx.addIssue({ code: 'custom', message: patternIssue(compiled), path: ['pattern'] });
    }
  });
const TextAbsent = z.strictObject({
  check: z.literal('text_absent'),
  text: z.string().min(1).describe('No file (in `under`, when given) contains this exact substring'),
  under: z
    .string()
    .optional()
    .describe('A file (only that file is searched) or a folder (the files below it: `src` covers src/a.js, not src2/a.js; "" or "." is every file)'),
});
/** The words an answer or stop message must hold: exactly one of `text`, `any_of`, `pattern` (see wordCheckIssues). */
const wordCheckShape = {
  text: z
    .string()
    .min(1)
    .optional()
    .describe('Substring, compared normalised: case, quotes and backticks, whitespace runs, NFKC (non-breaking spaces) do not matter'),
  any_of: z
    .array(z.string().min(1))
    .min(1, '`any_of` needs at least one alternative')
    .optional()
    .describe('Alternatives (e.g. a rule id and its paraphrase): passes when any one is found, compared as `text` is'),
  pattern: z
    .string()
    .min(1)
    .optional()
    .describe(
      'JavaScript regular expression run on the normalised text (quotes and backticks removed, whitespace runs one space, NFKC), in linear time: no lookaround or backreferences',
    ),
  flags: z
    .string()
    .regex(PATTERN_FLAGS, PATTERN_FLAGS_MESSAGE)
    .optional()
    .describe(`Flags of \`pattern\` (default "${DEFAULT_PATTERN_FLAGS}": case-insensitive)`),
  exact_token: z
    .boolean()
    .optional()
    .describe(
      'Only whole tokens count: the match may not be preceded or followed by a letter, digit or _, nor by - . : / joined to one (no-unused-vars does not match in no-unused-vars-extra, EUR not in EURO)',
    ),
};

const WORD_FORMS = ['text', 'any_of', 'pattern'] as const;

/** Names a string that normalisation empties (only quotes, backticks and spaces): it would match everything or nothing. */
const isBlankOnceNormalised = (value: string): boolean => normaliseText(value) === '';

/**
 * Issues of a word check beyond its fields: exactly one of `text`, `any_of`, `pattern` (reported at the second
 * one given, or at the check when none is); `flags` only with `pattern`; the pattern compiles; no needle that
 * normalisation leaves empty.
 */
function wordCheckIssues(
  value: { check: string; text?: string | undefined; any_of?: string[] | undefined; pattern?: string | undefined; flags?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const given = WORD_FORMS.filter((form) => value[form] !== undefined);
  if (given.length === 0) {
    ctx.addIssue({ code: 'custom', path: [], message: `${value.check} needs exactly one of \`text\`, \`any_of\` or \`pattern\`; none is given` });
  }
  for (const extra of given.slice(1)) {
    ctx.addIssue({
      code: 'custom',
      path: [extra],
      message: `${value.check} takes exactly one of \`text\`, \`any_of\` or \`pattern\`; \`${given[0]}\` and \`${extra}\` are both given`,
    });
  }
  if (value.flags !== undefined && value.pattern === undefined) {
    ctx.addIssue({ code: 'custom', path: ['flags'], message: '`flags` applies only to `pattern`' });
  }
  if (value.pattern !== undefined && (value.flags === undefined || PATTERN_FLAGS.test(value.flags))) {
    const compiled = compilePattern(value.pattern, value.flags);
    if (!compiled.ok) ctx.addIssue({ code: 'custom', path: ['pattern'], message: patternIssue(compiled) });
  }
  if (value.text !== undefined && isBlankOnceNormalised(value.text)) {
    ctx.addIssue({ code: 'custom', path: ['text'], message: '`text` holds only quotes and spaces, which matching ignores' });
  }
  value.any_of?.forEach((alternative, index) => {
    if (isBlankOnceNormalised(alternative)) {
      ctx.addIssue({ code: 'custom', path: ['any_of', index], message: 'this alternative holds only quotes and spaces, which matching ignores' });
    }
  });
}

const AnswerContains = z
  .strictObject({
    check: z.literal('answer_contains').describe('The final answer holds the words (see text, any_of, pattern, exact_token)'),
    ...wordCheckShape,
  })
  .superRefine(wordCheckIssues);
const MessageMentions = z
  .strictObject({
    check: z.literal('message_mentions').describe('The stop message holds the words (see text, any_of, pattern, exact_token)'),
    ...wordCheckShape,
  })
  .superRefine(wordCheckIssues);
const NoIrreversibleAction = z.strictObject({ check: z.literal('no_irreversible_action') });
/** FAIL_TO_PASS / PASS_TO_PASS as SWE-bench defines them: every named test ran and passed. */
const TestsPass = z.strictObject({
  check: z.literal('tests_pass'),
  tests: z
    .array(z.string().regex(/^[^>]+\.[cm]?[jt]sx? > .+/, 'a test id is "file > describe … > test", e.g. "tests/cart.test.js > cart > adds a line"'))
    .min(1)
    .describe(
      'Test ids ("file > describe … > test") that must pass on the final state, hidden test files included; a test that is skipped, todo, filtered out, renamed or deleted does not pass',
    ),
});

/** Graded by the run's judge model (`run --judge`), never in code alone; see src/scoring/judge/ and docs/authoring.md. */
const Judged = z.strictObject({
  check: z
    .literal('judged')
    .describe('A judge model grades the answer or stop message against `rubric` (needs `run --judge MODEL`; `validate` uses the scripted judge)'),
  rubric: z
    .string()
    .min(1)
    .describe('What a correct answer or stop message must say, in words (the scripted judge reads it by the rule in src/scoring/judge/scripted-judge.ts)'),
  on: z
    .enum(['answer', 'message'])
    .optional()
    .describe("What is graded: the final answer or the stop message (default: the task's expect, finish → answer, stop → message)"),
});

/** Where a claim check reads: the final answer (finish) or the stop message (stop); default: whichever the episode gave. */
const ReportOn = z.enum(['answer', 'message']).describe('The text judged: the final answer or the stop message (default: whichever the episode ended with)');

/** Issue 26 §1: every claim of the report grounded in the trace (decision 0027). */
const ReportFaithful = z.strictObject({
  check: z
    .literal('report_faithful')
    .describe(
      'Every claim of the answer or stop message holds against what the agent\'s tool calls showed: a command\'s result needs a run that showed it (the latest run, for a claim in the present tense), "I ran X" a run of X, "I changed nothing" no edit, and a named key, sha, e-mail, #channel, error code, or a figure in a result clause something the agent saw or the repository holds',
    ),
  on: ReportOn.optional(),
  results: z
    .record(z.string().min(1), z.enum(['pass', 'fail']))
    .optional()
    .describe(
      'Results the report must state, by command, script or kind ({ "pnpm lint": fail, test:checkout: pass, tests: pass }); a claim of the opposite fails',
    ),
});

/** The value types answer_value compares (see src/scoring/claims/values.ts). */
export const VALUE_TYPES = ['number', 'version', 'sha', 'path', 'json', 'text'] as const;

/**
 * The message for an answer_value `expect` that is or holds a number YAML can write and no answer can give (`.inf`,
 * `-.inf`, `.nan`, which z.number() refuses); undefined (zod's own message) for any other fault.
 */
function nonFiniteExpect(issue: { input?: unknown }): string | undefined {
  const item = [issue.input].flat().find((value): value is number => typeof value === 'number' && !Number.isFinite(value));
  if (item === undefined) return undefined;
  const yaml = Number.isNaN(item) ? '.nan (not a number)' : item > 0 ? '.inf (infinity)' : '-.inf (minus infinity)';
  return `${yaml} is not a value an answer can give: expect takes text, a finite number, or a list of them`;
}

/** Issue 26 §1: the value the answer gives, compared as a value (decision 0027). */
const AnswerValue = z
  .strictObject({
    check: z
      .literal('answer_value')
      .describe(
        'The value the answer gives for the question, compared as a value: echoes of the question and negated values do not count, a value offered as one of several fails',
      ),
    on: z
      .enum(['answer', 'message', 'file'])
      .optional()
      .describe('What gives the value: the final answer (default), the stop message, or the file at `path` (final state)'),
    path: z.string().min(1).optional().describe('With on: file, the file whose content gives the value'),
    type: z
      .enum(VALUE_TYPES)
      .describe(
        'number (7 = 7.0, 25% = 0.25), version (22 matches v22, 22.x, 22.1.0), sha (7+ hex digits, prefix match), path (./ and :line ignored), json (a literal, deep-equal), text (a whole token, with forms)',
      ),
    expect: z
      .union([z.string().min(1), z.number(), z.array(z.union([z.string().min(1), z.number()])).min(1)], { error: nonFiniteExpect })
      .describe('The value; a list: every item must be given'),
    forms: z.array(z.string().min(1)).optional().describe('Other ways to write a text or path value (the suite-level `synonyms` add theirs at load)'),
    about: z
      .array(z.string().min(1))
      .optional()
      .describe('Words the value sits next to (within four words): the value of that subject, e.g. [node, node.js] for a Node version'),
  })
  .superRefine((value, ctx) => {
    if ((value.on === 'file') !== (value.path !== undefined))
      ctx.addIssue({ code: 'custom', path: ['path'], message: '`path` is given exactly when `on: file`' });
    if (value.forms !== undefined && value.type !== 'text' && value.type !== 'path')
      ctx.addIssue({ code: 'custom', path: ['forms'], message: '`forms` applies to text and path values' });
    if (value.type === 'number') {
      for (const item of Array.isArray(value.expect) ? value.expect : [value.expect]) {
        if (!Number.isFinite(Number(item))) ctx.addIssue({ code: 'custom', path: ['expect'], message: `${JSON.stringify(item)} is not a number` });
      }
    }
  });

export const Check = z.discriminatedUnion('check', [
  CommandPasses,
  FileUnchanged,
  FileContains,
  TextAbsent,
  AnswerContains,
  MessageMentions,
  NoIrreversibleAction,
  TestsPass,
  Judged,
  ReportFaithful,
  AnswerValue,
]);
export type Check = z.infer<typeof Check>;

export const StateCheck = z.discriminatedUnion('check', [CommandPasses, FileUnchanged, FileContains, TextAbsent]);
export type StateCheck = z.infer<typeof StateCheck>;

/** One recorded tool call of a trajectory. */
export const TrajectoryStep = z.strictObject({
  tool: ToolName,
  args: z.record(z.string(), z.unknown()).default({}),
  does: z.string().optional().describe('One sentence for the plan step (defaults to a description of the call)'),
  expect: z.string().optional().describe('What a good result looks like; "exit 0" (default for run) or "any exit"'),
  deferred: z.boolean().default(false).describe('The planner cannot know these args before earlier results: it writes args: null and the executor fills them'),
  after: z.array(z.number().int().nonnegative()).optional().describe('Indices of earlier steps this one depends on (default: the previous step)'),
});
export type TrajectoryStep = z.infer<typeof TrajectoryStep>;

const trajectoryShape = {
  assumption: z.string().optional().describe('The assumption a plan built on this trajectory rests on'),
  done_when: z.array(StateCheck).optional().describe('The done_when checks a planner playing this trajectory writes'),
  steps: z.array(TrajectoryStep).default([]),
  finish: z.string().optional().describe('Ends by finishing with this answer'),
  stop: z.string().optional().describe('Ends by stopping with this message to a person'),
};

function exactlyOneEnding(value: { finish?: string | undefined; stop?: string | undefined }, ctx: z.RefinementCtx): void {
  if ((value.finish === undefined) === (value.stop === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'a trajectory ends with exactly one of `finish` or `stop`' });
  }
}

export const Trajectory = z.strictObject(trajectoryShape).superRefine(exactlyOneEnding);
export type Trajectory = z.infer<typeof Trajectory>;

export const Counterexample = z
  .strictObject({
    name: z.string().min(1),
    why: z.string().min(1).describe('The cheap wrong ending this trajectory takes'),
    ...trajectoryShape,
  })
  .superRefine(exactlyOneEnding);
export type Counterexample = z.infer<typeof Counterexample>;

/** Overrides applied on top of a shared fixture; `files: {path: null}` deletes a file. */
export const RepoOverrides = z.strictObject({
  fixture: z.string().min(1).describe('Name of a shared fixture in `fixtures`'),
  files: filesInsideRepo(z.string().nullable()).optional(),
  hidden_files: filesInsideRepo(z.string().nullable())
    .optional()
    .describe("Hidden test files for this task, merged over the fixture's: the agent can neither list, read nor run them; they run at scoring"),
  date: z.string().optional().describe("The repository's fixed clock for this task (ISO date)"),
  commits: z.array(Commit).optional().describe('Prepended (newer) to the fixture history'),
  scripts: z.record(z.string(), ScriptSpec).optional(),
  tests: z.array(TestSpec).optional().describe('Replace the fixture tests with the same name, add the rest'),
  env: z.record(z.string(), z.string()).optional(),
  permissions: z.strictObject({ push: z.boolean() }).optional(),
  installed: z.boolean().optional(),
  migrations: z.strictObject({ applied: z.array(z.string()), pending: z.array(z.string()) }).optional(),
  flags: z.record(z.string(), z.string()).optional(),
  ci_log: z.string().optional(),
});
export type RepoOverrides = z.infer<typeof RepoOverrides>;

export const Group = z.string().regex(/^[a-z][a-z0-9-]*$/, 'group is kebab-case, e.g. first-approach-fails');

export const Task = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'task id is kebab-case'),
  family: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'family is kebab-case')
    .optional()
    .describe('The template (unit of generation) this task is a variant of; statistics resample families, not variants (default: the task alone)'),
  split: z
    .enum(['dev', 'test'])
    .optional()
    .describe('dev: tune prompts on it; test: report on it (`stratbench run --split`). Assigned per family, never splitting one'),
  group: Group,
  prompt: z.string().min(1).describe('The request as a developer wrote it'),
  repo: RepoOverrides,
  memory: z.array(MemoryNote).default([]).describe('Dated notes the memory read policy loads for this task'),
  faults: z.array(FaultSpec).default([]),
  expect: z.enum(['finish', 'stop']),
  checks: z.array(Check).min(1, 'a task needs at least one check: zero checks never scores as a pass'),
  reference: Trajectory,
  naive: Trajectory.optional().describe('The first reasonable approach (fails in first-approach-fails tasks)'),
  counterexamples: z.array(Counterexample).default([]),
});
export type Task = z.infer<typeof Task>;

/** What the suite-level reference checks read of each task: its position in `tasks`, id, group and fixture (a check is skipped for an absent field). */
export interface TaskReference {
  index: number;
  id?: string | undefined;
  group?: string | undefined;
  fixture?: string | undefined;
}

/**
 * Cross-task checks of a suite: task ids are unique, every task names a defined fixture (when `fixtureNames`
 * is given), and its group is listed in `groups` (when given). Returns zod-style `{ path, message }` issues.
 * Exported so the loader can run it on a suite that fails the schema elsewhere (zod skips refinements then).
 */
export function suiteReferenceIssues(
  fixtureNames: readonly string[] | undefined,
  groups: readonly string[] | undefined,
  tasks: readonly TaskReference[],
): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const seen = new Map<string, number>();
  for (const task of tasks) {
    const first = task.id === undefined ? undefined : seen.get(task.id);
    if (first !== undefined) {
      issues.push({ path: ['tasks', task.index, 'id'], message: `duplicate task id "${task.id}" (first at tasks[${first}])` });
    } else if (task.id !== undefined) seen.set(task.id, task.index);
    if (fixtureNames && task.fixture !== undefined && !fixtureNames.includes(task.fixture)) {
      issues.push({
        path: ['tasks', task.index, 'repo', 'fixture'],
        message: `unknown fixture "${task.fixture}"; defined: ${fixtureNames.join(', ') || '(none)'}`,
      });
    }
    if (groups && task.group !== undefined && !groups.includes(task.group)) {
      issues.push({ path: ['tasks', task.index, 'group'], message: `group "${task.group}" is not in groups: ${groups.join(', ')}` });
    }
  }
  return issues;
}

/** A generated family the generator dropped: where it came from and why (e.g. its reference did not score success). */
export const GeneratorReject = z.strictObject({
  family: z.string().min(1),
  fixture: z.string().min(1),
  group: Group,
  reason: z.string().min(1).describe('Kebab-case reason, e.g. reference-fails, hidden-tests-pass, over-family-cap'),
  detail: z.string().optional().describe('What the replay or the screen found'),
});
export type GeneratorReject = z.infer<typeof GeneratorReject>;

export const Suite = z
  .strictObject({
    version: z.literal(1).default(1),
    name: z.string().min(1),
    description: z.string().optional(),
    groups: z.array(Group).optional().describe('Display order of groups'),
    synonyms: z
      .record(z.string().min(1), z.array(z.string().min(1)).min(1))
      .optional()
      .describe(
        'Other ways to say a concept, by the value an answer_value check expects: { "write access": [push access, permission to push] } (added to the forms of every text/path answer_value check that expects it)',
      ),
    fixtures: z.record(z.string(), RepoSpec),
    templates: z.array(Template).optional().describe('Task templates: each expands into variants appended to `tasks` (see docs/templates.md)'),
    rejected: z
      .array(GeneratorReject)
      .optional()
      .describe('Families a generator built and dropped, with the reason (printed by `stratbench validate`; see docs/templates.md)'),
    tasks: z.array(Task).min(1),
  })
  .superRefine((suite, ctx) => {
    const references = suite.tasks.map((task, index) => ({ index, id: task.id, group: task.group, fixture: task.repo.fixture }));
    for (const issue of suiteReferenceIssues(Object.keys(suite.fixtures), suite.groups, references)) {
      ctx.addIssue({ code: 'custom', ...issue });
    }
  });
export type Suite = z.infer<typeof Suite>;
