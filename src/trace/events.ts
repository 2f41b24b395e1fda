// Trace events: the ordered, typed record of everything an episode did (model calls, plans, tool calls, checks).
import { z } from 'zod';

const base = {
  id: z.number().int().nonnegative().describe('Position in the trace, from 0'),
  t_ms: z.number().nonnegative().describe('Simulated clock when the event was recorded, ms'),
};

const AnyRecord = z.record(z.string(), z.unknown());

export const PlanDiff = z.object({
  removed: z.array(z.string()).describe('Step ids in the old plan and not in the new'),
  added: z.array(z.string()).describe('Step ids in the new plan and not in the old'),
  revised: z.array(z.string()).describe('Step ids in both whose tool, args or dependencies changed'),
});
export type PlanDiff = z.infer<typeof PlanDiff>;

export const TraceEvent = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('model_call'),
    role: z.string(),
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
    output_fault: z
      .object({ kind: z.string(), detail: z.string() })
      .optional()
      .describe('An output fault the backend saw before parsing (e.g. output_budget_exhausted, tool_call_malformed), with its raw evidence'),
    attempts: z.number().int().nonnegative().optional().describe('Calls the backend made for this reply, counting its own retries of output faults (absent: 1)'),
    cold_load: z.boolean().optional().describe('The model was loaded for this call; load_ms is not charged to duration_ms'),
    cached: z.boolean().optional().describe('Served from the response cache: no model time was spent'),
  }),
  z.object({ ...base, type: z.literal('gate'), route: z.enum(['direct', 'plan-replan']) }),
  z.object({ ...base, type: z.literal('plan'), revision: z.literal(0), plan: AnyRecord }),
  z.object({ ...base, type: z.literal('plan_invalid'), errors: z.array(z.string()) }),
  z.object({
    ...base,
    type: z.literal('plan_revision'),
    revision: z.number().int().positive(),
    invalidated: z.string(),
    plan: AnyRecord,
  }),
  z.object({ ...base, type: z.literal('plan_diff'), revision: z.number().int().positive(), diff: PlanDiff }),
  z.object({
    ...base,
    type: z.literal('tool_call'),
    step_id: z.string().optional(),
    attempt: z.number().int().positive().default(1),
    tool: z.string(),
    args: AnyRecord,
    status: z.string(),
    output: z.string(),
    exit_code: z.number().int().optional(),
    duration_ms: z.number(),
    side_effect: z.string(),
    error_code: z.string().optional(),
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
    scope: z.enum(['done_when', 'final']),
    check: AnyRecord,
    pass: z.boolean(),
    detail: z.string(),
  }),
  z.object({ ...base, type: z.literal('budget'), limit: z.string(), detail: z.string() }),
  z.object({
    ...base,
    type: z.literal('end'),
    status: z.string(),
    reason: z.string(),
    answer: z.string().optional(),
    message: z.string().optional(),
  }),
]);
export type TraceEvent = z.infer<typeof TraceEvent>;

/** Distributes Omit over a union so each event kind keeps its own fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type TraceEventInput = DistributiveOmit<TraceEvent, 'id' | 't_ms'>;
