/**
 * What the decode worker answers. The main thread holds only `FrameSummary` rows; bytes,
 * span indexes and values stay in the worker (worker/decode-worker.ts), which answers the
 * typed requests below (`WorkerMethods`). Every tree node carries start/end/head: that
 * alone drives the hex highlight.
 */
import type { Direction, Opcode } from '../protocol/messages.js';
import type { PackedIngest, PackedWaitingRows } from './packed-batches.js';
import type { FieldCost } from '../../../codecs/core/field-cost.js';
import type { FormatName } from '../../../codecs/core/span-index.js';
import type { ByteMap } from '../../../codecs/core/byte-map.js';
export type { ByteMap, ByteMapRect } from '../../../codecs/core/byte-map.js';
import type { SessionProgress, SessionRow } from '../../../codecs/compare/session/session.js';
import type { SessionChartData } from '../../../codecs/compare/session/cumulative.js';
import type { EditOutcome, EditSource, EditSyntax } from './edit-text.js';
import type { ComposeOutcome } from './compose-text.js';
import type { ParsedInput } from '../../../codecs/input.js';

/** What the detail decodes a frame as: the best fit, a walker format, or Protobuf read another way. */
export type FormatChoice = 'auto' | FormatName | ReadAsFormat;

/** Protobuf without a schema with length-delimited fields read another way: `protobuf:<value offset>=<reading>,…` (codecs/protobuf/read-as.ts). */
export type ReadAsFormat = `protobuf:${string}`;

/** Per connection: the message type its binary frames are read as, 'auto' (best fit) or 'raw' (no schema). */
export type SchemaTypeChoice = 'auto' | 'raw' | (string & {});

/** The loaded Protobuf schema as the UI shows it. */
export interface SchemaState {
  readonly files: readonly string[];
  /** Message types of the schema (empty when none is loaded or it did not load). */
  readonly types: readonly string[];
  /** Why files were left out (a syntax error, a missing import), or null when every file loaded. */
  readonly error: string | null;
  /** Files left out, each with its error: the others still load (one broken file does not turn the schema off). */
  readonly skipped: readonly { readonly name: string; readonly error: string }[];
  readonly choices: Readonly<Record<string, SchemaTypeChoice>>;
}

/** What a frame is in one word (codecs' FrameVerdict): unknown frames are not "malformed". */
export type Verdict = 'decoded' | 'malformed' | 'unknown' | 'empty';

export interface FrameError {
  readonly code: string;
  readonly offset: number;
  readonly message: string;
}

/** One row of the frame list. */
export interface FrameSummary {
  readonly frameId: number;
  readonly connectionId: string;
  readonly direction: Direction;
  readonly time: number;
  readonly opcode: Opcode;
  readonly size: number;
  /** The format it was read as, or null when nothing could read it. */
  readonly format: string | null;
  /** One line of the decoded value (or the text / hex start when undecodable). */
  readonly preview: string;
  readonly error: FrameError | null;
  /** A placeholder for a frame the host lost (no bytes held): why. */
  readonly lost?: string;
  /** Not read yet (a flood: worker/flood-deferral.ts): format, preview and protocol follow in a later row for the same frame. */
  readonly waiting?: true;
  /**
   * A frame of the live tail (the host holds a flood's frames and sent the newest as a
   * sample): listed after the frames, apart from them, until the next sample; the frame
   * itself comes later in its place. Its id is negative (samples have their own ids).
   */
  readonly sample?: true;
  readonly verdict?: Verdict;
  /** A compressed frame: `gzip → cbor, 1,234 → 5,678 bytes (4.6x)`. */
  readonly compression?: string;
  /** The framing protocol (socket.io, phoenix, graphql-ws, …) and its message type, event/topic and id. */
  readonly protocol?: {
    readonly name: string;
    readonly message: string;
    readonly event?: string;
    readonly id?: string;
    readonly quiet?: boolean;
  };
}

/** A frame handed to the worker (bytes transferred, not copied). */
export interface IngestFrame {
  readonly frameId: number;
  readonly connectionId: string;
  readonly direction: Direction;
  readonly time: number;
  readonly opcode: Opcode;
  readonly data: Uint8Array;
  /** A placeholder for a lost frame: its size and why (`data` is then empty, nothing is stored). */
  readonly lost?: { readonly size: number; readonly reason: string };
}

export interface TreeNode {
  readonly id: number;
  readonly parent: number;
  readonly depth: number;
  /** Key preview for a map value, or `[i]` position label for an array item. */
  readonly label: string;
  /** Byte range of the key item (map values), or -1. */
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly kind: string;
  /** `map(3)`, `text(5)`, `tag(1)`, ... */
  readonly head: string;
  readonly preview: string;
  readonly start: number;
  readonly end: number;
  /** Header bytes (initial byte + argument) at `start`. */
  readonly headerLength: number;
  readonly isContainer: boolean;
  /** Entries (map) / items (array); -1 when not a container or unknown. */
  readonly childCount: number;
  readonly incomplete: boolean;
  readonly duplicateKey: boolean;
  /** JSON path (`users[3].name`) and JSON Pointer. */
  readonly path: string;
  readonly pointer: string;
  /** json-joy CRDT frames: `sid.time` id and span (chunks / tombstones). */
  readonly crdtId: string | null;
  readonly crdtSpan: number | null;
  /** Protobuf without a schema, a length-delimited field: the readings that fit, the shown one first ("read as"). */
  readonly readings?: readonly string[];
  /** Another frame this node stands for (a Socket.IO attachment placeholder → its binary frame). */
  readonly link?: { readonly frameId: number };
}

export interface ChildWindow {
  readonly nodes: readonly TreeNode[];
  readonly total: number;
  /** Position of `nodes[0]` among all the children. */
  readonly offset: number;
}

export interface FrameDecode {
  readonly frameId: number;
  readonly size: number;
  readonly format: string | null;
  /** Detection candidates considered, best first ('cbor', 'msgpack', ...). */
  readonly candidates: readonly string[];
  readonly error: FrameError | null;
  readonly root: TreeNode | null;
  readonly warnings: readonly string[];
  /** Read with a loaded Protobuf schema: the type and why (a perfect fit is no warning; a misfit is). */
  readonly schemaReading?: SchemaReading;
  /** Key bytes vs value bytes vs container headers of the recorded tree. */
  readonly isCrdt: boolean;
  readonly verdict?: Verdict;
  /** Unknown frames: the readings that came nearest, furthest first ("decode as" offers them). */
  readonly nearMisses?: readonly { readonly format: string; readonly offset: number; readonly message: string }[];
  /** Unknown frames: printable runs found in the bytes. */
  readonly strings?: readonly string[];
  /** What besides the bytes chose its format or protocol: `subprotocol mqtt`, the connection's chosen message type. */
  readonly chosenBy?: string;
  /** Frames this one belongs with through its protocol (attachments, a GraphQL operation's frames). */
  readonly links?: readonly { readonly text: string; readonly frameIds: readonly number[] }[];
  /**
   * A compressed frame (gzip, zlib, raw deflate, a per-connection stream's message): node
   * offsets are in the decompressed bytes (`bytes` with `decompressed: true`).
   */
  readonly compression?: FrameCompression;
}

export interface SchemaReading {
  /** `read as market.v1.Envelope, the best fit of 12 types (…)`. */
  readonly note: string;
  /** The type reads the frame whole, every field known, wire types right, required fields there. */
  readonly fits: boolean;
}

export interface FrameCompression {
  readonly method: string;
  readonly compressedBytes: number;
  readonly decompressedBytes: number;
  /** `gzip → cbor, 1,234 → 5,678 bytes (4.6x)`. */
  readonly summary: string;
  /** Why inflating stopped (offset in the compressed frame), or null. */
  readonly error: FrameError | null;
}

export interface LargestField {
  readonly nodeId: number;
  /** First byte of the field's value (to reveal it in the tree). */
  readonly start: number;
  /** The path pattern (`$.users[*].avatarHash`): array positions as `*`. */
  readonly path: string;
  /** Occurrences summed. */
  readonly count: number;
  /** All occurrences' bytes, keys included. */
  readonly size: number;
  readonly share: number;
}

export interface TextResult {
  readonly text: string;
  /** True when the text was cut at the size limit. */
  readonly truncated: boolean;
}

/** One patch operation as one line in the CRDT tab (worker/crdt-ops.ts). */
export interface CrdtOpLine {
  /** The operation's node in the tree. */
  readonly nodeId: number;
  /** `sid.time`. */
  readonly id: string;
  readonly op: string;
  /** The id of the node it changes (`obj`), or '' for ops that create one. */
  readonly target: string;
  /** What it carries: text and where, keys → ids, deleted ranges, a constant. */
  readonly detail: string;
  /** Ids the operation takes. */
  readonly span: number;
  readonly bytes: number;
}

export interface CrdtSummary {
  /** json-joy's model or patch, or a Yjs message (codecs/yjs). */
  readonly kind: 'model' | 'patch' | 'yjs';
  /** What the frame is in its protocol's words (a Yjs message: `sync step 1`, `update`, `awareness`). */
  readonly title?: string;
  /** The document view (model) or the patch operations (patch) as JSON text. */
  readonly viewJson: string;
  readonly clock: readonly { readonly sid: string; readonly time: number }[];
  readonly metadataBytes: number;
  readonly contentBytes: number;
  readonly notes: readonly string[];
  /** Patches: one line per operation (absent for models). */
  readonly ops?: readonly CrdtOpLine[];
}

/** The Bytes view (worker/bytes-report.ts): where a frame's bytes go. */
export interface BytesReport {
  readonly frameBytes: number;
  readonly format: string;
  /** False when the frame was too large to index whole (figures cover three levels). */
  readonly whole: boolean;
  readonly nodes: number;
  /** Frame-wide split; the six parts add up to frameBytes. */
  readonly breakdown: {
    readonly headerBytes: number;
    readonly keyBytes: number;
    readonly stringPayloadBytes: number;
    readonly scalarPayloadBytes: number;
    readonly unindexedBytes: number;
    readonly otherBytes: number;
  };
  /** Maps' keys vs values vs framing, heaviest keys and the schema estimate; null without maps. */
  readonly keys: {
    readonly maps: number;
    readonly entries: number;
    readonly keyBytes: number;
    readonly valueBytes: number;
    readonly mapOverheadBytes: number;
    readonly distinctKeys: number;
    readonly topKeys: readonly { readonly key: string; readonly count: number; readonly bytes: number }[];
    readonly schema: {
      readonly bytes: number;
      readonly saved: number;
      readonly records: number;
      readonly recordTagBytes: number;
    };
  } | null;
  /** Cost by field across array elements, heaviest first (codecs/core/field-cost.ts). */
  readonly fields: readonly FieldCost[];
  /** Distinct patterns in the frame (fields holds the heaviest of them). */
  readonly patterns: number;
  /** The decode error, when the figures cover only the part before it. */
  readonly error: FrameError | null;
}

export interface CompareRowView {
  readonly codec: string;
  readonly family: string;
  readonly size: number | null;
  readonly gzipSize: number | null;
  readonly deflateSize: number | null;
  readonly encodeOpsPerSec: number | null;
  readonly decodeOpsPerSec: number | null;
  readonly lossless: string;
  readonly unsupported: string | null;
  /** Why a measured row has no figure in a column (shown for its "—"). */
  readonly why?: Partial<Record<'size' | 'gzip' | 'deflate' | 'encode' | 'decode', string>>;
}

export interface DiffRow {
  readonly path: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly before: string;
  readonly after: string;
  readonly sizeBefore: number;
  readonly sizeAfter: number;
}

/** Two frames compared: what differs, and the frames' own sizes (the rows count fields only). */
export interface FrameDiff {
  readonly rows: readonly DiffRow[];
  /** The frames' sizes as listed (their bytes on the wire), before and after. */
  readonly frameBefore: number;
  readonly frameAfter: number;
}

export interface FilterQuery {
  /** Free text matched against the decoded content (case-insensitive). */
  readonly text: string;
  /** `users[*].name` or a JSON Pointer; frames where the path resolves (and matches `text` when both are set). */
  readonly path: string;
}

/** What lowering the memory cap did: the ids it evicted (oldest first) and the counters after it. */
export interface CapResult {
  readonly evictedIds: readonly number[];
  readonly evictedTotal: number;
  readonly bytesHeld: number;
}

/** Nodes matching a search inside one frame (worker/tree-search.ts). */
export interface TreeSearchResult {
  /** Root-to-node id paths of the first matches, in byte order. */
  readonly paths: readonly (readonly number[])[];
  /** Every match (may exceed `paths.length`). */
  readonly total: number;
  /** False when a large frame was searched only a few levels deep. */
  readonly complete: boolean;
}

/** cbor.me-style annotated hex (worker/annotate-frame.ts). */
export interface AnnotatedHexResult {
  /** A header line, then one line per item head / payload chunk: offset, size, bytes, comment. */
  readonly lines: readonly string[];
  /** False when a large frame was annotated only a few levels deep. */
  readonly complete: boolean;
  readonly truncated: boolean;
}

/** Which frames a session comparison covers (worker/session-compare-job.ts). */
export type SessionScope =
  | { readonly kind: 'all' }
  | { readonly kind: 'connection'; readonly connectionId: string }
  /** The list's current filter result. */
  | { readonly kind: 'frames'; readonly frameIds: readonly number[] };

export interface SessionEnd {
  readonly cancelled: boolean;
  readonly error: string | null;
  readonly chart: SessionChartData | null;
  /** Data messages compared, and the worker's wall time for the whole job. */
  readonly messages: number;
  readonly workerMs: number;
}

/** Request name → (params, result). */
export interface WorkerMethods {
  decode: { params: { frameId: number; format: FormatChoice }; result: FrameDecode | null };
  /** A window of a node's children (`total` in all), from `offset` or around the child `around`; `sortBySize`: all of them largest first, then the window. */
  children: {
    params: {
      frameId: number;
      format: FormatChoice;
      nodeId: number;
      offset?: number;
      limit?: number;
      around?: number;
      sortBySize?: boolean;
    };
    result: ChildWindow;
  };
  nodeAt: { params: { frameId: number; format: FormatChoice; offset: number }; result: number[] };
  /** The frame's bytes as captured, or (`decompressed`) what a compressed frame inflated to. */
  bytes: { params: { frameId: number; decompressed?: boolean }; result: Uint8Array | null };
  /** A Socket.IO binary packet's attachment frames, in order: what Send again, Edit and send and Deliver to page act on after it. */
  attachmentFrames: { params: { frameId: number }; result: number[] };
  /** Edit and send: the text the frame is edited as (edit-text.ts); null when its bytes are gone. */
  editSource: { params: { frameId: number }; result: EditSource | null };
  /** Edit and send: an edit's bytes and what changed, or where it does not encode; null when the frame's bytes are gone. */
  editBytes: { params: { frameId: number; syntax: EditSyntax; text: string }; result: EditOutcome | null };
  /** New message / Compose / the paste page's edit: a text's bytes in `syntax`, and what changed from `original` when given (compose-text.ts). */
  composeBytes: { params: { syntax: EditSyntax; text: string; original: Uint8Array | null }; result: ComposeOutcome };
  /** The text to show when a composer's syntax changes (compose-text.ts `switchedText`). */
  composeSwitch: { params: { from: EditSyntax; text: string; to: EditSyntax }; result: string };
  /** The paste page's edit: bytes in their own encoding (compose-text.ts `ownSource`). */
  composeSource: { params: { data: Uint8Array; isText: boolean }; result: EditSource };
  /** The paste page: a pasted text's hex / base64 reading, or the text itself when that reading does not decode cleanly (codecs/input-reading.ts). */
  settleTextReading: { params: { text: string; parsed: ParsedInput }; result: ParsedInput };
  /** JSON / EDN (one line; `edn-pretty` indented) of a node; `raw-text` / `raw-hex`: the frame's bytes as UTF-8 text or hex (frames that do not decode). */
  text: {
    params: {
      frameId: number;
      format: FormatChoice;
      nodeId: number;
      mode: 'json' | 'edn' | 'edn-pretty' | 'raw-text' | 'raw-hex';
    };
    result: TextResult;
  };
  search: { params: { frameId: number; format: FormatChoice; text: string; limit: number }; result: TreeSearchResult };
  annotate: { params: { frameId: number; format: FormatChoice }; result: AnnotatedHexResult };
  largest: { params: { frameId: number; format: FormatChoice; count: number }; result: LargestField[] };
  crdt: { params: { frameId: number; format: FormatChoice }; result: CrdtSummary | null };
  /** The Bytes view's figures; null when the frame is gone or does not decode. */
  bytesReport: { params: { frameId: number; format: FormatChoice }; result: BytesReport | null };
  /** The frame as a treemap `width` × `height` px, by node or by path pattern; null when it does not decode. */
  byteMap: {
    params: { frameId: number; format: FormatChoice; by: 'node' | 'field'; width: number; height: number };
    result: ByteMap | null;
  };
  /** null when either frame is not held (evicted, or no such frame). */
  diff: { params: { frameA: number; frameB: number }; result: FrameDiff | null };
  setFilter: { params: FilterQuery; result: number[] | null };
  /** `extensions`: the negotiated Sec-WebSocket-Extensions when known ('' = none negotiated), kept in the export. */
  exportCapture: {
    params: {
      kind: 'har' | 'wirescope';
      connections: Record<string, { url: string; protocol: string; extensions?: string }>;
      /** Ids of the frames wirescope sent or delivered: marked so in the file. */
      wirescopeFrames?: readonly number[];
    };
    result: Uint8Array;
  };
  /** Lowers (or raises) the cap; the answer names the frames it evicted, so the list can drop them at once. */
  setCap: { params: { bytes: number }; result: CapResult };
  clear: { params: Record<string, never>; result: void };
  /** Loads the `.proto` files (replacing the ones before; none: no schema). */
  setSchema: { params: { files: readonly { readonly name: string; readonly source: string }[] }; result: SchemaState };
  /** The message type a connection's binary frames are read as. */
  setSchemaType: { params: { connectionId: string; choice: SchemaTypeChoice }; result: SchemaState };
}

export type WorkerMethod = keyof WorkerMethods;

/** main → worker */
export type ToWorker =
  | { readonly type: 'ingest'; readonly frames: readonly IngestFrame[] }
  /**
   * The live tail (the host's sample of the frames it holds under a flood): held apart from
   * the capture (no place in its order, its cap, its search, export or comparison), read on
   * its own (nothing recorded on its connection) and answered with `tail-rows`. Replaces the
   * listed sample; the worker keeps the newest samples' frames up to a bound for the detail.
   */
  | { readonly type: 'tail'; readonly frames: readonly IngestFrame[] }
  /** A panel batch (frames tiling one buffer) as typed arrays: ingest-packing.ts. */
  | { readonly type: 'ingest-packed'; readonly packed: PackedIngest }
  /**
   * What the worker needs to know of a connection before its frames: the subprotocol it
   * negotiated (`Sec-WebSocket-Protocol`, '' when none), detection evidence for its frames;
   * its URL where known (`EIO=3` in it says which Engine.IO version its Socket.IO frames are).
   */
  | { readonly type: 'connection'; readonly connectionId: string; readonly subprotocol: string; readonly url?: string }
  | { readonly type: 'call'; readonly callId: number; readonly method: WorkerMethod; readonly params: unknown }
  | {
      readonly type: 'compare';
      readonly jobId: number;
      readonly frameId: number;
      readonly format: FormatChoice;
      readonly nodeId: number;
    }
  | { readonly type: 'cancel-compare'; readonly jobId: number }
  /**
   * The Compare tab is shown on this node: when it is large, the worker starts the comparison
   * lanes and warms them on a sample of its value, so a Run soon after meets them ready
   * (worker/compare-job.ts warmCompare). No answer.
   */
  | { readonly type: 'warm-compare'; readonly frameId: number; readonly format: FormatChoice; readonly nodeId: number }
  /** A whole-session comparison; cancelled with cancel-compare and the same job id. `negotiated`: connection id → its Sec-WebSocket-Extensions, where known. */
  | {
      readonly type: 'session-compare';
      readonly jobId: number;
      readonly scope: SessionScope;
      readonly negotiated: Readonly<Record<string, string>>;
    }
  /** Sets the text / path filter and searches the held frames in slices; a newer generation supersedes it. */
  | { readonly type: 'filter'; readonly generation: number; readonly text: string; readonly path: string }
  /** Rows in the list's view: those still waiting (a flood) are read now. */
  | { readonly type: 'view'; readonly frameIds: readonly number[] }
  /** Whether rows may wait under a flood: not while the list filters by what rows say (format, protocol, event). */
  | { readonly type: 'defer-rows'; readonly allowed: boolean }
  /** A comparison lane the page started for the worker (lane-open) failed: an error in it, or it could not load. */
  | { readonly type: 'lane-failed'; readonly laneId: number; readonly reason: string };

/** worker → main */
export type FromWorker =
  | {
      readonly type: 'summaries';
      readonly summaries: readonly FrameSummary[];
      /** Waiting rows as typed arrays, with their places among `summaries` (summary-packing.ts; the client unpacks them). */
      readonly waitingPacked?: PackedWaitingRows;
      /** Frames evicted by the memory cap so far, and their ids (oldest first). */
      readonly evictedTotal: number;
      readonly evictedIds: readonly number[];
      readonly bytesHeld: number;
      /** Ids of the new summaries that match the active content filter (null: no filter). */
      readonly matching: readonly number[] | null;
      /** The filter generation `matching` was computed under. */
      readonly filterGeneration: number;
    }
  /**
   * A slice of re-reading the listed rows after the schema or a connection's message type
   * changed (worker/schema-reread.ts): the new rows (evicted frames skipped), which of them
   * match the content filter (null: no filter) under `filterGeneration`, and how far it is.
   */
  | {
      readonly type: 'reread';
      readonly generation: number;
      readonly rows: readonly FrameSummary[];
      readonly matching: readonly number[] | null;
      readonly filterGeneration: number;
      readonly searched: number;
      readonly total: number;
      readonly done: boolean;
    }
  /**
   * The rows of a live tail (`sample` set), which of them match the content filter (null: no
   * filter) under `filterGeneration`, and the sample frames no longer held (the oldest, over
   * the bound). Posted after the rows of every frame that came before the tail.
   */
  | {
      readonly type: 'tail-rows';
      readonly rows: readonly FrameSummary[];
      readonly matching: readonly number[] | null;
      readonly filterGeneration: number;
      readonly forgotten: readonly number[];
    }
  /** A slice of a running search: the matches found in it, and how far the search is. */
  | {
      readonly type: 'filter-progress';
      readonly generation: number;
      readonly matches: readonly number[];
      readonly searched: number;
      readonly total: number;
      readonly done: boolean;
    }
  | { readonly type: 'result'; readonly callId: number; readonly result: unknown }
  | { readonly type: 'failure'; readonly callId: number; readonly message: string }
  | {
      readonly type: 'compare-row';
      readonly jobId: number;
      readonly row: CompareRowView;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly type: 'compare-end';
      readonly jobId: number;
      readonly cancelled: boolean;
      readonly error: string | null;
      readonly markdown: string;
    }
  | { readonly type: 'session-progress'; readonly jobId: number; readonly progress: SessionProgress }
  /** One codec's rows: per connection and direction, then its total. */
  | { readonly type: 'session-rows'; readonly jobId: number; readonly rows: readonly SessionRow[] }
  | ({ readonly type: 'session-end'; readonly jobId: number } & SessionEnd)
  /**
   * Start a comparison lane for the worker and give it this port (the worker's other end of
   * a MessageChannel; worker/compare-lanes.ts says why the page starts lanes, lane-host.ts does).
   */
  | { readonly type: 'lane-open'; readonly laneId: number; readonly port: MessagePort }
  /** End that lane. */
  | { readonly type: 'lane-close'; readonly laneId: number };
