import {
  type decodeFrame,
  SpanIndex,
  walkers,
  type CompressionInfo,
  type FrameFormat,
  type FrameVerdict,
  type DecodeError,
} from '../../../codecs/index.js';
import type { FormatChoice, IngestFrame, SchemaReading } from './api.js';
import { ConnectionFormats } from '../../../codecs/reading/connection-formats.js';
import { ProtobufSchemas, readAsIndex } from './protobuf-schemas.js';
import { CompressedStreams, type InflatedMessage } from '../../../codecs/reading/compressed-streams.js';
import { decodeWithEvidence } from '../../../codecs/reading/read-in-order.js';

/** 256 MB of raw frame bytes, the default memory cap. */
export const DEFAULT_CAP_BYTES = 256 * 1024 * 1024;

/** How many decoded frames keep their span index (the selected one and a few before it). */
const INDEX_CACHE_SIZE = 6;

export interface DecodedEntry {
  readonly format: FrameFormat | null;
  readonly index: SpanIndex | null;
  readonly candidates: readonly string[];
  /** decoded / malformed / unknown / empty (absent: decoded, or malformed when the index has an error). */
  readonly verdict?: FrameVerdict;
  /** Why an unknown frame is unknown, and the readings that came nearest (furthest first). */
  /** Read with a loaded Protobuf schema: which type and why, and whether the type fits it perfectly. */
  readonly schemaReading?: SchemaReading;
  /** What besides the bytes chose the format: `subprotocol mqtt`, the connection's chosen message type. */
  readonly chosenBy?: string;
  readonly unknown?: {
    readonly error: DecodeError;
    readonly nearMisses: readonly { readonly format: string; readonly offset: number; readonly message: string }[];
  };
  /** A compressed frame: how, the sizes, and its decompressed bytes (node offsets are in them). */
  readonly compression?: CompressionInfo;
  readonly decompressed?: Uint8Array;
}

/**
 * The worker's frames: bytes and metadata in arrival order, evicted oldest-first when the
 * bytes held pass the cap (evictions are counted, never silent), plus a small LRU of span
 * indexes for the frames the user is looking at.
 */
export class FrameStore {
  private readonly frames = new Map<number, IngestFrame>();
  /** Ids in arrival order; `head` skips evicted ones without shifting the array. */
  private order: number[] = [];
  private head = 0;
  private indexCache = new Map<string, DecodedEntry>();
  /** How each frame's list row was read (content-search.ts `searchFormat`), for the text filter's fast route. */
  private searchFormats = new Map<number, string | null | undefined>();
  bytesHeld = 0;
  evictedTotal = 0;
  /** What each connection's frames decoded as: breaks ties on tiny frames. */
  readonly formats = new ConnectionFormats();
  /** Loaded .proto files and each connection's message type. */
  readonly schemas = new ProtobufSchemas();
  /** Per-connection compressed streams, and the messages inflated from them by frame id. */
  readonly streams = new CompressedStreams();
  private readonly inflated = new Map<number, InflatedMessage>();

  constructor(public capBytes = DEFAULT_CAP_BYTES) {}

  get size(): number {
    return this.frames.size;
  }

  /** Adds a frame; returns the ids evicted to stay under the cap. */
  add(frame: IngestFrame): number[] {
    this.frames.set(frame.frameId, frame);
    this.order.push(frame.frameId);
    this.bytesHeld += frame.data.byteLength;
    return this.evict();
  }

  setCap(capBytes: number): number[] {
    this.capBytes = Math.max(0, capBytes);
    return this.evict();
  }

  private evict(): number[] {
    const evicted: number[] = [];
    // The newest frame always stays, even when it alone is over the cap.
    while (this.bytesHeld > this.capBytes && this.frames.size > 1) {
      const id = this.order[this.head++];
      const frame = this.frames.get(id);
      if (!frame) continue;
      this.frames.delete(id);
      this.bytesHeld -= frame.data.byteLength + (this.inflated.get(id)?.output.byteLength ?? 0);
      this.evictedTotal++;
      this.searchFormats.delete(id);
      this.inflated.delete(id);
      evicted.push(id);
      for (const key of this.indexCache.keys()) if (key.startsWith(`${id}:`)) this.indexCache.delete(key);
    }
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    return evicted;
  }

  /** A frame that is a message of a per-connection compressed stream: what it inflated to (in order, at ingest). */
  setInflated(frameId: number, message: InflatedMessage): number[] {
    if (!this.frames.has(frameId)) return [];
    this.bytesHeld += message.output.byteLength - (this.inflated.get(frameId)?.output.byteLength ?? 0);
    this.inflated.set(frameId, message);
    // What a stream message inflated to is held memory too: the cap counts it (the ids evicted
    // here wait in `evictedLate` for the dispatcher, which tells the list).
    const evicted = this.evict();
    this.evictedLate.push(...evicted);
    return evicted;
  }

  /** Frames evicted while reading one (a stream message's inflated bytes pushed the total over the cap). */
  readonly evictedLate: number[] = [];

  takeEvictedLate(): number[] {
    return this.evictedLate.splice(0);
  }

  isStreamMessage(frameId: number): boolean {
    return this.inflated.has(frameId);
  }

  /** What the text filter searches: a stream message's inflated bytes, any other frame as it is. */
  searchable(frame: IngestFrame): IngestFrame {
    const message = this.inflated.get(frame.frameId);
    return message ? { ...frame, opcode: 'binary', data: message.output } : frame;
  }

  /** What a stream message inflated to (undefined: not a stream message). */
  inflatedOf(frameId: number): InflatedMessage | undefined {
    return this.inflated.get(frameId);
  }

  /** The frame read as it should be: a stream message through what it inflated to, else by detection (codecs/reading, as the CLI reads it). */
  decodeAuto(frame: IngestFrame, depth: number): ReturnType<typeof decodeFrame> {
    return decodeWithEvidence(frame, this, this.inflated.get(frame.frameId), depth);
  }

  setSearchFormat(frameId: number, format: string | null | undefined): void {
    if (this.frames.has(frameId)) this.searchFormats.set(frameId, format);
  }

  /** undefined when not known (then the search reads the frame again). */
  searchFormat(frameId: number): string | null | undefined {
    return this.searchFormats.get(frameId);
  }

  get(frameId: number): IngestFrame | undefined {
    return this.frames.get(frameId);
  }

  /** Live tail frames (a host's sample under a flood), oldest first: outside the capture's order, cap and `all()`. */
  private samples: number[] = [];

  /** Holds a live tail frame for its detail (decode, bytes, text); `forgetSamples` bounds them. */
  addSample(frame: IngestFrame): void {
    this.frames.set(frame.frameId, frame);
    this.samples.push(frame.frameId);
  }

  /** Lets go of the oldest live tail frames beyond the newest `keep`; returns their ids. */
  forgetSamples(keep: number): number[] {
    const gone = this.samples.splice(0, Math.max(0, this.samples.length - keep));
    for (const id of gone) {
      this.frames.delete(id);
      for (const key of this.indexCache.keys()) if (key.startsWith(`${id}:`)) this.indexCache.delete(key);
    }
    return gone;
  }

  /** Frames in arrival order. */
  *all(): IterableIterator<IngestFrame> {
    for (let i = this.head; i < this.order.length; i++) {
      const f = this.frames.get(this.order[i]);
      if (f) yield f;
    }
  }

  clear(): void {
    this.frames.clear();
    this.samples = [];
    this.order = [];
    this.head = 0;
    this.indexCache.clear();
    this.searchFormats.clear();
    this.inflated.clear();
    this.streams.clear();
    this.formats.clear();
    this.bytesHeld = 0;
  }

  /**
   * The frame's span index, read one level deep (children are indexed as the tree opens
   * them). `format` forces a decoder: the malformed-frame switcher.
   */
  decoded(frameId: number, format: FormatChoice): DecodedEntry | null {
    const frame = this.frames.get(frameId);
    if (!frame) return null;
    const key = `${frameId}:${format}`;
    const cached = this.indexCache.get(key);
    if (cached) {
      // Most recently used goes last.
      this.indexCache.delete(key);
      this.indexCache.set(key, cached);
      return cached;
    }
    let entry: DecodedEntry;
    const withSchema = format === 'auto' || format === 'protobuf' ? this.schemas.decode(frame) : null;
    const readAs = withSchema ? null : readAsIndex(frame, format);
    if (withSchema) {
      entry = {
        format: 'protobuf',
        index: withSchema.index,
        candidates: ['protobuf'],
        verdict: withSchema.index.error ? 'malformed' : 'decoded',
        schemaReading: { note: withSchema.note, fits: withSchema.fits },
        chosenBy: withSchema.chosenBy,
      };
    } else if (readAs) {
      entry = { format: 'protobuf', index: readAs, candidates: [], verdict: readAs.error ? 'malformed' : 'decoded' };
    } else if (format === 'auto') {
      entry = this.readingFromLinks?.(frame) ?? decodedEntry(frame, this.decodeAuto(frame, 1));
    } else {
      const walker = walkers[format as FrameFormat];
      const index = walker ? new SpanIndex(frame.data, walker, { depth: 1 }) : null;
      entry = { format: index ? (format as FrameFormat) : null, index, candidates: [] };
    }
    this.remember(frameId, format, entry);
    return entry;
  }

  /**
   * What a frame reads as from the frames around it (an MQTT part, a Socket.IO attachment),
   * or null: the automatic reading asks it first.
   */
  readingFromLinks?: (frame: IngestFrame) => DecodedEntry | null;

  /** Forgets every cached index (the schema or a connection's type changed). */
  forgetIndexes(): void {
    this.indexCache.clear();
  }

  /** Caches a frame's index (most recently used last; the oldest beyond the cache size go). */
  remember(frameId: number, format: FormatChoice, entry: DecodedEntry): void {
    if (!this.frames.has(frameId)) return;
    this.indexCache.set(`${frameId}:${format}`, entry);
    while (this.indexCache.size > INDEX_CACHE_SIZE) this.indexCache.delete(this.indexCache.keys().next().value!);
  }
}

/** The cached reading of a frame decoded with detection. */
export function decodedEntry(frame: IngestFrame, d: ReturnType<typeof decodeFrame>): DecodedEntry {
  const candidates = d.detection ? d.detection.candidates.map((c) => c.format) : [];
  if (isPlainText(frame, d)) return { format: null, index: null, candidates };
  const compressed = d.compression ? { compression: d.compression, decompressed: d.decompressed } : {};
  if (d.verdict === 'unknown' && d.error) {
    const nearMisses = (d.detection?.rejected ?? []).map((r) => ({
      format: r.format,
      offset: r.error.offset,
      message: r.error.message,
    }));
    return {
      format: null,
      index: null,
      candidates,
      verdict: 'unknown',
      unknown: { error: d.error, nearMisses },
      ...compressed,
    };
  }
  return {
    format: d.format,
    index: d.index,
    candidates,
    verdict: d.verdict,
    ...compressed,
    ...(d.chosenBy ? { chosenBy: d.chosenBy } : {}),
  };
}

/**
 * A text frame that does not decode whole is plain text, not a malformed frame — unless it
 * starts like a JSON object or array, where the error (and its offset) is what the user
 * needs. "hello" must not show as broken CBOR, nor socket.io's `451-0["ev",…]` as broken
 * JSON (it reads the number 451, then stops).
 */
export function isPlainText(
  frame: IngestFrame,
  d: { readonly format: FrameFormat | null; readonly error: unknown; readonly verdict?: FrameVerdict },
): boolean {
  if (frame.opcode !== 'text' || d.error === null || d.verdict === 'unknown') return false;
  const bytes = frame.data;
  let i = 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return !(d.format === 'json' && (bytes[i] === 0x7b || bytes[i] === 0x5b));
}
