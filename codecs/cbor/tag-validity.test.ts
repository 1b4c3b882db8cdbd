import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../index.js';
import { hex } from '../test/helpers/cbor.js';
import { runCli } from '../test/helpers/cli.js';

/** RFC 8949 section 3.4 and the IANA registry: what a registered tag's content must be. */
const warningsOf = (h: string, depth?: number) => {
  const frame = decodeFrame(hex(h), { format: 'cbor', depth });
  expect(frame.error).toBeNull();
  return frame
    .index!.warnings.filter((w) => w.code === 'invalid-tag-content')
    .map((w) => ({ offset: w.offset, message: w.message }));
};

describe('tag validity warnings', () => {
  it('tag 1 of a map: a warning at the tag, the frame still decodes', () => {
    expect(warningsOf('c1 a1 61 61 00')).toEqual([
      { offset: 0, message: 'tag 1 (epoch date/time) needs an integer or a float, found a map at byte 0' },
    ]);
  });

  it.each([
    ['c0 01', 0, /tag 0 \(date\/time text\) needs a text string, found an unsigned integer/],
    ['c0 63 616263', 0, /tag 0 \(date\/time text\) needs an RFC 3339 date\/time, found "abc"/],
    ['c2 01', 0, /tag 2 \(unsigned bignum\) needs a byte string, found an unsigned integer/],
    ['c3 61 61', 0, /tag 3 \(negative bignum\) needs a byte string, found a text string/],
    ['c4 81 01', 0, /tag 4 \(decimal fraction\) needs an array of two items/],
    ['c5 82 61 61 01', 0, /tag 5 \(bigfloat\) needs an integer exponent/],
    ['c4 82 01 61 61', 0, /tag 4 \(decimal fraction\) needs an integer or bignum mantissa, found a text string/],
    ['d8 18 01', 0, /tag 24 \(embedded CBOR\) needs a byte string/],
    ['d8 20 41 61', 0, /tag 32 \(URI\) needs a text string, found a byte string/],
    ['d8 25 4f 000102030405060708090a0b0c0d0e', 0, /tag 37 \(UUID\) needs a byte string of 16 bytes, found 15 bytes/],
    ['d8 25 60', 0, /tag 37 \(UUID\) needs a byte string of 16 bytes, found a text string/],
    ['82 00 c1 f6', 2, /tag 1 \(epoch date\/time\) needs an integer or a float, found null/],
  ])('%s', (h, offset, message) => {
    const ws = warningsOf(h);
    expect(ws).toHaveLength(1);
    expect(ws[0].offset).toBe(offset);
    expect(ws[0].message).toMatch(message);
    expect(ws[0].message.endsWith(`at byte ${offset}`)).toBe(true);
  });

  it.each([
    'c0 74 323031332d30332d32315432303a30343a30305a', // RFC 8949 Appendix A: 0("2013-03-21T20:04:00Z")
    'c1 1a 514b67b0',
    'c1 fb 41d452d9ec200000',
    'c2 49 010000000000000000',
    'c3 49 010000000000000000',
    'c4 82 21 19 6ab3',
    'c5 82 20 c2 41 01',
    'd8 18 45 6449455446',
    'd8 20 76 687474703a2f2f7777772e6578616d706c652e636f6d',
    'd8 25 50 000102030405060708090a0b0c0d0e0f',
    'd9 d9f7 a0',
    'd8 63 a0', // an unregistered tag: nothing to say
    'c0 7f 62 3230 ff', // an indefinite-length text is a text string (too long to check the syntax of in place)
  ])('valid: %s', (h) => {
    expect(warningsOf(h)).toEqual([]);
  });

  it('found in a depth-limited index too (the UI reads one level first), once', () => {
    expect(warningsOf('81 81 81 c1 a0', 1)).toHaveLength(1);
    const frame = decodeFrame(hex('81 81 81 c1 a0'), { format: 'cbor', depth: 1 });
    frame.index!.expandAll(0);
    expect(frame.index!.warnings.filter((w) => w.code === 'invalid-tag-content')).toHaveLength(1);
  });

  it('the CLI prints it and exits 0', () => {
    const r = runCli(['inspect', '-'], { '-': 'c1 a1 61 61 00' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning: tag 1 (epoch date/time) needs an integer or a float, found a map at byte 0');
    const j = JSON.parse(runCli(['inspect', '-', '--json'], { '-': 'c1 a1 61 61 00' }).stdout);
    expect(j.warnings).toEqual([
      {
        offset: 0,
        code: 'invalid-tag-content',
        message: 'tag 1 (epoch date/time) needs an integer or a float, found a map at byte 0',
      },
    ]);
  });
});
