import { describe, expect, it } from 'vitest';
import { indexCbor } from './index.js';
import { diagnostic } from '../core/diagnostic.js';
import { Flag } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { childSpans, hex, nestingProblems, tilingProblems } from '../test/helpers/cbor.js';

/**
 * [1000, [2, 3], {"a": [4, 5]}, [_ "xy"]]
 *   0: 84
 *   1: 19 03 e8          1000 (head 3)
 *   4: 82 02 03          [2, 3]
 *   7: a1 61 61 82 04 05 {"a": [4, 5]}
 *  13: 9f 62 78 79 ff    [_ "xy"]
 */
const FRAME = hex('84 19 03 e8 82 02 03 a1 61 61 82 04 05 9f 62 78 79 ff');

/** Every recorded node that is not `root` or below it. */
function recordedOutside(index: SpanIndex, root: number, from: number): number[] {
  const out: number[] = [];
  for (let id = from; id < index.store.size; id++) {
    let p = id;
    while (p >= 0 && p !== root) p = index.store.parent[p];
    if (p !== root) out.push(id);
  }
  return out;
}

describe('depth-limited (shallow) CBOR indexes', () => {
  it('depth 1 records only the root and its children, with exact spans', () => {
    const index = indexCbor(FRAME, { depth: 1 });
    expect(index.error).toBeNull();
    expect(index.store.size).toBe(5);
    expect([index.store.start[0], index.store.end[0], index.store.head[0]]).toEqual([0, 18, 1]);
    expect(index.isExpanded(0)).toBe(true);
    expect(childSpans(index, 0)).toEqual([
      [1, 4, 3, 'uint'],
      [4, 7, 1, 'array'],
      [7, 13, 1, 'map'],
      [13, 18, 1, 'array'],
    ]);
    for (let id = 1; id < 5; id++) {
      expect(index.store.parent[id]).toBe(0);
      expect(index.isExpanded(id)).toBe(false);
      expect(index.store.firstChild[id]).toBe(-1);
    }
    expect(index.store.flags[4] & Flag.indefinite).toBeTruthy();
    expect(index.store.arg[2]).toBe(2);
    expect(index.store.arg[3]).toBe(1);
  });

  it('depth 0 records only the root and still validates everything', () => {
    const index = indexCbor(FRAME, { depth: 0 });
    expect(index.error).toBeNull();
    expect(index.store.size).toBe(1);
    expect(index.store.end[0]).toBe(18);
    expect(indexCbor(hex('82 01 81 1c'), { depth: 0 }).error).toMatchObject({
      code: 'reserved-additional-info',
      offset: 3,
    });
  });

  it('expand(child) records only that subtree, one level', () => {
    const index = indexCbor(FRAME, { depth: 1 });
    index.expand(3);
    expect(index.store.size).toBe(7);
    expect(recordedOutside(index, 3, 5)).toEqual([]);
    expect(childSpans(index, 3)).toEqual([
      [8, 10, 1, 'text'],
      [10, 13, 1, 'array'],
    ]);
    expect(index.store.flags[5] & Flag.key).toBeTruthy();
    expect(index.keyOf(6)).toBe(5);
    expect(index.isExpanded(6)).toBe(false);
    expect(index.isExpanded(2)).toBe(false);
    // Expanding again records nothing new.
    index.expand(3);
    expect(index.store.size).toBe(7);
    // Two levels at once.
    index.expand(2, 2);
    expect(index.store.size).toBe(9);
    expect(recordedOutside(index, 2, 7)).toEqual([]);
    expect(childSpans(index, 2)).toEqual([
      [5, 6, 1, 'uint'],
      [6, 7, 1, 'uint'],
    ]);
  });

  it('nodeAt finds the deepest node, expanding on the way down', () => {
    const index = indexCbor(FRAME, { depth: 1 });
    const at = (offset: number) => {
      const id = index.nodeAt(offset);
      return id < 0 ? null : [index.kind(id), index.store.start[id], index.store.end[id]];
    };
    expect(at(11)).toEqual(['uint', 11, 12]);
    expect(index.value(index.nodeAt(11))).toBe(4);
    expect(at(0)).toEqual(['array', 0, 18]);
    expect(at(2)).toEqual(['uint', 1, 4]);
    expect(at(9)).toEqual(['text', 8, 10]);
    expect(at(10)).toEqual(['array', 10, 13]);
    expect(at(15)).toEqual(['text', 14, 17]);
    expect(at(17)).toEqual(['array', 13, 18]); // the break belongs to its container
    expect(at(18)).toBeNull();
    expect(at(-1)).toBeNull();
    // Only the paths to those offsets were recorded: [2, 3] stays unexpanded.
    expect(index.isExpanded(2)).toBe(false);
  });

  it('a shallow index expanded everywhere equals the full index', () => {
    const full = indexCbor(FRAME);
    const shallow = indexCbor(FRAME, { depth: 1 });
    shallow.expandAll(0);
    expect(shallow.store.size).toBe(full.store.size);
    expect(tilingProblems(shallow)).toEqual([]);
    expect(shallow.value(0)).toEqual(full.value(0));
    expect(diagnostic(shallow, 0)).toBe(diagnostic(full, 0));
    expect(diagnostic(shallow, 0)).toBe('[1000, [2, 3], {"a": [4, 5]}, [_ "xy"]]');
  });

  it('a malformed byte deep inside a skipped subtree sets the error at depth 1; expanding keeps that single error', () => {
    // [1, [[[2, <1c>, ...]]], 5]: reserved additional information 28 at byte 6.
    const bytes = hex('83 01 81 81 83 02 1c 05 05');
    const full = indexCbor(bytes);
    const index = indexCbor(bytes, { depth: 1 });
    expect(index.error).toMatchObject({ code: 'reserved-additional-info', offset: 6 });
    expect(index.error).toEqual(full.error);
    const error = index.error;
    expect(index.store.size).toBe(3);
    expect(index.isIncomplete(0)).toBe(true);
    expect(index.isIncomplete(2)).toBe(true);
    expect(index.store.end[2]).toBe(6);
    expect(nestingProblems(index)).toEqual([]);

    index.expand(2);
    expect(index.error).toBe(error);
    expect(index.store.size).toBe(4);
    index.expandAll(2);
    expect(index.error).toBe(error);
    expect(index.warnings).toEqual([]);
    expect(childSpans(index, 4)).toEqual([[5, 6, 1, 'uint']]);
    expect(index.isIncomplete(4)).toBe(true);
    expect(nestingProblems(index)).toEqual([]);
    expect(index.value(0)).toEqual([1, [[[2]]]]);
    expect(index.value(0)).toEqual(full.value(0));
    expect(diagnostic(index, 0)).toBe(diagnostic(full, 0));
  });

  it('every kind of error inside a skipped subtree is found at depth 1, at the same offset', () => {
    for (const input of [
      '82 01 81 81 1c', // reserved AI
      '82 01 82 9f 01 ff ff', // break in a definite array (after an indefinite one)
      '82 01 a1 01 ff', // break in a map value position
      '82 01 81 c1 1f', // AI 31 on major 0
      '82 01 81 81 f8 10', // two-byte simple below 32
      '82 01 81 5f 01 ff', // wrong chunk type
      '82 01 81 7f 7f ff ff', // nested indefinite chunk
      '82 01 82 63 61 ff 62 01', // invalid UTF-8
      '82 01 81 81 5a 00 00 10 00 00', // declared length beyond the input
      '82 01 81 81 82 01', // truncated
      '82 01 9f 81 9f 81 01', // unclosed indefinite (recorded at depth 1, children skipped)
      '82 01 bf 01 a1 01 1d ff', // error below an indefinite map
      '82 01 d8 20 81 1e', // error below a tag
      '81 81 81 00 00', // trailing byte after a shallow walk
    ]) {
      const bytes = hex(input);
      const full = indexCbor(bytes);
      expect(full.error, input).not.toBeNull();
      for (const depth of [0, 1, 2]) {
        const shallow = indexCbor(bytes, { depth });
        expect(shallow.error, `${input} at depth ${depth}`).toEqual(full.error);
        expect(nestingProblems(shallow), input).toEqual([]);
        const error = shallow.error;
        shallow.expandAll(0);
        expect(shallow.error).toBe(error);
        expect(nestingProblems(shallow), input).toEqual([]);
        expect(shallow.value(0), input).toEqual(full.value(0));
        expect(diagnostic(shallow, 0), input).toBe(diagnostic(full, 0));
      }
    }
  });

  it('duplicate keys are reported for the maps expanded so far', () => {
    const bytes = hex('82 01 a2 61 61 01 61 61 02');
    const shallow = indexCbor(bytes, { depth: 1 });
    expect(shallow.warnings).toEqual([]);
    shallow.expand(2);
    expect(shallow.warnings).toHaveLength(1);
    expect(shallow.warnings[0]).toMatchObject({ code: 'duplicate-key', offset: 6 });
    expect(indexCbor(bytes).warnings).toEqual(shallow.warnings);
  });
});
