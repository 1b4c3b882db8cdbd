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
import { detectFormat, type Detection } from './detect.js';

export { SpanIndex, type FormatWalker, type FormatName, type IndexOptions } from './core/span-index.js';
export { Kind, Flag, kindName, type KindName } from './core/kinds.js';
export type { DecodeError, DecodeErrorCode, DecodeWarning } from './core/errors.js';
export { TaggedValue, SimpleValue, ExtValue, EntriesMap } from './core/values.js';
export { diagnostic, type DiagnosticOptions } from './core/diagnostic.js';
export { describeHead, previewValue } from './core/describe.js';
export { pathOf, pathSegments, childSegment, formatPath, formatPointer, type PathSegment } from './core/path.js';
export { nodeCost, mapCost, frameAttribution, heaviestPaths, type NodeCost, type MapCost, type FrameAttribution, type HeavyPath } from './core/attribution.js';
export { annotatedHex, type AnnotateOptions } from './core/annotate.js';
export { detectFormat, detectors, type Detection, type Candidate, type Rejection, type Detector, type DetectContext } from './detect.js';
export { parseInput, parseHex, parseBase64, type InputMode, type InputEncoding, type ParsedInput, type ParseInputOptions } from './input.js';
export { cborWalker, msgpackWalker, jsonWalker, crdtModelWalker, crdtPatchWalker };
export { crdtByteSplit, nodeByteSplit, crdtClockTable, crdtExtensionOf } from './crdt/model-walker.js';
export { patchOps, patchJson, patchByteSplit } from './crdt/patch-walker.js';
export { crdtIdOf, crdtSpanOf, formatId, type CrdtId } from './crdt/annotations.js';
export { decodeCrdt, detectCrdtCodec, decodeModel, decodePatch, encodeModel, encodePatch, type CrdtCandidate } from './crdt/codecs.js';

/**
 * Formats with a span walker: the three data formats and json-joy's two binary CRDT
 * formats (structural binary models, binary patches). json-joy's other codecs are JSON,
 * CBOR or MessagePack frames, read as such and interpreted by `decodeCrdt`.
 */
export type FrameFormat = FormatName;
export const FRAME_FORMATS: readonly FrameFormat[] = ['cbor', 'msgpack', 'json', 'crdt-model', 'crdt-patch'];

export const walkers: Readonly<Record<FrameFormat, FormatWalker>> = {
  cbor: cborWalker,
  msgpack: msgpackWalker,
  json: jsonWalker,
  'crdt-model': crdtModelWalker,
  'crdt-patch': crdtPatchWalker,
};

export interface DecodeOptions {
  /** Force a decoder, or 'auto' (default) to detect from the bytes. */
  readonly format?: 'auto' | FrameFormat;
  /** Levels recorded below the root (default: all). 1 = the root's children only. */
  readonly depth?: number;
  /** The frame arrived as a WebSocket text frame (a hint for detection). */
  readonly isText?: boolean;
}

export interface DecodedFrame {
  /** The format the frame was read as, or null when nothing could even start to read it. */
  readonly format: FrameFormat | null;
  /** The span index (also the partial tree of a malformed frame), or null. */
  readonly index: SpanIndex | null;
  /** The first fatal error with its byte offset, or null when the frame decoded whole. */
  readonly error: DecodeError | null;
  /** What detection found (null when the format was forced). */
  readonly detection: Detection | null;
}

/** Decodes one frame into a validated span index. Never throws. */
export function decodeFrame(bytes: Uint8Array, options: DecodeOptions = {}): DecodedFrame {
  const depth = options.depth ?? Infinity;
  const format = options.format ?? 'auto';
  if (format !== 'auto') {
    const walker = walkers[format];
    if (!walker) return { format: null, index: null, detection: null, error: { code: 'unsupported-format', offset: 0, message: `unknown format ${format}` } };
    const index = new SpanIndex(bytes, walker, { depth });
    return { format, index, error: index.error, detection: null };
  }
  const detection = detectFormat(bytes, { isText: options.isText });
  const best = detection.candidates[0];
  if (best?.index) return { format: best.format as FrameFormat, index: deepen(best.index, depth), error: null, detection };
  // Nothing decoded whole: show the reading that got furthest, with its error and partial tree.
  const furthest = detection.rejected[0];
  if (furthest?.index) return { format: furthest.format as FrameFormat, index: deepen(furthest.index, depth), error: furthest.error, detection };
  const error: DecodeError =
    bytes.length === 0
      ? { code: 'empty-input', offset: 0, message: 'empty frame at byte 0' }
      : { code: 'unsupported-format', offset: 0, message: 'not CBOR, MessagePack, JSON or a json-joy binary model / patch at byte 0' };
  return { format: null, index: null, error, detection };
}

/** Detection indexes one level deep; record the rest of the requested depth. */
function deepen(index: SpanIndex, depth: number): SpanIndex {
  const root = index.root;
  if (root < 0 || depth <= 1) return index;
  if (depth === Infinity) index.expandAll(root);
  else index.expand(root, depth);
  return index;
}
