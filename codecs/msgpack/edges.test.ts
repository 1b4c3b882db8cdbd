import { describe, expect, it } from 'vitest';
import { Flag } from '../core/kinds.js';
import { ExtValue } from '../core/values.js';
import { diagnostic } from '../core/diagnostic.js';
import { previewValue } from '../core/describe.js';
import { indexMsgpack } from './index.js';
import { hex } from '../test/helpers/hex.js';

const warnings = (ix: ReturnType<typeof indexMsgpack>) => ix.warnings.map((w) => `${w.code}@${w.offset}#${w.node}`);

describe('msgpack: timestamp extensions (type -1) the spec does not define', () => {
  it('warns, with the offset, on a timestamp of a length other than 4, 8 or 12; the frame still decodes', () => {
    const cases: [string, number][] = [
      ['d4 ff 00', 0], // fixext 1
      ['d5 ff 0000', 0], // fixext 2
      ['d8 ff 00000000000000000000000000000000', 0], // fixext 16
      ['c7 00 ff', 0], // ext 8, empty
      ['c7 05 ff 0000000000', 0],
      ['c8 0003 ff 000000', 0], // ext 16
      ['92 01 d4 ff 00', 2], // inside an array
    ];
    for (const [h, at] of cases) {
      const ix = indexMsgpack(hex(h));
      expect(ix.error, h).toBeNull();
      expect(
        ix.warnings.map((w) => w.code),
        h,
      ).toEqual(['invalid-timestamp']);
      const w = ix.warnings[0];
      expect(w.offset, h).toBe(at);
      expect(ix.store.start[w.node], h).toBe(at);
      expect(w.message, h).toMatch(/timestamp/);
      expect(w.message, h).toContain(`at byte ${at}`);
      const v = ix.value(w.node) as ExtValue;
      expect(v).toBeInstanceOf(ExtValue);
      expect(v.type).toBe(-1);
      expect(v.timestamp).toBeNull();
    }
  });

  it('warns on nanoseconds above 999,999,999 in a timestamp 64 or 96', () => {
    // timestamp 64: nanoseconds in the top 30 bits: 1,000,000,000 << 2 = 0xee6b2800
    let ix = indexMsgpack(hex('d7 ff ee6b2800 00000001'));
    expect(ix.error).toBeNull();
    expect(warnings(ix)).toEqual(['invalid-timestamp@0#0']);
    expect(ix.warnings[0].message).toMatch(/nanoseconds/);
    // the largest 30-bit value
    ix = indexMsgpack(hex('d7 ff ffffffff 00000000'));
    expect(warnings(ix)).toEqual(['invalid-timestamp@0#0']);
    // timestamp 96
    ix = indexMsgpack(hex('81 a1 74 c7 0c ff 3b9aca00 0000000000000000'));
    expect(ix.error).toBeNull();
    expect(warnings(ix)).toEqual(['invalid-timestamp@3#2']);
    expect(ix.warnings[0].message).toMatch(/1000000000|1,000,000,000/);
  });

  it('no warning for valid timestamps or for other extension types of any length', () => {
    for (const h of [
      'd6 ff 00000001',
      'd7 ff ee6b27fc 00000001',
      'c7 0c ff 3b9ac9ff ffffffffffffffff',
      'd4 01 00',
      'c7 05 7f 0000000000',
      'c7 00 00',
    ]) {
      const ix = indexMsgpack(hex(h));
      expect(ix.error, h).toBeNull();
      expect(ix.warnings, h).toEqual([]);
    }
  });

  it('a shallow index warns when the timestamp is recorded, once', () => {
    const bytes = hex('91 91 d4 ff 00');
    const ix = indexMsgpack(bytes, { depth: 1 });
    expect(ix.error).toBeNull();
    expect(ix.warnings).toEqual([]);
    ix.expandAll(0);
    ix.expandAll(0);
    expect(warnings(ix)).toEqual(['invalid-timestamp@2#2']);
    expect(warnings(indexMsgpack(bytes))).toEqual(['invalid-timestamp@2#2']);
  });
});

describe('msgpack: a str holding invalid UTF-8 keeps the frame', () => {
  it('marks the string, warns at the bad byte, and the value is the original bytes', () => {
    const cases: [string, number][] = [
      ['a2 c328', 1],
      ['a4 61 eda080', 2], // surrogate
      ['a2 c0af', 1], // overlong
      ['a4 f4908080', 1], // above U+10FFFF
      ['d9 03 61 62 ff', 4], // str 8
    ];
    for (const [h, bad] of cases) {
      const bytes = hex(h);
      const ix = indexMsgpack(bytes);
      expect(ix.error, h).toBeNull();
      expect(ix.store.flags[0] & Flag.invalidUtf8, h).toBe(Flag.invalidUtf8);
      expect(ix.store.flags[0] & Flag.incomplete, h).toBe(0);
      expect(ix.store.end[0], h).toBe(bytes.length);
      expect(warnings(ix), h).toEqual([`invalid-utf8@${bad}#0`]);
      expect(ix.warnings[0].message, h).toContain(`at byte ${bad}`);
      // One byte offset, said once: the bad byte's (the tree shows which str it is in).
      expect(ix.warnings[0].message.match(/\bbyte \d+\b/g), h).toEqual([`byte ${bad}`]);
      const head = ix.store.head[0];
      expect(ix.value(0), h).toEqual(bytes.slice(head));
      expect(ix.value(0), h).toBeInstanceOf(Uint8Array);
    }
  });

  it('the rest of the frame decodes around it, keys included', () => {
    let ix = indexMsgpack(hex('93 a1 61 a2 c328 a1 62'));
    expect(ix.error).toBeNull();
    expect(ix.value(0)).toEqual(['a', Uint8Array.from([0xc3, 0x28]), 'b']);
    expect(warnings(ix)).toEqual(['invalid-utf8@4#2']);
    // valid strings are not marked
    expect(ix.store.flags[1] & Flag.invalidUtf8).toBe(0);
    expect(ix.store.flags[3] & Flag.invalidUtf8).toBe(0);

    ix = indexMsgpack(hex('82 a1 ff 01 a1 61 02'));
    expect(ix.error).toBeNull();
    expect(warnings(ix)).toEqual(['invalid-utf8@2#1']);
    const m = ix.value(0) as Map<unknown, unknown>;
    expect([...m.values()]).toEqual([1, 2]);
    // renderers read it without throwing
    expect(() => diagnostic(ix)).not.toThrow();
    expect(typeof previewValue(ix, 1)).toBe('string');
  });

  it('a shallow index accepts it too, and warns once the string is recorded', () => {
    const bytes = hex('92 91 a2 c328 01');
    for (const depth of [0, 1]) {
      const ix = indexMsgpack(bytes, { depth });
      expect(ix.error).toBeNull();
      expect(ix.warnings).toEqual([]);
      ix.expandAll(0);
      expect(ix.warnings.map((w) => `${w.code}@${w.offset}`)).toEqual(['invalid-utf8@3']);
      const node = ix.warnings[0].node;
      expect(ix.store.start[node]).toBe(2);
      expect(ix.store.flags[node] & Flag.invalidUtf8).toBe(Flag.invalidUtf8);
    }
  });

  it('a str cut off by the end of the input is still an error', () => {
    const ix = indexMsgpack(hex('a3 c328'));
    expect(ix.error?.code).toBe('length-exceeds-input');
  });
});
