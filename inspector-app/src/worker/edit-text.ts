/**
 * Edit and send, in the decode worker: the text a frame is edited as, and the bytes an edit
 * gives back (codecs/edit), with what changed. A frame is edited in its own encoding — CBOR
 * as EDN (diagnostic notation), MessagePack as its edit text, JSON as the text itself — when
 * its unchanged text gives back exactly its bytes (checked here, every time). A framed frame
 * (Socket.IO, MQTT PUBLISH, STOMP, Phoenix, GraphQL over WebSocket, Centrifugo, WAMP) is
 * edited as its framing's fields and inner value, the framing rebuilt around them
 * (codecs/edit/framing), under the same check. Every other frame (text, Protobuf,
 * compressed or malformed) is edited as hex.
 */
import { diagnostic } from '../../../codecs/core/diagnostic.js';
import { findInvalidUtf8 } from '../../../codecs/core/utf8.js';
import type { SpanIndex } from '../../../codecs/core/span-index.js';
import {
  byteChangeSummary,
  type ByteChangeSummary,
  bytesFromHex,
  type EditError,
  editError,
  type EditResult,
  framedFromText,
  framedSource,
  type FramingName,
  hexText,
  innerBytes,
  isFramingName,
  msgpackEditText,
} from '../../../codecs/edit/index.js';

export { bytesFromHex, hexText };

/** What a frame is edited as: its own encoding, hex, or a framing's edit text. */
export type EditSyntax = 'edn' | 'msgpack' | 'json' | 'hex' | FramingName;

export interface EditSource {
  readonly syntax: EditSyntax;
  readonly text: string;
  /** Why the frame's value is not edited (a CRDT frame is view only): the editor says so above its hex. */
  readonly note?: string;
}

/** CRDT frames: their values are operations on a document the frame alone does not hold, so they are view only (hex edits still send). */
const VIEW_ONLY_FORMATS: Readonly<Record<string, string>> = {
  'crdt-model': 'json-joy',
  'crdt-patch': 'json-joy',
  yjs: 'Yjs',
  automerge: 'Automerge',
};

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

/** The bytes of an edit text; `original` (the frame edited) is what a framing is rebuilt from. */
export function encodeEditText(syntax: EditSyntax, text: string, original: Uint8Array): EditResult {
  return isFramingName(syntax) ? framedFromText(syntax, original, text) : innerBytes(syntax, text);
}

/**
 * The text `data` is edited as. `index` is the frame's reading (null when none), `whole`
 * false when the reading is not of the frame's own bytes (a compressed frame); `reading`
 * what the frame was read as (`socketio`, `mqtt`, … — a Socket.IO index reports `json`) and
 * the framing protocol recognized in it (`graphql-ws`, `wamp`, …).
 */
export function editSource(
  data: Uint8Array,
  index: SpanIndex | null,
  whole: boolean,
  reading: { readonly format?: string | null; readonly protocol?: string | null } = {},
): EditSource {
  const hex: EditSource = { syntax: 'hex', text: hexText(data) };
  const crdt = VIEW_ONLY_FORMATS[reading.format ?? index?.format ?? ''];
  if (crdt && index && !index.error)
    return { ...hex, note: `a ${crdt} CRDT frame is view only: its value is not edited here, only its bytes as hex` };
  if (!index || !whole || index.error || data.length > MAX_STRUCTURED_BYTES) return hex;
  const framed = framedSource(data, reading.format ?? index.format, reading.protocol ?? null);
  // The framing first; a frame it does not give back exactly is edited in its own encoding, else as hex.
  const candidates: (() => EditSource | null)[] = [
    () => (framed ? { syntax: framed.framing, text: framed.text } : null),
    () => ownEncoding(data, index),
  ];
  for (const make of candidates) {
    const source = make();
    if (!source) continue;
    const back = encodeEditText(source.syntax, source.text, data);
    if (back.ok && sameBytes(back.bytes, data)) return source;
  }
  return hex;
}

function ownEncoding(data: Uint8Array, index: SpanIndex): EditSource | null {
  if (index.format === 'cbor') return { syntax: 'edn', text: diagnostic(index, index.root) };
  if (index.format === 'msgpack')
    return { syntax: 'msgpack', text: msgpackEditText(index, index.root, { lines: true }) };
  if (index.format === 'json')
    return { syntax: 'json', text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(data) };
  return null;
}

/**
 * The bytes of an edit and what changed from `original`; an error (line, column) and no bytes
 * when the text does not encode — or, for a text frame (`textFrame`), when its bytes are not
 * UTF-8, which a WebSocket text frame must be (the browser would refuse to send them).
 */
export function editOutcome(original: Uint8Array, syntax: EditSyntax, text: string, textFrame = false): EditOutcome {
  const result = textFrame
    ? asTextFrame(encodeEditText(syntax, text, original), text)
    : encodeEditText(syntax, text, original);
  if (!result.ok) return result;
  return { ok: true, bytes: result.bytes, change: byteChangeSummary(original, result.bytes) };
}

/** `result` as a text frame's bytes: an error when they are not UTF-8 (said at the text's start, with the byte). */
export function asTextFrame(result: EditResult, text: string): EditResult {
  if (!result.ok) return result;
  const bad = findInvalidUtf8(result.bytes, 0, result.bytes.length);
  if (bad < 0) return result;
  const byte = result.bytes[bad]!.toString(16).padStart(2, '0');
  return {
    ok: false,
    error: editError(
      text,
      0,
      `byte ${bad} (0x${byte}) is not UTF-8: a text frame must be valid UTF-8 (send it as binary, or edit those bytes)`,
    ),
  };
}
