// The golden statistics fixtures' input format: episodes as dictionary-encoded rows (small files, exact round trip).
import type { EpisodeResult } from '../../src/report/statistics.js';
import type { OutcomeStatus } from '../../src/records/index.js';

export interface GoldenInput {
  name: string;
  options: { seed?: number; resamples?: number; confidence?: number };
  strategies: string[];
  tasks: { id: string; family: string | null; group: string }[];
  statuses: OutcomeStatus[];
  /** [strategy index, task index, epoch, success 0/1, status index] per episode, in input order. */
  rows: [number, number, number, number, number][];
}

const indexer = <T>(key: (value: T) => string) => {
  const values: T[] = [];
  const byKey = new Map<string, number>();
  return {
    values,
    index(value: T): number {
      const k = key(value);
      let i = byKey.get(k);
      if (i === undefined) {
        i = values.length;
        values.push(value);
        byKey.set(k, i);
      }
      return i;
    },
  };
};

export function toGoldenInput(name: string, options: GoldenInput['options'], episodes: readonly EpisodeResult[]): GoldenInput {
  const strategies = indexer<string>((value) => value);
  const tasks = indexer<{ id: string; family: string | null; group: string }>((task) => JSON.stringify(task));
  const statuses = indexer<OutcomeStatus>((value) => value);
  const rows = episodes.map((episode): [number, number, number, number, number] => [
    strategies.index(episode.strategy),
    tasks.index({ id: episode.task, family: episode.family ?? null, group: episode.group }),
    episode.epoch,
    episode.success ? 1 : 0,
    statuses.index(episode.outcome.status),
  ]);
  return { name, options, strategies: strategies.values, tasks: tasks.values, statuses: statuses.values, rows };
}

export function fromGoldenInput(input: GoldenInput): EpisodeResult[] {
  return input.rows.map(([strategy, task, epoch, success, status]) => {
    const entry = input.tasks[task] as GoldenInput['tasks'][number];
    return {
      task: entry.id,
      family: entry.family ?? undefined,
      group: entry.group,
      strategy: input.strategies[strategy] as string,
      epoch,
      success: success === 1,
      outcome: { status: input.statuses[status] as OutcomeStatus },
    };
  });
}
