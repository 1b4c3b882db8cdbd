/** Reading a recognized frame's top levels: leaf values and a map's entries by key. */
import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';

/** The value of a leaf child, or undefined. */
export function leaf(index: SpanIndex, id: number | undefined): unknown {
  if (id === undefined || id < 0 || index.isContainer(id)) return undefined;
  return index.value(id);
}

/** A map's entries by key (text keys only), one level. */
export function fields(index: SpanIndex, map: number): Map<string, number> {
  const out = new Map<string, number>();
  if (index.store.kind[map] !== Kind.map) return out;
  for (const c of index.children(map)) {
    const k = index.keyOf(c);
    const name = k >= 0 ? index.value(k) : undefined;
    if (typeof name === 'string') out.set(name, c);
  }
  return out;
}

export const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined;
