// The results-file shapes: one EpisodeRecord per line of episodes.jsonl, plus run.json.
import { z } from 'zod';
import { TraceEvent } from '../trace/events.js';

export const SCHEMA_VERSION = 1;

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
  evidence: z.array(z.number().int()),
  explanation: z.string(),
});
export type Attribution = z.infer<typeof Attribution>;

export const EpisodeRecord = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  key: z.string().describe('task|strategy|epoch|config hash'),
  task: z.string(),
  group: z.string(),
  strategy: z.string(),
  epoch: z.number().int().nonnegative(),
  seed: z.number().int(),
  models: z.record(z.string(), z.string()).describe('Model serving each role'),
  outcome: Outcome,
  success: z.boolean().describe('Ending matches expect and every check passes; false for error episodes'),
  expect: z.enum(['finish', 'stop']),
  checks: z.array(CheckResult),
  metrics: Metrics,
  attribution: Attribution.nullable().default(null),
  wall_ms: z.number().describe('Real time the episode took, ms (the only non-deterministic field)'),
  trace: z.array(TraceEvent),
});
export type EpisodeRecord = z.infer<typeof EpisodeRecord>;
