// The ChatModel seam: one request shape for every role and backend, one reply shape back.
import type { z } from 'zod';

import { ROLES, type Role } from '../records/index.js';

/** Which part of a strategy a model call serves (defined in records/, where the trace names it). */
export { ROLES, type Role };

/**
 * Who makes a model call: a strategy's role, or `judge` — the scoring role that grades a suite's `judged` checks after
 * an episode (run --judge; src/runner/judge.ts). The judge is no strategy's role: it has no `--<role>-model` and its
 * calls are not in an episode's model-call metrics.
 */
export type CallRole = Role | 'judge';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}

/** Sampling and runtime options; each backend maps the ones it understands. */
export interface ChatOptions {
  temperature?: number;
  seed?: number;
  num_ctx?: number;
  num_predict?: number;
  think?: boolean;
  keep_alive?: string | number;
  timeout_ms?: number;
}

/**
 * What a strategy asks of a model. `view` is the structured state the prompt was rendered from
 * (task id, history, plan, failure); backends that read prose use `messages()`, the scripted
 * stand-in reads `view`. `messages` is lazy so a backend that never reads prose pays nothing for it.
 */
export interface ChatRequest<T = unknown> {
  role: CallRole;
  /** Name of the reply schema, e.g. "plan", "action" (used in prompts and cache keys). */
  schemaName: string;
  schema: z.ZodType<T>;
  view: RoleView | JudgeView;
  messages: () => ChatMessage[];
  options: ChatOptions;
  /** Repetition index of the episode; part of cache keys so epochs stay independent. */
  epoch: number;
  /** Set on the one repair attempt: the previous reply and why it was rejected. */
  repair?: { text: string; error: string };
  /**
   * Set when a role a strategy module declared makes the call (issue 28 §1): its name, while `role` is the built-in
   * role whose model serves it. The view is the strategy's own (its `role` field is this name); a backend that reads
   * views (the scripted stand-in, the counterfactual's oracle) answers it as `role`'s.
   */
  declaredRole?: string;
  /**
   * Aborts the call (the run was interrupted: SIGINT/SIGTERM): a backend stops waiting, closes its connection and
   * throws `CallInterrupted`. Set by `interruptModelCalls`; strategies leave it out.
   */
  signal?: AbortSignal;
}

/** Why lenient extraction had to touch a reply before it parsed (recorded on the model-call event). */
export type FormatWarning =
  | 'fenced_json'
  | 'reasoning_in_content'
  | 'trailing_text'
  | 'stringified_arguments'
  | 'type_coerced'
  | 'tool_call_in_content'
  | 'tool_name_case';

/** What a backend returns: the raw text, token counts and timings. Parsing is the caller's job. */
export interface ChatResponse {
  text: string;
  /** A value the backend already holds in structured form (e.g. native tool calls); parsed again anyway. */
  structured?: unknown;
  tokens_in: number;
  tokens_out: number;
  /** Model time in ms, excluding load time. */
  duration_ms: number;
  /** Model load time in ms (a cold load is not charged to the strategy). */
  load_ms: number;
  done_reason?: string;
  format_warnings?: FormatWarning[];
  /** Name of the model that actually served the call, e.g. "scripted" or "ollama:qwen3:8b". */
  model: string;
  /** Thinking text the backend returned separately, kept for the trace. */
  reasoning?: string;
  /** True when the reply came from the response cache (no model time was spent: `duration_ms` is 0). */
  cached?: boolean;
  /** True when the model had to be loaded for this call (`load_ms` is large; not charged to `duration_ms`). */
  cold_load?: boolean;
  /** Model calls this reply took, counting the backend's own retries of output faults (default 1). */
  attempts?: number;
  /** An output fault the backend saw before any parsing; the text is returned anyway for the caller to classify. */
  output_fault?: OutputFault;
  /**
   * What the backend actually sent, for the trace: the messages as rendered (schema line included) and the options
   * that went with them. Absent for backends that send nothing (the scripted stand-in reads the view).
   */
  sent?: SentMessages;
}

/** The messages of one request as the model received them, and the options sent with them (temperature, seed, num_ctx, think, …). */
export interface SentMessages {
  messages: ChatMessage[];
  options: Record<string, unknown>;
}

/**
 * A fault in what the model produced that the backend can see but must not repair. The reply text that
 * comes with it is returned as is (or, for `tool_call_malformed`, the server's error text, which never
 * parses), so the strategy's repair path and `invalid_output` accounting classify it.
 */
export interface OutputFault {
  kind:
    | 'tool_call_malformed' // HTTP 500 "error parsing tool call" from the server's tool-call parser
    | 'tool_arguments_unparseable' // native tool call whose string arguments are not a JSON object
    | 'output_budget_exhausted' // done_reason "length" (empty or cut-off content)
    | 'tool_call_in_content'; // a tool call written as text in content instead of a structured call
  /** The raw evidence: the server's error text, the raw arguments, the cap that was reached. */
  detail: string;
}

/** A model backend. Throws `InfrastructureError` for unreachable servers, 5xx and timeouts only. */
export interface ChatModel {
  readonly name: string;
  /**
   * Everything besides the request that changes this backend's replies (e.g. tool-calling mode, tool
   * definitions, default options); part of response-cache keys. Optional: absent means "nothing".
   */
  readonly cacheIdentity?: unknown;
  /** True when this is a deterministic stand-in, not an LLM (shown in run.json and the table header). */
  readonly deterministic: boolean;
  chat(request: ChatRequest): Promise<ChatResponse>;
  /**
   * Sends an OpenAI chat-completions request an external agent wrote (`run --agent-cmd`, issue 28 §3) to this
   * backend as it is — its messages, tools and sampling fields — with `model` set to this backend's model and
   * `stream` off; resolves to the server's completion and the wall time it took (ms). Absent on backends that render
   * their own prompts only (the scripted stand-in answers the role's view instead). Throws InfrastructureError as
   * `chat` does, and ContextExceededError when the server says the prompt does not fit the context window.
   */
  forwardChat?(body: Record<string, unknown>, signal?: AbortSignal): Promise<{ completion: unknown; wall_ms: number }>;
}

/**
 * The call was abandoned because the run was interrupted (Ctrl-C / SIGTERM): neither the strategy's failure nor an
 * infrastructure error. The episode it belongs to is not written (`run --resume` runs it again).
 */
export class CallInterrupted extends Error {
  override readonly name = 'CallInterrupted';
  constructor(reason: string) {
    super(`model call abandoned: ${reason}`);
  }
}

/** Infrastructure failure: never a strategy's failure; the episode ends as `error`. */
export class InfrastructureError extends Error {
  override readonly name = 'InfrastructureError';
  /** How long the server asked to be left alone, ms (its Retry-After on the last 429/503), when it said. */
  readonly retryAfterMs?: number;
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'server_error' | 'busy' | 'timeout' | 'model_missing' | 'other',
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options !== undefined && 'cause' in options ? { cause: options.cause } : undefined);
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** One tool call and what it returned, as a model sees it. */
export interface Observation {
  step_id?: string;
  tool: string;
  args: Record<string, unknown>;
  status: string;
  output: string;
  exit_code?: number;
}

/** The structured state each role's prompt is rendered from. */
export type RoleView =
  | { role: 'direct'; phase: 'act' | 'answer'; task_id: string; prompt: string; memory: MemoryView[]; history: Observation[] }
  | { role: 'agent'; task_id: string; prompt: string; memory: MemoryView[]; history: Observation[]; tool_calls_left: number }
  | { role: 'planner'; task_id: string; prompt: string; memory: MemoryView[] }
  | { role: 'executor'; task_id: string; prompt: string; step: StepView; history: Observation[] }
  | {
      role: 'replanner';
      task_id: string;
      prompt: string;
      memory: MemoryView[];
      plan: unknown;
      history: Observation[];
      failure: FailureView;
      changes: string[];
      named_assumptions: string[];
      replans_left: number;
    }
  | {
      role: 'reporter';
      task_id: string;
      prompt: string;
      /** The plan as it stands; null for ReAct. */
      plan: unknown;
      history: Observation[];
      failures: FailureView[];
      /** Present when a budget ended the run before the work was done (the report says what was found so far). */
      budget?: { limit: string; detail: string };
    }
  | { role: 'gate'; task_id: string; prompt: string };

/**
 * What the judge grades (src/scoring/judge/judge-view.ts builds it): the task's prompt, the rubric, the text graded
 * (the answer or the stop message) and a compact view of the agent's tool calls — tool, args, exit code and the first
 * lines of what each printed — so that a claimed result can be told from one the trace shows.
 */
export interface JudgeView {
  role: 'judge';
  task_id: string;
  prompt: string;
  rubric: string;
  graded: 'answer' | 'message';
  text: string;
  tool_calls: JudgeToolCall[];
  /** Tool calls left out of `tool_calls` (only the first ones are shown). */
  tool_calls_omitted: number;
}

/** One tool call as the judge sees it; `output` is cut to its first lines. */
export interface JudgeToolCall {
  tool: string;
  args: Record<string, unknown>;
  status: string;
  exit_code?: number;
  output: string;
}

export interface MemoryView {
  date: string;
  text: string;
}

export interface StepView {
  id: string;
  does: string;
  tool: string;
  args: Record<string, unknown> | null;
  expect: string;
}

/** Why the replanner was called: a failed step or failing done_when checks. */
export type FailureView =
  | { kind: 'step_failed'; step_id: string; tool: string; args: Record<string, unknown>; status: string; output: string }
  | { kind: 'done_when_failed'; checks: Array<{ check: unknown; detail: string }> };
