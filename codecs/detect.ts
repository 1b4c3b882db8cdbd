import { Flag, Kind } from './core/kinds.js';
import { SpanIndex, type FormatWalker } from './core/span-index.js';
import { cborWalker } from './cbor/walker.js';
import { msgpackWalker } from './msgpack/walker.js';
import { jsonWalker } from './json/walker.js';
import { crdtModelWalker } from './crdt/model-walker.js';
import { crdtPatchWalker } from './crdt/patch-walker.js';
import { ndjsonWalker } from './json/sequence-walker.js';
import { textWalker } from './text/walker.js';
import { protobufWalker } from './protobuf/walker.js';
import { socketIoPacket, socketIoWalker } from './protocols/socketio-walker.js';
import { Kind as K } from './core/kinds.js';
import { mqttDetector } from './protocols/mqtt-detect.js';
import { stompDetector } from './protocols/stomp-detect.js';
import { phoenixDetector } from './protocols/phoenix-detect.js';
import { yjsDetector } from './yjs/detect.js';
import { automergeDetector } from './automerge/detect.js';
import { signalrDetector } from './protocols/signalr-detect.js';
import { sockjsDetector } from './protocols/sockjs-detect.js';
import { nostrEventReason } from './protocols/nostr-detect.js';
import { mediaDetector } from './media/media-detect.js';
import { engineIoBinaryDetector } from './protocols/engineio-binary.js';
import { findInvalidUtf8 } from './core/utf8.js';
import { subprotocolHint, type SubprotocolHint } from './subprotocol.js';
import { centrifugoMessages, centrifugoSide, readCentrifugoProtobuf } from './protocols/centrifugo-protobuf.js';
import type { DetectContext, Candidate, Rejection, Detection, Detector } from './detector.js';
export type { DetectContext, Candidate, Rejection, Detection, Detector } from './detector.js';

/** Tags registered with IANA that commonly appear in real traffic. */
const COMMON_TAGS = new Set([0, 1, 2, 3, 4, 5, 21, 22, 23, 24, 32, 33, 34, 35, 36, 37, 64, 256, 258, 259, 1001, 55799]);

/** Plausibility of a binary reading: real payloads are containers with text keys and few exotic items. */
export function plausibility(index: SpanIndex): { score: number; notes: string[] } {
  const { store } = index;
  const notes: string[] = [];
  let score = 0;
  const root = index.root;
  const rk = store.kind[root];
  if (rk === Kind.map || rk === Kind.array) {
    score += 0.1;
    notes.push(`root is ${index.kind(root)}`);
  } else if (rk === Kind.tag) {
    score += 0.05;
  } else {
    score -= 0.2;
    notes.push('root is a scalar');
  }
  let keys = 0;
  let textKeys = 0;
  let exotic = 0;
  for (let id = 0; id < store.size; id++) {
    const k = store.kind[id];
    if (store.flags[id] & Flag.key) {
      keys++;
      if (k === Kind.text) textKeys++;
    }
    if (k === Kind.simple || k === Kind.undefined) exotic++;
    if (k === Kind.tag && !COMMON_TAGS.has(store.arg[id])) exotic++;
    if (k === Kind.ext && store.arg[id] !== -1) exotic++;
  }
  if (keys) {
    score += (0.15 * textKeys) / keys;
    if (textKeys === keys) notes.push('map keys are text');
  }
  if (exotic) {
    score -= Math.min(0.4, 0.1 * exotic);
    notes.push(`${exotic} unusual item${exotic === 1 ? '' : 's'}`);
  }
  return { score, notes };
}

function binaryDetector(
  format: string,
  walker: FormatWalker,
  base: number,
  extra?: (bytes: Uint8Array) => { bonus: number; note: string } | null,
): Detector {
  return {
    format,
    // A text frame is read as text (JSON, a JSON sequence or plain text); binary readings of
    // it only when the user forces one ("decode as"): `"a"` is not MessagePack 97.
    textFrames: false,
    detect(bytes, context) {
      if (bytes.length === 0) return null;
      const index = new SpanIndex(bytes, walker, { depth: 1 });
      if (index.error) return { format, error: index.error, index };
      const p = plausibility(index);
      const e = extra?.(bytes);
      let confidence = base + p.score + (e?.bonus ?? 0);
      if (context.preferFormat === format) confidence += 0.25;
      confidence = Math.max(0.01, Math.min(0.99, confidence));
      return { format, confidence, reason: [e?.note, ...p.notes].filter(Boolean).join(', ') || 'decodes whole', index };
    },
  };
}

const JSON_START = new Set([
  0x7b, 0x5b, 0x22, 0x2d, 0x74, 0x66, 0x6e, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39,
]);

const jsonDetector: Detector = {
  format: 'json',
  detect(bytes, context) {
    let i = 0;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
    // Only text that could start a JSON value is worth a full pass.
    if (i >= bytes.length || !JSON_START.has(bytes[i])) return null;
    const index = new SpanIndex(bytes, jsonWalker, { depth: 1 });
    if (index.error) return { format: 'json', error: index.error, index };
    const container = bytes[i] === 0x7b || bytes[i] === 0x5b;
    const confidence = context.isText ? 0.99 : container ? 0.9 : 0.55;
    const reason = (context.isText ? 'text frame, valid JSON' : 'valid JSON text') + nostrNote(bytes, index);
    return { format: 'json', confidence, reason, index };
  },
};

/** `: Nostr event, …` for a frame carrying one (its fields checked), else nothing. */
function nostrNote(bytes: Uint8Array, index: SpanIndex): string {
  const reason = bytes[0] === 0x5b ? nostrEventReason(bytes, index) : null;
  return reason ? `: ${reason}` : '';
}

/**
 * json-joy's binary formats have no magic number; their walkers are strict (a logical-clock
 * model's clock table must end exactly at the buffer's end, every id must be plausible, a
 * patch's ops must be ones json-joy writes), so a whole, error-free parse is strong
 * evidence. A server-clock model and a logical-clock patch can both start with 0x80; when
 * both parse, both are reported, the model first.
 */
function crdtDetector(
  format: 'crdt-model' | 'crdt-patch',
  walker: FormatWalker,
  confidence: number,
  reason: string,
): Detector {
  return {
    format,
    textFrames: false,
    detect(bytes) {
      if (bytes.length < 3) return null;
      const index = new SpanIndex(bytes, walker);
      if (index.error) return { format, error: index.error, index };
      return { format, confidence, reason, index };
    },
  };
}

/** Bytes that separate the values of a JSON sequence: LF (NDJSON) and RS (RFC 7464). */
function isSeparator(c: number): boolean {
  return c === 0x0a || c === 0x1e;
}

/**
 * Several JSON values, one per line (`{…}\n{…}`). Offered only when the first line is a whole
 * JSON value and more follows, so pretty-printed JSON (whose first line is `{`) and one value
 * with a trailing newline are not sequences.
 */
const ndjsonDetector: Detector = {
  format: 'ndjson',
  detect(bytes, context) {
    let first = 0;
    while (
      first < bytes.length &&
      (isSeparator(bytes[first]) || bytes[first] === 0x20 || bytes[first] === 0x09 || bytes[first] === 0x0d)
    )
      first++;
    if (first >= bytes.length || !JSON_START.has(bytes[first])) return null;
    let lf = first;
    while (lf < bytes.length && !isSeparator(bytes[lf])) lf++;
    let next = lf;
    while (
      next < bytes.length &&
      (isSeparator(bytes[next]) || bytes[next] === 0x20 || bytes[next] === 0x09 || bytes[next] === 0x0d)
    )
      next++;
    if (next >= bytes.length) return null;
    const index = new SpanIndex(bytes, ndjsonWalker, { depth: 1 });
    // A first line that is not a whole JSON value (pretty-printed JSON opens with `{` alone):
    // not a sequence at all, rather than a broken one.
    if (index.error && index.error.offset <= lf) return null;
    if (index.error) return { format: 'ndjson', error: index.error, index };
    return {
      format: 'ndjson',
      confidence: context.isText ? 0.97 : 0.85,
      reason: `${index.store.arg[0]} JSON values, one per line`,
      index,
    };
  },
};

/**
 * Plain text: any valid UTF-8 in a text frame (the fallback that keeps `hello` from showing
 * as broken CBOR); in a binary frame only text without control characters, and ranked low.
 */
const textDetector: Detector = {
  format: 'text',
  detect(bytes, context) {
    if (bytes.length === 0) return null;
    if (findInvalidUtf8(bytes, 0, bytes.length) >= 0) return null;
    if (!context.isText) {
      for (let i = 0; i < bytes.length; i++) {
        const c = bytes[i];
        if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return null;
      }
    }
    const index = new SpanIndex(bytes, textWalker, { depth: 1 });
    return {
      format: 'text',
      confidence: context.isText ? 0.5 : 0.3,
      reason: context.isText ? 'text frame' : 'printable UTF-8 text',
      index,
    };
  },
};

/**
 * Protobuf has no magic number and many byte strings parse as a message, so it ranks below
 * every self-describing format: offered when nothing else reads the frame whole (or the
 * connection's other frames were Protobuf). Small field numbers, nested messages and text
 * fields that read as such make it more plausible.
 */
export const protobufDetector: Detector = {
  format: 'protobuf',
  textFrames: false,
  detect(bytes, context) {
    if (bytes.length < 2) return null;
    const index = new SpanIndex(bytes, protobufWalker, { depth: 1 });
    // No magic number: how far a failed Protobuf reading got says nothing about the frame
    // (f8 18 "reads" two bytes of a tag), so it is never the nearest reading; "decode as"
    // still offers it.
    if (index.error) return null;
    const { store } = index;
    let fields = 0;
    let smallFields = 0;
    let readable = 0;
    for (let id = 1; id < store.size; id++) {
      const k = store.kind[id];
      if (k === K.pb_tag) {
        fields++;
        if (store.arg[id] / 8 <= 64) smallFields++;
      } else if (k === K.map || k === K.text) readable++;
    }
    if (fields === 0) return null;
    let confidence = 0.3 + 0.15 * (smallFields / fields) + Math.min(0.1, 0.05 * readable);
    if (context.preferFormat === 'protobuf') confidence += 0.4;
    const notes = [`${fields} field${fields === 1 ? '' : 's'}`];
    if (readable) notes.push(`${readable} nested message or text field${readable === 1 ? '' : 's'}`);
    return {
      format: 'protobuf',
      confidence: Math.min(0.95, confidence),
      reason: `Protobuf wire format without a schema: ${notes.join(', ')}`,
      index,
    };
  },
};

/**
 * Socket.IO / Engine.IO text packets (`42["ev",…]`, `0{"sid":…}`, `2`, `3probe`). `2`, `3`
 * and `40` are also JSON numbers: without evidence from the connection JSON wins; on a
 * connection whose other frames were Socket.IO the packet reading does.
 */
const socketIoDetector: Detector = {
  format: 'socketio',
  detect(bytes, context) {
    if (!context.isText || bytes.length === 0 || bytes[0] < 0x30 || bytes[0] > 0x36) return null;
    const index = new SpanIndex(bytes, socketIoWalker, { depth: 1 });
    if (index.error)
      return bytes.length > 1 && bytes[0] === 0x34 && bytes[1] >= 0x30 && bytes[1] <= 0x36
        ? { format: 'socketio', error: index.error, index }
        : null;
    const p = socketIoPacket(index);
    if (!p) return null;
    const rest = bytes.length > 1 ? String.fromCharCode(...bytes.subarray(1, Math.min(bytes.length, 7))) : '';
    let confidence: number;
    if (p.socketType) confidence = 0.9;
    else if (p.engineType === 'open') confidence = bytes[1] === 0x7b ? 0.9 : 0;
    else if (p.engineType === 'ping' || p.engineType === 'pong') confidence = rest === '' || rest === 'probe' ? 0.6 : 0;
    else if (p.engineType === 'message') confidence = 0.3;
    else confidence = bytes.length === 1 ? 0.55 : 0;
    if (confidence === 0) return null;
    if (context.preferFormat === 'socketio') confidence = Math.min(0.995, confidence + 0.45);
    const what = p.socketType
      ? `socket.io ${p.socketType}${p.event ? ` "${p.event}"` : ''}`
      : `engine.io ${p.engineType}`;
    return { format: 'socketio', confidence, reason: `${what} packet`, index };
  },
};

/**
 * Centrifugo over Protobuf: varint-length-delimited Commands / Replies, which nothing else reads
 * whole. Tried only on a connection that negotiated `centrifuge-protobuf` (the bytes alone are
 * too weak a sign); the better of the two readings (commands, replies) is the candidate.
 */
const centrifugoProtobufDetector: Detector = {
  format: 'protobuf',
  textFrames: false,
  detect(bytes, context) {
    if (bytes.length === 0 || subprotocolHint(context.subprotocol)?.subprotocol.toLowerCase() !== 'centrifuge-protobuf')
      return null;
    const index = readCentrifugoProtobuf(bytes, { depth: 1 });
    if (index.error) return { format: 'protobuf', error: index.error, index };
    const n = centrifugoMessages(index).length;
    const what = centrifugoSide(index) === 'reply' ? (n === 1 ? 'reply' : 'replies') : n === 1 ? 'command' : 'commands';
    return { format: 'protobuf', confidence: 0.97, reason: `Centrifugo Protobuf, ${n} ${what}`, index };
  },
};

export const detectors: Detector[] = [
  jsonDetector,
  ndjsonDetector,
  socketIoDetector,
  engineIoBinaryDetector,
  textDetector,
  mqttDetector,
  stompDetector,
  phoenixDetector,
  yjsDetector,
  automergeDetector,
  signalrDetector,
  sockjsDetector,
  mediaDetector,
  binaryDetector('cbor', cborWalker, 0.75, (bytes) =>
    bytes[0] === 0xd9 && bytes[1] === 0xd9 && bytes[2] === 0xf7
      ? { bonus: 0.3, note: 'self-describe tag 55799' }
      : null,
  ),
  binaryDetector('msgpack', msgpackWalker, 0.72),
  crdtDetector(
    'crdt-model',
    crdtModelWalker,
    0.97,
    'json-joy structural binary model: node tree and clock consume the frame exactly',
  ),
  crdtDetector(
    'crdt-patch',
    crdtPatchWalker,
    0.95,
    'json-joy binary patch: id, meta and valid operations consume the frame exactly',
  ),
  centrifugoProtobufDetector,
  protobufDetector,
];

export function detectFormat(bytes: Uint8Array, given: DetectContext = {}): Detection {
  const hint = subprotocolHint(given.subprotocol);
  // The subprotocol is the connection's word for its format: detectors treat it like the
  // evidence of its earlier frames (an MQTT PINGREQ, a STOMP heart-beat).
  const context: DetectContext = hint?.formats.length ? { ...given, preferFormat: hint.formats[0] } : given;
  const candidates: Candidate[] = [];
  const rejected: Rejection[] = [];
  for (const detector of detectors) {
    if (context.isText && detector.textFrames === false) continue;
    let result: Candidate | Rejection | null;
    try {
      result = detector.detect(bytes, context);
    } catch (e) {
      result = {
        format: detector.format,
        error: { code: 'internal', offset: 0, message: `detector failed: ${(e as Error)?.message ?? e}` },
      };
    }
    if (!result) continue;
    if ('error' in result) rejected.push(result);
    else candidates.push(result);
  }
  if (!context.isText && bytes.length <= TINY_BINARY_BYTES) lowerTinyReadings(candidates, context.preferFormat);
  candidates.sort((a, b) => b.confidence - a.confidence);
  rejected.sort((a, b) => b.error.offset - a.error.offset);
  if (hint) rankHintedFirst(candidates, hint);
  return { candidates, rejected };
}

/** A binary frame this short (`20`, `90`, `0a`) reads as something in most formats: by chance, unless its connection says so. */
export const TINY_BINARY_BYTES = 2;

/**
 * Halves the confidence of a tiny binary frame's readings, keeping their order: every one falls
 * below 0.5 but the one in the connection's format (its subprotocol's, or its other frames').
 */
function lowerTinyReadings(candidates: Candidate[], connectionFormat: string | null | undefined): void {
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    if (c.format === connectionFormat) continue;
    candidates[i] = { ...c, confidence: c.confidence / 2, reason: `${c.reason}; ${TINY_NOTE}` };
  }
}
const TINY_NOTE = 'a frame of 1-2 bytes reads as something in most formats';

/** Moves the best candidate in a hinted format to the front (saying why); the others keep their order. */
function rankHintedFirst(candidates: Candidate[], hint: SubprotocolHint): void {
  const at = candidates.findIndex((c) => hint.formats.includes(c.format as never));
  if (at < 0) return;
  const chosenBy = `subprotocol ${hint.subprotocol}`;
  const hinted = candidates[at];
  candidates.splice(at, 1);
  candidates.unshift({ ...hinted, chosenBy, reason: `by ${chosenBy}: ${hinted.reason}` });
}
