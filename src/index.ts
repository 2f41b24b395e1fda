// stratbench's public API (issue 28 §1): what a strategy module imports — `import { defineStrategy, callRole } from 'stratbench'`.
export { defineStrategy, STRATEGY_ROLES, type StrategyDefinition } from './strategies/define.js';
export type { RoleDeclaration, DeclaredRoleView } from './strategies/declared-roles.js';
export type { Strategy, StrategyContext, TaskBrief, Budgets, StrategyOptions } from './strategies/context.js';
export { REACT_BUDGETS, PLAN_REPLAN_BUDGETS, PLAN_UP_FRONT_BUDGETS } from './strategies/context.js';
export { callRole, type CalledRole } from './strategies/call-role.js';
export { ActionReply, ExecutorReply, PlanReply, PlanStep, ReplanReply, ReportReply } from './strategies/replies.js';
export { budgetExhausted, finished, invalidOutput, stopped, type WriteReport } from './strategies/endings.js';
export { newLedger, useToolAhead, type ToolLedger, type ToolOutcome } from './strategies/tool-use.js';
export type { Outcome } from './records/index.js';
export type { ChatModel, Observation, Role, RoleView } from './models/types.js';
export { validatePlan, planSnapshot, readySteps, planDiff, type PlanState, type StepState, type StepStatus } from './strategies/plan.js';
export { meetsExpectation } from './strategies/plan-loop.js';
export type { FailureView } from './models/types.js';
