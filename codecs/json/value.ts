import { Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { decodeUtf8 } from '../core/utf8.js';

/**
 * Values of complete JSON leaves (the walker validated their bytes): strings with escapes
 * decoded, numbers as JSON.parse gives them except integers beyond 2^53 (bigint, exact).
 */
export function jsonLeafValue(index: SpanIndex, id: number): unknown {
  const { bytes, store } = index;
  switch (store.kind[id]) {
    case Kind.text:
      return jsonString(bytes, store.start[id] + 1, store.end[id] - 1);
    case Kind.number:
      return jsonNumber(bytes, store.start[id], store.end[id]);
    case Kind.true:
      return true;
    case Kind.false:
      return false;
    case Kind.null:
      return null;
    default:
      return undefined;
  }
}

/** Decodes the validated string body bytes[start, end) (between the quotes). */
export function jsonString(bytes: Uint8Array, start: number, end: number): string {
  let i = start;
  while (i < end && bytes[i] !== 0x5c) i++;
  if (i === end) return decodeUtf8(bytes, start, end);
  // Runs of raw bytes decode in one call; escapes append UTF-16 code units (a \uD83D\uDE00
  // pair joins into one code point, a lone surrogate stays a lone code unit, as in JSON.parse).
  let out = i > start ? decodeUtf8(bytes, start, i) : '';
  while (i < end) {
    // bytes[i] is a backslash.
    const x = bytes[i + 1];
    if (x === 0x75) {
      out += String.fromCharCode(
        (hexValue(bytes[i + 2]) << 12) |
          (hexValue(bytes[i + 3]) << 8) |
          (hexValue(bytes[i + 4]) << 4) |
          hexValue(bytes[i + 5]),
      );
      i += 6;
    } else {
      out += simpleEscape(x);
      i += 2;
    }
    const runStart = i;
    while (i < end && bytes[i] !== 0x5c) i++;
    if (i > runStart) out += decodeUtf8(bytes, runStart, i);
  }
  return out;
}

function simpleEscape(x: number): string {
  switch (x) {
    case 0x62:
      return '\b';
    case 0x66:
      return '\f';
    case 0x6e:
      return '\n';
    case 0x72:
      return '\r';
    case 0x74:
      return '\t';
    default:
      return String.fromCharCode(x); // " \ /
  }
}

function hexValue(b: number): number {
  return b <= 0x39 ? b - 0x30 : (b | 0x20) - 0x57;
}

/**
 * The number in the validated text bytes[start, end). Integers of up to 15 digits are
 * computed directly; other text goes through Number() (the same conversion as JSON.parse),
 * and integer text beyond Number.MAX_SAFE_INTEGER becomes an exact bigint. `-0` stays -0.
 */
export function jsonNumber(bytes: Uint8Array, start: number, end: number): number | bigint {
  const neg = bytes[start] === 0x2d;
  let i = neg ? start + 1 : start;
  if (end - i <= 15) {
    let v = 0;
    for (; i < end; i++) {
      const d = bytes[i] - 0x30;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === end) return neg ? -v : v;
  }
  let integer = true;
  let text = '';
  for (let j = start; j < end; j++) {
    const b = bytes[j];
    if (b === 0x2e || b === 0x65 || b === 0x45) integer = false;
    text += String.fromCharCode(b);
  }
  const n = Number(text);
  if (integer && (n > Number.MAX_SAFE_INTEGER || n < -Number.MAX_SAFE_INTEGER)) return BigInt(text);
  return n;
}
