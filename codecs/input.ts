/**
 * Turns what a user hands us (a file, stdin, a paste) into frame bytes: raw bytes, or text
 * in hex (spaces, `0x`, commas and cbor.me-style `#` comments allowed), base64 or
 * base64url. Detection is conservative: text that is neither is taken as raw bytes, and
 * raw text that is itself a whole frame wins over a hex / base64 reading of it (`42` is
 * the JSON number, not the byte 0x42).
 */
import { base64Bytes } from './core/base64.js';

export type InputEncoding = 'raw' | 'hex' | 'base64' | 'base64url';
export type InputMode = 'auto' | 'raw' | 'hex' | 'base64';

export type ParsedInput =
  | {
      readonly ok: true;
      readonly bytes: Uint8Array;
      readonly encoding: InputEncoding;
      /**
       * The text itself won over a hex / base64 reading of it (input-reading.ts): its characters
       * are a text frame, read as a WebSocket text frame would be.
       */
      readonly textFrame?: true;
    }
  | { readonly ok: false; readonly error: string; readonly offset: number };

export interface ParseInputOptions {
  /**
   * The format the bytes will be read as ('auto' by default). Raw text wins over hex /
   * base64 only when it is a whole frame of that format: with a binary format forced,
   * `17` is hex for unsigned 23, not JSON.
   */
  readonly format?: string;
}

export function parseInput(
  input: Uint8Array | string,
  mode: InputMode = 'auto',
  options: ParseInputOptions = {},
): ParsedInput {
  const raw = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  if (mode === 'raw') return { ok: true, bytes: raw, encoding: 'raw' };
  const text = typeof input === 'string' ? input : asciiText(raw);
  if (text === null) {
    return mode === 'auto'
      ? { ok: true, bytes: raw, encoding: 'raw' }
      : { ok: false, error: `input is not ${mode} text`, offset: firstNonText(raw) };
  }
  const jsonPossible = options.format === undefined || options.format === 'auto' || options.format === 'json';
  if (mode === 'auto' && jsonPossible && isJsonScalarText(text)) return { ok: true, bytes: raw, encoding: 'raw' };
  if (mode === 'hex' || mode === 'auto') {
    const hex = parseHex(text);
    if (hex.ok || mode === 'hex') return hex;
  }
  const b64 = parseBase64(text);
  if (b64.ok || mode === 'base64') return b64;
  return { ok: true, bytes: raw, encoding: 'raw' };
}

/**
 * Hex with optional `0x` prefixes, whitespace, commas, and `#` comments to the end of a line.
 * One pass over character codes into the output bytes (the paste page parses 300 KB of
 * hex on its main thread: a regular expression per character cost a long task there).
 */
export function parseHex(text: string): ParsedInput {
  const read = hexBytes(text);
  if (!read.ok) return read;
  if (read.digits === 0) return { ok: false, error: 'no hex digits', offset: 0 };
  return { ok: true, bytes: read.bytes, encoding: 'hex' };
}

/**
 * The bytes hex text spells (the notation `parseHex` reads), none for a text with no digits:
 * the one hex reader, shared by pasted input and hex edits (codecs/edit/hex-text.ts).
 */
export function hexBytes(
  text: string,
):
  | { readonly ok: true; readonly bytes: Uint8Array; readonly digits: number }
  | { readonly ok: false; readonly error: string; readonly offset: number } {
  const out = new Uint8Array(text.length >> 1);
  let count = 0; // hex digits read
  let high = 0;
  let highAt = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < n && text.charCodeAt(i) !== 0x0a) i++;
      continue;
    }
    if (c === 0x30 && (text.charCodeAt(i + 1) | 0x20) === 0x78 /* x, X */ && hexValue(text.charCodeAt(i + 2)) >= 0) {
      i += 2;
      continue;
    }
    if (c === 0x2c /* , */ || isSpace(c)) {
      i++;
      continue;
    }
    const v = hexValue(c);
    if (v < 0) return { ok: false, error: `not a hex digit: ${JSON.stringify(text[i])}`, offset: i };
    if (count & 1) out[count >> 1] = (high << 4) | v;
    else {
      high = v;
      highAt = i;
    }
    count++;
    i++;
  }
  if (count & 1) return { ok: false, error: 'odd number of hex digits', offset: highAt };
  return { ok: true, bytes: out.slice(0, count >> 1), digits: count };
}

/** The value of a hex digit's character code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/** What `\s` matches among the characters a paste or file holds (ASCII and the common Unicode spaces). */
function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x2028 ||
    c === 0x2029 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x1680 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

export function parseBase64(text: string): ParsedInput {
  const compact = text.replace(/\s+/g, '');
  if (!compact) return { ok: false, error: 'no base64 characters', offset: 0 };
  const url = /[-_]/.test(compact);
  const alphabet = url ? /^[A-Za-z0-9\-_]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  if (!alphabet.test(compact)) {
    const bad = [...compact].findIndex((c) => !/[A-Za-z0-9+/=\-_]/.test(c));
    return { ok: false, error: 'not base64 text', offset: Math.max(0, bad) };
  }
  const body = compact.replace(/=+$/, '');
  if (body.length % 4 === 1)
    return { ok: false, error: 'base64 text has an impossible length', offset: compact.length };
  const bytes = base64Bytes(body);
  if (bytes === null) return { ok: false, error: 'not base64 text', offset: 0 };
  return { ok: true, bytes, encoding: url ? 'base64url' : 'base64' };
}

/**
 * Whether the text is a whole JSON number or literal (surrounding whitespace allowed). Of
 * the formats only JSON is text, and the only JSON texts that also read as hex or base64
 * are these (objects, arrays and strings start with `{`, `[` or `"`, which neither uses),
 * so this is exactly "the raw bytes decode whole" for text a hex / base64 reading could
 * claim. Binary formats read such text whole only by coincidence (`a0` is CBOR for the
 * text "0", but meant as an empty map): there the hex reading stays.
 */
function isJsonScalarText(text: string): boolean {
  return /^[ \t\n\r]*(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)[ \t\n\r]*$/.test(text);
}

/** The bytes as a string when they are printable ASCII text (with tabs and newlines), else null. */
function asciiText(bytes: Uint8Array): string | null {
  if (bytes.length === 0 || firstNonText(bytes) >= 0) return null;
  return new TextDecoder('latin1').decode(bytes);
}

function firstNonText(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (!(b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127))) return i;
  }
  return -1;
}
