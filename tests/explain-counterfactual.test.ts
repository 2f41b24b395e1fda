// Issue 11 §5: explain shows, for a failed episode, the rule verdict with its evidence and the counterfactual replay's verdicts.
import { describe, expect, it } from 'vitest';
import { explainCommand } from '../src/runner/commands/explain.js';
import { runInProcess, scratch } from './support/scripted-over-ollama.js';

async function captured(run: () => Promise<number>): Promise<string> {
  const out: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => (out.push(chunk), true)) as typeof process.stdout.write;
  try {
    await run();
  } finally {
    process.stdout.write = write;
  }
  return out.join('');
}

describe('explain on a failed episode', () => {
  it('prints the rule verdict, its evidence and every role swap of the counterfactual replay', async () => {
    const out = `${scratch()}/run`;
    const run = await runInProcess({
      out,
      strategies: 'plan-replan',
      tasks: 'rename-tax-rate',
      executorModel: 'scripted:faults=executor.bad_edit',
      concurrency: 1,
    });
    expect(run.code).toBe(0);
    const text = await captured(() => explainCommand(out, 'rename-tax-rate', 'plan-replan'));
    expect(text).toMatch(/^attribution: executor\.bad_edit — /m);
    expect(text).toMatch(/^evidence: ▶\d+/m);
    expect(text).toContain(
      'counterfactual: executor (agrees with the rules) — each role swapped for the reference oracle, the others replayed from the trace:',
    );
    expect(text).toMatch(/^ {2}executor {2}fixes it/m);
    expect(text).toMatch(/^ {2}planner /m);
    expect(text).toMatch(/^ {2}replanner /m);
  });

  it('prints the replay a run with --counterfactual stored in the record, with the calls it took', async () => {
    const out = `${scratch()}/run`;
    await runInProcess({
      out,
      strategies: 'react',
      tasks: 'default-currency',
      agentModel: 'scripted:faults=agent.wrong_answer',
      counterfactual: true,
      concurrency: 1,
    });
    const text = await captured(() => explainCommand(out, 'default-currency', 'react'));
    expect(text).toContain('counterfactual: agent (agrees with the rules)');
    expect(text).toMatch(/^ {2}agent {5}fixes it$/m);
    // The decisive decision is the agent's wrong answer, the event the rules mark ▶ (issue 27 §2).
    expect(text).toMatch(/^ {2}decisive decision: the agent's reply at event (\d+) — swapped alone, the rest replayed, it fixes the episode$/m);
    const decisive = /decisive decision: the agent's reply at event (\d+)/.exec(text)![1];
    expect(text).toMatch(new RegExp(`^▶ ${decisive} +model_call agent: finish`, 'm'));
    // 2 for the role swap (the read and the answer), 1 for each of the agent's two decisions swapped alone.
    expect(text).toContain('  extra calls: 4, all answered by the oracle (no model was called)');
  });

  it('prints no counterfactual for an episode that succeeded', async () => {
    const out = `${scratch()}/run`;
    await runInProcess({ out, strategies: 'plan-replan', tasks: 'default-currency', concurrency: 1 });
    const text = await captured(() => explainCommand(out, 'default-currency', 'plan-replan'));
    expect(text).not.toContain('counterfactual');
  });
});
