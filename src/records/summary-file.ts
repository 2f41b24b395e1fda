// summary.json: success per strategy × group, costs, failed and errored episodes, attribution tally, statistics.
import { z } from 'zod';
import { OutcomeStatus } from './outcome.js';
import { RunCompleteness } from './run-file.js';

export const Tally = z.object({
  episodes: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative().describe('Episodes that count for success rates (all but error)'),
  successes: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
});
export type Tally = z.infer<typeof Tally>;

export const StrategySummary = Tally.extend({
  strategy: z.string(),
  by_group: z.record(z.string(), Tally),
  model_calls: z.number().describe('Totals over scored episodes; divide by scored for means'),
  tool_calls: z.number(),
  tool_ms: z.number().describe('Simulated tool time, ms'),
  model_ms: z.number().describe('Model time, ms'),
  replans: z.number(),
  tokens_in: z.number(),
  tokens_out: z.number(),
});
export type StrategySummary = z.infer<typeof StrategySummary>;

/** One failed or errored episode as the summary lists it. */
export const EpisodeLine = z.object({
  task: z.string(),
  group: z.string(),
  strategy: z.string(),
  epoch: z.number().int().nonnegative(),
  status: z.string(),
  reason: z.string(),
  detail: z.string().optional().describe('The first failing check, the ending expected, or the error'),
  attribution: z.string().optional().describe('component.mode of a failed episode'),
});
export type EpisodeLine = z.infer<typeof EpisodeLine>;

/** Compact per-episode result (no trace): what the statistics read. */
export const EpisodeResult = z.object({
  task: z.string(),
  family: z.string().optional().describe('The template family of a generated task (the statistics resample families)'),
  group: z.string(),
  strategy: z.string(),
  epoch: z.number().int().nonnegative(),
  success: z.boolean(),
  status: OutcomeStatus.describe('The same as outcome.status, kept flat for readers'),
  outcome: z.object({ status: OutcomeStatus }),
});
export type EpisodeResult = z.infer<typeof EpisodeResult>;

/** One strategy's results on one task, every epoch in one string (schemaVersion 3; replaces per-episode `results`). */
export const TaskResults = z.object({
  strategy: z.string(),
  task: z.string(),
  family: z.string().optional().describe('The template family of a generated task (the statistics resample families)'),
  group: z.string(),
  outcomes: z
    .string()
    .regex(/^[sfe-]*$/)
    .describe('One character per epoch, epoch 0 first: s succeeded, f failed, e infrastructure error (not scored), - not in this folder'),
});
export type TaskResults = z.infer<typeof TaskResults>;

/** Failed episodes per strategy × component and the most frequent failure modes. */
export const AttributionSummary = z.object({
  components: z.array(z.string()).describe('Components in display order'),
  by_strategy: z.record(z.string(), z.record(z.string(), z.number().int())).describe('strategy → component → failed episodes'),
  top_modes: z.array(z.object({ component: z.string(), mode: z.string(), count: z.number().int(), by_strategy: z.record(z.string(), z.number().int()) })),
  unattributed: z.number().int().nonnegative().describe('Failed episodes without an attribution'),
});
export type AttributionSummary = z.infer<typeof AttributionSummary>;

/** Costs on successes (issue 11 §1): findings of successful episodes per component.mode, with their summed cost. */
export const FindingsSummary = z.object({
  episodes: z.number().int().nonnegative().describe('Successful episodes with at least one finding'),
  modes: z.array(
    z.object({
      component: z.string(),
      mode: z.string(),
      count: z.number().int().describe('Findings of this kind'),
      replans: z.number().int(),
      model_calls: z.number().int(),
      tool_calls: z.number().int(),
      by_strategy: z.record(z.string(), z.number().int()),
    }),
  ),
});
export type FindingsSummary = z.infer<typeof FindingsSummary>;

/** The counterfactual replays of a run with --counterfactual (issue 11 §2), against the rule-based attribution. */
export const CounterfactualSummary = z.object({
  replayed: z.number().int().nonnegative().describe('Failed, non-error episodes replayed'),
  fixed: z.number().int().nonnegative().describe('Replayed episodes that some single-role swap fixed'),
  compared: z.number().int().nonnegative().describe('Episodes where both the replay and the rules name a component'),
  agreed: z.number().int().nonnegative(),
  by_component: z.record(z.string(), z.number().int()).describe('component the replay blamed → episodes'),
  oracle_calls: z.number().int().nonnegative().describe('Calls of the swapped roles, answered by the oracle'),
  unreplayed: z.number().int().nonnegative().describe('Calls of replayed roles the traces could not answer, answered by the oracle'),
  replayed_calls: z.number().int().nonnegative().describe('Calls answered from the recorded traces'),
  decisive: z.number().int().nonnegative().optional().describe('Replayed episodes with a decisive decision: one reply that, swapped alone, fixes it'),
  decisive_agreed: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("Of those with a rule verdict, the episodes whose decisive decision is the rules' first erroneous event"),
  decisive_compared: z.number().int().nonnegative().optional().describe('Episodes with both a decisive decision and a rule verdict'),
});
export type CounterfactualSummary = z.infer<typeof CounterfactualSummary>;

/** How many failed (and errored) episodes summary.json lists by name; the totals count them all. */
export const SUMMARY_LISTED_EPISODES = 1000;

export const RunSummary = z.object({
  schemaVersion: z.number().int(),
  groups: z.array(z.string()),
  strategies: z.array(StrategySummary),
  failures: z.array(EpisodeLine).describe('Failed episodes in strategy, task, epoch order: the first SUMMARY_LISTED_EPISODES of them'),
  failures_total: z.number().int().nonnegative().optional().describe('Failed episodes in all (absent before schemaVersion 3: the list was whole)'),
  errors: z.array(EpisodeLine).describe('Errored episodes in strategy, task, epoch order: the first SUMMARY_LISTED_EPISODES of them'),
  errors_total: z.number().int().nonnegative().optional().describe('Errored episodes in all (absent before schemaVersion 3: the list was whole)'),
  results: z.array(EpisodeResult).optional().describe("Every episode's result (schemaVersion 1–2 only; see task_results)"),
  task_results: z.array(TaskResults).optional().describe('Every strategy × task, its epochs as one string (schemaVersion 3 on)'),
  attribution: AttributionSummary,
  findings: FindingsSummary.optional().describe('Costs on successes; absent in summaries written before findings were tallied'),
  counterfactual: CounterfactualSummary.optional().describe('Present when some episode carries a counterfactual replay'),
  completeness: RunCompleteness.optional().describe('How much of the matrix the folder holds (absent in folders written before it)'),
});
export type RunSummary = z.infer<typeof RunSummary>;

/**
 * summary.json as read back: the run summary plus the statistics section (intervals, pass@k, paired tests),
 * whose shape belongs to report/ and is only checked to be an object here.
 */
export const SummaryFile = RunSummary.extend({ statistics: z.record(z.string(), z.unknown()) });
