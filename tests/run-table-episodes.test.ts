// The failed-episode list of the run table: one column per field, whatever the length of a generated suite's task ids.
import { describe, expect, it } from 'vitest';
import { renderRunReport, summaryFromRecords } from '../src/report/index.js';
import { episodeRecord } from './support/results-files.js';

describe('the failed-episode list', () => {
  it('aligns the epoch column under task ids longer than 28 characters, within 120 columns', () => {
    const ids = ['short-task', 'data-lib-rename-parse-duration-to-parse-span', 'cli-tool-first-approach-fails-config-path'];
    const records = ids.map((task) =>
      episodeRecord(task, { success: false, attribution: { component: 'agent', mode: 'premature_finish', evidence: [0], explanation: 'stopped early' } }),
    );
    const report = renderRunReport(
      summaryFromRecords(records, ['single-action'], ['direct'], 1),
      { suiteName: 'bench', tasks: 3, strategies: ['direct'], epochs: 1, models: { direct: 'scripted' }, notes: [] },
      false,
    );
    const lines = report.split('\n');
    const listed = lines.slice(lines.findIndex((line) => line.startsWith('Failed episodes (3):')) + 1).slice(0, 3);
    expect(listed.map((line) => line.trim().split(/\s+/)[1])).toEqual([...ids].sort());
    const columns = listed.map((line) => line.indexOf(' epoch '));
    expect(new Set(columns).size).toBe(1);
    expect(columns[0]).toBe(2 + 18 + 1 + ids[1]!.length);
    expect(Math.max(...listed.map((line) => line.length))).toBeLessThanOrEqual(120);
  });
});
