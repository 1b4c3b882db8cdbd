import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { tagNumber } from '../core/describe.js';
import { indexCbor } from './index.js';

/**
 * Tag 24 (RFC 8949 section 3.4.5.1): a byte string holding an encoded CBOR data item. Its
 * payload is indexed as CBOR of its own (offsets relative to the payload), one level at a
 * time like any frame, so a viewer can show the embedded item as a nested tree.
 */

const cache = new WeakMap<SpanIndex, Map<number, SpanIndex | null>>();

/** The byte string under tag 24 that `id` names, read as CBOR; null for anything else. */
export function embeddedCbor(index: SpanIndex, id: number): SpanIndex | null {
  if (index.format !== 'cbor' || !index.has(id)) return null;
  let byNode = cache.get(index);
  if (!byNode) cache.set(index, (byNode = new Map()));
  const known = byNode.get(id);
  if (known !== undefined) return known;
  const { store } = index;
  const parent = store.parent[id];
  let inner: SpanIndex | null = null;
  const isTag24Bytes =
    parent >= 0 &&
    store.kind[parent] === Kind.tag &&
    tagNumber(index, parent) === '24' &&
    store.kind[id] === Kind.bytes &&
    !(store.flags[id] & (Flag.indefinite | Flag.incomplete));
  if (isTag24Bytes) {
    const payload = index.bytes.subarray(store.start[id] + store.head[id], store.end[id]);
    const read = payload.length > 0 ? indexCbor(payload, { depth: 1 }) : null;
    // A payload that is not one well-formed item stays a byte string (its preview says why).
    inner = read && read.root >= 0 && !read.error ? read : null;
  }
  byNode.set(id, inner);
  return inner;
}

/** Where the embedded item's offset 0 sits in the outer frame. */
export function embeddedOffset(index: SpanIndex, id: number): number {
  return index.store.start[id] + index.store.head[id];
}
