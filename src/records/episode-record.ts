// One line of episodes.jsonl: an episode's identity, outcome, checks, costs, attribution and trace.
import { z } from 'zod';
import { Attribution, CheckResult, EpisodeFinding, Metrics, Outcome } from './outcome.js';
import { TraceEvent } from './trace-events.js';
import { EpisodeCounterfactual } from './counterfactual.js';

export const EpisodeRecord = z.object({
  schemaVersion: z.number().int().describe('See SCHEMA_VERSION; readers check it first'),
  key: z.string().describe('task|strategy|epoch|config hash'),
  task: z.string(),
  family: z.string().optional().describe("The template family of a generated task (the statistics' cluster); absent for a hand-written task"),
  split: z.enum(['dev', 'test']).optional().describe("The task's split in a suite that has them (dev: tune on it; test: report on it)"),
  group: z.string(),
  fixture: z
    .string()
    .optional()
    .describe("The suite's shared repository fixture the task starts from (repo.fixture); absent in folders written before it was recorded"),
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
  findings: z
    .array(EpisodeFinding)
    .optional()
    .describe('Successful episodes only: costs a role caused (e.g. a wrong check that cost replans); absent when none'),
  counterfactual: EpisodeCounterfactual.optional().describe(
    'Failed, non-error episodes of a run with --counterfactual: the replay with each role swapped for the reference oracle',
  ),
  wall_ms: z.number().describe('Real time the episode took, ms (the only non-deterministic field)'),
  trace: z.array(TraceEvent),
});
export type EpisodeRecord = z.infer<typeof EpisodeRecord>;
