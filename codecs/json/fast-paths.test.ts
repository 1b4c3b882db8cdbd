import { describe, expect, it } from 'vitest';
import { indexJson } from './index.js';
import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';

/**
 * The JSON walker's fast paths (runs of indentation read a word at a time, runs of escapes
 * validated in one loop, the store sized from a sample) must give what the byte-at-a-time
 * reading gives: the same values, spans on token bytes, the same error offsets. Frames are
 * placed at every offset modulo 4 in their buffer, since the word reads are aligned.
 */
function at(text: string | Uint8Array, shift: number): Uint8Array {
  const body = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const buffer = new Uint8Array(body.length + shift);
  buffer.set(body, shift);
  return buffer.subarray(shift);
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function checkTokens(ix: SpanIndex): void {
  const { store, bytes } = ix;
  for (let id = 0; id < store.size; id++) {
    expect(isSpace(bytes[store.start[id]]), `node ${id} starts on whitespace`).toBe(false);
    expect(isSpace(bytes[store.end[id] - 1]), `node ${id} ends on whitespace`).toBe(false);
  }
}

const value = {
  items: Array.from({ length: 30 }, (_, i) => ({
    id: i,
    name: `n${i}`,
    tags: ['a', 'b'],
    nested: { deep: [i, i / 2, null, true] },
  })),
  empty: [],
  none: {},
};

describe('json walker: runs of whitespace', () => {
  it('every indentation width and buffer offset gives the value and token spans of the compact text', () => {
    for (const indent of [1, 2, 3, 4, 5, 7, 8, 9, 16, '\t', ' \t ', '\r\n  ']) {
      const text = JSON.stringify(value, null, indent as string | number).replace(
        /\n/g,
        typeof indent === 'string' && indent.startsWith('\r') ? '\r\n' : '\n',
      );
      for (let shift = 0; shift < 4; shift++) {
        const ix = indexJson(at(text, shift));
        expect(ix.error, `indent ${JSON.stringify(indent)} shift ${shift}`).toBeNull();
        expect(ix.value(0)).toEqual(value);
        expect(ix.store.size).toBe(indexJson(at(JSON.stringify(value), 0)).store.size);
        checkTokens(ix);
      }
    }
  });

  it('an error after a long run of spaces is at the right byte', () => {
    for (let n = 250; n < 270; n++) {
      for (let shift = 0; shift < 4; shift++) {
        const spaces = ' '.repeat(n);
        let ix = indexJson(at(`[1,${spaces}x]`, shift));
        expect(ix.error?.code).toBe('invalid-token');
        expect(ix.error?.offset).toBe(3 + n);
        ix = indexJson(at(`[1,${spaces}`, shift));
        expect(ix.error?.code).toBe('truncated');
        expect(ix.error?.offset).toBe(3 + n);
        ix = indexJson(at(`[1,${spaces}2${spaces}]${spaces}`, shift));
        expect(ix.error).toBeNull();
        expect(ix.value(0)).toEqual([1, 2]);
        expect(ix.store.start[2]).toBe(3 + n);
        ix = indexJson(at(`[1${spaces}\u00a0]`, shift));
        expect(ix.error?.offset).toBe(2 + n);
      }
    }
  });
});

describe('json walker: runs of escapes', () => {
  const run = '\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t\\uD83D\\uDE80'.repeat(30);
  const decoded = JSON.parse(`"${run}"`) as string;

  it('decodes long runs of escapes at every buffer offset', () => {
    for (let shift = 0; shift < 4; shift++) {
      const ix = indexJson(at(`{"k${run}":["${run}", "x${run}y"]}`, shift));
      expect(ix.error).toBeNull();
      expect(ix.value(0)).toEqual({ [`k${decoded}`]: [decoded, `x${decoded}y`] });
      expect(ix.store.kind[1]).toBe(Kind.text);
    }
  });

  it('a bad escape inside a run is reported at its byte', () => {
    const prefix = `["${run}`;
    const cases: [string, string, number][] = [
      ['\\x', 'invalid-escape', 1], // the byte after the backslash
      ['\\u12G4', 'invalid-escape', 4], // the first byte that is not a hex digit
      ['\\uZZZZ', 'invalid-escape', 2],
      ['\\u123', 'truncated', -1], // then the end of the input
      ['\\', 'truncated', -1],
      ['\\u', 'truncated', -1],
    ];
    for (const [bad, code, offsetInBad] of cases) {
      for (const tail of bad.length > 2 && code === 'invalid-escape' ? ['"]', ''] : ['']) {
        const text = prefix + bad + tail;
        const bytes = new TextEncoder().encode(text);
        for (let shift = 0; shift < 4; shift++) {
          const ix = indexJson(at(bytes, shift));
          expect(ix.error?.code, `${bad}${tail}`).toBe(code);
          expect(ix.error?.offset, `${bad}${tail}`).toBe(offsetInBad < 0 ? bytes.length : prefix.length + offsetInBad);
        }
      }
    }
  });

  it('an escape cut off near the end of the input is truncated, a complete one is fine', () => {
    for (const s of ['"\\u00e', '"\\u00', '"\\u0', '"\\"', '"\\n']) {
      expect(indexJson(at(s, 0)).error?.code, s).toBe('truncated');
    }
    for (const s of ['"\\u00e9"', '"\\n"', '"a\\u00e9"', '["\\t"]']) {
      const ix = indexJson(at(s, 0));
      expect(ix.error, s).toBeNull();
      expect(ix.value(0)).toEqual(JSON.parse(s));
    }
  });
});

describe('json walker: store sized from a sample', () => {
  it('frames whose first 4 KB look unlike the rest still index whole', () => {
    // Sparse start (one long string), dense rest (small integers): the guess is low, the store grows.
    const dense = `["${'a'.repeat(5000)}",${Array.from({ length: 20000 }, (_, i) => i % 10).join(',')}]`;
    let ix = indexJson(at(dense, 0));
    expect(ix.error).toBeNull();
    expect(ix.store.size).toBe(20002);
    expect((ix.value(0) as unknown[]).length).toBe(20001);
    // Dense start, sparse rest: the guess is high, never above one node per byte.
    const sparse = `[${Array.from({ length: 3000 }, () => '1').join(',')},"${'b'.repeat(100000)}"]`;
    ix = indexJson(at(sparse, 0));
    expect(ix.error).toBeNull();
    expect(ix.store.size).toBe(3002);
    expect(ix.store.capacity).toBeLessThanOrEqual(sparse.length + 1);
  });
});

describe('json walker: runs of numbers in an array', () => {
  it('reads 1,2,3 as the general code does, errors included', () => {
    const ok = indexJson(at('[1,-2,3.5,4e2,0,-0.5e-3 , 6,7]', 0));
    expect(ok.error).toBeNull();
    expect(ok.value(0)).toEqual([1, -2, 3.5, 400, 0, -0.0005, 6, 7]);
    expect(ok.store.size).toBe(9);
    const cases: [string, string, number][] = [
      ['[1,2,-x]', 'invalid-number', 6],
      ['[1,2,01]', 'invalid-number', 6],
      ['[1,2,3.]', 'invalid-number', 7],
      ['[1,2,3.', 'truncated', 7],
      ['[1,2,3.x]', 'invalid-number', 7],
      ['[1,2,3e+]', 'invalid-number', 8],
      ['[1,2,-', 'truncated', 6],
      ['[1,2,3', 'truncated', 6],
      ['[1,2,3,', 'truncated', 7],
      ['[1,2,]', 'invalid-token', 5],
      ['[1,2 3]', 'invalid-token', 5],
      ['{"a":1,2}', 'invalid-token', 7],
    ];
    for (const [text, code, offset] of cases) {
      const ix = indexJson(at(text, 0));
      expect(ix.error?.code, text).toBe(code);
      expect(ix.error?.offset, text).toBe(offset);
    }
    // The number the error stopped in is recorded, incomplete, from its first byte.
    const cut = indexJson(at('[1,2,3.x]', 0));
    const last = cut.store.size - 1;
    expect(cut.store.start[last]).toBe(5);
    expect(cut.isIncomplete(last)).toBe(true);
    expect(cut.store.start[2]).toBe(3);
    expect(cut.store.end[2]).toBe(4);
  });
});
