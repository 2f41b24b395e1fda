// How an episode ended, what its checks said, what it cost and which component it blames.
import { z } from 'zod';

/**
 * How an episode ended (DESIGN.md, Vocabulary). `invalid_output`: a role's reply still failed to parse or
 * validate after one repair attempt — a failure of that role. `error`: infrastructure or a harness bug —
 * never counted as a strategy's failure, always reported.
 */
export const OutcomeStatus = z.enum(['finished', 'stopped', 'budget_exhausted', 'invalid_output', 'error']);
export type OutcomeStatus = z.infer<typeof OutcomeStatus>;

export const Outcome = z.object({
  status: OutcomeStatus,
  reason: z.string().describe('Machine-readable reason, e.g. done_when_passed, max_replans, repeated_call'),
  answer: z.string().optional(),
  message: z.string().optional(),
});
export type Outcome = z.infer<typeof Outcome>;

/** A check as data: `check` names it (the suite's closed list), the other fields are its parameters. */
export const CheckSpec = z.looseObject({ check: z.string() });
export type CheckSpec = z.infer<typeof CheckSpec>;

export const CheckResult = z.object({
  check: z.record(z.string(), z.unknown()),
  pass: z.boolean(),
  detail: z.string(),
});
export type CheckResult = z.infer<typeof CheckResult>;

export const Metrics = z.object({
  model_calls: z.record(z.string(), z.number().int()).describe('Model calls by role'),
  tool_calls: z.number().int(),
  replans: z.number().int(),
  tokens_in: z.number(),
  tokens_out: z.number(),
  model_ms: z.number().describe('Model time excluding cold loads, ms'),
  load_ms: z.number().describe('Model load time, ms'),
  tool_ms: z.number().describe('Simulated tool time, ms (parallel steps overlap)'),
});
export type Metrics = z.infer<typeof Metrics>;

export const Attribution = z.object({
  component: z.string(),
  mode: z.string(),
  evidence: z.array(z.number().int()).describe('Trace event ids, the first erroneous event first'),
  explanation: z.string(),
  role: z
    .string()
    .optional()
    .describe("The role a strategy module declared whose model calls the evidence points at (read as its component's role); absent for built-in roles"),
});
export type Attribution = z.infer<typeof Attribution>;

/** A cost one role caused on an episode that still succeeded (issue 11 §1): a finding, not a failure. */
export const EpisodeFinding = Attribution.extend({
  cost: z.object({
    replans: z.number().int().describe('Replans the mistake caused'),
    model_calls: z.number().int().describe('Model calls the mistake cost (a wrong check: every call from its first failure on)'),
    tool_calls: z.number().int().default(0).describe('Tool calls the mistake wasted (absent in records written before it was counted: 0)'),
  }),
});
export type EpisodeFinding = z.infer<typeof EpisodeFinding>;
