import { describe, expect, it } from 'vitest';
import { SpanIndex } from '../core/span-index.js';
import { cborWalker } from './walker.js';
import { hex } from '../test/helpers/hex.js';

describe('cbor walker smoke', () => {
  it('indexes a nested array', () => {
    const ix = new SpanIndex(hex('8301820203820405'), cborWalker);
    expect(ix.error).toBeNull();
    expect(ix.value(0)).toEqual([1, [2, 3], [4, 5]]);
  });
});
