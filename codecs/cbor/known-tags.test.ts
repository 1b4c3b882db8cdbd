import { describe, expect, it } from 'vitest';
import { decodeFrame, previewValue } from '../index.js';
import { tagContentLabel, throughSelfDescribe } from './known-tags.js';
import { hex } from '../test/helpers/hex.js';

function root(bytes: Uint8Array) {
  const d = decodeFrame(bytes, { format: 'cbor', depth: 1 });
  return { index: d.index!, id: d.index!.root };
}

describe('known CBOR tags read as what they mean', () => {
  it.each([
    // RFC 8949 Appendix A
    ['c0 74 323031332d30332d32315432303a30343a30305a', 'date 2013-03-21T20:04:00Z'],
    ['c1 1a 514b67b0', 'date 2013-03-21T20:04:00Z (1363896240)'],
    ['c1 fb 41d452d9ec200000', 'date 2013-03-21T20:04:00.500Z (1363896240.5)'],
    ['c2 49 010000000000000000', '18446744073709551616'],
    ['c3 49 010000000000000000', '-18446744073709551617'],
    ['d8 20 76 687474703a2f2f7777772e6578616d706c652e636f6d', 'URI http://www.example.com'],
    ['d8 25 50 0123456789abcdef0123456789abcdef', 'UUID 01234567-89ab-cdef-0123-456789abcdef'],
    ['d8 18 45 64 49455446', 'embedded CBOR (5 B): "IETF"'],
    ['d9 d9f7 a1 61 61 01', '{1 entry}'],
    ['d9 d9f7 63 616263', '"abc"'],
    ['d8 64 01', '100(1)'],
  ])('%s → %s', (h, expected) => {
    const { index, id } = root(hex(h));
    expect(previewValue(index, id, 80)).toBe(expected);
  });

  it('falls back to the tag number when the content is not what the tag expects', () => {
    const { index, id } = root(hex('c1 63 616263')); // epoch time over text
    expect(previewValue(index, id, 80)).toBe('1("abc")');
  });

  it('labels a tag content by its meaning, not [0]', () => {
    const { index, id } = root(hex('c1 1a 514b67b0'));
    expect(tagContentLabel(index, id)).toBe('epoch seconds');
    expect(tagContentLabel(root(hex('d8 25 50 0123456789abcdef0123456789abcdef')).index, 0)).toBe('UUID bytes');
    expect(tagContentLabel(root(hex('d8 64 01')).index, 0)).toBe('content');
  });

  it('sees through self-describe to the content', () => {
    const { index, id } = root(hex('d9 d9f7 a1 61 61 01'));
    const inner = throughSelfDescribe(index, id);
    expect(index.kind(inner)).toBe('map');
  });

  it('never throws on a truncated tag', () => {
    const d = decodeFrame(hex('c1 1a 514b'), { format: 'cbor' });
    expect(() => previewValue(d.index!, d.index!.root, 80)).not.toThrow();
  });
});
