// --counterfactual: each failed plan-strategy episode re-run with one role played by the scripted reference.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratch, stratbench } from './support/cli.js';

describe('stratbench run --counterfactual', () => {
  it('finds the faulted role by replacement and agrees with the rules', () => {
    const out = join(scratch(), 'cf');
    const result = stratbench([
      'run',
      '--strategies',
      'plan-replan,react',
      '--tasks',
      'rename-tax-rate,default-currency',
      '--executor-model',
      'scripted:faults=executor.bad_edit',
      '--counterfactual',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(result.status).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'counterfactual.json'), 'utf8')) as {
      episodes: Array<{
        task: string;
        strategy: string;
        rules?: string;
        counterfactual: string | null;
        replaced: Record<string, boolean>;
        agrees: boolean | null;
      }>;
      compared: number;
      agreed: number;
    };
    const rename = report.episodes.find((e) => e.task === 'rename-tax-rate' && e.strategy === 'plan-replan');
    expect(rename).toMatchObject({ rules: 'executor.bad_edit', counterfactual: 'executor', agrees: true });
    expect(rename?.replaced).toEqual({ planner: false, executor: true, replanner: false });
    // ReAct has one model for every job: nothing to replace, so no counterfactual line.
    expect(report.episodes.some((e) => e.strategy === 'react')).toBe(false);
    expect(report.agreed).toBe(report.compared);
    expect(result.stdout).toMatch(/agreement between rules and counterfactual: \d+\/\d+ \(100\.0%\)/);
  });
});
