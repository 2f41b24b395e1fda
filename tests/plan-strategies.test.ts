// Plan-up-front and plan-and-replan: bounded replans, transient retries, skipped dependents, partial plans (seed 000).
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../src/runner/episode.js';
import { planDiff, validatePlan } from '../src/strategies/plan.js';
import { meetsExpectation } from '../src/strategies/plan-loop.js';
import { allRoles, environment, miniTask, roleModel, scriptedFor, TOTAL_TEST } from './support/episode-fixtures.js';
import type { TraceEvent } from '../src/records/index.js';

const repo = {
  files: { 'src/total.js': 'export const total = (x) => Math.floor(x);\n', 'tests/total.test.js': TOTAL_TEST },
  scripts: {
    test: { kind: 'test' as const, duration_ms: 20_000 },
    lint: {
      kind: 'command' as const,
      cmd: 'eslint .',
      output: 'clean',
      failure: 'src/total.js: no-floor',
      passes_when: { kind: 'file_lacks' as const, path: 'src/total.js', text: 'Math.floor' },
      duration_ms: 20_000,
    },
    install: { kind: 'install' as const },
  },
};

const step = (id: string, tool: string, args: Record<string, unknown> | null, depends_on: string[] = [], expect = 'exit 0') => ({
  id,
  does: `${tool} ${id}`,
  tool,
  args,
  depends_on,
  expect,
  side_effect: 'none',
});

const task = miniTask({
  id: 'fix',
  group: 'multi-step',
  repo,
  checks: [{ check: 'command_passes', cmd: 'pnpm test' }],
  reference: { steps: [], finish: 'done' },
});
const types = (trace: TraceEvent[]) => trace.map((e) => e.type);

describe('plan-and-replan', () => {
  it('bounds replans at 3 and returns the partial plan as budget_exhausted, never throwing', async () => {
    const model = roleModel({
      planner: () => ({ goal: 'g', done_when: [], assumptions: ['A0'], steps: [step('s1', 'read', { path: 'nope.js' })] }),
      replanner: (_r, n) => ({ decision: 'revise', invalidated: `A${n}`, assumptions: [], steps: [step(`r${n + 1}.1`, 'read', { path: `nope${n}.js` })] }),
    });
    const record = await runEpisode({ task, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'max_replans' });
    expect(record.metrics.replans).toBe(3);
    expect(record.metrics.model_calls['replanner']).toBe(3);
    expect(types(record.trace).filter((t) => t === 'plan_diff')).toHaveLength(3);
  });

  it('retries a transient failure once on the same step, without replanning', async () => {
    const flaky = miniTask({
      id: 'flaky',
      repo: { ...repo, installed: false, faults: [{ command: 'pnpm install', times: 1, output: 'ERR_PNPM_FETCH ECONNRESET' }] },
      checks: [{ check: 'command_passes', cmd: 'pnpm test' }],
      reference: { steps: [], finish: 'ok' },
    });
    const model = roleModel({ planner: () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'run', { cmd: 'pnpm install' })] }) });
    const record = await runEpisode({ task: flaky, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    const calls = record.trace.filter((e) => e.type === 'tool_call');
    expect(calls.map((c) => (c.type === 'tool_call' ? [c.step_id, c.attempt, c.status] : null))).toEqual([
      ['s1', 1, 'transient_error'],
      ['s1', 2, 'success'],
    ]);
    expect(record.metrics.replans).toBe(0);
    expect(record.metrics.model_calls['replanner']).toBeUndefined();
  });

  it('stops when the same failing call fails twice across replans', async () => {
    const model = roleModel({
      planner: () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'run', { cmd: 'pnpm lint' })] }),
      replanner: (_r, n) => ({ decision: 'revise', invalidated: `A${n}`, assumptions: [], steps: [step(`r${n + 1}.1`, 'run', { cmd: 'pnpm lint' })] }),
    });
    const record = await runEpisode({ task, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_call' });
    expect(record.metrics.tool_calls).toBe(2);
  });

  it('ends a replan that names an assumption already named', async () => {
    const model = roleModel({
      planner: () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'read', { path: 'a.js' })] }),
      replanner: (_r, n) => ({
        decision: 'revise',
        invalidated: 'the file exists',
        assumptions: [],
        steps: [step(`r${n + 1}.1`, 'read', { path: `b${n}.js` })],
      }),
    });
    const record = await runEpisode({ task, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'budget_exhausted', reason: 'repeated_assumption' });
    expect(record.metrics.replans).toBe(1);
  });

  it('sends failing done_when checks to the replanner, which may stop with a message', async () => {
    const model = roleModel({
      planner: () => ({
        goal: 'g',
        done_when: [{ check: 'command_passes', cmd: 'pnpm test' }],
        assumptions: [],
        steps: [step('s1', 'read', { path: 'src/total.js' }, [], 'success')],
      }),
      replanner: (request) => {
        const failure = (request.view as { failure: { kind: string } }).failure;
        return { decision: 'stop', invalidated: '', assumptions: [], steps: [], message: `blocked: ${failure.kind}` };
      },
    });
    const record = await runEpisode({ task, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toEqual({ status: 'stopped', reason: 'replanner_stopped', message: 'blocked: done_when_failed' });
    const doneWhen = record.trace.find((e) => e.type === 'check' && e.scope === 'done_when');
    expect(doneWhen).toMatchObject({ pass: false });
  });

  it('keeps a lookup miss as a result in the lookup variant and sends it to the replanner otherwise', async () => {
    const planner = () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'read', { path: 'missing.js' }, [], 'success')] });
    const model = roleModel({ planner, replanner: () => ({ decision: 'stop', invalidated: '', assumptions: [], steps: [], message: 'no file' }) });
    const strict = await runEpisode({ task, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(strict.outcome.status).toBe('stopped');
    const lenient = await runEpisode({ task, strategy: 'plan-replan-lookup', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(lenient.outcome).toMatchObject({ status: 'finished', reason: 'plan_complete' });
  });

  it('rejects an invalid plan (cycle, unknown tool) after one repair, as the planner’s invalid_plan', async () => {
    const model = roleModel({
      planner: () => ({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'read', { path: 'a' }, ['s2']), step('s2', 'teleport', {}, ['s1'])] }),
    });
    const record = await runEpisode({ task, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    expect(record.outcome).toMatchObject({ status: 'invalid_output', reason: 'planner_invalid_plan' });
    expect(types(record.trace)).toEqual(['model_call', 'model_call', 'plan_invalid', 'end', 'check']);
    expect(model.requests[1]?.repair?.error).toMatch(/unknown tool "teleport".*dependency cycle/s);
  });
});

describe('plan-up-front', () => {
  it('skips the dependents of a failed step, runs independent ones, and always finishes', async () => {
    const model = roleModel({
      planner: () => ({
        goal: 'g',
        done_when: [],
        assumptions: [],
        steps: [
          step('s1', 'run', { cmd: 'pnpm lint' }),
          step('s2', 'run', { cmd: 'pnpm test' }, ['s1']),
          step('s3', 'read', { path: 'src/total.js' }, [], 'success'),
        ],
      }),
    });
    const record = await runEpisode({ task, strategy: 'plan-up-front', epoch: 0, seed: 1 }, await environment(allRoles(model)));
    const ends = record.trace.filter((e) => e.type === 'step_end').map((e) => (e.type === 'step_end' ? [e.step_id, e.status] : null));
    expect(ends).toEqual([
      ['s1', 'failed'],
      ['s3', 'done'],
      ['s2', 'skipped'],
    ]);
    expect(record.outcome).toMatchObject({ status: 'finished', reason: 'plan_had_failures', answer: 'report' });
    expect(record.metrics.model_calls['replanner']).toBeUndefined();
  });

  it('runs independent steps together on the simulated clock (20 s, not 60 s)', async () => {
    const parallel = (deps: (i: number) => string[]) =>
      roleModel({
        planner: () => ({
          goal: 'g',
          done_when: [],
          assumptions: [],
          steps: ['pnpm test', 'pnpm lint', 'pnpm test -- -t rounds'].map((cmd, i) => step(`s${i + 1}`, 'run', { cmd }, deps(i), 'any exit')),
        }),
      });
    const together = await runEpisode({ task, strategy: 'plan-up-front', epoch: 0, seed: 1 }, await environment(allRoles(parallel(() => []))));
    const inOrder = await runEpisode(
      { task, strategy: 'plan-up-front', epoch: 0, seed: 1 },
      await environment(allRoles(parallel((i) => (i === 0 ? [] : [`s${i}`])))),
    );
    expect(together.metrics.tool_ms).toBe(20_000);
    expect(inOrder.metrics.tool_ms).toBe(60_000);
  });
});

describe('plan validation and diffs', () => {
  it('accepts a valid plan and reports every problem of a bad one', () => {
    expect(validatePlan({ goal: 'g', done_when: [], assumptions: [], steps: [step('s1', 'read', { path: 'a' }) as never] })).toEqual([]);
    const tooMany = Array.from({ length: 13 }, (_, i) => step(`s${i}`, 'read', { path: 'a' }) as never);
    expect(validatePlan({ goal: 'g', done_when: [], assumptions: [], steps: tooMany })).toEqual(['a plan has 1-12 steps, got 13']);
    expect(
      validatePlan({
        goal: 'g',
        done_when: [],
        assumptions: [],
        steps: [step('s1', 'read', { path: 'a' }) as never, step('s1', 'read', { nope: 1 }, ['s9']) as never],
      }),
    ).toEqual([
      'duplicate step id "s1"',
      'step s1: bad args for read: path: Invalid input: expected string, received undefined, (args): Unrecognized key: "nope"',
      'step s1 depends on unknown step "s9"',
    ]);
  });

  it('checks shared (frozen) reply args once per tool, and args that could change every time', () => {
    const plan = (args: object, tool = 'read') => ({
      goal: 'g',
      done_when: [],
      assumptions: [],
      steps: [step('s1', tool, args as Record<string, unknown>) as never],
    });
    const bad = 'step s1: bad args for read: (args): Unrecognized key: "nope"';
    // A frozen value, as the parse cache shares one reply's value among episodes: its fields are read once per tool.
    let reads = 0;
    const frozen = new Proxy(Object.freeze({ path: 'a', nope: 1 }), {
      get: (object, key, receiver) => {
        if (typeof key === 'string' && key in object) reads++;
        return Reflect.get(object, key, receiver);
      },
    });
    expect(validatePlan(plan(frozen))).toEqual([bad]);
    const once = reads;
    expect(validatePlan(plan(frozen))).toEqual([bad]);
    expect(reads).toBe(once);
    expect(validatePlan(plan(frozen, 'list'))).toEqual(['step s1: bad args for list: (args): Unrecognized key: "nope"']);
    // Args that could change (unfrozen, an object inside, a getter) are checked as they are now.
    const open: Record<string, unknown> = { path: 'a', nope: 1 };
    expect(validatePlan(plan(open))).toEqual([bad]);
    delete open['nope'];
    expect(validatePlan(plan(open))).toEqual([]);
    let path: unknown = 'a';
    const getter = Object.freeze(Object.defineProperty({}, 'path', { get: () => path, enumerable: true }));
    expect(validatePlan(plan(getter))).toEqual([]);
    path = 7;
    expect(validatePlan(plan(getter))).toEqual(['step s1: bad args for read: path: Invalid input: expected string, received number']);
    // zod reads inherited fields too: frozen args over another prototype are checked as that prototype is now.
    const inherited: Record<string, unknown> = { path: 'a' };
    const child = Object.freeze(Object.create(inherited) as object);
    expect(validatePlan(plan(child))).toEqual([]);
    inherited['path'] = 42;
    expect(validatePlan(plan(child))).toEqual(['step s1: bad args for read: path: Invalid input: expected string, received number']);
  });

  it('diffs removed, added and revised steps', () => {
    const before = [step('a', 'read', { path: 'x' }), step('b', 'read', { path: 'y' })] as never[];
    const after = [step('b', 'read', { path: 'z' }), step('c', 'list', {})] as never[];
    expect(planDiff(before, after)).toEqual({ removed: ['a'], added: ['c'], revised: ['b'] });
  });

  it('judges a run step by its expect in code', () => {
    const failed = { status: 'failure' as const, output: '', exit_code: 1, duration_ms: 0, side_effect: 'none' as const };
    expect(meetsExpectation({ tool: 'run', expect: 'exit 0' }, failed)).toBe(false);
    expect(meetsExpectation({ tool: 'run', expect: 'any exit' }, failed)).toBe(true);
    expect(meetsExpectation({ tool: 'run', expect: 'exit 1' }, failed)).toBe(true);
    expect(meetsExpectation({ tool: 'run', expect: 'any exit' }, { ...failed, exit_code: 127 })).toBe(false);
  });
});

describe('scripted plan-and-replan', () => {
  it('switches from the naive plan to the reference at the first failure and recovers', async () => {
    const fix = miniTask({
      id: 'fix-total',
      group: 'first-approach-fails',
      repo,
      checks: [
        { check: 'command_passes', cmd: 'pnpm test' },
        { check: 'file_unchanged', path: 'tests/total.test.js' },
      ],
      naive: {
        assumption: 'A1: the install is stale',
        steps: [
          { tool: 'run', args: { cmd: 'pnpm install' } },
          { tool: 'run', args: { cmd: 'pnpm test' } },
        ],
        finish: 'reinstalled',
      },
      reference: {
        done_when: [{ check: 'command_passes', cmd: 'pnpm test' }],
        steps: [
          { tool: 'read', args: { path: 'src/total.js' } },
          { tool: 'edit', args: { path: 'src/total.js', old: 'Math.floor', new: 'Math.round' }, deferred: true },
          { tool: 'run', args: { cmd: 'pnpm test' } },
        ],
        finish: 'Rounded to nearest.',
      },
    });
    const record = await runEpisode({ task: fix, strategy: 'plan-replan', epoch: 0, seed: 1 }, await environment(scriptedFor(fix)));
    expect(record.success).toBe(true);
    expect(record.metrics.replans).toBe(1);
    const revision = record.trace.find((e) => e.type === 'plan_revision');
    expect(revision).toMatchObject({ invalidated: 'A1: the install is stale' });
    const upFront = await runEpisode({ task: fix, strategy: 'plan-up-front', epoch: 0, seed: 1 }, await environment(scriptedFor(fix)));
    expect(upFront.success).toBe(false);
    expect(upFront.outcome.status).toBe('finished');
  });
});
