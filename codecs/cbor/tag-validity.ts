import type { SpanIndex } from '../core/span-index.js';
import { decodeUtf8, findInvalidUtf8 } from '../core/utf8.js';
import { grouped } from '../core/grouped.js';

/**
 * What the content of a registered CBOR tag must be (RFC 8949 section 3.4 and the IANA
 * "CBOR Tags" registry): tag 0 an RFC 3339 date/time text, 1 a number, 2 / 3 a byte string,
 * 4 / 5 an array [integer exponent, integer or bignum mantissa], 24 a byte string, 32-36
 * text, 37 a 16-byte byte string. Content that does not fit is well-formed but not valid
 * (section 5.3.2): the frame still decodes, and a warning at the tag says what was found.
 * Tags without a rule here (21-23 take anything, unregistered ones) are not checked.
 *
 * The walker calls `checkTagContent` on every tag head, recorded or only validated; the
 * rules read the content's first bytes in place, so a depth-limited index (the UI's
 * first, one-level read) warns as a full one does, and each tag warns once.
 */
type Rule = (bytes: Uint8Array, at: number) => string | null;

const NEEDS_TEXT: Rule = (bytes, at) =>
  bytes[at] >> 5 === 3 ? null : `needs a text string, found ${found(bytes[at])}`;
const NEEDS_BYTES: Rule = (bytes, at) =>
  bytes[at] >> 5 === 2 ? null : `needs a byte string, found ${found(bytes[at])}`;

const RULES = new Map<number, { readonly name: string; readonly rule: Rule }>([
  [0, { name: 'date/time text', rule: dateTimeText }],
  [
    1,
    {
      name: 'epoch date/time',
      rule: (bytes, at) =>
        isInteger(bytes[at]) || isFloat(bytes[at]) ? null : `needs an integer or a float, found ${found(bytes[at])}`,
    },
  ],
  [2, { name: 'unsigned bignum', rule: NEEDS_BYTES }],
  [3, { name: 'negative bignum', rule: NEEDS_BYTES }],
  [4, { name: 'decimal fraction', rule: exponentMantissa }],
  [5, { name: 'bigfloat', rule: exponentMantissa }],
  [24, { name: 'embedded CBOR', rule: NEEDS_BYTES }],
  [32, { name: 'URI', rule: NEEDS_TEXT }],
  [33, { name: 'base64url text', rule: NEEDS_TEXT }],
  [34, { name: 'base64 text', rule: NEEDS_TEXT }],
  [35, { name: 'regular expression', rule: NEEDS_TEXT }],
  [36, { name: 'MIME message', rule: NEEDS_TEXT }],
  [37, { name: 'UUID', rule: uuid }],
]);

/** Tag offsets already checked, per index: a tag validated while skipped is recorded later. */
const checked = new WeakMap<SpanIndex, Set<number>>();

/**
 * Warns (code `invalid-tag-content`) when the content at `contentStart` does not fit tag
 * `tag`, whose head starts at `tagStart`. `node` is the tag's node, or -1 when the walk
 * only validated it. Content cut off by the end of the frame is the walker's error, not a
 * warning.
 */
export function checkTagContent(
  index: SpanIndex,
  tagStart: number,
  tag: number,
  contentStart: number,
  node: number,
): void {
  const entry = RULES.get(tag);
  const bytes = index.bytes;
  if (!entry || contentStart >= bytes.length) return;
  const problem = entry.rule(bytes, contentStart);
  if (!problem) return;
  let seen = checked.get(index);
  if (!seen) checked.set(index, (seen = new Set()));
  if (seen.has(tagStart)) return;
  seen.add(tagStart);
  index.warn({
    code: 'invalid-tag-content',
    offset: tagStart,
    node,
    message: `tag ${tag} (${entry.name}) ${problem} at byte ${tagStart}`,
  });
}

function isInteger(ib: number): boolean {
  return ib < 0x40 && (ib & 31) < 28;
}

function isFloat(ib: number): boolean {
  return ib === 0xf9 || ib === 0xfa || ib === 0xfb;
}

/** The head's length (1 + argument bytes), or 0 for an indefinite length or reserved value. */
function headLength(ib: number): number {
  const ai = ib & 31;
  return ai < 24 ? 1 : ai <= 27 ? 1 + (1 << (ai - 24)) : 0;
}

/** A definite string's length from its head at `at`, or -1 (indefinite, or cut off). */
function stringLength(bytes: Uint8Array, at: number): number {
  const head = headLength(bytes[at]);
  if (!head || at + head > bytes.length) return -1;
  if (head === 1) return bytes[at] & 31;
  let n = 0;
  for (let i = 1; i < head; i++) n = n * 256 + bytes[at + i];
  return n;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function dateTimeText(bytes: Uint8Array, at: number): string | null {
  const problem = NEEDS_TEXT(bytes, at);
  if (problem) return problem;
  // A definite, short, whole text is checked for RFC 3339 syntax; longer or chunked text
  // is no date/time either, but is not decoded here.
  const length = stringLength(bytes, at);
  const from = at + headLength(bytes[at]);
  if (length < 0 || length > 64 || from + length > bytes.length || findInvalidUtf8(bytes, from, from + length) >= 0)
    return null;
  const text = decodeUtf8(bytes, from, from + length);
  return RFC3339.test(text) ? null : `needs an RFC 3339 date/time, found ${JSON.stringify(text)}`;
}

function exponentMantissa(bytes: Uint8Array, at: number): string | null {
  const ib = bytes[at];
  if (ib !== 0x82)
    return `needs an array of two items [exponent, mantissa], found ${ib >> 5 === 4 ? 'an array of another length' : found(ib)}`;
  const e = at + 1;
  if (e >= bytes.length) return null;
  if (!isInteger(bytes[e])) return `needs an integer exponent, found ${found(bytes[e])}`;
  const m = e + headLength(bytes[e]);
  if (m >= bytes.length) return null;
  const mb = bytes[m];
  return isInteger(mb) || mb === 0xc2 || mb === 0xc3 ? null : `needs an integer or bignum mantissa, found ${found(mb)}`;
}

function uuid(bytes: Uint8Array, at: number): string | null {
  const ib = bytes[at];
  if (ib >> 5 !== 2) return `needs a byte string of 16 bytes, found ${found(ib)}`;
  const length = stringLength(bytes, at);
  return length === 16
    ? null
    : `needs a byte string of 16 bytes, found ${length < 0 ? 'an indefinite-length one' : `${grouped(length)} bytes`}`;
}

/** What an initial byte starts, in words. */
function found(ib: number): string {
  switch (ib >> 5) {
    case 0:
      return 'an unsigned integer';
    case 1:
      return 'a negative integer';
    case 2:
      return 'a byte string';
    case 3:
      return 'a text string';
    case 4:
      return 'an array';
    case 5:
      return 'a map';
    case 6:
      return 'a tag';
    default:
      return ib === 0xf4
        ? 'false'
        : ib === 0xf5
          ? 'true'
          : ib === 0xf6
            ? 'null'
            : ib === 0xf7
              ? 'undefined'
              : isFloat(ib)
                ? 'a float'
                : 'a simple value';
  }
}
