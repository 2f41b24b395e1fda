// The attribution table and its summary.json section: failures per strategy × component, top modes with counts.
import { describe, expect, it } from 'vitest';
import { renderAttributionTable, summarizeAttributions } from '../src/report/attribution-table.js';
import { SummaryBuilder } from '../src/report/run-summary.js';
import { renderRunTable } from '../src/report/run-table.js';
import type { EpisodeRecord } from '../src/records/index.js';

const failures = [
  { strategy: 'plan-replan', component: 'planner', mode: 'guessed_target' },
  { strategy: 'plan-replan', component: 'replanner', mode: 'vague_stop' },
  { strategy: 'plan-up-front', component: 'planner', mode: 'guessed_target' },
  { strategy: 'react', component: 'agent', mode: 'no_stop' },
  { strategy: 'react' },
];

describe('summarizeAttributions', () => {
  it('counts failures per strategy and component and ranks the modes', () => {
    expect(summarizeAttributions(failures, ['react', 'plan-up-front', 'plan-replan', 'gated'])).toEqual({
      components: ['planner', 'replanner', 'agent'],
      by_strategy: { react: { agent: 1 }, 'plan-up-front': { planner: 1 }, 'plan-replan': { planner: 1, replanner: 1 }, gated: {} },
      top_modes: [
        { component: 'planner', mode: 'guessed_target', count: 2, by_strategy: { 'plan-replan': 1, 'plan-up-front': 1 } },
        { component: 'agent', mode: 'no_stop', count: 1, by_strategy: { react: 1 } },
        { component: 'replanner', mode: 'vague_stop', count: 1, by_strategy: { 'plan-replan': 1 } },
      ],
      unattributed: 1,
    });
  });

  it('renders one row per strategy and the top modes; nothing when no episode failed', () => {
    const text = renderAttributionTable(summarizeAttributions(failures, ['react', 'plan-replan']), { color: false, topModes: 2 });
    expect(text).toContain('failures by component');
    expect(text).toMatch(/plan-replan\s+│ 1\s+│ 1\s+│ -\s+│ 2/);
    expect(text).toMatch(/^ +2  planner.guessed_target +plan-replan 1, plan-up-front 1$/m);
    expect(text).not.toContain('vague_stop');
    expect(text).toContain('(1 failed episode(s) carry no attribution)');
    expect(renderAttributionTable(summarizeAttributions([], ['react']), { color: false })).toBe('');
  });
});

describe('summary.json and the run table', () => {
  it('carries the attribution section and marks failed lines with component.mode', () => {
    const base = { schemaVersion: 1, group: 'g', epoch: 0, seed: 1, models: {}, expect: 'finish', checks: [], wall_ms: 0, trace: [] };
    const metrics = { model_calls: {}, tool_calls: 0, replans: 0, tokens_in: 0, tokens_out: 0, model_ms: 0, load_ms: 0, tool_ms: 0 };
    const record = (task: string, attribution: EpisodeRecord['attribution']): EpisodeRecord =>
      ({
        ...base,
        key: task,
        task,
        strategy: 'react',
        success: attribution === null,
        outcome: { status: 'finished', reason: 'finished' },
        metrics,
        attribution,
      }) as EpisodeRecord;
    const builder = new SummaryBuilder(['g'], ['react']);
    builder.add(record('a', { component: 'agent', mode: 'premature_finish', evidence: [2], explanation: 'x' }));
    builder.add(record('b', null));
    const summary = builder.build();
    expect(summary.attribution.by_strategy).toEqual({ react: { agent: 1 } });
    expect(summary.failures[0]?.attribution).toBe('agent.premature_finish');
    const table = renderRunTable(summary, { header: [], color: false });
    expect(table).toContain('finished/finished [agent.premature_finish]');
    expect(table).toContain('Top failure modes:');
  });
});
