// The plan-and-execute loop shared by plan-up-front and plan-and-replan: plan, execute in dependency order, check, replan.
import type { Outcome } from '../records/index.js';
import type { FailureView, Observation, RoleView } from '../models/types.js';
import type { ToolResult } from '../tools/types.js';
import { runCheck } from '../scoring/checks.js';
import { codeAheadPure } from '../sim-repo/index.js';
import { PlanReply, ReplanReply, ExecutorReply, ReportReply, type PlanStep } from './replies.js';
import { askRole, callRole, emitAsked } from './call-role.js';
import type { Budgets, StrategyContext } from './context.js';
import { budgetExhausted, finished, invalidOutput, repeatedRead, stopped, type WriteReport } from './endings.js';
import { blockedSteps, planDiff, planSnapshot, readySteps, validatePlan, validateSteps, writtenPath, type PlanState, type StepState } from './plan.js';
import { codeGoesAhead, newLedger, useToolAhead, useToolsConcurrently, type ToolCallLinks, type ToolLedger } from './tool-use.js';

export interface PlanLoopMode {
  /** false: plan-up-front (no replanning); true: plan-and-replan. */
  replan: boolean;
}

type StepRun = { kind: 'complete' } | { kind: 'failed'; failure: FailureView; eventId: number } | { kind: 'ended'; outcome: Outcome };

/**
 * Whether a step's result meets its `expect`, judged in code (seed 001: "an exit code settles it").
 * Success always does. For `run`, a non-zero exit meets an expect of "any exit" / "non-zero" or an
 * explicit matching "exit N"; exit 127 (no such command) never does.
 */
export function meetsExpectation(step: Pick<PlanStep, 'tool' | 'expect'>, result: ToolResult): boolean {
  if (result.status === 'success') return true;
  if (step.tool !== 'run' || result.status !== 'failure' || result.exit_code === undefined || result.exit_code === 127) return false;
  const expect = step.expect.toLowerCase();
  const exact = /exit\s*(?:code\s*)?(\d+)/.exec(expect);
  if (exact) return Number(exact[1]) === result.exit_code;
  return /any exit|non-?zero|any result/.test(expect);
}

/** Runs the plan loop; never throws for expected failures (invalid plans, failed steps, budgets). */
export async function runPlanLoop(ctx: StrategyContext, budgets: Budgets, mode: PlanLoopMode, ledger: ToolLedger = newLedger()): Promise<Outcome> {
  const brief = { task_id: ctx.task.id, prompt: ctx.task.prompt };
  const planned = await callRole(ctx, 'planner', 'plan', PlanReply, { role: 'planner', ...brief, memory: ctx.task.memory }, validatePlan);
  if (!planned.ok) {
    if (planned.error.startsWith('invalid plan:')) {
      ctx.trace.emit({ type: 'plan_invalid', errors: [planned.error] });
      return finishInvalid(ctx, 'planner', planned.error, 'invalid_plan');
    }
    return invalidOutput(ctx, 'planner', planned.error);
  }
  const plan: PlanState = {
    goal: planned.value.goal,
    done_when: planned.value.done_when,
    assumptions: planned.value.assumptions,
    steps: planned.value.steps.map((step) => ({ ...step, status: 'pending', revision: 0 })),
    revision: 0,
  };
  // Trace event of each plan revision (index = revision): tool calls name the plan whose step they run.
  const planEvents = [ctx.trace.emit({ type: 'plan', revision: 0, plan: planSnapshot(plan), call: planned.eventId })];

  const failures: FailureView[] = [];
  const named: string[] = [];
  const writeReport = budgetReport(ctx, plan, ledger, failures);
  let replans = 0;
  for (;;) {
    const run = await runSteps(ctx, plan, planEvents, ledger, budgets, mode, failures, writeReport);
    if (run.kind === 'ended') return run.outcome;
    let failure: FailureView;
    // The failed step_end or first failing done_when check a revision answers.
    let failureEvent: number;
    if (run.kind === 'failed') ({ failure, eventId: failureEvent } = run);
    else {
      // With a model served over the network, the checks' sandbox runs go ahead without blocking (codeAheadPure).
      const results = codeGoesAhead(ctx)
        ? await codeAheadPure(() => {
            const copy = ctx.repo.clone();
            return plan.done_when.map((check) => runCheck(check, { repo: copy }));
          })
        : plan.done_when.map((check) => runCheck(check, { repo: ctx.repo }));
      const doneWhen = traceDoneWhen(ctx, plan, results);
      if (doneWhen === undefined) return report(ctx, plan, ledger, failures, plan.done_when.length > 0 ? 'done_when_passed' : 'plan_complete');
      failures.push(doneWhen.failure);
      // plan-up-front has no replanner: the reporter writes up what happened and the episode finishes.
      if (!mode.replan) return report(ctx, plan, ledger, failures, 'done_when_failed');
      ({ failure, eventId: failureEvent } = doneWhen);
    }
    if (replans >= budgets.maxReplans) {
      return budgetExhausted(ctx, 'max_replans', `a failure needed replan ${replans + 1}; the budget is ${budgets.maxReplans}`, writeReport);
    }
    const existing = new Set(plan.steps.filter((s) => s.status !== 'pending').map((s) => s.id));
    const replanned = await callRole(
      ctx,
      'replanner',
      'replan',
      ReplanReply,
      {
        role: 'replanner',
        ...brief,
        memory: ctx.task.memory,
        plan: planSnapshot(plan),
        history: ledger.history,
        failure,
        changes: changeSummary(ctx),
        named_assumptions: [...named],
        replans_left: budgets.maxReplans - replans,
      },
      (reply) => (reply.decision === 'revise' ? validateSteps(reply.steps, existing) : []),
    );
    if (!replanned.ok) return invalidOutput(ctx, 'replanner', replanned.error);
    const reply = replanned.value;
    if (reply.decision === 'stop') return stopped(ctx, reply.message, 'replanner_stopped');
    const invalidated = reply.invalidated.trim();
    if (invalidated === '' || named.some((a) => a.toLowerCase() === invalidated.toLowerCase())) {
      return budgetExhausted(
        ctx,
        'repeated_assumption',
        invalidated === '' ? 'the replan named no broken assumption' : `the replan named "${invalidated}" again`,
        writeReport,
      );
    }
    named.push(invalidated);
    replans += 1;
    // The reporter sees only failures the latest revision has not answered; the trace keeps them all.
    failures.length = 0;
    const remaining = plan.steps.filter((s) => s.status === 'pending');
    plan.steps = [...plan.steps.filter((s) => s.status !== 'pending'), ...reply.steps.map((s) => ({ ...s, status: 'pending' as const, revision: replans }))];
    plan.assumptions = reply.assumptions;
    if (reply.done_when !== undefined) plan.done_when = reply.done_when;
    plan.revision = replans;
    planEvents[replans] = ctx.trace.emit({
      type: 'plan_revision',
      revision: replans,
      invalidated,
      plan: planSnapshot(plan),
      call: replanned.eventId,
      answers: failureEvent,
    });
    ctx.trace.emit({ type: 'plan_diff', revision: replans, diff: planDiff(remaining, reply.steps) });
  }
}

function finishInvalid(ctx: StrategyContext, role: 'planner', error: string, reason: string): Outcome {
  ctx.trace.emit({ type: 'end', status: 'invalid_output', reason: `${role}_${reason}`, message: error });
  return { status: 'invalid_output', reason: `${role}_${reason}`, message: error };
}

/**
 * Executes ready steps wave by wave until the plan is complete, a step fails (plan-and-replan), or a budget
 * ends the run. Steps in one wave overlap on the simulated clock unless they are irreversible or write the
 * same path (seed 001, "Running steps at once has rules of its own").
 */
async function runSteps(
  ctx: StrategyContext,
  plan: PlanState,
  planEvents: readonly number[],
  ledger: ToolLedger,
  budgets: Budgets,
  mode: PlanLoopMode,
  failures: FailureView[],
  writeReport: WriteReport,
): Promise<StepRun> {
  for (;;) {
    for (const step of blockedSteps(plan)) {
      step.status = 'skipped';
      ctx.trace.emit({ type: 'step_end', step_id: step.id, status: 'skipped', reason: 'a dependency failed or was skipped' });
    }
    const ready = readySteps(plan);
    if (ready.length === 0) return { kind: 'complete' };
    const wave = pickWave(ready);
    const calls: Array<{ step: StepState; tool: string; args: Record<string, unknown>; links: ToolCallLinks }> = [];
    const executorView = (step: StepState): RoleView => ({
      role: 'executor',
      task_id: ctx.task.id,
      prompt: ctx.task.prompt,
      step: { id: step.id, does: step.does, tool: step.tool, args: step.args, expect: step.expect },
      history: ledger.history,
    });
    // The steps of a wave are independent and every executor sees the same history, so a model that waits on a
    // server is asked for all of them at once (LLMCompiler); the replies are traced in step order, as a sequential
    // run traces them. Replies after an executor's invalid output (and their errors) are then dropped unrecorded, as
    // a sequential run never asks for them. An in-process deterministic model is asked one step at a time (nothing to overlap).
    const asked =
      wave.length > 1 && !ctx.models.executor.deterministic && ctx.options.parallelWaves !== false
        ? await Promise.allSettled(wave.map((step) => askRole(ctx, 'executor', 'executor_call', ExecutorReply, executorView(step))))
        : undefined;
    for (const [index, step] of wave.entries()) {
      const settled = asked?.[index];
      // A server error on a call the sequential run would have reached ends the episode as it would have there.
      if (settled?.status === 'rejected') throw settled.reason;
      const executed = settled ? emitAsked(ctx, settled.value) : await callRole(ctx, 'executor', 'executor_call', ExecutorReply, executorView(step));
      if (!executed.ok) return { kind: 'ended', outcome: invalidOutput(ctx, 'executor', executed.error) };
      if (executed.value.tool !== step.tool) {
        step.status = 'failed';
        const reason = `the executor returned a ${executed.value.tool} call for a ${step.tool} step`;
        const eventId = ctx.trace.emit({ type: 'step_end', step_id: step.id, status: 'failed', reason });
        const failure: FailureView = {
          kind: 'step_failed',
          step_id: step.id,
          tool: executed.value.tool,
          args: executed.value.args,
          status: 'failure',
          output: reason,
        };
        failures.push(failure);
        if (mode.replan) return { kind: 'failed', failure, eventId };
        continue;
      }
      calls.push({ step, tool: executed.value.tool, args: executed.value.args, links: { call: executed.eventId, plan: planEvents[step.revision] } });
    }
    if (ledger.toolCalls + calls.length > budgets.maxToolCalls) {
      return {
        kind: 'ended',
        outcome: await budgetExhausted(
          ctx,
          'tool_calls',
          `the plan needed call ${ledger.toolCalls + calls.length}; the budget is ${budgets.maxToolCalls}`,
          writeReport,
        ),
      };
    }
    const outcomes = await useToolsConcurrently(
      ctx,
      ledger,
      calls.map((call) => ({ tool: call.tool, args: call.args, stepId: call.step.id, links: call.links })),
    );
    let firstFailure: { failure: FailureView; eventId: number } | undefined;
    for (let i = 0; i < calls.length; i++) {
      const { step, tool, args, links } = calls[i]!;
      let used = outcomes[i]!;
      for (let retry = 1; used.result.status === 'transient_error' && retry <= budgets.transientRetries; retry++) {
        if (ledger.toolCalls >= budgets.maxToolCalls) {
          return {
            kind: 'ended',
            outcome: await budgetExhausted(
              ctx,
              'tool_calls',
              `a transient retry needed call ${ledger.toolCalls + 1}; the budget is ${budgets.maxToolCalls}`,
              writeReport,
            ),
          };
        }
        used = await useToolAhead(ctx, ledger, tool, args, step.id, retry + 1, links);
      }
      const keptMiss = used.result.status === 'lookup_miss' && ctx.options.lookupMissAsResult;
      if (meetsExpectation(step, used.result) || keptMiss) {
        step.status = 'done';
        ctx.trace.emit(
          keptMiss
            ? { type: 'step_end', step_id: step.id, status: 'done', reason: 'lookup miss kept as a result' }
            : { type: 'step_end', step_id: step.id, status: 'done' },
        );
        if (used.readsOfThisCall >= budgets.repeatedReadLimit)
          return { kind: 'ended', outcome: await repeatedRead(ctx, tool, used.readsOfThisCall, writeReport) };
        continue;
      }
      step.status = 'failed';
      const endId = ctx.trace.emit({
        type: 'step_end',
        step_id: step.id,
        status: 'failed',
        reason: `${used.result.status}${used.result.exit_code === undefined ? '' : ` (exit ${used.result.exit_code})`}`,
      });
      if (mode.replan && used.failuresOfThisCall >= budgets.repeatedFailureLimit) {
        return {
          kind: 'ended',
          outcome: await budgetExhausted(ctx, 'repeated_call', `${tool} with the same args failed ${used.failuresOfThisCall} times`, writeReport),
        };
      }
      if (used.readsOfThisCall >= budgets.repeatedReadLimit)
        return { kind: 'ended', outcome: await repeatedRead(ctx, tool, used.readsOfThisCall, writeReport) };
      const failure: FailureView = { kind: 'step_failed', step_id: step.id, tool, args, status: used.result.status, output: used.observation.output };
      failures.push(failure);
      firstFailure ??= { failure, eventId: endId };
    }
    if (firstFailure && mode.replan) return { kind: 'failed', ...firstFailure };
  }
}

/** Ready steps that may overlap: an irreversible step runs alone; two writes to one path never overlap. */
function pickWave(ready: readonly StepState[]): StepState[] {
  const first = ready[0]!;
  if (first.side_effect === 'irreversible') return [first];
  const wave: StepState[] = [];
  const paths = new Set<string>();
  for (const step of ready) {
    if (step.side_effect === 'irreversible') continue;
    const path = writtenPath(step);
    if (path !== undefined) {
      if (paths.has(path)) continue;
      paths.add(path);
    }
    wave.push(step);
  }
  return wave;
}

/**
 * Traces the results of the plan's done_when checks (run in code, in order); returns the failure for the replanner
 * with the trace event id of the first failing check, or undefined when every check passes.
 */
function traceDoneWhen(
  ctx: StrategyContext,
  plan: PlanState,
  results: ReadonlyArray<ReturnType<typeof runCheck>>,
): { failure: FailureView; eventId: number } | undefined {
  const failing: Array<{ check: unknown; detail: string }> = [];
  let firstFailing: number | undefined;
  results.forEach((result, index) => {
    const eventId = ctx.trace.emit({ type: 'check', scope: 'done_when', check: result.check, pass: result.pass, detail: result.detail });
    if (!result.pass) {
      failing.push({ check: plan.done_when[index], detail: result.detail });
      firstFailing ??= eventId;
    }
  });
  return firstFailing === undefined ? undefined : { failure: { kind: 'done_when_failed', checks: failing }, eventId: firstFailing };
}

async function report(ctx: StrategyContext, plan: PlanState, ledger: ToolLedger, failures: FailureView[], reason: string): Promise<Outcome> {
  const reply = await callRole(ctx, 'reporter', 'report', ReportReply, reporterView(ctx, plan, ledger, failures));
  if (!reply.ok) return invalidOutput(ctx, 'reporter', reply.error);
  const anyFailed = plan.steps.some((step) => step.revision === plan.revision && (step.status === 'failed' || step.status === 'skipped'));
  return finished(ctx, reply.value.answer, anyFailed && reason !== 'done_when_failed' ? 'plan_had_failures' : reason);
}

/** What the reporter sees: the request, the plan as it stands, every tool result and the failures given. */
function reporterView(ctx: StrategyContext, plan: PlanState, ledger: ToolLedger, failures: FailureView[]) {
  return {
    role: 'reporter' as const,
    task_id: ctx.task.id,
    prompt: ctx.task.prompt,
    plan: planSnapshot(plan),
    history: ledger.history as Observation[],
    failures,
  };
}

/** The report a budget ending asks for: the plan as it stands, every tool result, the failures not yet answered. */
function budgetReport(ctx: StrategyContext, plan: PlanState, ledger: ToolLedger, failures: FailureView[]): WriteReport {
  return async (budget) => {
    const reply = await callRole(ctx, 'reporter', 'report', ReportReply, { ...reporterView(ctx, plan, ledger, [...failures]), budget });
    return reply.ok ? reply.value.answer : undefined;
  };
}

/** The side-effecting changes so far, in words, for the replanner (seed 001: "the full state"). */
function changeSummary(ctx: StrategyContext): string[] {
  return ctx.repo.changes.map(
    (change) => `${change.kind}${change.path ? ` ${change.path}` : ''}${change.cmd ? ` \`${change.cmd}\`` : ''} (${change.side_effect})`,
  );
}
