import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimatePowerInputs } from '../src/report/power.js';
import { fromEpisodes } from '../src/report/result-columns.js';
import { computeRunStatistics, type RunStatistics } from '../src/report/statistics.js';
import { fromGoldenInput, type GoldenInput } from './support/statistics-golden.js';

// The reference outputs were computed by the task-by-task implementation before issue 15 (scripts/make-statistics-golden.ts).
const folder = new URL('./fixtures/statistics-golden/', import.meta.url);
const fixtures = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as { input: GoldenInput; statistics: RunStatistics; power: unknown });

/** Every pair in order of first appearance: what the reference compared at any number of strategies. */
const everyPair = (strategies: readonly string[]): [string, string][] =>
  strategies.flatMap((first, i) => strategies.slice(i + 1).map((second): [string, string] => [first, second]));

describe('statistics reproduce the reference outputs byte for byte (same seed, same numbers)', () => {
  it.each(fixtures.map((fixture) => [fixture.input.name, fixture] as const))('%s', (_name, fixture) => {
    const episodes = fromGoldenInput(fixture.input);
    const pairs = everyPair(fixture.statistics.strategies.map((row) => row.strategy));
    const expected = JSON.stringify(fixture.statistics);
    expect(JSON.stringify(computeRunStatistics(episodes, { ...fixture.input.options, pairs }))).toBe(expected);
    expect(JSON.stringify(computeRunStatistics(fromEpisodes(episodes), { ...fixture.input.options, pairs }))).toBe(expected);
    expect(JSON.stringify(estimatePowerInputs(episodes))).toBe(JSON.stringify(fixture.power));
    expect(JSON.stringify(estimatePowerInputs(fromEpisodes(episodes)))).toBe(JSON.stringify(fixture.power));
  });

  it('beyond six strategies the default compares each with the first, with the reference numbers of those pairs', () => {
    const fixture = fixtures.find((candidate) => candidate.input.name === 'twelve-strategies');
    if (!fixture) throw new Error('fixture twelve-strategies missing');
    const statistics = computeRunStatistics(fromGoldenInput(fixture.input), fixture.input.options);
    expect(statistics.pairSelection).toEqual({ rule: 'baseline', pairs: 11, allPairs: 66 });
    const baseline = fixture.statistics.strategies[0]?.strategy;
    const reference = fixture.statistics.comparisons.filter((comparison) => comparison.first === baseline);
    expect(reference).toHaveLength(11);
    const withoutHolm = (comparisons: RunStatistics['comparisons']) => comparisons.map(({ adjustedPValue: _, ...rest }) => rest);
    expect(withoutHolm(statistics.comparisons)).toEqual(withoutHolm(reference));
  });
});
