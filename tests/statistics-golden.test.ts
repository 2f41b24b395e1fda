import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimatePowerInputs } from '../src/report/power.js';
import { computeRunStatistics } from '../src/report/statistics.js';
import { fromGoldenInput, type GoldenInput } from './support/statistics-golden.js';

const folder = new URL('./fixtures/statistics-golden/', import.meta.url);
const fixtures = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(new URL(name, folder), 'utf8')) as { input: GoldenInput; statistics: unknown; power: unknown });

describe('statistics reproduce the reference outputs byte for byte (same seed, same numbers)', () => {
  it.each(fixtures.map((fixture) => [fixture.input.name, fixture] as const))('%s', (_name, fixture) => {
    const episodes = fromGoldenInput(fixture.input);
    expect(JSON.stringify(computeRunStatistics(episodes, fixture.input.options))).toBe(JSON.stringify(fixture.statistics));
    expect(JSON.stringify(estimatePowerInputs(episodes))).toBe(JSON.stringify(fixture.power));
  });
});
