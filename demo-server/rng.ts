/**
 * A seeded PRNG for the demo traffic: the same seed gives the same stream of messages, so a
 * test can walk the generator in lockstep with what a client received.
 */
import type { Rng } from '../codecs/core/rng.js';
export { makeRng, type Rng } from '../codecs/core/rng.js';

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
