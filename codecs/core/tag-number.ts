import type { SpanIndex } from './span-index.js';

/** A tag node's number as decimal text, exact to 2^64 (CBOR reads it from the head; other formats keep it in `arg`). */
export function tagNumber(index: SpanIndex, id: number): string {
  index.requireNode(id, 'tagNumber');
  const { store, bytes } = index;
  const head = store.head[id];
  const start = store.start[id];
  if (index.format !== 'cbor' || head === 1) return String(index.format === 'cbor' ? bytes[start] & 31 : store.arg[id]);
  let v = 0n;
  for (let i = 1; i < head; i++) v = (v << 8n) | BigInt(bytes[start + i]);
  return v.toString();
}
