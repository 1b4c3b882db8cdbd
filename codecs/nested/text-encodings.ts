/**
 * Strict base64 / base64url / hex readings of a string's bytes, for nested values: a
 * string is read as one of these only when every character belongs to it (no whitespace,
 * padding only at the end, one alphabet), so ordinary words rarely qualify.
 */

export type TextEncodingName = 'base64' | 'base64url' | 'hex';

export interface TextDecoded {
  readonly encoding: TextEncodingName;
  readonly bytes: Uint8Array;
  /** Characters read, padding included (the whole input). */
  readonly textLength: number;
}

const B64 = new Int8Array(256).fill(-1);
const B64URL = new Int8Array(256).fill(-1);
const HEX = new Int8Array(256).fill(-1);
{
  const common = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < 62; i++) B64[common.charCodeAt(i)] = B64URL[common.charCodeAt(i)] = i;
  B64[0x2b] = 62; // +
  B64[0x2f] = 63; // /
  B64URL[0x2d] = 62; // -
  B64URL[0x5f] = 63; // _
  for (let i = 0; i < 16; i++) HEX['0123456789abcdef'.charCodeAt(i)] = HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}

/** Hex of whole bytes (even length, one case or mixed), or null. */
export function decodeHexText(text: Uint8Array): TextDecoded | null {
  if (text.length === 0 || text.length % 2) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = HEX[text[2 * i]];
    const lo = HEX[text[2 * i + 1]];
    if (hi < 0 || lo < 0) return null;
    out[i] = (hi << 4) | lo;
  }
  return { encoding: 'hex', bytes: out, textLength: text.length };
}

/**
 * Base64 (with `+/`) or base64url (with `-_`), padded or not, or null. A string with
 * neither alphabet's special characters reads as base64 (the two agree on it).
 */
export function decodeBase64Text(text: Uint8Array): TextDecoded | null {
  let end = text.length;
  let pad = 0;
  while (end > 0 && text[end - 1] === 0x3d && pad < 2) {
    end--;
    pad++;
  }
  if (end === 0) return null;
  if (pad && text.length % 4) return null;
  if (end % 4 === 1) return null;
  let url = false;
  let std = false;
  for (let i = 0; i < end; i++) {
    const c = text[i];
    if (c === 0x2b || c === 0x2f) std = true;
    else if (c === 0x2d || c === 0x5f) url = true;
    else if (B64[c] < 0) return null;
  }
  if (std && url) return null;
  const table = url ? B64URL : B64;
  const out = new Uint8Array(Math.floor((end * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    acc = (acc << 6) | table[text[i]];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero in canonical base64: otherwise it is not base64 of these bytes.
  if (bits && acc & ((1 << bits) - 1)) return null;
  return { encoding: url ? 'base64url' : 'base64', bytes: out, textLength: text.length };
}
