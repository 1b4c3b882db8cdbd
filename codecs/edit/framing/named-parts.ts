import type { SpanIndex } from '../../core/span-index.js';

/** A protocol map node's parts by name (the walker's keys): their node ids. */
export function namedParts(index: SpanIndex, node: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of index.children(node)) {
    const k = index.keyOf(c);
    const name = k >= 0 ? index.value(k) : undefined;
    if (typeof name === 'string') out.set(name, c);
  }
  return out;
}
