/**
 * Drops what a comparison prepared once no codec still to run shares it. A json-joy model
 * of the ~1 MB document is ~66 MB of heap (the document itself ~3 MB), and every major
 * garbage collection marks whatever is still referenced: kept to the end, the server-clock
 * model weighed on the five json-joy rows after its own.
 */
import type { Codec, PrepareCache } from './codecs.js';

/** Deletes the cache entries no codec after `codecs[done]` declares it shares. */
export function releasePrepared(cache: PrepareCache, codecs: readonly Codec[], done: number): void {
  if (cache.size === 0) return;
  const needed = new Set<string>();
  for (let i = done + 1; i < codecs.length; i++) {
    const key = codecs[i].shares;
    if (key !== undefined) needed.add(key);
  }
  for (const key of [...cache.keys()]) if (!needed.has(key)) cache.delete(key);
}
