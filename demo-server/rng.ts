/**
 * A seeded PRNG for the demo traffic: the same seed gives the same stream of messages, so a
 * test can walk the generator in lockstep with what a client received.
 */
export interface Rng {
  /** A float in [0, 1). */
  (): number;
  /** An integer in 0..n-1. */
  int(n: number): number;
  /** An integer in lo..hi (inclusive). */
  range(lo: number, hi: number): number;
  bool(p?: number): boolean;
  pick<T>(list: readonly T[]): T;
}

/** mulberry32: tiny, fast and identical on every platform. */
export function makeRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = next as Rng;
  rng.int = (n) => Math.floor(next() * n);
  rng.range = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  rng.bool = (p = 0.5) => next() < p;
  rng.pick = (list) => list[Math.floor(next() * list.length)];
  return rng;
}

/** `count` pseudo-random bytes (for ids, hashes and blobs that only need to look random). */
export function randomBytes(rng: Rng, count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  // Four bytes per draw: large blobs (megabytes) stay cheap to generate.
  for (let i = 0; i < count; i += 4) {
    const word = Math.floor(rng() * 4294967296);
    bytes[i] = word & 0xff;
    if (i + 1 < count) bytes[i + 1] = (word >>> 8) & 0xff;
    if (i + 2 < count) bytes[i + 2] = (word >>> 16) & 0xff;
    if (i + 3 < count) bytes[i + 3] = word >>> 24;
  }
  return bytes;
}
