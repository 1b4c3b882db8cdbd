import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../index.js';
import { hex } from '../test/helpers/cbor.js';
import { childSegment, pathOf, pathSegments } from './path.js';
import { mapCost, nodeCost } from './attribution.js';
import { describeHead, previewValue } from './describe.js';
import { annotatedHex } from './annotate.js';
import { nodeTreeJson } from '../cli/render-json.js';
import { nodeTreeText } from '../cli/render-tree.js';
import { crdtIdOf, crdtSpanOf } from '../crdt/annotations.js';
import { positionLabel } from './position-label.js';
import { cborTagPreview, tagContentLabel, throughSelfDescribe } from '../cbor/known-tags.js';

/**
 * Public functions that take a node id reject ids the index does not hold. On `ff` no node
 * decoded: the store's typed arrays hold zeros, so node 0 was its own parent, first child
 * and next sibling, and pathOf / pathSegments / mapCost looped forever.
 */
describe('node ids the index does not hold', () => {
  const empty = decodeFrame(hex('ff'), { format: 'cbor' }).index!;
  const small = decodeFrame(hex('a1 61 61 82 01 02'), { format: 'cbor' }).index!;
  const describers: [string, (index: typeof empty, id: number) => unknown][] = [
    ['pathOf', pathOf],
    ['pathSegments', pathSegments],
    ['childSegment', (i, id) => childSegment(i, id, -1)],
    ['mapCost', mapCost],
    ['nodeCost', nodeCost],
    ['describeHead', describeHead],
    ['previewValue', (i, id) => previewValue(i, id)],
    ['annotatedHex', (i, id) => annotatedHex(i, id)],
    ['nodeTreeJson', nodeTreeJson],
    ['nodeTreeText', (i, id) => nodeTreeText(i, id)],
    ['positionLabel', (i, id) => positionLabel(i, id, 0)],
    ['tagContentLabel', tagContentLabel],
    ['throughSelfDescribe', throughSelfDescribe],
    ['cborTagPreview', (i, id) => cborTagPreview(i, id, 40, previewValue)],
  ];

  it.each(describers)('%s throws a RangeError naming the id, never loops', (_name, fn) => {
    expect(empty.store.size).toBe(0);
    for (const id of [0, 1, 2, 3, -2, 1.5, NaN]) expect(() => fn(empty, id), `id ${id}`).toThrow(RangeError);
    expect(() => fn(small, small.store.size)).toThrow(/node 5 is not in this index/);
  });

  it('crdtIdOf / crdtSpanOf answer null (no id, no span) for them', () => {
    for (const id of [0, 1, 2, 3, -2, 1.5, NaN]) {
      expect(crdtIdOf(empty, id)).toBeNull();
      expect(crdtSpanOf(empty, id)).toBeNull();
    }
  });

  it('ids the index holds still work', () => {
    expect(pathOf(small, 3)).toBe('$.a[0]');
    expect(mapCost(small, 0)).toMatchObject({ keyBytes: 2, entries: 1 });
  });
});
