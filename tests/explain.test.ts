// explainEpisode: the trace in order with plans, revisions and diffs, tool calls and checks, and the attributed events marked.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainEpisode, findEpisode } from '../src/report/explain.js';
import { readResultsFolder } from '../src/results-folder/index.js';
import { runEpisode } from '../src/runner/episode.js';
import type { EpisodeRecord } from '../src/records/index.js';
import { ScriptedModel } from '../src/models/scripted.js';
import { loadSuiteFile, type LoadedTask } from '../src/suite/load-suite.js';
import type { StrategyName } from '../src/strategies/index.js';
import { allRoles, CORE_SUITE, environment } from './support/episode-fixtures.js';

async function episode(task: string, strategy: StrategyName, faults: string[]): Promise<EpisodeRecord> {
  const loaded = await loadSuiteFile(CORE_SUITE);
  if (!loaded.ok) throw new Error('core suite does not load');
  const tasks: LoadedTask[] = loaded.tasks;
  const model = new ScriptedModel(
    tasks.map((t) => ({ id: t.id, reference: t.reference, naive: t.naive })),
    faults,
  );
  return runEpisode({ task: tasks.find((t) => t.id === task)!, strategy, epoch: 0, seed: 1 }, await environment(allRoles(model)));
}

describe('explainEpisode', () => {
  it('marks the first erroneous event ▶ and the other evidence •, with the attribution on top', async () => {
    const record = await episode('fix-checkout-test', 'plan-replan', ['replanner.guessed_target']);
    const text = explainEpisode(record);
    const lines = text.split('\n');
    expect(lines[0]).toBe('fix-checkout-test × plan-replan, epoch 0 — budget_exhausted (repeated_call), failed (expected finish)');
    expect(lines[2]).toBe(`attribution: replanner.guessed_target — ${record.attribution!.explanation}`);
    const [first, ...rest] = record.attribution!.evidence;
    expect(lines.find((l) => l.startsWith(`▶ ${String(first).padStart(2)}  `))).toMatch(
      /model_call replanner: revise — invalidated "The fixtures are out of sync/,
    );
    for (const id of rest) expect(lines.some((l) => l.startsWith(`• ${String(id).padStart(2)}  `))).toBe(true);
    expect(lines.filter((l) => /^[▶•]/.test(l))).toHaveLength(record.attribution!.evidence.length);
  });

  it('shows the plan, each revision with its new steps and its diff, tool calls with output, checks and the end', async () => {
    const text = explainEpisode(await episode('fix-checkout-test', 'plan-replan', []));
    expect(text).toContain('plan (revision 0)');
    expect(text).toContain('assumptions: "The fixtures are out of sync (memory note, 2026-09-02)"');
    expect(text).toMatch(/s2 {5}run {6}\{"cmd":"pnpm test:checkout"\} ← s1 {2}"Rerun the checkout test"/);
    expect(text).toContain('plan_revision 1: invalidated "The fixtures are out of sync (memory note, 2026-09-02)"');
    expect(text).toContain('plan_diff 1: removed [] added [r1.1, r1.2, r1.3, r1.4, r1.5, r1.6, r1.7] revised []');
    expect(text).toMatch(/tool_call s2 run \{"cmd":"pnpm test:checkout"\} → failure exit 1 \(nonzero_exit\)\n\s+> vitest run tests\/checkout\.test\.js/);
    expect(text).toContain('check done_when pass command_passes cmd="pnpm test:checkout"');
    expect(text).toContain('end finished (done_when_passed)');
    expect(text).not.toContain('attribution:');
  });
});

describe('findEpisode', () => {
  it('finds an episode by task, strategy and epoch, and says what the folder holds when it is not there', async () => {
    const record = await episode('default-currency', 'direct', ['agent.wrong_answer']);
    const dir = mkdtempSync(join(tmpdir(), 'explain-'));
    writeFileSync(join(dir, 'episodes.jsonl'), `${JSON.stringify(record)}\n`);
    const folder = await readResultsFolder(dir);
    const found = findEpisode(folder.ok ? folder.records : [], 'default-currency', 'direct');
    expect(found.ok && explainEpisode(found.record).split('\n')[2]).toMatch(/^attribution: agent\.wrong_answer — /);
    expect(findEpisode([record], 'default-currency', 'direct', 3)).toEqual({ ok: false, error: 'no epoch 3 of default-currency × direct; epochs: 0' });
    expect(findEpisode([record], 'nope', 'react')).toEqual({ ok: false, error: 'no episode nope × react; tasks: default-currency; strategies: direct' });
  });
});
