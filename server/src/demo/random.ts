/*
 * A small seeded pseudo-random generator for the demo content. Math.random cannot be seeded,
 * and the demo gallery must come out the same on every machine and every run, so that a test
 * can compare bytes and a newcomer sees the same walls a colleague described.
 */

/**
 * Turns any string into a 32-bit seed. cyrb53-style mixing, so 'muro-1' and 'muro-2' give
 * unrelated streams instead of neighbouring ones.
 */
export function hashSeed(value: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/** Mulberry32: tiny, fast and good enough for pictures; one 32-bit word of state. */
export class Random {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === 'string' ? hashSeed(seed) : seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() needs at least one item');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; the weights need not add up to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new RangeError('weighted() needs at least one entry');
    return last[0];
  }

  /** An approximately normal value (sum of uniforms): cheap, bounded, good for jitter. */
  normal(mean = 0, deviation = 1): number {
    const sum = this.next() + this.next() + this.next() + this.next() - 2;
    return mean + sum * deviation * 1.7320508;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const a = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = a;
    }
    return copy;
  }

  /**
   * An independent stream derived from this one's current state and a label. Parts of a
   * picture draw from their own fork, so adding a stain does not reshuffle every later choice.
   */
  fork(label: string): Random {
    return new Random(hashSeed(`${this.state}:${label}`));
  }

  /** A fresh 32-bit seed, e.g. to store in a spec. */
  seed(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }
}

export function createRandom(seed: number | string): Random {
  return new Random(seed);
}
