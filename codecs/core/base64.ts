/**
 * Base64 both ways for the file and URL sources (HAR `_webSocketMessages`, capture files,
 * `#b64=` hashes). Pure loops over typed arrays: no Buffer (not in browsers), no btoa/atob
 * (they go through a binary string, one JS char per byte, which is slow and memory-heavy
 * for multi-megabyte frames).
 */
import { grouped } from './grouped.js';

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const STANDARD_CODES = asciiCodes(STANDARD);
const URL_SAFE_CODES = asciiCodes(URL_SAFE);
const PAD = 61; // '='

/** Sextet value of each ASCII code; -1 for characters outside both alphabets. */
const SEXTET = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) {
  SEXTET[STANDARD.charCodeAt(i)] = i;
  SEXTET[URL_SAFE.charCodeAt(i)] = i;
}

export interface EncodeOptions {
  /** base64url alphabet (`-` `_`) instead of `+` `/`. */
  readonly url?: boolean;
  /** Write `=` padding; default true for standard, false for url. */
  readonly pad?: boolean;
}

export function encodeBase64(bytes: Uint8Array, options: EncodeOptions = {}): string {
  const url = options.url ?? false;
  const pad = options.pad ?? !url;
  const codes = url ? URL_SAFE_CODES : STANDARD_CODES;
  const whole = bytes.length - (bytes.length % 3);
  const rest = bytes.length - whole;
  const outLength = (whole / 3) * 4 + (rest === 0 ? 0 : pad ? 4 : rest + 1);
  const out = new Uint8Array(outLength);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = codes[n >> 18];
    out[o++] = codes[(n >> 12) & 63];
    out[o++] = codes[(n >> 6) & 63];
    out[o++] = codes[n & 63];
  }
  if (rest > 0) {
    const n = (bytes[whole] << 16) | (rest === 2 ? bytes[whole + 1] << 8 : 0);
    out[o++] = codes[n >> 18];
    out[o++] = codes[(n >> 12) & 63];
    if (rest === 2) out[o++] = codes[(n >> 6) & 63];
    else if (pad) out[o++] = PAD;
    if (pad) out[o++] = PAD;
  }
  // The output is ASCII, so a UTF-8 decode is a straight copy (and much faster than +=).
  return new TextDecoder().decode(out);
}

export type DecodedBase64 =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: string; readonly offset: number };

/**
 * Decodes standard or url-safe base64 (either alphabet, even mixed), padding optional,
 * ASCII whitespace ignored (some tools wrap long base64 lines). Anything else is an error
 * with the offset of the offending character in `text`.
 */
export function decodeBase64(text: string): DecodedBase64 {
  const sextets = new Uint8Array(text.length);
  let count = 0;
  let padding = 0;
  let firstPad = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) continue;
    if (c === PAD) {
      if (firstPad < 0) firstPad = i;
      padding++;
      continue;
    }
    const v = c < 128 ? SEXTET[c] : -1;
    if (v < 0) return { ok: false, error: `not a base64 character: ${JSON.stringify(text[i])}`, offset: i };
    if (padding > 0) return { ok: false, error: 'base64 data after "=" padding', offset: i };
    sextets[count++] = v;
  }
  if (count % 4 === 1)
    return {
      ok: false,
      error: `base64 text has an impossible length (${grouped(count)} characters)`,
      offset: text.length,
    };
  if (padding > 0 && (padding > 2 || (count + padding) % 4 !== 0)) {
    return { ok: false, error: 'base64 padding does not match the length', offset: firstPad };
  }
  const bytes = new Uint8Array(Math.floor((count * 3) / 4));
  let o = 0;
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const n = (sextets[i] << 18) | (sextets[i + 1] << 12) | (sextets[i + 2] << 6) | sextets[i + 3];
    bytes[o++] = n >> 16;
    bytes[o++] = (n >> 8) & 255;
    bytes[o++] = n & 255;
  }
  const tail = count - i;
  if (tail >= 2) {
    const n = (sextets[i] << 18) | (sextets[i + 1] << 12) | (tail === 3 ? sextets[i + 2] << 6 : 0);
    bytes[o++] = n >> 16;
    if (tail === 3) bytes[o++] = (n >> 8) & 255;
  }
  return { ok: true, bytes };
}

/** The bytes of lenient base64 (as `decodeBase64` reads it), or null when it is not base64. */
export function base64Bytes(text: string): Uint8Array | null {
  const decoded = decodeBase64(text);
  return decoded.ok ? decoded.bytes : null;
}

/** Strict standard base64: the `+/` alphabet, `=` padding to a multiple of 4, no whitespace. */
export const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of strict standard base64 (see STRICT_BASE64); null when it is anything else. */
export function strictBase64Bytes(text: string): Uint8Array | null {
  return STRICT_BASE64.test(text) ? base64Bytes(text) : null;
}

function asciiCodes(alphabet: string): Uint8Array {
  return Uint8Array.from(alphabet, (c) => c.charCodeAt(0));
}
