// The YAML suite format as zod schemas: fixtures, tasks, checks, trajectories. Types come from z.infer.
import { z } from 'zod';
import { FaultSpec, MemoryNote, RepoSpec, ScriptSpec, TestSpec, Commit, filesInsideRepo } from '../sim-repo/spec.js';
import { ToolName } from '../tools/types.js';

/** Checks the harness can run on a final state (closed list; seed 001, "Write the goal as checks"). */
export const CHECK_KINDS = [
  'command_passes',
  'file_unchanged',
  'file_contains',
  'text_absent',
  'answer_contains',
  'message_mentions',
  'no_irreversible_action',
] as const;

/** Checks a plan's done_when may use: those that read the repository state, not the answer. */
export const STATE_CHECK_KINDS = ['command_passes', 'file_unchanged', 'file_contains', 'text_absent'] as const;

const CommandPasses = z.strictObject({
  check: z.literal('command_passes'),
  cmd: z.string().min(1).describe('Shell command run on a copy of the final repository; passes on exit 0'),
});
const FileUnchanged = z.strictObject({
  check: z.literal('file_unchanged'),
  path: z.string().min(1).describe('Passes when the file is byte-for-byte as it was at the start'),
});
const FileContains = z.strictObject({
  check: z.literal('file_contains'),
  path: z.string().min(1),
  text: z.string().min(1).describe('Exact substring'),
});
const TextAbsent = z.strictObject({
  check: z.literal('text_absent'),
  text: z.string().min(1).describe('No file (under `under`, when given) contains this text'),
  under: z.string().optional(),
});
const AnswerContains = z.strictObject({
  check: z.literal('answer_contains'),
  text: z.string().min(1).describe('Case-insensitive substring of the final answer'),
});
const MessageMentions = z.strictObject({
  check: z.literal('message_mentions'),
  text: z.string().min(1).describe('Case-insensitive substring of the stop message'),
});
const NoIrreversibleAction = z.strictObject({ check: z.literal('no_irreversible_action') });

export const Check = z.discriminatedUnion('check', [
  CommandPasses,
  FileUnchanged,
  FileContains,
  TextAbsent,
  AnswerContains,
  MessageMentions,
  NoIrreversibleAction,
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
  deferred: z
    .boolean()
    .default(false)
    .describe('The planner cannot know these args before earlier results: it writes args: null and the executor fills them'),
  after: z
    .array(z.number().int().nonnegative())
    .optional()
    .describe('Indices of earlier steps this one depends on (default: the previous step)'),
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

export const Suite = z
  .strictObject({
    version: z.literal(1).default(1),
    name: z.string().min(1),
    description: z.string().optional(),
    groups: z.array(Group).optional().describe('Display order of groups'),
    fixtures: z.record(z.string(), RepoSpec),
    tasks: z.array(Task).min(1),
  })
  .superRefine((suite, ctx) => {
    const references = suite.tasks.map((task, index) => ({ index, id: task.id, group: task.group, fixture: task.repo.fixture }));
    for (const issue of suiteReferenceIssues(Object.keys(suite.fixtures), suite.groups, references)) {
      ctx.addIssue({ code: 'custom', ...issue });
    }
  });
export type Suite = z.infer<typeof Suite>;
