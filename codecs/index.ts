/**
 * wirescope codecs: the public API. Pure TypeScript (no DOM, no chrome.*), for Node, Web
 * Workers and pages. Nothing here throws on frame content: errors are data with offsets.
 */
import { SpanIndex, type FormatWalker, type FormatName } from './core/span-index.js';
import type { DecodeError } from './core/errors.js';
import { cborWalker } from './cbor/walker.js';
import { msgpackWalker } from './msgpack/walker.js';
import { jsonWalker } from './json/walker.js';
import { crdtModelWalker } from './crdt/model-walker.js';
import { crdtPatchWalker } from './crdt/patch-walker.js';
import { ndjsonWalker } from './json/sequence-walker.js';
import { textWalker } from './text/walker.js';
import { protobufWalker } from './protobuf/walker.js';
import { socketIoWalker } from './protocols/socketio-walker.js';
import { mqttWalker } from './protocols/mqtt-walker.js';
import { stompWalker } from './protocols/stomp-walker.js';
import { phoenixWalker } from './protocols/phoenix-walker.js';
import { yjsWalker } from './yjs/walker.js';
import { automergeWalker } from './automerge/walker.js';
import { signalrWalker } from './protocols/signalr-walker.js';
import { sockjsWalker } from './protocols/sockjs-walker.js';
import { mediaWalker } from './media/media-walker.js';
import { detectFormat, type Detection, type Rejection } from './detect.js';
import { subprotocolHint } from './subprotocol.js';
import { hasNoMagic, nearMissConfidence, NEAR_MISS_THRESHOLD } from './near-miss.js';
import { compressionHeader, inflateFrame, type InflateLimits, type Inflated } from './nested/inflate.js';
import type { CompressionInfo, CompressionKind } from './nested/compression.js';

export { SpanIndex, type FormatWalker, type FormatName, type IndexOptions } from './core/span-index.js';
export { Kind, Flag, kindName, type KindName } from './core/kinds.js';
export type { DecodeError, DecodeErrorCode, DecodeWarning } from './core/errors.js';
export { TaggedValue, SimpleValue, ExtValue, EntriesMap } from './core/values.js';
export { diagnostic, type DiagnosticOptions } from './core/diagnostic.js';
export { describeHead, previewValue } from './core/describe.js';
export { pathOf, pathSegments, childSegment, formatPath, formatPointer, type PathSegment } from './core/path.js';
export {
  nodeCost,
  mapCost,
  frameAttribution,
  heaviestPaths,
  type NodeCost,
  type MapCost,
  type FrameAttribution,
  type HeavyPath,
} from './core/attribution.js';
export { embeddedCbor, embeddedOffset } from './cbor/embedded.js';
export { positionLabel } from './core/position-label.js';
export { cborTagPreview, tagContentLabel, throughSelfDescribe } from './cbor/known-tags.js';
export {
  fieldCosts,
  fieldPatternTree,
  type FieldCost,
  type FieldCostReport,
  type FieldCostOptions,
  type FieldPatternTree,
} from './core/field-cost.js';
export { nodeByteMap, fieldByteMap, type ByteMap, type ByteMapRect, type ByteMapOptions } from './core/byte-map.js';
export { treemapLayout, squarify, type TreemapRect, type TreemapSource } from './core/treemap-layout.js';
export { annotatedHex, type AnnotateOptions } from './core/annotate.js';
export { subprotocolHint, type SubprotocolHint } from './subprotocol.js';
export {
  detectFormat,
  detectors,
  type Detection,
  type Candidate,
  type Rejection,
  type Detector,
  type DetectContext,
} from './detect.js';
export {
  parseInput,
  parseHex,
  parseBase64,
  type InputMode,
  type InputEncoding,
  type ParsedInput,
  type ParseInputOptions,
} from './input.js';
export {
  cborWalker,
  msgpackWalker,
  jsonWalker,
  ndjsonWalker,
  textWalker,
  protobufWalker,
  socketIoWalker,
  crdtModelWalker,
  crdtPatchWalker,
};
export { socketIoPacket, type SocketIoPacket } from './protocols/socketio-walker.js';
export { mqttWalker, mqttPackets, type MqttPacket } from './protocols/mqtt-walker.js';
export { stompWalker, stompFrames, type StompFrame } from './protocols/stomp-walker.js';
export { phoenixWalker, phoenixBinary, type PhoenixBinary } from './protocols/phoenix-walker.js';
export { yjsWalker, yjsMessage, yjsByteSplit, type YjsMessage } from './yjs/walker.js';
export type { YjsUpdate, YjsStruct, YjsContent } from './yjs/update-v1.js';
export { automergeWalker, automergeFrame, type AutomergeFrame, type AutomergeChunk } from './automerge/walker.js';
export {
  signalrWalker,
  signalrMessages,
  signalrEncoding,
  type SignalrMessage,
} from './protocols/signalr-walker.js';
export { sockjsWalker, sockjsFrame, type SockjsFrame } from './protocols/sockjs-walker.js';
export {
  mediaWalker,
  mediaInfo,
  mediaSummary,
  mediaTypeOf,
  type MediaInfo,
  type MediaType,
} from './media/media-walker.js';
export { sizeText } from './core/size-text.js';
export {
  readCentrifugoProtobuf,
  centrifugoMessages,
  centrifugoSide,
  type CentrifugoMessage,
  type CentrifugoReadOptions,
} from './protocols/centrifugo-protobuf.js';
export {
  engineIoVersionFromUrl,
  engineIoVersionEvidence,
  type EngineIoVersion,
  type VersionEvidence,
} from './protocols/engineio-version.js';
export { handshakeOf, recognizeProtocol, type ProtocolInfo, type RecognizeContext } from './protocols/recognize.js';
export { nearMissConfidence } from './near-miss.js';
export { crdtByteSplit, nodeByteSplit, crdtClockTable, crdtExtensionOf } from './crdt/model-walker.js';
export { patchByteSplit } from './crdt/patch-walker.js';
export { patchOps, patchJson } from './crdt/patch-verbose.js';
export { crdtIdOf, crdtSpanOf, formatId, type CrdtId } from './crdt/annotations.js';
export {
  decodeCrdt,
  detectCrdtCodec,
  decodeModel,
  decodePatch,
  encodeModel,
  encodePatch,
  type CrdtCandidate,
} from './crdt/codecs.js';

/**
 * Formats with a span walker: the three data formats and json-joy's two binary CRDT
 * formats (structural binary models, binary patches). json-joy's other codecs are JSON,
 * CBOR or MessagePack frames, read as such and interpreted by `decodeCrdt`.
 */
export type FrameFormat = FormatName;
export { FRAME_FORMATS } from './core/frame-formats.js';

export const walkers: Readonly<Record<FrameFormat, FormatWalker>> = {
  cbor: cborWalker,
  msgpack: msgpackWalker,
  json: jsonWalker,
  ndjson: ndjsonWalker,
  text: textWalker,
  protobuf: protobufWalker,
  socketio: socketIoWalker,
  mqtt: mqttWalker,
  stomp: stompWalker,
  phoenix: phoenixWalker,
  signalr: signalrWalker,
  sockjs: sockjsWalker,
  media: mediaWalker,
  'crdt-model': crdtModelWalker,
  'crdt-patch': crdtPatchWalker,
  yjs: yjsWalker,
  automerge: automergeWalker,
};

export interface DecodeOptions {
  /** Force a decoder, or 'auto' (default) to detect from the bytes. */
  readonly format?: 'auto' | FrameFormat;
  /** Levels recorded below the root (default: all). 1 = the root's children only. */
  readonly depth?: number;
  /** The frame arrived as a WebSocket text frame: read as JSON, a JSON sequence or text. */
  readonly isText?: boolean;
  /** The format the connection's other frames decoded as (breaks ties on tiny frames). */
  readonly preferFormat?: string | null;
  /**
   * The connection's negotiated WebSocket subprotocol (`mqtt`, `v12.stomp`, `wamp.2.msgpack`,
   * …): its format is ranked first when it reads the frame whole, never forced
   * (codecs/subprotocol.ts); `chosenBy` then says so.
   */
  readonly subprotocol?: string | null;
  /** Caps on inflating a compressed frame (default: 64 MiB, 500:1 past 1 MiB; codecs/nested/inflate.ts). */
  readonly inflateLimits?: InflateLimits;
  /** Read the bytes as they are: no gzip / zlib / deflate reading (the content of a frame already inflated). */
  readonly noDecompress?: boolean;
}

/**
 * What the frame is, in one word: `decoded` (a format reads it whole), `malformed` (a format
 * reads most of it plausibly and then fails: the error is the news), `unknown` (no format
 * reads it with good confidence: foreign binary such as Protobuf, not "broken CBOR"), or
 * `empty` (a 0-byte frame, which is legal and not an error).
 */
export type FrameVerdict = 'decoded' | 'malformed' | 'unknown' | 'empty';

export interface DecodedFrame {
  /** The format the frame was read as, or null when nothing could even start to read it. */
  readonly format: FrameFormat | null;
  /** The span index (also the partial tree of a malformed frame), or null. */
  readonly index: SpanIndex | null;
  /** The first fatal error with its byte offset, or null when the frame decoded whole. */
  readonly error: DecodeError | null;
  /** What detection found (null when the format was forced). */
  readonly detection: Detection | null;
  readonly verdict: FrameVerdict;
  /** What besides the bytes chose the format: `subprotocol mqtt` (absent: the bytes alone). */
  readonly chosenBy?: string;
  /**
   * A compressed frame (gzip, zlib, raw deflate, or a message of a per-connection stream):
   * how, its sizes, and why inflating stopped. `index` then reads the decompressed bytes
   * (`index.bytes`), so node offsets are offsets in the decompressed stream.
   */
  readonly compression?: CompressionInfo;
  /** A compressed frame's decompressed bytes (what `index` reads; kept when no format reads them). */
  readonly decompressed?: Uint8Array;
}

/** Decodes one frame into a validated span index. Never throws. */
export function decodeFrame(bytes: Uint8Array, options: DecodeOptions = {}): DecodedFrame {
  const depth = options.depth ?? Infinity;
  const format = options.format ?? 'auto';
  if (format !== 'auto') {
    const walker = walkers[format];
    if (!walker)
      return {
        format: null,
        index: null,
        detection: null,
        verdict: 'unknown',
        error: { code: 'unsupported-format', offset: 0, message: `unknown format ${format}` },
      };
    // deepen: a walker may leave parts to record on first expand (Protobuf's packed items).
    const index = deepen(new SpanIndex(bytes, walker, { depth }), depth);
    return { format, index, error: index.error, detection: null, verdict: index.error ? 'malformed' : 'decoded' };
  }
  if (bytes.length === 0)
    return { format: null, index: null, error: null, detection: { candidates: [], rejected: [] }, verdict: 'empty' };
  // A gzip or zlib header: inflate (bounded), then read what came out by the usual rules.
  const header = options.isText || options.noDecompress ? null : compressionHeader(bytes);
  let failedInflate: DecodedFrame | null = null;
  if (header) {
    const inflated = inflateFrame(bytes, header, options.inflateLimits);
    const result = decodeInflated(bytes.length, header, inflated, options);
    // A header by chance (CBOR text `78 …` passes the zlib check) that does not inflate, or
    // inflates to nothing (`18 95`, a SignalR length and array head): read the bytes as they are.
    const inflatedSomething = inflated.output.length > 0 || inflated.error !== null;
    if (inflatedSomething && (!inflated.error || inflated.error.code === 'decompressed-too-large')) return result;
    failedInflate = result;
  }
  const plain = detectAndDecode(bytes, options, depth);
  if (failedInflate && plain.verdict !== 'decoded') return failedInflate;
  // Raw deflate has no header: tried when nothing else reads the frame.
  if (plain.verdict === 'unknown' && !options.isText && !options.noDecompress && !header) {
    const inflated = inflateFrame(bytes, 'deflate', options.inflateLimits);
    if (inflated.output.length > 0 && (!inflated.error || inflated.error.code === 'decompressed-too-large')) {
      const result = decodeInflated(bytes.length, 'deflate', inflated, options);
      // No header vouches for it: random bytes inflate now and then to a byte or two that read as a scalar.
      if (readsAsData(result) || inflated.error?.code === 'decompressed-too-large') return result;
    }
  }
  return plain;
}

/**
 * Does a decoded frame look like data rather than chance? A whole reading of at least four
 * bytes, not plain text, whose root (through a CBOR tag) is a map or array — or a format
 * that is a structure by itself (a JSON sequence, Protobuf, json-joy). What raw deflate
 * (which has no header) must inflate to before it is believed.
 */
export function readsAsData(d: DecodedFrame): boolean {
  const index = d.index;
  if (d.verdict !== 'decoded' || !index || index.root < 0 || index.bytes.length < 4 || d.format === 'text')
    return false;
  if (d.format !== 'cbor' && d.format !== 'msgpack' && d.format !== 'json') return true;
  let root = index.root;
  if (index.kind(root) === 'tag') root = index.children(root)[0] ?? -1;
  return root >= 0 && (index.kind(root) === 'map' || index.kind(root) === 'array');
}

/**
 * A compressed frame's decoded form: the inflated bytes read by the usual rules, with the
 * compression beside it. An inflate error (a cap, a broken stream; its offset is in the
 * compressed input) makes the frame malformed; what inflated before it is still read.
 */
export function decodeInflated(
  compressedBytes: number,
  method: CompressionKind,
  inflated: Inflated,
  options: DecodeOptions = {},
): DecodedFrame {
  const inner = decodeFrame(inflated.output, { ...options, format: 'auto', isText: false, noDecompress: true });
  const compression: CompressionInfo = {
    method,
    compressedBytes,
    decompressedBytes: inflated.output.length,
    error: inflated.error,
  };
  if (!inflated.error) return { ...inner, compression, decompressed: inflated.output };
  return { ...inner, compression, decompressed: inflated.output, error: inflated.error, verdict: 'malformed' };
}

function detectAndDecode(bytes: Uint8Array, options: DecodeOptions, depth: number): DecodedFrame {
  const detection = detectFormat(bytes, {
    isText: options.isText,
    preferFormat: options.preferFormat,
    subprotocol: options.subprotocol,
  });
  const connectionFormat = subprotocolHint(options.subprotocol)?.formats[0] ?? options.preferFormat;
  const cutShort = partOfMessage(detection, connectionFormat, bytes.length);
  // The connection's format read the frame validly to its end and wanted more (an MQTT packet
  // written a part per frame), and no reading is convincing: it is that part.
  if (cutShort?.index && !((detection.candidates[0]?.confidence ?? 0) >= 0.5))
    return malformedAs(cutShort, cutShort.index, detection, depth);
  const best = detection.candidates[0];
  const furthest = nearestReading(detection.rejected, bytes.length);
  // A text frame that opens like a JSON object or array but is not JSON, or a Socket.IO packet
  // whose payload is broken: the error (and its offset) is what the user needs, not "plain text".
  if (
    best?.format === 'text' &&
    furthest?.index &&
    (((furthest.format === 'json' || furthest.format === 'ndjson') && opensJsonContainer(bytes)) ||
      furthest.format === 'socketio' ||
      furthest.format === 'stomp' ||
      furthest.format === 'sockjs' ||
      furthest.format === 'signalr')
  ) {
    return malformedAs(furthest, furthest.index, detection, depth);
  }
  // Protobuf has no magic and reads many byte strings whole: a frame of a known format that
  // was clearly cut short (read validly to its end, then more wanted) stays "malformed X".
  // (Unless the connection's subprotocol says Protobuf.)
  const strongNearMiss =
    best?.format === 'protobuf' &&
    !best.chosenBy &&
    furthest?.index &&
    nearMissConfidence(furthest, bytes.length) >= STRONG_NEAR_MISS;
  if (best?.index && !strongNearMiss)
    return {
      format: best.format as FrameFormat,
      index: deepen(best.index, depth),
      error: null,
      detection,
      verdict: 'decoded',
      ...(best.chosenBy ? { chosenBy: best.chosenBy } : {}),
    };
  // Nothing decoded whole: a reading that got far and looks like real data is a malformed
  // frame of that format (with its partial tree); anything else is unknown.
  // A frame of up to three bytes is too short to look foreign: its nearest reading's error
  // says more, unless that reading is a lone scalar and stray bytes (chance, not a broken
  // frame). Four bytes already hold a foreign magic or id: `de ad be ef`.
  if (
    furthest?.index &&
    ((bytes.length <= TINY_FRAME_BYTES && furthest.error.code !== 'trailing-bytes') ||
      nearMissConfidence(furthest, bytes.length) >= NEAR_MISS_THRESHOLD)
  ) {
    return malformedAs(furthest, furthest.index, detection, depth);
  }
  // A format with no magic number is no near miss on its bytes alone; but on a connection of
  // that format (its subprotocol, its other frames) a reading of it that got past the first byte is
  // what the frame is, broken.
  const inConnectionFormat =
    connectionFormat && hasNoMagic(connectionFormat)
      ? detection.rejected.find((r) => r.format === connectionFormat && r.index && r.error.offset > 0)
      : undefined;
  if (inConnectionFormat?.index) return malformedAs(inConnectionFormat, inConnectionFormat.index, detection, depth);
  const readings = detection.rejected.map((r) => `${r.format} stops at byte ${r.error.offset}`).join('; ');
  const error: DecodeError = {
    code: 'unsupported-format',
    offset: furthest?.error.offset ?? 0,
    message: `no format reads the whole frame${readings ? ` (${readings})` : ''}`,
  };
  return { format: null, index: null, error, detection, verdict: 'unknown' };
}

const STRONG_NEAR_MISS = 0.8;

/** The reading in the connection's format that ran out of bytes at the frame's end, if any. */
/** The frame as a broken frame of `reading`'s format: its partial tree and its error. */
function malformedAs(reading: Rejection, index: SpanIndex, detection: Detection, depth: number): DecodedFrame {
  return {
    format: reading.format as FrameFormat,
    index: deepen(index, depth),
    error: reading.error,
    detection,
    verdict: 'malformed',
  };
}

function partOfMessage(
  detection: Detection,
  connectionFormat: string | null | undefined,
  length: number,
): Rejection | undefined {
  if (!connectionFormat) return undefined;
  return detection.rejected.find(
    (r) => r.format === connectionFormat && r.error.code === 'truncated' && r.error.offset >= length,
  );
}

/**
 * Whether a frame is a part of a message its connection's format splits over frames: read
 * validly to its end, more wanted, on a connection of that format (`20` on an MQTT connection:
 * a CONNACK's first byte). What the CLI calls "MQTT, part of a packet".
 */
export function isPartOfMessage(frame: DecodedFrame): boolean {
  return (
    frame.verdict === 'malformed' &&
    frame.format === 'mqtt' &&
    frame.error?.code === 'truncated' &&
    frame.index !== null &&
    frame.error.offset >= frame.index.bytes.length
  );
}

/** json-joy's formats have no magic number: a reading that fails this early says nothing about the frame. */
const CRDT_FIRST_BYTES = 4;

/**
 * The failed reading that best explains the frame: the most plausible near miss; among
 * equals, one that broke inside the data before one that read a lone scalar and then found
 * trailing bytes (f8 18: CBOR's invalid simple value, not MessagePack's -8 and a stray byte),
 * then the one that got furthest.
 */
function nearestReading(rejected: readonly Rejection[], length: number): Rejection | undefined {
  let best: Rejection | undefined;
  let bestScore = -1;
  for (const r of rejected) {
    if ((r.format === 'crdt-model' || r.format === 'crdt-patch') && r.error.offset < CRDT_FIRST_BYTES) continue;
    const score =
      nearMissConfidence(r, length) * 4 + (r.error.code === 'trailing-bytes' ? 0 : 2) + r.error.offset / (length + 1);
    if (score > bestScore) [best, bestScore] = [r, score];
  }
  return best;
}
const TINY_FRAME_BYTES = 3;

function opensJsonContainer(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x7b || bytes[i] === 0x5b;
}

/** Detection indexes one level deep (and a walker may leave parts for later): record the rest of the requested depth. */
function deepen(index: SpanIndex, depth: number): SpanIndex {
  const root = index.root;
  if (root < 0 || depth <= 1) return index;
  if (depth === Infinity) index.expandAll(root);
  else index.expand(root, depth);
  return index;
}
export {
  compressionHeader,
  inflateFrame,
  endsWithSyncFlush,
  MAX_DECOMPRESSED_BYTES,
  MAX_COMPRESSION_RATIO,
  RATIO_FLOOR_BYTES,
  type InflateLimits,
  type Inflated,
  type CompressionMethod,
} from './nested/inflate.js';
export { compressionSummary, type CompressionInfo, type CompressionKind } from './nested/compression.js';
export { ConnectionInflater, type StreamFrame } from './nested/inflate-stream.js';
export {
  nestedValue,
  MAX_NESTED_DEPTH,
  MIN_NESTED_BYTES,
  NESTED_BUDGET_BYTES,
  type NestedValue,
  type NestedFormat,
  type NestedVia,
} from './nested/nested-value.js';
export type { OffsetMap } from './nested/offset-map.js';
