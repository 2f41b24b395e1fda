// Seeded draws for template expansion: mulberry32 seeded from (seed, family, variant), so a variant never depends on its siblings.

/** A function returning uniform numbers in [0, 1). */
export type Draw = () => number;

/** FNV-1a 32-bit hash of a string (seeds the generator from a family name). */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** mulberry32 (Tommy Ettinger, public domain) from a 32-bit seed. */
export function seededDraw(...parts: (number | string)[]): Draw {
  let state = hashText(parts.join('\u0000'));
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in [0, n). */
export const drawIndex = (draw: Draw, n: number): number => Math.floor(draw() * n);

/** The indices 0 … n−1 in a seeded order (Fisher–Yates). */
export function shuffledIndices(draw: Draw, n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = drawIndex(draw, i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}
