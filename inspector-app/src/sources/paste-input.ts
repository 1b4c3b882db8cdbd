/**
 * The paste page's inputs: text a user pasted, and a frame carried in the URL's hash so a
 * link reopens the same frame. Hex / base64 parsing is codecs/input.ts's; this file only
 * adds what a paste box needs around it (trimming, empty input, typo'd hex, the hash).
 */
import { parseHex, parseInput, type ParsedInput } from '../../../codecs/input.js';
import { decodeBase64, encodeBase64 } from './base64.js';

/**
 * Pasted text as frame bytes: hex (spaces, `0x`, commas, `#` comments), base64, base64url,
 * or else the text itself as UTF-8 (a pasted JSON frame; `42`, `null`, `true` stay JSON
 * even though they also read as hex / base64, as in the CLI). Offsets in errors count from
 * the start of `text` as pasted, before trimming.
 */
export function parsePasted(text: string): ParsedInput {
  const lead = text.length - text.trimStart().length;
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'nothing to inspect: the input is empty', offset: 0 };
  const parsed = parseInput(trimmed, 'auto');
  if (!parsed.ok) return { ...parsed, offset: parsed.offset + lead };
  // When hex fails, parseInput's auto mode falls back to base64 ("83 01 0g" is valid
  // base64) or to the raw text. When the paste was clearly meant as hex (a typo, an odd
  // digit), that would silently inspect the wrong bytes; the hex error with its offset is
  // what the user needs instead.
  if (parsed.encoding !== 'hex') {
    const hex = parseHex(trimmed);
    if (!hex.ok && looksLikeHex(trimmed, hex.offset)) return { ...hex, offset: hex.offset + lead };
  }
  return parsed;
}

/**
 * Hex intent: before the failing character, at least two byte-like tokens (even-length
 * runs of hex digits, `0x` optional) and nothing but tokens, separators and `#` comments.
 * "83 01 0g" and "a1 61 61 0" qualify; "hello world" and `{"a":1}` do not.
 */
function looksLikeHex(text: string, errorOffset: number): boolean {
  const before = text.slice(0, errorOffset).replace(/#[^\n]*/g, ' ');
  const tokens = before.split(/[\s,]+/).filter(Boolean);
  // The token the error is in may be cut short; it is not counted as evidence.
  const complete = /[\s,]$/.test(before) ? tokens : tokens.slice(0, -1);
  return complete.length >= 2 && complete.every((t) => /^(0[xX])?([0-9a-fA-F]{2})+$/.test(t));
}

/** Frames above this many bytes are not put in the URL (links that long break in chat apps, servers, and some browsers). */
export const HASH_BYTES_LIMIT = 48 * 1024;

export type HashResult = string | { readonly tooLarge: true; readonly limit: number };

/**
 * `#b64=<base64url, no padding>`, with `&text` for a text frame (so a pasted `cafe` opens as
 * the text it was, not as the CBOR those bytes also spell), or how large a frame may be when it
 * is too large.
 */
export function hashFromBytes(
  bytes: Uint8Array,
  limit: number = HASH_BYTES_LIMIT,
  options: { readonly text?: boolean } = {},
): HashResult {
  if (bytes.length > limit) return { tooLarge: true, limit };
  return `#b64=${encodeBase64(bytes, { url: true })}${options.text ? '&text' : ''}`;
}

export type BytesFromHash =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly text?: true }
  | { readonly ok: false; readonly error: string };

/**
 * The frame in a URL hash (`#b64=...` or `#hex=...`, with or without the `#`, possibly
 * among other `&`-separated parameters), or null when the hash carries no frame.
 */
export function bytesFromHash(hash: string): BytesFromHash | null {
  const params = hash.replace(/^#/, '').split('&');
  const text = params.includes('text');
  for (const param of params) {
    const eq = param.indexOf('=');
    const key = eq < 0 ? param : param.slice(0, eq);
    if (key !== 'b64' && key !== 'hex') continue;
    let value: string;
    try {
      // Browsers and chat apps may percent-encode the hash (`%20` in hex, `%3D` for `=`).
      value = decodeURIComponent(eq < 0 ? '' : param.slice(eq + 1));
    } catch {
      return { ok: false, error: `the link's ${key} value is not valid percent-encoding` };
    }
    if (key === 'hex') {
      const hex = parseHex(value);
      return hex.ok
        ? { ok: true, bytes: hex.bytes, ...(text ? { text: true as const } : {}) }
        : { ok: false, error: `the link's hex is malformed: ${hex.error} at character ${hex.offset}` };
    }
    const decoded = decodeBase64(value);
    return decoded.ok
      ? { ok: true, bytes: decoded.bytes, ...(text ? { text: true as const } : {}) }
      : { ok: false, error: `the link's base64 is malformed: ${decoded.error} at character ${decoded.offset}` };
  }
  return null;
}
