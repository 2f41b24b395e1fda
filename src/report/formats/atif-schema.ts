// Harbor's ATIF models (Agent Trajectory Interchange Format, ATIF-v1.6) as zod schemas: what `export --format atif`
// writes and checks every file against before writing it; tests/harbor-atif-models.ts reads the files back with them.
//
// Transcribed from Harbor's pydantic models, src/harbor/models/trajectories/{trajectory,agent,step,tool_call,
// observation,observation_result,subagent_trajectory_ref,metrics,final_metrics,content}.py, as vendored unchanged in
// refreshdotdev/harbor-trajectories (vendor/harbor/models/trajectories/) at commit
// 22dafa68f53b0e20b8818510116d18a3a58fcd73 (February 2026; upstream laude-institute/harbor, now harbor-framework/harbor,
// was not retrievable here). Field names, required/optional, types, enums and validators follow them:
// - every model forbids unknown fields (`model_config = {"extra": "forbid"}`); `X | None = None` accepts null;
// - Trajectory: schema_version one of ATIF-v1.0…v1.6 (default v1.6), steps non-empty, step_id sequential from 1, an
//   observation result's source_call_id names a tool_call_id of its own step;
// - Step: step_id ≥ 1, source system|user|agent, message a string or ContentPart[], timestamp ISO 8601
//   (`datetime.fromisoformat`), model_name, reasoning_effort, reasoning_content, tool_calls and metrics only when
//   source is agent; ContentPart: text needs text (no source), image needs source (no text);
// - FinalMetrics.total_steps ≥ 0; token counts are plain ints (no sign constraint); tool_definitions a list of objects.
// Pydantic's lax coercions (the string "3" for an int, 1.0 for 1) are not reproduced: here stricter, never looser.
// Later Harbor (ATIF-v1.7+) adds trajectory_id and embedded subagent_trajectories and still accepts ATIF-v1.6 files
// whose subagent references carry a trajectory_path (decision 0035).
import { z } from 'zod';

export const ATIF_SCHEMA_VERSION = 'ATIF-v1.6';
export const ATIF_SCHEMA_VERSIONS = ['ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6'] as const;

/** `dict[str, Any] | None`. */
const Extra = z.record(z.string(), z.unknown()).nullish();
/** Python's `int`: a whole number of any sign. */
const Int = z.number().int();

/**
 * What `datetime.fromisoformat` (Python 3.11) reads after Harbor turns a trailing `Z` into `+00:00`: a date, optionally
 * a time (hours, minutes, seconds, fractions) and an offset. Rarer forms it also reads (ISO week dates, basic format
 * without dashes) are refused here.
 */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}(?::\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?)?(?:Z|[+-]\d{2}(?::?\d{2}(?::?\d{2}(?:\.\d{1,6})?)?)?)?)?$/;

/** A pydantic `model_validator(mode="after")` runs only once every field is valid. */
const afterFields = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

export const AtifImageSource = z.strictObject({
  media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']).describe('MIME type of the image'),
  path: z.string().describe('A relative or absolute file path, or a URL'),
});

export const AtifContentPart = z
  .strictObject({
    type: z.enum(['text', 'image']),
    text: z.string().nullish().describe("Required when type='text'"),
    source: AtifImageSource.nullish().describe("Required when type='image'"),
  })
  .superRefine((part, context) => {
    const problem =
      part.type === 'text'
        ? part.text == null
          ? "'text' field is required when type='text'"
          : part.source != null
            ? "'source' field is not allowed when type='text'"
            : null
        : part.source == null
          ? "'source' field is required when type='image'"
          : part.text != null
            ? "'text' field is not allowed when type='image'"
            : null;
    if (problem) context.addIssue({ code: 'custom', path: [], message: problem });
  }, afterFields);

/** `str | list[ContentPart]`. */
const Content = z.union([z.string(), z.array(AtifContentPart)]);

export const AtifToolCall = z.strictObject({
  tool_call_id: z.string().describe('Unique identifier for this specific tool call; observation results name it in source_call_id'),
  function_name: z.string().describe('The name of the function or tool being invoked'),
  arguments: z.record(z.string(), z.unknown()).describe('Arguments passed to the function (can be empty dict)'),
});

export const AtifSubagentTrajectoryRef = z.strictObject({
  session_id: z.string().describe('The session ID of the delegated subagent trajectory'),
  trajectory_path: z.string().nullish().describe('Reference to the complete subagent trajectory file'),
  extra: Extra.describe('Custom metadata about the subagent execution'),
});

export const AtifObservationResult = z.strictObject({
  source_call_id: z
    .string()
    .nullish()
    .describe('The tool_call_id this result answers; null or omitted for an action outside tool calling (e.g. a system-initiated operation)'),
  content: Content.nullish().describe('The output or result'),
  subagent_trajectory_ref: z.array(AtifSubagentTrajectoryRef).nullish().describe('References to delegated subagent trajectories'),
});

export const AtifObservation = z.strictObject({ results: z.array(AtifObservationResult) });

export const AtifMetrics = z.strictObject({
  prompt_tokens: Int.nullish().describe('Total input tokens including cached and non-cached'),
  completion_tokens: Int.nullish(),
  cached_tokens: Int.nullish(),
  cost_usd: z.number().nullish(),
  prompt_token_ids: z.array(Int).nullish(),
  completion_token_ids: z.array(Int).nullish(),
  logprobs: z.array(z.number()).nullish(),
  extra: Extra,
});

export const AtifFinalMetrics = z.strictObject({
  total_prompt_tokens: Int.nullish(),
  total_completion_tokens: Int.nullish(),
  total_cached_tokens: Int.nullish(),
  total_cost_usd: z.number().nullish(),
  total_steps: Int.min(0).nullish().describe('If not the number of steps in the trajectory, the notes must say why'),
  extra: Extra,
});

const AGENT_ONLY = ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics'] as const;

export const AtifStep = z
  .strictObject({
    step_id: Int.min(1).describe('Ordinal index of the turn (starting from 1)'),
    timestamp: z.string().regex(ISO_8601, 'Invalid ISO 8601 timestamp').nullish().describe('ISO 8601 timestamp indicating when this step occurred'),
    source: z.enum(['system', 'user', 'agent']),
    model_name: z.string().nullish(),
    reasoning_effort: z.union([z.string(), z.number()]).nullish(),
    message: Content.describe('Required; may be empty'),
    reasoning_content: z.string().nullish(),
    tool_calls: z.array(AtifToolCall).nullish(),
    observation: AtifObservation.nullish(),
    metrics: AtifMetrics.nullish(),
    is_copied_context: z.boolean().nullish().describe('Copied from a previous trajectory for context (ATIF-v1.5)'),
    extra: Extra,
  })
  .superRefine((step, context) => {
    if (step.source === 'agent') return;
    // Harbor's validator raises at the first agent-only field it finds, located at the step.
    const field = AGENT_ONLY.find((name) => step[name] != null);
    if (field)
      context.addIssue({ code: 'custom', path: [], message: `Field '${field}' is only applicable when source is 'agent', but source is '${step.source}'` });
  }, afterFields);

export const AtifAgent = z.strictObject({
  name: z.string().describe('The name of the agent system'),
  version: z.string(),
  model_name: z.string().nullish().describe('Default LLM model used for this trajectory'),
  tool_definitions: z
    .array(z.record(z.string(), z.unknown()))
    .nullish()
    .describe("Tool/function definitions available to the agent, each following OpenAI's function calling schema"),
  extra: Extra,
});

export const AtifTrajectory = z
  .strictObject({
    schema_version: z.enum(ATIF_SCHEMA_VERSIONS).default(ATIF_SCHEMA_VERSION),
    session_id: z.string().describe('Unique identifier for the entire agent run'),
    agent: AtifAgent,
    steps: z.array(AtifStep).min(1),
    notes: z.string().nullish(),
    final_metrics: AtifFinalMetrics.nullish(),
    continued_trajectory_ref: z.string().nullish().describe('The continuation trajectory file, if this one is continued in another'),
    extra: Extra,
  })
  .superRefine((trajectory, context) => {
    // Harbor's two model validators, in its order; each raises at its first finding and the first that raises ends
    // validation, so at most one of these issues is reported (at the trajectory, as pydantic locates them).
    const fail = (message: string) => context.addIssue({ code: 'custom', path: [], message });
    for (const [index, step] of trajectory.steps.entries()) {
      if (step.step_id !== index + 1) return fail(`steps[${index}].step_id: expected ${index + 1} (sequential from 1), got ${step.step_id}`);
    }
    for (const step of trajectory.steps) {
      const ids = new Set((step.tool_calls ?? []).map((call) => call.tool_call_id));
      for (const result of step.observation?.results ?? []) {
        if (result.source_call_id != null && !ids.has(result.source_call_id)) {
          return fail(`Observation result references source_call_id '${result.source_call_id}' which is not found in step ${step.step_id}'s tool_calls`);
        }
      }
    }
  }, afterFields);

export type AtifTrajectory = z.infer<typeof AtifTrajectory>;
export type AtifStep = z.infer<typeof AtifStep>;
export type AtifAgent = z.infer<typeof AtifAgent>;
export type AtifSubagentTrajectoryRef = z.infer<typeof AtifSubagentTrajectoryRef>;
export type AtifObservationResult = z.infer<typeof AtifObservationResult>;
