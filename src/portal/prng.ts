/**
 * Seeded pseudo-random numbers (mulberry32). Datasets and fault injection must
 * be reproducible from a seed, so nothing in the portal uses Math.random.
 */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError("pick from an empty list");
      return item;
    },
    chance: (probability) => next() < probability,
  };
}

/** A stable 32-bit seed from a string (FNV-1a), for per-record sub-streams. */
export function seedFrom(text: string, base = 0): number {
  let hash = (0x811c9dc5 ^ base) >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
