// `npm run bench:statistics`: wall time of a run's statistics (summary.json's `statistics`: rates, pass@k / pass^k,
// groups, paired comparisons; B = 10,000, seed 1) on seeded synthetic episodes of the sizes issue 15 §3 names; prints
// the median of --runs runs (default 3) per size. `--only <name,…>` runs some sizes; `--episodes` times the old
// EpisodeResult[] entry point instead of ResultColumns; `--digest` prints the sha256 of each size's statistics (JSON),
// to check that a change of the code keeps every number.
import { createHash } from 'node:crypto';
import { fromEpisodes } from '../src/report/result-columns.js';
import { computeRunStatistics, createRandom, type EpisodeResult } from '../src/report/statistics.js';

interface Size {
  name: string;
  strategies: number;
  tasks: number;
  epochs: number;
  /** Tasks per family (0: every task is its own). */
  familySize: number;
}

const SIZES: Size[] = [
  { name: '6x3x1400', strategies: 6, tasks: 1_400, epochs: 3, familySize: 0 },
  { name: '12x3x1400', strategies: 12, tasks: 1_400, epochs: 3, familySize: 0 },
  { name: '6x3x5600 (100k)', strategies: 6, tasks: 5_600, epochs: 3, familySize: 0 },
  { name: '6x3x5600 families of 4 (100k)', strategies: 6, tasks: 5_600, epochs: 3, familySize: 4 },
  { name: '6x12x1400 (100k)', strategies: 6, tasks: 1_400, epochs: 12, familySize: 0 },
  { name: '6x3x14000', strategies: 6, tasks: 14_000, epochs: 3, familySize: 0 },
];

/** Seeded episodes: per-strategy skill, per-task difficulty, 2% infrastructure errors, four groups. */
function episodesOf(size: Size): EpisodeResult[] {
  const random = createRandom(7);
  const skill = Array.from({ length: size.strategies }, () => random() * 0.4);
  const difficulty = Array.from({ length: size.tasks }, () => random());
  const episodes: EpisodeResult[] = [];
  for (let s = 0; s < size.strategies; s += 1) {
    for (let t = 0; t < size.tasks; t += 1) {
      for (let epoch = 0; epoch < size.epochs; epoch += 1) {
        const error = random() < 0.02;
        const success = !error && random() < 0.3 + (skill[s] as number) + 0.5 * (difficulty[t] as number) - 0.2;
        episodes.push({
          task: `task-${t}`,
          family: size.familySize > 0 ? `family-${Math.floor(t / size.familySize)}` : undefined,
          group: `group-${t % 4}`,
          strategy: `strategy-${s}`,
          epoch,
          success,
          outcome: { status: error ? 'error' : success ? 'finished' : 'stopped' },
        });
      }
    }
  }
  return episodes;
}

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const runs = Number(argument('--runs') ?? 3);
const only = argument('--only')?.split(',');
const useEpisodes = process.argv.includes('--episodes');
const digest = process.argv.includes('--digest');
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

for (const size of SIZES.filter((candidate) => !only || only.some((name) => candidate.name === name || candidate.name.startsWith(`${name} `)))) {
  const episodes = episodesOf(size);
  const input = useEpisodes ? episodes : fromEpisodes(episodes);
  const times: number[] = [];
  const cpu: number[] = [];
  let comparisons = 0;
  let hash = '';
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const statistics = computeRunStatistics(input);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
    comparisons = statistics.comparisons.length;
    if (digest) hash = createHash('sha256').update(JSON.stringify(statistics)).digest('hex').slice(0, 16);
  }
  console.log(
    `${size.name.padEnd(32)} ${String(episodes.length).padStart(7)} episodes  ${String(comparisons).padStart(2)} pairs  median ${(median(times) / 1000).toFixed(2)} s wall, ${(median(cpu) / 1000).toFixed(2)} s CPU  (runs: ${times.map((ms) => (ms / 1000).toFixed(2)).join(', ')})${digest ? `  sha256 ${hash}` : ''}`,
  );
}
