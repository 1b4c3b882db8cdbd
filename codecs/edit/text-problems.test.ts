import { describe, expect, it } from 'vitest';
import { cborFromEdn } from './cbor-from-edn.js';
import { editErrorText, type EditResult } from './edit-error.js';
import { jsonFromText } from './json-text.js';
import { msgpackFromText } from './msgpack-from-text.js';

const PARSERS: Record<string, (text: string) => EditResult> = {
  JSON: jsonFromText,
  EDN: cborFromEdn,
  MessagePack: msgpackFromText,
};

const refused = (parse: (text: string) => EditResult, text: string): string => {
  const r = parse(text);
  expect(r.ok, text).toBe(false);
  return r.ok ? '' : editErrorText(r.error);
};

describe.each(Object.entries(PARSERS))(
  '%s edit text: common mistakes say what is wrong, where, and what to do',
  (name, parse) => {
    it('a leading byte order mark', () => {
      expect(refused(parse, '\uFEFF{"a": 1}')).toBe(
        '1:1: an invisible byte order mark (U+FEFF) stands here, often pasted in with the text: delete it, it is not part of the value',
      );
    });

    it('a number with a leading zero', () => {
      const octal = name === 'JSON' ? '' : ' (or 0o12 for octal)';
      expect(refused(parse, '{"a": 012}')).toBe(`1:7: a number cannot start with 0 (012): write 12${octal}`);
      expect(refused(parse, '[\n  -007.5\n]')).toBe('2:3: a number cannot start with 0 (-007.5): write -7.5');
    });

    it('a \\" meant as the end of a string', () => {
      expect(refused(parse, '{"a": "a\\"}')).toBe(
        `1:7: this string is not closed: end it with '"' (the \\" at 1:9 is an escaped quote, part of the string; for a backslash at the end write \\\\")`,
      );
    });

    it('an unterminated string', () => {
      expect(refused(parse, '{\n  "a": "abc')).toBe(`2:8: this string is not closed: end it with '"'`);
    });

    it('zero itself, fractions and exponents still read', () => {
      for (const t of ['0', '[0, -0.5, 10, 1e-07]']) expect(parse(t).ok, t).toBe(true);
    });
  },
);
