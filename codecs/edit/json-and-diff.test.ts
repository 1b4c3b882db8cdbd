import { describe, expect, it } from 'vitest';
import { byteChangeSummary } from './byte-diff.js';
import { jsonFromText } from './json-text.js';

describe('a JSON edit is the text itself', () => {
  it('sends the text unchanged as UTF-8, spacing and key order kept', () => {
    const text = '{ "b": 1,\n  "a": [1.50, "ü"] }';
    const r = jsonFromText(text);
    expect(r.ok && Buffer.from(r.bytes).toString('utf8')).toBe(text);
  });

  it.each([
    ['{"a": 1,}', 1, 9, 'expected a string key'],
    ['[1, 2', 1, 6, "expected ',' or ']'"],
    ['{\n  "a" 1\n}', 2, 7, "expected ':'"],
    ['01', 1, 1, 'a number cannot start with 0 (01): write 1'],
    ['1.', 1, 2, 'bad number'],
    ['"a\nb"', 1, 3, 'control character'],
    ['{"a": tru}', 1, 7, 'expected a JSON value'],
    ['1 2', 1, 3, 'expected end of input'],
    ['', 1, 1, 'expected a JSON value, found end of input'],
    ['"\\x"', 1, 2, 'unknown escape'],
  ])('%j is refused at its line and column', (text, line, column, message) => {
    const r = jsonFromText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toContain(message);
    expect([r.error.line, r.error.column]).toEqual([line, column]);
  });

  it('accepts what JSON.parse accepts, nested deeply too', () => {
    for (const t of ['0', '-1.5e-3', '[]', '{}', '[[[]]]', '{"a":{"b":[null,true,false,"\\u00fc\\n"]}}', ' [1] '])
      expect(jsonFromText(t).ok, t).toBe(true);
    expect(jsonFromText('['.repeat(100_000) + ']'.repeat(100_000)).ok).toBe(true);
  });
});

describe('the change summary of new bytes against the original', () => {
  const b = (...xs: number[]) => Uint8Array.from(xs);

  it('says identical bytes are identical', () => {
    expect(byteChangeSummary(b(1, 2, 3), b(1, 2, 3))).toMatchObject({
      identical: true,
      firstDifference: null,
      changedRanges: [],
      sizeDelta: 0,
    });
  });

  it('lists each run of changed bytes when the size is the same', () => {
    const s = byteChangeSummary(b(1, 2, 3, 4, 5, 6), b(1, 9, 9, 4, 5, 7));
    expect(s.firstDifference).toBe(1);
    expect(s.changedRanges).toEqual([
      { originalStart: 1, originalEnd: 3, start: 1, end: 3 },
      { originalStart: 5, originalEnd: 6, start: 5, end: 6 },
    ]);
    expect(s.changedBytes).toBe(3);
  });

  it('gives one range between the common prefix and suffix when the size changes', () => {
    const s = byteChangeSummary(b(0xa1, 0x61, 0x61, 0x01), b(0xa1, 0x61, 0x61, 0x19, 0x01, 0x00));
    expect(s).toMatchObject({ size: 6, originalSize: 4, sizeDelta: 2, firstDifference: 3 });
    expect(s.changedRanges).toEqual([{ originalStart: 3, originalEnd: 4, start: 3, end: 6 }]);
    const shorter = byteChangeSummary(b(1, 2, 3, 4), b(1, 4));
    expect(shorter.changedRanges).toEqual([{ originalStart: 1, originalEnd: 3, start: 1, end: 1 }]);
  });
});
