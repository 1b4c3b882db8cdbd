/**
 * Composing a frame from nothing (New message, the inspector's Compose, the paste page's
 * edit), in the decode worker: the bytes a text gives in a chosen syntax — CBOR as EDN,
 * MessagePack edit text, JSON text, hex — with what changed from an original when there is
 * one, and the text to start from when the syntax is switched.
 */
import { decodeFrame } from '../../../codecs/index.js';
import { diagnostic } from '../../../codecs/core/diagnostic.js';
import {
  type ByteChangeSummary,
  byteChangeSummary,
  type EditError,
  msgpackEditText,
} from '../../../codecs/edit/index.js';
import { editSource, encodeEditText, type EditSource, type EditSyntax, hexText } from './edit-text.js';

export type ComposeOutcome =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly change: ByteChangeSummary | null }
  | { readonly ok: false; readonly error: EditError };

export const COMPOSE_SYNTAXES: readonly EditSyntax[] = ['edn', 'msgpack', 'json', 'hex'];

/** Where a composer starts when it has no frame to start from: one small map, hex for an empty frame. */
export const STARTER_TEXT: Readonly<Partial<Record<EditSyntax, string>>> = {
  edn: '{"type": "hello", "n": 1}',
  msgpack: '{"type": "hello", "n": 1}',
  json: '{"type": "hello", "n": 1}',
  hex: '',
};

/** Above this, bytes are not written out as EDN or edit text (many megabytes of text). */
const MAX_STRUCTURED_BYTES = 1 << 20;

/** Framings rebuild around an original frame; a frame composed from nothing has none. */
const NO_ORIGINAL = new Uint8Array(0);

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** The bytes of `text` in `syntax`, and what changed from `original` (null: nothing to compare with). */
export function composeOutcome(syntax: EditSyntax, text: string, original: Uint8Array | null): ComposeOutcome {
  const result = encodeEditText(syntax, text, original ?? NO_ORIGINAL);
  if (!result.ok) return result;
  return { ok: true, bytes: result.bytes, change: original ? byteChangeSummary(original, result.bytes) : null };
}

/**
 * `bytes` written in `syntax` when that text gives back exactly these bytes (hex always
 * does); null when the bytes are not that format (JSON text read as CBOR) or too large.
 */
export function textOfBytes(bytes: Uint8Array, syntax: EditSyntax): string | null {
  if (syntax === 'hex') return hexText(bytes);
  if (bytes.length === 0 || bytes.length > MAX_STRUCTURED_BYTES) return null;
  let text: string;
  if (syntax === 'json') {
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  } else {
    const decoded = decodeFrame(bytes, { format: syntax === 'edn' ? 'cbor' : 'msgpack', noDecompress: true });
    const index = decoded.index;
    if (!index || decoded.error || index.root < 0) return null;
    text = syntax === 'edn' ? diagnostic(index, index.root) : msgpackEditText(index, index.root, { lines: true });
  }
  const back = encodeEditText(syntax, text, bytes);
  return back.ok && sameBytes(back.bytes, bytes) ? text : null;
}

/**
 * The text to show when the syntax changes from `from` to `to`: the same bytes written in
 * the new syntax when they read in it (hex ↔ EDN), else the same text — kept as written even
 * when it does not read in the new syntax (the editor then says where, and nothing can be
 * sent): what was typed is never replaced by a sample. Only an empty text becomes the new
 * syntax's sample.
 */
export function switchedText(from: EditSyntax, text: string, to: EditSyntax): string {
  if (from === to) return text;
  if (text.trim() === '') return STARTER_TEXT[to] ?? '';
  const now = encodeEditText(from, text, NO_ORIGINAL);
  if (now.ok) {
    const same = textOfBytes(now.bytes, to);
    if (same !== null) return same;
  }
  return text;
}

/** The syntax a frame read as `format` is written in (New message's default for a socket). */
export function syntaxForFormat(format: string | null | undefined): EditSyntax {
  if (format === 'cbor') return 'edn';
  if (format === 'msgpack') return 'msgpack';
  if (format === 'json' || format === 'text') return 'json';
  return 'hex';
}

/** Bytes in their own encoding, as Edit and send shows a frame (CBOR as EDN, …, hex when nothing else gives them back). */
export function ownSource(bytes: Uint8Array, isText: boolean): EditSource {
  if (bytes.length > MAX_STRUCTURED_BYTES) return { syntax: 'hex', text: hexText(bytes) };
  const decoded = decodeFrame(bytes, { isText });
  return editSource(bytes, decoded.index, !decoded.decompressed);
}
