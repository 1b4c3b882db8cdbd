import { expect } from 'vitest';
import { Flag, type SpanIndex } from '../../index.js';

/**
 * Leaves and the heads of expanded containers tile the frame: every byte is in exactly one
 * of them (JSON punctuation aside), and every node lies inside its parent. (Keys of
 * protocol parts are zero-width.)
 */
export function assertTiles(ix: SpanIndex): void {
  const { store } = ix;
  const covered = new Uint8Array(ix.bytes.length);
  for (let id = 0; id < store.size; id++) {
    const container = ix.isContainer(id) && (store.flags[id] & Flag.expanded) !== 0;
    const [from, to] = container
      ? [store.start[id], store.start[id] + ix.headerLength(id)]
      : [store.start[id], store.end[id]];
    for (let i = from; i < to; i++) covered[i]++;
    const parent = store.parent[id];
    if (parent >= 0) {
      expect(store.start[id]).toBeGreaterThanOrEqual(store.start[parent]);
      expect(store.end[id]).toBeLessThanOrEqual(store.end[parent]);
    }
  }
  // JSON's separators and closing brackets belong to their container but to no node.
  const inJson = new Uint8Array(ix.bytes.length);
  for (let id = 0; id < store.size; id++)
    if (ix.isContainer(id) && (ix.bytes[store.start[id]] === 0x7b || ix.bytes[store.start[id]] === 0x5b))
      inJson.fill(1, store.start[id], store.end[id]);
  const punctuation = new Set([0x3a, 0x2c, 0x5d, 0x7d, 0x20, 0x09, 0x0a, 0x0d]);
  const wrong = [...covered].flatMap((c, i) =>
    c === 1 || (c === 0 && inJson[i] && punctuation.has(ix.bytes[i])) ? [] : [`byte ${i} covered ${c}×`],
  );
  expect(wrong.slice(0, 5)).toEqual([]);
}
