// Trace links: every tool call names the model call that chose it and the plan whose step it runs; every plan and
// plan revision names the model call that wrote it, and a revision the failure it answers. Checked on every core
// task × strategy with the scripted model (whose naive-then-reference play makes revisions happen).
import { beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeRecord, TraceEvent } from '../src/records/index.js';
import { runEpisode } from '../src/runner/episode.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import { DEFAULT_STRATEGIES } from '../src/strategies/index.js';
import { indexTrace } from '../src/attribution/index.js';
import { allRoles, CORE_SUITE, environment } from './support/episode-fixtures.js';

let records: EpisodeRecord[];

beforeAll(async () => {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  const tasks: LoadedTask[] = loaded.tasks;
  const env = await environment(allRoles(new ScriptedModel(tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })))));
  records = [];
  for (const task of tasks) for (const strategy of DEFAULT_STRATEGIES) records.push(await runEpisode({ task, strategy, epoch: 0, seed: 1 }, env));
});

const byId = (trace: readonly TraceEvent[], id: number | undefined): TraceEvent | undefined => (id === undefined ? undefined : trace[id]);

describe('trace links', () => {
  it('every tool call names the model call whose reply chose it, of the role that chooses calls in its strategy', () => {
    let calls = 0;
    for (const { strategy, task, trace } of records) {
      for (const event of trace) {
        if (event.type !== 'tool_call') continue;
        calls += 1;
        const caller = byId(trace, event.call);
        const where = `${task} × ${strategy}, event ${event.id}`;
        expect(caller?.type, where).toBe('model_call');
        if (caller?.type !== 'model_call') continue;
        expect(caller.id, where).toBeLessThan(event.id);
        expect(caller.outcome, where).toBe('ok');
        expect(event.step_id === undefined ? ['agent', 'direct'] : ['executor'], where).toContain(caller.role);
        // The reply chose exactly this call.
        const value = caller.value as { tool?: string; args?: unknown };
        expect({ tool: value.tool, args: value.args }, where).toEqual({ tool: event.tool, args: event.args });
      }
    }
    expect(calls).toBeGreaterThan(100);
  });

  it('every plan-step tool call names the plan (or revision) that introduced its step', () => {
    for (const { task, strategy, trace } of records) {
      for (const event of trace) {
        if (event.type !== 'tool_call' || event.step_id === undefined) continue;
        const plan = byId(trace, event.plan);
        const where = `${task} × ${strategy}, event ${event.id}`;
        expect(plan?.type === 'plan' || plan?.type === 'plan_revision', where).toBe(true);
        if (plan?.type !== 'plan' && plan?.type !== 'plan_revision') continue;
        expect(plan.plan.steps.find((step) => step.id === event.step_id)?.revision, where).toBe(plan.revision);
      }
    }
  });

  it('plans name their planner call, the gate its gate call; revisions their replanner call and the failed step or failing done_when check they answer', () => {
    let revisions = 0;
    for (const { task, strategy, trace } of records) {
      for (const event of trace) {
        const where = `${task} × ${strategy}, event ${event.id}`;
        if (event.type === 'plan') expect(byId(trace, event.call), where).toMatchObject({ type: 'model_call', role: 'planner', outcome: 'ok' });
        if (event.type === 'gate') expect(byId(trace, event.call), where).toMatchObject({ type: 'model_call', role: 'gate', outcome: 'ok' });
        if (event.type !== 'plan_revision') continue;
        revisions += 1;
        expect(byId(trace, event.call), where).toMatchObject({ type: 'model_call', role: 'replanner', outcome: 'ok' });
        const answered = byId(trace, event.answers);
        expect(answered?.id, where).toBeLessThan(event.call!);
        const failure = answered?.type === 'step_end' ? answered.status : answered?.type === 'check' ? `${answered.scope} ${answered.pass}` : answered?.type;
        expect(['failed', 'done_when false'], where).toContain(failure);
      }
    }
    expect(revisions).toBeGreaterThan(3);
  });

  it('attribution reads the links: the index maps each tool call to the model call the trace names', () => {
    for (const { trace } of records) {
      const index = indexTrace(trace);
      for (const call of index.toolCalls) expect(index.callerOf.get(call.id)).toBe(call.call);
      for (const plan of index.plans) expect(plan.authorCallId).toBe((trace[plan.eventId] as { call?: number }).call);
    }
  });
});
