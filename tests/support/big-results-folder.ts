// A large results folder made from a small real run: its records copied with suffixed task ids (no suite is run).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One episode record as far as this copier needs to know it (the rest is kept as is). */
interface RecordLike {
  task: string;
  strategy: string;
  epoch: number;
  key: string;
  success: boolean;
  attribution: { component: string; mode: string; evidence: number[]; explanation: string } | null;
  trace: Array<{ id: number }>;
  [field: string]: unknown;
}

/**
 * Writes `out`/episodes.jsonl and run.json holding `tasks` tasks: the tasks of the run in `small` (a results folder),
 * copied as `TASK-2`, `TASK-3`, … until there are `tasks` of them (copy 1 keeps the original ids). In every third copy
 * each react success of epoch 1 becomes a failure attributed to `agent.copy_flip`, so the grid has flaky cells.
 * summary.json is left out (`report` recomputes it). Returns the task ids in the order written.
 */
export function writeBigResultsFolder(small: string, out: string, tasks: number): string[] {
  const records = readFileSync(join(small, 'episodes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RecordLike);
  const run = JSON.parse(readFileSync(join(small, 'run.json'), 'utf8')) as Record<string, unknown> & { config: Record<string, unknown> };
  const ids = [...new Set(records.map((r) => r.task))];
  const written: RecordLike[] = [];
  const taskIds: string[] = [];
  for (let copy = 1; taskIds.length < tasks; copy += 1) {
    for (const id of ids) {
      if (taskIds.length >= tasks) break;
      const task = copy === 1 ? id : `${id}-${copy}`;
      taskIds.push(task);
      for (const record of records.filter((r) => r.task === id)) {
        const flip = copy % 3 === 0 && record.strategy === 'react' && record.epoch === 1 && record.success;
        written.push({
          ...record,
          task,
          key: record.key.replace(`${id}|`, `${task}|`),
          success: flip ? false : record.success,
          attribution: flip
            ? {
                component: 'agent',
                mode: 'copy_flip',
                evidence: [record.trace.at(-1)?.id ?? 0],
                explanation: 'A success turned into a failure by the copier, to make flaky cells.',
              }
            : record.attribution,
        });
      }
    }
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'episodes.jsonl'), written.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileSync(join(out, 'run.json'), JSON.stringify({ ...run, episodes: written.length, config: { ...run.config, tasks: taskIds } }, null, 2));
  return taskIds;
}
