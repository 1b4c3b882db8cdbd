/**
 * A seeded random source (mulberry32): small, fast, and the same sequence for the same seed
 * on every platform. The test corpora, the benchmarks and the demo server's traffic all
 * draw from it, so a run can be reproduced from its seed.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  (): number;
  /** An integer in 0..n-1. */
  int(n: number): number;
  /** An integer in lo..hi (inclusive). */
  range(lo: number, hi: number): number;
  /** True with probability `p`. */
  bool(p?: number): boolean;
  /** One element of `list`. */
  pick<T>(list: readonly T[]): T;
}

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
