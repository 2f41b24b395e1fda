// Writes tests/fixtures/statistics-golden/*.json: inputs and the statistics computed from them, the reference the
// statistics must keep reproducing byte for byte (issue 15 §3). Run once per deliberate change of the numbers:
//   npx tsx scripts/make-statistics-golden.ts /tmp/core-run/summary.json /tmp/fault-run/summary.json
import { readFileSync, writeFileSync } from 'node:fs';
import { computeRunStatistics, createRandom, type EpisodeResult } from '../src/report/statistics.js';
import { estimatePowerInputs } from '../src/report/power.js';
import { fromGoldenInput, type GoldenInput, toGoldenInput } from '../tests/support/statistics-golden.js';

interface SyntheticShape {
  strategies: number;
  tasks: number;
  /** Tasks per family; 0: no families. */
  familySize: number;
  epochs: number;
  groups: number;
  errorRate: number;
  seed: number;
}

/** Seeded episodes with flaky tasks, families, errors, a missing task, shuffled order and repeated episodes. */
function synthetic(shape: SyntheticShape): EpisodeResult[] {
  const random = createRandom(shape.seed);
  const episodes: EpisodeResult[] = [];
  const skill = Array.from({ length: shape.strategies }, () => random());
  const difficulty = Array.from({ length: shape.tasks }, () => random());
  for (let s = 0; s < shape.strategies; s += 1) {
    for (let t = 0; t < shape.tasks; t += 1) {
      if (s === 1 && t % 11 === 5) continue;
      for (let epoch = 0; epoch < shape.epochs; epoch += 1) {
        const error = random() < shape.errorRate || (s === 2 && t === 3);
        const p = Math.min(0.97, Math.max(0.03, 0.5 + (skill[s] as number) - (difficulty[t] as number)));
        const success = !error && random() < p;
        const status = error ? 'error' : success ? 'finished' : random() < 0.5 ? 'budget_exhausted' : 'stopped';
        episodes.push({
          task: `task-${t}`,
          family: shape.familySize > 0 && t % 7 !== 6 ? `family-${Math.floor(t / shape.familySize)}` : undefined,
          group: `group-${t % shape.groups}`,
          strategy: `strategy-${s}`,
          epoch,
          success,
          outcome: { status },
        });
      }
    }
  }
  for (let i = episodes.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [episodes[i], episodes[j]] = [episodes[j] as EpisodeResult, episodes[i] as EpisodeResult];
  }
  const repeated = episodes
    .slice(0, 5)
    .map((episode) => ({ ...episode, success: !episode.success, outcome: { status: episode.success ? 'stopped' : 'finished' } }));
  return [...episodes, ...(repeated as EpisodeResult[])];
}

const fromRun = (file: string): EpisodeResult[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { results: EpisodeResult[] }).results.map((result) => ({
    task: result.task,
    family: result.family,
    group: result.group,
    strategy: result.strategy,
    epoch: result.epoch,
    success: result.success,
    outcome: { status: result.outcome.status },
  }));

const [coreRun, faultRun] = process.argv.slice(2);
if (!coreRun || !faultRun) throw new Error('usage: make-statistics-golden.ts <core summary.json> <faults summary.json>');
const cases: { name: string; options: { seed?: number; resamples?: number; confidence?: number }; episodes: EpisodeResult[] }[] = [
  { name: 'core-scripted-3-epochs', options: {}, episodes: fromRun(coreRun) },
  { name: 'core-scripted-faults-4-epochs', options: {}, episodes: fromRun(faultRun) },
  {
    name: 'families-errors-flaky',
    options: {},
    episodes: synthetic({ strategies: 6, tasks: 36, familySize: 4, epochs: 5, groups: 3, errorRate: 0.05, seed: 11 }),
  },
  {
    name: 'twelve-strategies',
    options: {},
    episodes: synthetic({ strategies: 12, tasks: 20, familySize: 0, epochs: 3, groups: 2, errorRate: 0.04, seed: 12 }),
  },
  { name: 'one-epoch', options: {}, episodes: synthetic({ strategies: 5, tasks: 30, familySize: 0, epochs: 1, groups: 3, errorRate: 0.05, seed: 13 }) },
  { name: 'one-epoch-families', options: {}, episodes: synthetic({ strategies: 3, tasks: 28, familySize: 3, epochs: 1, groups: 2, errorRate: 0, seed: 14 }) },
  {
    name: 'few-tasks-exact-sign-flip',
    options: {},
    episodes: synthetic({ strategies: 3, tasks: 8, familySize: 0, epochs: 2, groups: 1, errorRate: 0, seed: 15 }),
  },
  {
    name: 'other-seed-and-confidence',
    options: { seed: 12345, resamples: 2000, confidence: 0.9 },
    episodes: synthetic({ strategies: 4, tasks: 25, familySize: 5, epochs: 4, groups: 2, errorRate: 0.08, seed: 16 }),
  },
];
for (const { name, options, episodes } of cases) {
  const input: GoldenInput = toGoldenInput(name, options, episodes);
  const replayed = fromGoldenInput(input);
  const statistics = computeRunStatistics(replayed, options);
  const power = estimatePowerInputs(replayed);
  writeFileSync(`tests/fixtures/statistics-golden/${name}.json`, `${JSON.stringify({ input, statistics, power })}\n`);
  console.log(name, replayed.length, 'episodes');
}
