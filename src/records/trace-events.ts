// Trace events: the ordered, typed record of everything an episode did (model calls, plans, tool calls, checks).
import { z } from 'zod';
import { CheckSpec, OutcomeStatus } from './outcome.js';
import { SideEffect, ToolStatus, TraceRole } from './roles.js';

const base = {
  id: z.number().int().nonnegative().describe('Position in the trace, from 0'),
  t_ms: z.number().nonnegative().describe('Simulated clock when the event was recorded, ms'),
};

const Args = z.record(z.string(), z.unknown());
const EventId = z.number().int().nonnegative();

export const PlanDiff = z.object({
  removed: z.array(z.string()).describe('Step ids in the old plan and not in the new'),
  added: z.array(z.string()).describe('Step ids in the new plan and not in the old'),
  revised: z.array(z.string()).describe('Step ids in both whose tool, args or dependencies changed'),
});
export type PlanDiff = z.infer<typeof PlanDiff>;

export const StepStatus = z.enum(['pending', 'done', 'failed', 'skipped']);
export type StepStatus = z.infer<typeof StepStatus>;

/** One step of a plan snapshot, with its state when the snapshot was taken. */
export const PlanStepSnapshot = z.looseObject({
  id: z.string(),
  does: z.string(),
  tool: z.string(),
  args: Args.nullable().describe('null: filled by the executor from earlier results'),
  depends_on: z.array(z.string()),
  expect: z.string(),
  side_effect: SideEffect,
  status: StepStatus,
  revision: z.number().int().nonnegative().describe('Plan revision that introduced the step (0 = the first plan)'),
});
export type PlanStepSnapshot = z.infer<typeof PlanStepSnapshot>;

/** The plan as the harness held it: goal, done_when checks, assumptions and every step so far. */
export const PlanSnapshot = z.looseObject({
  goal: z.string(),
  done_when: z.array(CheckSpec),
  assumptions: z.array(z.string()),
  steps: z.array(PlanStepSnapshot),
  revision: z.number().int().nonnegative().optional(),
});
export type PlanSnapshot = z.infer<typeof PlanSnapshot>;

/** When a check ran: on a step's result, on the plan's done_when before finishing, or at scoring. */
export const CheckScope = z.enum(['done_when', 'final']);
export type CheckScope = z.infer<typeof CheckScope>;

/** What the backend was sent, by content hash into the results folder's messages.jsonl (absent: nothing was rendered, e.g. the scripted model reads the role's view). */
export const SentRequest = z.object({
  messages: z.array(z.string()).describe('Content hash of each message, in order'),
  options: z.record(z.string(), z.unknown()).describe('The options sent with them (temperature, seed, num_ctx, think, …)'),
});
export type SentRequest = z.infer<typeof SentRequest>;

export const ModelCallEvent = z.object({
  ...base,
  type: z.literal('model_call'),
  role: TraceRole.describe("The role called: a built-in one, or a role the strategy module declared (see the strategy's declared roles)"),
  model: z.string(),
  schema: z.string(),
  attempt: z.number().int().describe('1 for the first call, 2 for the repair attempt'),
  outcome: z.enum(['ok', 'invalid']),
  error: z.string().optional().describe('Why the reply did not parse or match the schema'),
  text: z.string().describe('The raw reply'),
  value: z.unknown().optional(),
  format_warnings: z.array(z.string()).default([]),
  tokens_in: z.number(),
  tokens_out: z.number(),
  duration_ms: z.number(),
  load_ms: z.number(),
  prompt_sha256: z.string().optional(),
  sent: SentRequest.optional(),
  thinking: z.string().optional().describe('Content hash of the thinking text the model returned (messages.jsonl)'),
  output_fault: z
    .object({ kind: z.string(), detail: z.string() })
    .optional()
    .describe('An output fault the backend saw before parsing (e.g. output_budget_exhausted, tool_call_malformed), with its raw evidence'),
  attempts: z.number().int().nonnegative().optional().describe('Calls the backend made for this reply, counting its own retries of output faults (absent: 1)'),
  cold_load: z.boolean().optional().describe('The model was loaded for this call; load_ms is not charged to duration_ms'),
  cached: z.boolean().optional().describe('Served from the response cache: no model time was spent'),
});

export const TraceEvent = z.discriminatedUnion('type', [
  ModelCallEvent,
  z.object({
    ...base,
    type: z.literal('gate'),
    route: z.enum(['direct', 'plan-replan']),
    call: EventId.optional().describe('The gate model_call whose reply chose the route'),
  }),
  z.object({
    ...base,
    type: z.literal('plan'),
    revision: z.literal(0),
    plan: PlanSnapshot,
    call: EventId.optional().describe('The planner model_call that wrote it'),
  }),
  z.object({ ...base, type: z.literal('plan_invalid'), errors: z.array(z.string()) }),
  z.object({
    ...base,
    type: z.literal('plan_revision'),
    revision: z.number().int().positive(),
    invalidated: z.string(),
    plan: PlanSnapshot,
    call: EventId.optional().describe('The replanner model_call that wrote it'),
    answers: EventId.optional().describe('The failure it answers: the failed step_end or the first failing done_when check'),
  }),
  z.object({ ...base, type: z.literal('plan_diff'), revision: z.number().int().positive(), diff: PlanDiff }),
  z.object({
    ...base,
    type: z.literal('tool_call'),
    step_id: z.string().optional(),
    attempt: z.number().int().positive().default(1),
    tool: z.string(),
    args: Args,
    status: ToolStatus,
    output: z.string(),
    exit_code: z.number().int().optional(),
    duration_ms: z.number(),
    side_effect: SideEffect,
    error_code: z.string().optional(),
    call: EventId.optional().describe('The model_call whose reply chose this call (absent: the args came from the plan)'),
    plan: EventId.optional().describe('The plan or plan_revision event whose step this call runs'),
  }),
  z.object({
    ...base,
    type: z.literal('step_end'),
    step_id: z.string(),
    status: z.enum(['done', 'failed', 'skipped']),
    reason: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('check'),
    scope: CheckScope,
    check: z.record(z.string(), z.unknown()),
    pass: z.boolean(),
    detail: z.string(),
  }),
  z.object({ ...base, type: z.literal('budget'), limit: z.string(), detail: z.string() }),
  z.object({
    ...base,
    type: z.literal('agent_process'),
    command: z.string().describe('The --agent-cmd the episode ran (with /bin/sh, in its own process group)'),
    exit_code: z.number().int().nullable().describe("Its exit code (the shell's: 128 + N when signal N ended the command); null when a signal ended the shell"),
    signal: z.string().nullable().describe('The signal that ended it or that the shell reported (SIGKILL when the harness killed the group)'),
    killed: z
      .enum(['finish', 'stop', 'budget', 'infrastructure', 'harness', 'interrupted'])
      .optional()
      .describe('Why the harness killed the process group, when it did: the episode had ended that way'),
    wall_ms: z.number().nonnegative().describe('Wall time from start to exit, ms'),
    stderr: z.string().describe('The last 8,000 characters of its stderr'),
    stdout: z.string().describe('The last 8,000 characters of its stdout'),
  }),
  z.object({
    ...base,
    type: z.literal('end'),
    status: OutcomeStatus,
    reason: z.string(),
    answer: z.string().optional(),
    message: z.string().optional(),
  }),
]);
export type TraceEvent = z.infer<typeof TraceEvent>;
export type TraceEventType = TraceEvent['type'];

/** Distributes Omit over a union so each event kind keeps its own fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event as a strategy emits it: the recorder stamps `id` and `t_ms`. */
export type TraceEventInput = DistributiveOmit<TraceEvent, 'id' | 't_ms'>;
