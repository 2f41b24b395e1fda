// Model-facing reply schemas, one per role. Kept flat (no nested $ref) for grammar-constrained decoding.
import { z } from 'zod';
import { SideEffect } from '../sim-repo/spec.js';
import { StateCheck } from '../suite/schema.js';

const Args = z.record(z.string(), z.unknown());

/** One plan step: a single tool call with an expected result (seed 001, "Each step in the plan"). */
export const PlanStep = z.object({
  id: z.string().min(1).describe('Unique step id, e.g. s1'),
  does: z.string().min(1).describe('What the step does, in one sentence'),
  tool: z.string().min(1).describe('One of the available tools'),
  args: Args.nullable().describe('Tool arguments, or null when they depend on results not yet seen'),
  depends_on: z.array(z.string()).default([]).describe('Ids of steps that must finish first'),
  expect: z.string().default('').describe('What a good result looks like, e.g. "exit 0" or "any exit"'),
  side_effect: SideEffect.default('none'),
});
export type PlanStep = z.infer<typeof PlanStep>;

/** The planner's reply (DESIGN.md: `{goal, done_when[], assumptions[], steps[]}`). */
export const PlanReply = z.object({
  goal: z.string().min(1),
  done_when: z.array(StateCheck).default([]).describe('Checks the harness runs in code at the end'),
  assumptions: z.array(z.string()).default([]).describe('Guesses the plan rests on, so a failure can point at one'),
  steps: z.array(PlanStep),
});
export type PlanReply = z.infer<typeof PlanReply>;

/** The replanner's reply: revise the remaining steps naming the broken assumption, or stop with a message. */
export const ReplanReply = z.object({
  decision: z.enum(['revise', 'stop']),
  invalidated: z.string().default('').describe('The assumption the failure proved wrong (must be new each time)'),
  assumptions: z.array(z.string()).default([]),
  steps: z.array(PlanStep).default([]).describe('The new remaining steps, from the current state'),
  done_when: z.array(StateCheck).optional().describe('Replacement done_when checks, if any'),
  message: z.string().default('').describe('With stop: what was tried, what changed, what is needed and from whom'),
});
export type ReplanReply = z.infer<typeof ReplanReply>;

/** One action of the direct or ReAct agent: a tool call, or an ending. */
export const ActionReply = z.object({
  action: z.enum(['tool', 'finish', 'stop']),
  tool: z.string().optional().describe('With action "tool"'),
  args: Args.optional().describe('With action "tool"'),
  answer: z.string().optional().describe('With action "finish": the answer or report'),
  message: z.string().optional().describe('With action "stop": the message to a person'),
});
export type ActionReply = z.infer<typeof ActionReply>;

/** The executor's reply: the tool call for the current step and nothing else. */
export const ExecutorReply = z.object({
  tool: z.string().min(1),
  args: Args,
});
export type ExecutorReply = z.infer<typeof ExecutorReply>;

/** The reporter's reply: the final answer or report for the developer. */
export const ReportReply = z.object({ answer: z.string() });
export type ReportReply = z.infer<typeof ReportReply>;

/** The gate's reply: which strategy this request gets (seed 001, "a gate"). */
export const GateReply = z.object({ route: z.enum(['direct', 'plan']) });
export type GateReply = z.infer<typeof GateReply>;
