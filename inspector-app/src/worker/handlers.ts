import {
  crdtByteSplit,
  crdtClockTable,
  decodeFrame,
  handshakeOf,
  recognizeProtocol,
  diagnostic,
  patchByteSplit,
  patchJson,
  compressionSummary,
  subprotocolHint,
  type CompressionInfo,
  type DecodedFrame,
  type ProtocolInfo,
  type SpanIndex,
} from '../../../codecs/index.js';
import type {
  CrdtSummary,
  FrameCompression,
  FilterQuery,
  FrameDecode,
  FrameSummary,
  IngestFrame,
  LargestField,
  TextResult,
  WorkerMethods,
} from './api.js';
import { bytesReport } from './bytes-report.js';
import { frameByteMap, largestPatterns } from './frame-byte-map.js';
import { crdtOpLines } from './crdt-ops.js';
import { yjsSummary } from './yjs-summary.js';
import { nestedChildren, markNested, pathIntoNested } from './nested-nodes.js';
import { diffFrames } from './frame-diff.js';
import { decodedEntry, FrameStore, isPlainText, type DecodedEntry } from './frame-store.js';
import { stringsIn } from './strings-in.js';
import { readInOrder as readFramesInOrder } from '../../../codecs/reading/read-in-order.js';
import { settleTextReading } from '../../../codecs/input-reading.js';
import { jsonText, nodeJsonText } from './json-text.js';
import { prettyEdn } from './edn-pretty.js';
import { compileQuery, frameMatches, indexMatches, searchFormat, type ContentQuery } from './content-search.js';
import { childNodes, framePreview, pathToOffset, treeNode } from './tree-nodes.js';
import { searchTree } from './tree-search.js';
import { annotateFrame } from './annotate-frame.js';
import { ProtocolLinks, type FrameReading } from './protocol-links.js';
import { buildHar } from '../sources/har.js';
import { serializeCapture } from '../sources/capture-file.js';
import { editOutcome, editSource } from './edit-text.js';
import { composeOutcome, ownSource, switchedText } from './compose-text.js';

/**
 * The Text tab shows a frame's whole text: past 400,000 characters it is drawn by the
 * line-virtualized BigTextView, not Monaco. This cap only bounds a pathological frame (a
 * frame of tiny numbers pretty-prints to ~9 characters per byte); the tab says when it cut.
 */
export const MAX_TEXT_CHARS = 32_000_000;

/**
 * "Largest fields" lists nothing below this share of the frame: it would read "0.0 %", and
 * thousands of equal array items crowded out the fields that matter (cost by field in the
 * Bytes view sums those up instead).
 */
export const MIN_LARGEST_SHARE = 0.0005;

/** Frames from this size on keep the index their list row was read with (see FrameStore.remember). */
const REMEMBER_INDEX_BYTES = 256 * 1024;

const textDecoder = new TextDecoder('utf-8', { fatal: false });

function hexStart(bytes: Uint8Array, max = 24): string {
  let s = '';
  for (let i = 0; i < Math.min(bytes.length, max); i++) s += bytes[i].toString(16).padStart(2, '0') + ' ';
  return s.trimEnd() + (bytes.length > max ? ' …' : '');
}

/** Bytes as hex, 16 per line. */
function hexLines(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16)
    lines.push(Array.from(bytes.subarray(i, i + 16), (b) => b.toString(16).padStart(2, '0')).join(' '));
  return lines.join('\n');
}

/** The list row for one frame: read one level deep, never more. */
export function summarize(frame: IngestFrame, store?: FrameStore, links?: ProtocolLinks): FrameSummary {
  const decoded = store
    ? (readWithSchema(frame, store) ?? readInOrder(frame, store))
    : decodeFrame(frame.data, { depth: 1, isText: frame.opcode === 'text' });
  if (decoded.verdict === 'decoded') store?.formats.record(frame.connectionId, decoded.format, frame.data.byteLength);
  // A large frame's one-level index is what opening it needs first: keep it, don't redo it.
  if (store && frame.data.byteLength >= REMEMBER_INDEX_BYTES)
    store.remember(frame.frameId, 'auto', decodedEntry(frame, decoded));
  const d = isPlainText(frame, decoded) ? { format: null, index: null, error: null } : decoded;
  const recognized = recognizeProtocol(d.index, d.format, {
    subprotocol: store?.formats.subprotocol(frame.connectionId),
    connectionFormat: store?.formats.preferred(frame.connectionId),
    handshake: store?.formats.handshake(frame.connectionId),
  });
  store?.formats.noteHandshake(frame.connectionId, handshakeOf(recognized));
  // An attachment's bytes cannot say whose they are: the connection's earlier frames do.
  const linked = links?.observe(frame, recognized) ?? null;
  // Nor can a part of an MQTT packet split over frames say it is one: its bytes read as a guess.
  const reading = links?.reading(frame, () => decoded);
  return listRow(frame, reading ? { ...reading, detection: decoded.detection } : decoded, recognized, linked);
}

/** A frame's reading from the frames around it (an MQTT part, a Socket.IO attachment) as the store caches it. */
function readingEntry(reading: FrameReading): DecodedEntry {
  return {
    format: reading.format,
    index: reading.index,
    candidates: reading.candidates,
    verdict: reading.verdict,
    ...(reading.verdict === 'unknown' && reading.error
      ? { unknown: { error: reading.error, nearMisses: reading.nearMisses ?? [] } }
      : {}),
  };
}

/** With a loaded Protobuf schema, binary frames the schema reads come first (null: it does not read this one). */
function readWithSchema(frame: IngestFrame, store: FrameStore): DecodedFrame | null {
  const schemaRead = store.schemas.active ? store.schemas.decode(frame) : null;
  return schemaRead
    ? {
        format: 'protobuf',
        index: schemaRead.index,
        error: schemaRead.index.error,
        detection: null,
        verdict: schemaRead.index.error ? 'malformed' : 'decoded',
      }
    : null;
}

/** The list row of a frame read as `decoded`, with its protocol (and, for an attachment, whose it is). */
function listRow(
  frame: IngestFrame,
  decoded: DecodedFrame,
  recognized: ProtocolInfo | null,
  linked: Pick<FrameSummary, 'protocol' | 'preview'> | null,
): FrameSummary {
  const d = isPlainText(frame, decoded) ? { format: null, index: null, error: null } : decoded;
  // Plain text previews as itself, not as a quoted string.
  let preview = d.index && d.index.root >= 0 && d.format !== 'text' ? framePreview(d.index) : '';
  if (!preview)
    preview = frame.opcode === 'text' ? textDecoder.decode(frame.data.subarray(0, 120)) : hexStart(frame.data);
  return {
    frameId: frame.frameId,
    connectionId: frame.connectionId,
    direction: frame.direction,
    time: frame.time,
    opcode: frame.opcode,
    size: frame.data.byteLength,
    format: d.format,
    preview,
    error: d.error ? { code: d.error.code, offset: d.error.offset, message: d.error.message } : null,
    verdict: decoded.verdict,
    ...(decoded.compression ? { compression: compressionSummary(decoded.compression, decoded.format) } : {}),
    protocol: recognized
      ? {
          name: recognized.protocol,
          message: recognized.message,
          event: recognized.event,
          id: recognized.id,
          quiet: recognized.quiet,
        }
      : undefined,
    ...(linked ? { protocol: linked.protocol, preview: `${linked.preview} · ${hexStart(frame.data, 12)}` } : {}),
  };
}

/**
 * A frame read at ingest, in arrival order (codecs/reading/read-in-order.ts, what the CLI's
 * session comparison runs too): a stream message's inflated bytes are kept by the store.
 */
function readInOrder(frame: IngestFrame, store: FrameStore): DecodedFrame {
  const read = readFramesInOrder(frame, store, 1, store.inflatedOf(frame.frameId));
  if (read.inflated) store.setInflated(frame.frameId, read.inflated);
  return read.decoded;
}

/** The worker's request handlers, free of `postMessage` so tests call them directly. */
export class WorkerHandlers {
  readonly store = new FrameStore();
  /** (After `store`: the links ask it for a connection's subprotocol, so `mqtt` turns on MQTT reassembly from its first frame.) */
  readonly links = new ProtocolLinks((id) => this.store.formats.subprotocol(id));

  constructor() {
    // A frame the links read from the frames around it opens as they read it (its tree, hex and verdict).
    this.store.readingFromLinks = (frame) => {
      const reading = this.links.reading(frame, () => this.store.decodeAuto(frame, 1));
      return reading ? readingEntry(reading) : null;
    };
  }
  private filter: ContentQuery | null = null;

  private index(frameId: number, format: Parameters<FrameStore['decoded']>[1]): SpanIndex | null {
    return this.store.decoded(frameId, format)?.index ?? null;
  }

  get filtering(): boolean {
    return this.filter !== null;
  }

  /** Does a frame match the active content filter? (true when no filter). */
  matches(frameId: number): boolean {
    const filter = this.filter;
    if (!filter) return true;
    const frame = this.store.get(frameId);
    if (!frame) return false;
    // A frame its row reads with a Protobuf schema is searched as that reading (field names, enums).
    const withSchema = this.store.schemas.active ? this.store.schemas.decode(frame) : null;
    if (withSchema) return indexMatches(withSchema.index, filter);
    // A zlib-stream message is searched in what it inflated to (its bytes alone mean nothing).
    return frameMatches(this.store.searchable(frame), this.store.searchFormat(frameId), filter);
  }

  /** Sets the content filter; an unparsable path matches nothing (the filter bar shows why). */
  setContentFilter({ text, path }: FilterQuery): ContentQuery | null {
    const query = compileQuery(text, path);
    this.filter =
      query && 'error' in query
        ? {
            textLower: '',
            parts: [{ type: 'key', key: '\u0000never' }],
            stringOnly: false,
            probe: '',
            probeBytes: null,
            needleBytes: null,
            lowersFromNonAscii: false,
          }
        : query;
    return this.filter;
  }

  /**
   * A listed frame's row read again (the schema or its connection's message type changed):
   * as at ingest, but without feeding the connection's state again (compressed streams,
   * protocol links, format evidence); a Socket.IO attachment, an MQTT packet reassembled from
   * split frames and each of its parts keep their rows (null), which are about the frames
   * around them, not their own bytes.
   */
  reread(frame: IngestFrame): FrameSummary | null {
    if (this.links.ownsRow(frame.frameId)) return null;
    const decoded = readWithSchema(frame, this.store) ?? this.store.decodeAuto(frame, 1);
    const d = isPlainText(frame, decoded) ? { format: null, index: null } : decoded;
    const row = listRow(
      frame,
      decoded,
      recognizeProtocol(d.index, d.format, {
        subprotocol: this.store.formats.subprotocol(frame.connectionId),
        connectionFormat: this.store.formats.preferred(frame.connectionId),
        handshake: this.store.formats.handshake(frame.connectionId),
      }),
      null,
    );
    this.store.setSearchFormat(
      frame.frameId,
      row.compression && !this.store.isStreamMessage(frame.frameId) ? undefined : searchFormat(row),
    );
    return row;
  }

  /** The subprotocol a connection negotiated: evidence for its frames' detection and protocol (sent before them). */
  setSubprotocol(connectionId: string, subprotocol: string): void {
    this.store.formats.setSubprotocol(connectionId, subprotocol);
  }

  /** A connection's URL: evidence for its frames when it names a protocol (SockJS' transport URL). */
  setConnectionUrl(connectionId: string, url: string): void {
    this.store.formats.setUrl(connectionId, url);
  }

  /** The list row of a new frame (and what the text filter's fast route needs to know of it). */
  summarize(frame: IngestFrame): FrameSummary {
    const summary = summarize(frame, this.store, this.links);
    // A gzip / zlib / deflate frame's raw bytes hold no strings: it is read again (decompressed) when searched.
    this.store.setSearchFormat(
      frame.frameId,
      summary.compression && !this.store.isStreamMessage(frame.frameId) ? undefined : searchFormat(summary),
    );
    return summary;
  }

  readonly methods: { [M in keyof WorkerMethods]: (params: WorkerMethods[M]['params']) => WorkerMethods[M]['result'] } =
    {
      decode: ({ frameId, format }): FrameDecode | null => {
        const frame = this.store.get(frameId);
        const entry = this.store.decoded(frameId, format);
        if (!frame || !entry) return null;
        const index = entry.index;
        const plainText = !entry.format && frame.opcode === 'text' && entry.verdict !== 'unknown';
        const empty = frame.data.byteLength === 0;
        const error =
          entry.compression?.error ??
          index?.error ??
          entry.unknown?.error ??
          (entry.format || plainText || empty
            ? null
            : { code: 'unsupported-format', offset: 0, message: 'no decoder could read this frame at byte 0' });
        const compression = entry.compression ? frameCompression(entry.compression, entry.format) : undefined;
        // A frame that is one string holding a value (a CBOR byte string of MessagePack) opens like the rows below it.
        const root =
          index && index.root >= 0
            ? markNested(index, { nodes: [treeNode(index, index.root, 0, 0)], total: 1, offset: 0 }).nodes[0]
            : null;
        return {
          frameId,
          size: frame.data.byteLength,
          format: entry.format,
          candidates: entry.candidates,
          error: error ? { code: error.code, offset: error.offset, message: error.message } : null,
          // A compressed frame's root says so: `gzip → cbor, 1,234 → 5,678 bytes (4.6x)`; a Socket.IO placeholder root links its attachment.
          root:
            root && compression
              ? { ...root, label: compression.summary }
              : root && index
                ? this.links.linkPlaceholders(index, frameId, [root])[0]
                : root,
          ...(compression ? { compression } : {}),
          warnings: plainText
            ? ['A plain text frame (not JSON): pick a decoder under "decode as" to force one.']
            : index
              ? index.warnings.map((w) => w.message)
              : [],
          ...(entry.schemaReading ? { schemaReading: entry.schemaReading } : {}),
          isCrdt: entry.format === 'crdt-model' || entry.format === 'crdt-patch' || entry.format === 'yjs',
          verdict: empty ? 'empty' : (entry.verdict ?? (error ? 'malformed' : 'decoded')),
          nearMisses: entry.unknown?.nearMisses,
          strings: entry.verdict === 'unknown' ? stringsIn(frame.data) : undefined,
          links: this.links.linesFor(frameId),
          ...chosenBy(entry, index, this.store.formats.subprotocol(frame.connectionId)),
        };
      },
      children: ({ frameId, format, nodeId, offset, limit, around, sortBySize }) => {
        const index = this.index(frameId, format);
        if (!index) return { nodes: [], total: 0, offset: 0 };
        // A string holding a value (tag 24, base64 of CBOR, …) opens as a nested tree (worker/nested-nodes.ts).
        const window =
          nestedChildren(index, nodeId, offset, limit, around) ??
          markNested(index, childNodes(index, nodeId, offset, limit, around, sortBySize));
        return { ...window, nodes: this.links.linkPlaceholders(index, frameId, window.nodes) };
      },
      nodeAt: ({ frameId, format, offset }) => {
        const index = this.index(frameId, format);
        // A byte inside a string holding a value selects the nested node it belongs to.
        return index ? pathIntoNested(index, pathToOffset(index, offset), offset) : [];
      },
      attachmentFrames: ({ frameId }) => this.links.attachmentFrames(frameId),
      editSource: ({ frameId }) => {
        const frame = this.store.get(frameId);
        if (!frame) return null;
        const decoded = this.store.decoded(frameId, 'auto');
        const index = decoded?.index ?? null;
        const format = decoded?.format ?? null;
        const protocol = recognizeProtocol(index, format, {
          subprotocol: this.store.formats.subprotocol(frame.connectionId),
          connectionFormat: this.store.formats.preferred(frame.connectionId),
          handshake: this.store.formats.handshake(frame.connectionId),
        });
        return editSource(frame.data, index, !decoded?.decompressed, { format, protocol: protocol?.protocol });
      },
      editBytes: ({ frameId, syntax, text }) => {
        const frame = this.store.get(frameId);
        return frame ? editOutcome(frame.data, syntax, text, frame.opcode === 'text') : null;
      },
      composeBytes: ({ syntax, text, original }) => composeOutcome(syntax, text, original),
      composeSwitch: ({ from, text, to }) => switchedText(from, text, to),
      composeSource: ({ data, isText }) => ownSource(data, isText),
      settleTextReading: ({ text, parsed }) => settleTextReading(text, parsed),
      bytes: ({ frameId, decompressed }) => {
        if (!decompressed) return this.store.get(frameId)?.data.slice() ?? null;
        return this.store.decoded(frameId, 'auto')?.decompressed?.slice() ?? null;
      },
      text: ({ frameId, format, nodeId, mode }): TextResult => {
        if (mode === 'raw-text' || mode === 'raw-hex') {
          const frame = this.store.get(frameId);
          if (!frame) return { text: '', truncated: false };
          const cut = frame.data.subarray(0, mode === 'raw-hex' ? MAX_TEXT_CHARS / 3 : MAX_TEXT_CHARS);
          return {
            text: mode === 'raw-hex' ? hexLines(cut) : textDecoder.decode(cut),
            truncated: cut.length < frame.data.length,
          };
        }
        const index = this.index(frameId, format);
        if (!index?.has(nodeId)) return { text: '', truncated: false };
        if (mode === 'edn' || mode === 'edn-pretty') {
          const text = diagnostic(index, nodeId, { maxLength: MAX_TEXT_CHARS });
          return { text: mode === 'edn-pretty' ? prettyEdn(text) : text, truncated: text.length >= MAX_TEXT_CHARS };
        }
        return nodeJsonText(index, nodeId, MAX_TEXT_CHARS);
      },
      search: ({ frameId, format, text, limit }) => {
        const index = this.index(frameId, format);
        return index ? searchTree(index, text, limit) : { paths: [], total: 0, complete: true };
      },
      annotate: ({ frameId, format }) => {
        const index = this.index(frameId, format);
        return index ? annotateFrame(index) : { lines: [], complete: false, truncated: false };
      },
      largest: ({ frameId, format, count }): LargestField[] => {
        const index = this.index(frameId, format);
        return index ? largestPatterns(index, count, MIN_LARGEST_SHARE) : [];
      },
      crdt: ({ frameId, format }): CrdtSummary | null => {
        const index = this.index(frameId, format);
        if (!index || index.root < 0) return null;
        if (index.format === 'crdt-model') {
          index.expandAll(index.root);
          const clock = crdtClockTable(index);
          const split = crdtByteSplit(index);
          return {
            kind: 'model',
            viewJson: jsonText(index.value(index.root), MAX_TEXT_CHARS).text,
            clock:
              clock === null
                ? []
                : Array.isArray(clock)
                  ? clock.map((c) => ({ sid: String(c.sid), time: c.time }))
                  : [{ sid: 'server', time: clock.serverTime }],
            metadataBytes: split.metadataBytes,
            contentBytes: split.contentBytes,
            notes: index.error ? [index.error.message] : [],
          };
        }
        if (index.format === 'yjs') return yjsSummary(index, MAX_TEXT_CHARS);
        if (index.format === 'crdt-patch') {
          index.expandAll(index.root);
          const split = patchByteSplit(index);
          return {
            kind: 'patch',
            viewJson: jsonText(patchJson(index) ?? null, MAX_TEXT_CHARS).text,
            ops: crdtOpLines(index),
            clock: [],
            metadataBytes: split.metadataBytes,
            contentBytes: split.contentBytes,
            notes: index.error ? [index.error.message] : [],
          };
        }
        return null;
      },
      bytesReport: ({ frameId, format }) => {
        const index = this.index(frameId, format);
        return index && index.root >= 0 ? bytesReport(index) : null;
      },
      byteMap: ({ frameId, format, by, width, height }) => {
        const index = this.index(frameId, format);
        return index ? frameByteMap(index, { by, width, height }) : null;
      },
      diff: ({ frameA, frameB }) => {
        const fa = this.store.get(frameA);
        const fb = this.store.get(frameB);
        if (!fa || !fb) return null;
        // (decodeAuto: a zlib-stream message compares by what it inflated to.)
        const a = this.store.decodeAuto(fa, Infinity).index;
        const b = this.store.decodeAuto(fb, Infinity).index;
        return {
          rows: a && b ? diffFrames(a, b) : [],
          frameBefore: fa.data.byteLength,
          frameAfter: fb.data.byteLength,
        };
      },
      setFilter: (query: FilterQuery) => {
        if (!this.setContentFilter(query)) return null;
        const out: number[] = [];
        for (const f of this.store.all()) if (this.matches(f.frameId)) out.push(f.frameId);
        return out;
      },
      exportCapture: ({ kind, connections, wirescopeFrames }) => {
        const byWirescope = new Set(wirescopeFrames);
        const frames = [...this.store.all()].map((f) => ({
          connectionId: f.connectionId,
          direction: f.direction,
          time: f.time,
          opcode: f.opcode,
          data: f.data,
          ...(byWirescope.has(f.frameId) ? { origin: 'wirescope' as const } : {}),
        }));
        const ids = [...new Set(frames.map((f) => f.connectionId))];
        const infos = ids.map((id) => ({
          connectionId: id,
          url: connections[id]?.url ?? `ws://unknown/${id}`,
          protocol: connections[id]?.protocol ?? '',
          extensions: connections[id]?.extensions ?? '',
          ...(connections[id]?.extensions !== undefined ? { extensionsRecorded: true } : {}),
          time: frames.find((f) => f.connectionId === id)?.time ?? 0,
        }));
        if (kind === 'har') return new TextEncoder().encode(buildHar(infos, frames, { creator: 'wirescope' }));
        return serializeCapture(infos, frames);
      },
      setCap: ({ bytes }) => {
        const evictedIds = this.store.setCap(bytes);
        return { evictedIds, evictedTotal: this.store.evictedTotal, bytesHeld: this.store.bytesHeld };
      },
      clear: () => {
        this.store.clear();
        this.links.clear();
      },
      setSchema: ({ files }) => {
        const state = this.store.schemas.set(files);
        this.store.forgetIndexes();
        return state;
      },
      setSchemaType: ({ connectionId, choice }) => {
        const state = this.store.schemas.choose(connectionId, choice);
        this.store.forgetIndexes();
        return state;
      },
    };
}

/**
 * Why the detail shows this format or protocol when the bytes alone did not decide it: the
 * subprotocol ranked the format first, a schema type was chosen, or the subprotocol named the
 * protocol the recognizer found (GraphQL's two dialects, WAMP, Centrifugo).
 */
function chosenBy(
  entry: { readonly chosenBy?: string; readonly format: string | null },
  index: SpanIndex | null,
  subprotocol: string | undefined,
): { chosenBy?: string } {
  if (entry.chosenBy) return { chosenBy: entry.chosenBy };
  const hint = subprotocolHint(subprotocol);
  if (!hint || !index) return {};
  return recognizeProtocol(index, entry.format, { subprotocol })?.protocol === hint.protocol
    ? { chosenBy: `subprotocol ${hint.subprotocol}` }
    : {};
}

function frameCompression(info: CompressionInfo, format: string | null): FrameCompression {
  const e = info.error;
  return {
    method: info.method,
    compressedBytes: info.compressedBytes,
    decompressedBytes: info.decompressedBytes,
    summary: compressionSummary(info, format),
    error: e ? { code: e.code, offset: e.offset, message: e.message } : null,
  };
}
