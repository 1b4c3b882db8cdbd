import { Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';

/** Leaves up to this many bytes are read once per distinct encoding. */
const MAX_CACHED_BYTES = 64;

/**
 * `index.value(id)` for a frame's many repeated map keys, read once per distinct encoding:
 * the same bytes of a complete text or number leaf read as the same value in one frame, so
 * 100,000 records' `"avatarHash"` keys cost one decode, not 100,000 (`value` sets up a walk
 * per call). Containers, long and incomplete leaves are read each time.
 */
export class LeafValueCache {
  private readonly known = new Map<string, unknown>();

  constructor(private readonly index: SpanIndex) {}

  value(id: number): unknown {
    const { store, bytes } = this.index;
    const k = store.kind[id];
    const len = store.end[id] - store.start[id];
    const cacheable =
      (k === Kind.text || k === Kind.uint || k === Kind.nint) &&
      len <= MAX_CACHED_BYTES &&
      store.firstChild[id] < 0 &&
      !this.index.isIncomplete(id);
    if (!cacheable) return this.index.value(id);
    const raw = `${k}:${String.fromCharCode.apply(null, bytes.subarray(store.start[id], store.end[id]) as unknown as number[])}`;
    if (this.known.has(raw)) return this.known.get(raw);
    const v = this.index.value(id);
    this.known.set(raw, v);
    return v;
  }
}
