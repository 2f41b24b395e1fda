// The Agent Trajectory Interchange Format (ATIF) v1.4 as zod schemas: what `stratbench export --format atif` writes.
//
// Transcribed from Harbor's RFC "Agent Trajectory Interchange Format (ATIF) Specification", v1.4
// (laude-institute/harbor docs/rfcs/0001-trajectory-format.md; read from its mirror OpenAgentsInc/openagents
// docs/atif/0001-trajectory-format.md at commit d39efb6f16b8c5efc3ffa84578400f948f9800a1), with the checks of
// Harbor's pydantic models (src/harbor/models/trajectories/): every object forbids unknown fields (extra="forbid"),
// step_id counts from 1 in order, an observation's source_call_id names a tool_call_id of the same step, a step's
// model_name, reasoning_effort, reasoning_content, tool_calls and metrics are for agent steps only, and timestamps
// are ISO 8601. Later Harbor versions (v1.5–v1.7) only add optional fields and still accept "ATIF-v1.4".
import { z } from 'zod';

export const ATIF_SCHEMA_VERSION = 'ATIF-v1.4';

const Extra = z.record(z.string(), z.unknown());
const Count = z.number().int().nonnegative();

export const AtifToolCall = z.strictObject({
  tool_call_id: z.string().describe('Unique id of this call; observation results name it in source_call_id'),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()).describe('A JSON object, possibly empty'),
});

export const AtifSubagentTrajectoryRef = z.strictObject({
  session_id: z.string(),
  trajectory_path: z.string().optional(),
  extra: Extra.optional(),
});

export const AtifObservationResult = z.strictObject({
  source_call_id: z.string().nullable().optional().describe('The tool_call_id this result answers; absent for a system event'),
  content: z.string().nullable().optional(),
  subagent_trajectory_ref: z.array(AtifSubagentTrajectoryRef).nullable().optional(),
});

export const AtifObservation = z.strictObject({ results: z.array(AtifObservationResult) });

export const AtifMetrics = z.strictObject({
  prompt_tokens: Count.optional().describe('All input tokens of the turn, cached ones included'),
  completion_tokens: Count.optional(),
  cached_tokens: Count.optional(),
  cost_usd: z.number().optional(),
  prompt_token_ids: z.array(z.number().int()).optional(),
  completion_token_ids: z.array(z.number().int()).optional(),
  logprobs: z.array(z.number()).optional(),
  extra: Extra.optional(),
});

export const AtifFinalMetrics = z.strictObject({
  total_prompt_tokens: Count.optional(),
  total_completion_tokens: Count.optional(),
  total_cached_tokens: Count.optional(),
  total_cost_usd: z.number().optional(),
  total_steps: Count.optional(),
  extra: Extra.optional(),
});

const isoTimestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'timestamp is not ISO 8601');
const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const;

export const AtifStep = z
  .strictObject({
    step_id: z.number().int().min(1).describe('Ordinal index of the turn, from 1'),
    timestamp: isoTimestamp.optional(),
    source: z.enum(['system', 'user', 'agent']),
    model_name: z.string().optional(),
    reasoning_effort: z.union([z.string(), z.number()]).optional(),
    message: z.string().describe('Required, may be empty'),
    reasoning_content: z.string().optional(),
    tool_calls: z.array(AtifToolCall).optional(),
    observation: AtifObservation.optional(),
    metrics: AtifMetrics.optional(),
    extra: Extra.optional(),
  })
  .superRefine((step, context) => {
    if (step.source === 'agent') return;
    for (const field of AGENT_ONLY) {
      if (step[field] !== undefined) {
        context.addIssue({ code: 'custom', path: [field], message: `${field} is only applicable when source is 'agent', but source is '${step.source}'` });
      }
    }
  });

export const AtifAgent = z.strictObject({
  name: z.string(),
  version: z.string(),
  model_name: z.string().optional(),
  extra: Extra.optional(),
});

export const AtifTrajectory = z
  .strictObject({
    schema_version: z.literal(ATIF_SCHEMA_VERSION),
    session_id: z.string(),
    agent: AtifAgent,
    steps: z.array(AtifStep),
    notes: z.string().optional(),
    final_metrics: AtifFinalMetrics.optional(),
    extra: Extra.optional(),
  })
  .superRefine((trajectory, context) => {
    trajectory.steps.forEach((step, index) => {
      if (step.step_id !== index + 1) {
        context.addIssue({ code: 'custom', path: ['steps', index, 'step_id'], message: `expected ${index + 1} (sequential from 1), got ${step.step_id}` });
      }
      const ids = new Set((step.tool_calls ?? []).map((call) => call.tool_call_id));
      for (const [at, result] of (step.observation?.results ?? []).entries()) {
        if (result.source_call_id != null && !ids.has(result.source_call_id)) {
          context.addIssue({
            code: 'custom',
            path: ['steps', index, 'observation', 'results', at, 'source_call_id'],
            message: `references ${result.source_call_id}, which is not among step ${step.step_id}'s tool_calls`,
          });
        }
      }
    });
  });
export type AtifTrajectory = z.infer<typeof AtifTrajectory>;
export type AtifStep = z.infer<typeof AtifStep>;
