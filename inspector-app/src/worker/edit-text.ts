/**
 * Edit and send, in the decode worker: the text a frame is edited as, and the bytes an edit
 * gives back (codecs/edit), with what changed. A frame is edited in its own encoding — CBOR
 * as EDN (diagnostic notation), MessagePack as its edit text, JSON as the text itself — when
 * its unchanged text gives back exactly its bytes (checked here, every time); otherwise, and
 * for every other frame (text, Protobuf, framings, compressed or malformed), as hex.
 */
import { diagnostic } from '../../../codecs/core/diagnostic.js';
import type { SpanIndex } from '../../../codecs/core/span-index.js';
import {
  byteChangeSummary,
  type ByteChangeSummary,
  cborFromEdn,
  type EditError,
  type EditResult,
  jsonFromText,
  lineColumn,
  msgpackEditText,
  msgpackFromText,
} from '../../../codecs/edit/index.js';

/** What a frame is edited as. */
export type EditSyntax = 'edn' | 'msgpack' | 'json' | 'hex';

export interface EditSource {
  readonly syntax: EditSyntax;
  readonly text: string;
}

export type EditOutcome =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly change: ByteChangeSummary }
  | { readonly ok: false; readonly error: EditError };

/** Frames larger than this are edited as hex only (their EDN could be many megabytes of text). */
const MAX_STRUCTURED_BYTES = 1 << 20;

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** The frame's bytes as hex, 16 bytes a line. */
export function hexText(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) {
    const row: string[] = [];
    for (let j = i; j < Math.min(i + 16, bytes.length); j++) row.push(bytes[j]!.toString(16).padStart(2, '0'));
    lines.push(row.join(' '));
  }
  return lines.join('\n');
}

/** Hex digits, any whitespace between bytes; an odd digit or any other character is an error at its line and column. */
export function bytesFromHex(text: string): EditResult {
  const out: number[] = [];
  let high = -1;
  let highAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      if (high >= 0) return fail(text, highAt, 'a byte is two hex digits');
      continue;
    }
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) return fail(text, i, `expected a hex digit, found ${JSON.stringify(text[i])}`);
    if (high < 0) {
      high = d;
      highAt = i;
    } else {
      out.push(high * 16 + d);
      high = -1;
    }
  }
  if (high >= 0) return fail(text, highAt, 'a byte is two hex digits');
  return { ok: true, bytes: Uint8Array.from(out) };
}

function fail(text: string, offset: number, message: string): EditResult {
  return { ok: false, error: { message, offset, ...lineColumn(text, offset) } };
}

export function encodeEditText(syntax: EditSyntax, text: string): EditResult {
  switch (syntax) {
    case 'edn':
      return cborFromEdn(text);
    case 'msgpack':
      return msgpackFromText(text);
    case 'json':
      return jsonFromText(text);
    case 'hex':
      return bytesFromHex(text);
  }
}

/**
 * The text `data` is edited as. `index` is the frame's reading (null when none), `whole`
 * false when the reading is not of the frame's own bytes (a compressed frame).
 */
export function editSource(data: Uint8Array, index: SpanIndex | null, whole: boolean): EditSource {
  const hex: EditSource = { syntax: 'hex', text: hexText(data) };
  if (!index || !whole || index.error || data.length > MAX_STRUCTURED_BYTES) return hex;
  let source: EditSource;
  if (index.format === 'cbor') source = { syntax: 'edn', text: diagnostic(index, index.root) };
  else if (index.format === 'msgpack') source = { syntax: 'msgpack', text: msgpackEditText(index, index.root) };
  else if (index.format === 'json')
    source = { syntax: 'json', text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(data) };
  else return hex;
  const back = encodeEditText(source.syntax, source.text);
  return back.ok && sameBytes(back.bytes, data) ? source : hex;
}

/** The bytes of an edit and what changed from `original`; an error (line, column) and no bytes when the text does not encode. */
export function editOutcome(original: Uint8Array, syntax: EditSyntax, text: string): EditOutcome {
  const result = encodeEditText(syntax, text);
  if (!result.ok) return result;
  return { ok: true, bytes: result.bytes, change: byteChangeSummary(original, result.bytes) };
}
