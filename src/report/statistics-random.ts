// A small seeded pseudo-random generator (mulberry32) so that every bootstrap is reproducible from its seed.

/** A function returning uniform numbers in [0, 1). */
export type Random = () => number;

/**
 * mulberry32 (Tommy Ettinger, public domain): a 32-bit state generator with period 2^32 that passes
 * gjrand and PractRand up to the state size — ample for 10,000 bootstrap resamples of a few hundred tasks.
 * The same seed always yields the same sequence. Seeds are taken modulo 2^32.
 */
export function createRandom(seed: number): Random {
  let state = Math.trunc(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in [0, n). */
export function randomIndex(random: Random, n: number): number {
  return Math.floor(random() * n);
}
