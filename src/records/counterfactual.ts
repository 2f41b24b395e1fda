// A failed episode's counterfactual replay as its record keeps it (issue 11 §2): each role swapped for the reference oracle.
import { z } from 'zod';

/** One swap: the episode replayed with one role played by the oracle, every other role replayed from the trace. */
export const CounterfactualSwap = z.object({
  success: z.boolean().describe('The swap alone turned the failure into a success'),
  oracle_calls: z.number().int().nonnegative().describe('Calls of the swapped role, answered by the oracle (no model)'),
  replayed: z.number().int().nonnegative().describe('Calls of the other roles answered from the recorded trace'),
  unreplayed: z
    .number()
    .int()
    .nonnegative()
    .describe('Calls of the other roles the trace could not answer (the swap changed what they saw): answered by the oracle, not a model'),
  abstained: z
    .string()
    .optional()
    .describe('Why the oracle could not stand in for this role (a declared role whose replies no built-in role writes): the swap was not made'),
});
export type CounterfactualSwap = z.infer<typeof CounterfactualSwap>;

/** One decision swapped alone (issue 27 §2): the role's output at one model call replaced, the rest replayed. */
export const CounterfactualDecision = CounterfactualSwap.extend({
  role: z.string().describe('The role whose one decision was replaced'),
  event: z.number().int().nonnegative().describe('The trace event id of that decision (its model_call)'),
  replayed: z.number().int().nonnegative().describe('Calls answered from the recorded trace, the role’s own later replies included'),
});
export type CounterfactualDecision = z.infer<typeof CounterfactualDecision>;

export const EpisodeCounterfactual = z.object({
  swaps: z.record(z.string(), CounterfactualSwap).describe('role → its swap; every role the episode called, the reporter included'),
  fixed_by: z.array(z.string()).describe('Roles whose swap alone turned the failure into a success'),
  decisions: z
    .array(CounterfactualDecision)
    .optional()
    .describe('Every single decision whose swap alone turned the failure into a success (decisions of the fixing roles are tried)'),
  decisive: z
    .object({ role: z.string(), event: z.number().int().nonnegative() })
    .nullable()
    .optional()
    .describe('The decisive decision: of the fixing decisions, the one resting least on the oracle for other roles, then the earliest'),
  component: z
    .string()
    .nullable()
    .describe(
      'The component blamed: the decisive decision’s role; where no single decision fixes it, of the fixing role swaps the one resting least on the oracle for other roles, then the earliest role; null if none',
    ),
  rules: z.string().optional().describe('The rule-based verdict, component.mode'),
  agrees_with_rules: z.boolean().nullable().describe('component equals the rules’ component (null when either is missing)'),
  extra_calls: z
    .number()
    .int()
    .nonnegative()
    .describe('Calls the replay made beyond replaying the trace (oracle_calls + unreplayed over every swap); none of them reached a model'),
});
export type EpisodeCounterfactual = z.infer<typeof EpisodeCounterfactual>;
