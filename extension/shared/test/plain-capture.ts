/**
 * Tests only: captures as a plain list of events with frames as objects (the shape before
 * frames were packed), packed into and unpacked from the wire shapes of messages.ts, so
 * tests state what they expect frame by frame.
 */
import {
  CAPTURE_TAG,
  FRAME_BINARY,
  FRAME_COLUMNS,
  FRAME_DROPPED,
  FRAME_HELD,
  FRAME_RECEIVED,
  FRAME_WIRESCOPE,
  type BatchEvent,
  type Direction,
  type HookBatch,
  type RelayBatch,
  type Opcode,
  type SocketEvent,
  type WireBytes,
  type WireCapture,
  type WireFrameBytes,
} from '../messages.js';

export interface PlainFrame {
  readonly type: 'frame';
  readonly socketId: number;
  readonly direction: Direction;
  readonly opcode: Opcode;
  readonly time: number;
  /** A fresh ArrayBuffer holding exactly the frame's bytes. */
  readonly data: ArrayBuffer;
  /** wirescope sent or delivered it (absent otherwise). */
  readonly wirescope?: true;
  /** An intercept rule held it (absent otherwise). */
  readonly held?: true;
  /** An intercept rule dropped it (absent otherwise). */
  readonly dropped?: true;
}
export type PlainEvent = SocketEvent | PlainFrame;

export const frameFlags = (f: Pick<PlainFrame, 'direction' | 'opcode' | 'wirescope' | 'held' | 'dropped'>): number =>
  (f.direction === 'received' ? FRAME_RECEIVED : 0) |
  (f.opcode === 'binary' ? FRAME_BINARY : 0) |
  (f.wirescope ? FRAME_WIRESCOPE : 0) |
  (f.held ? FRAME_HELD : 0) |
  (f.dropped ? FRAME_DROPPED : 0);

export const plainFrame = (
  socketId: number,
  bytes: ArrayLike<number>,
  over: Partial<Omit<PlainFrame, 'data'>> = {},
): PlainFrame => ({
  type: 'frame',
  socketId,
  direction: 'sent',
  opcode: 'binary',
  time: 1.5,
  ...over,
  data: Uint8Array.from(bytes).buffer,
});

/** Frames → one table and one byte buffer; socket events placed by frame index. */
export function pack(events: readonly PlainEvent[]): { events: BatchEvent[]; table: Float64Array; bytes: Uint8Array } {
  const frames = events.filter((e): e is PlainFrame => e.type === 'frame');
  const table = new Float64Array(frames.length * FRAME_COLUMNS);
  const bytes = new Uint8Array(frames.reduce((n, f) => n + f.data.byteLength, 0));
  const placed: BatchEvent[] = [];
  let i = 0;
  let offset = 0;
  for (const e of events) {
    if (e.type !== 'frame') {
      placed.push({ ...e, at: i });
      continue;
    }
    table.set([e.socketId, frameFlags(e), e.time, e.data.byteLength], i++ * FRAME_COLUMNS);
    bytes.set(new Uint8Array(e.data), offset);
    offset += e.data.byteLength;
  }
  return { events: placed, table, bytes };
}

/** A well-formed HookBatch (as the hook posts it) holding `events`. */
export function hookBatch(seq: number, events: readonly PlainEvent[], extra: object = {}): HookBatch {
  const p = pack(events);
  return {
    tag: CAPTURE_TAG,
    type: 'hook-batch',
    seq,
    events: p.events,
    frameCount: p.table.length / FRAME_COLUMNS,
    frameTable: p.table.buffer as ArrayBuffer,
    frameBytes: p.bytes.buffer as ArrayBuffer,
    frameBytesUsed: p.bytes.length,
    ...extra,
  };
}

const wire = (bytes: Uint8Array, as: 'base64' | 'bytes'): WireBytes =>
  as === 'base64' ? { b64: Buffer.from(bytes).toString('base64') } : { bytes };

/** A WireCapture (relay → background → panel) holding `events`. */
export function wireCapture(events: readonly PlainEvent[], as: 'base64' | 'bytes' = 'bytes'): WireCapture {
  const p = pack(events);
  return { events: p.events, frameTable: wire(new Uint8Array(p.table.buffer), as), frameBytes: wire(p.bytes, as) };
}

/**
 * A relay batch (relay → background) holding `events`: from document `doc`, the top one at
 * https://a.test/, no batches lost before it; `over` changes any of it.
 */
export function relayBatch(
  seq: number,
  events: readonly PlainEvent[],
  over: Partial<RelayBatch> = {},
  as: 'base64' | 'bytes' = 'bytes',
): RelayBatch {
  return {
    type: 'relay-batch',
    documentId: 'doc',
    documentUrl: 'https://a.test/',
    isTopFrame: true,
    seq,
    ...wireCapture(events, as),
    lostBatches: 0,
    ...over,
  };
}

/** The plain events of a frame table and bytes, in order (socket events lose `at`). */
export function unpack(
  events: readonly BatchEvent[],
  table: Float64Array,
  frameCount: number,
  bytes: Uint8Array,
): PlainEvent[] {
  const out: PlainEvent[] = [];
  let e = 0;
  let offset = 0;
  for (let i = 0; i <= frameCount; i++) {
    for (; e < events.length && events[e]!.at === i; e++) {
      const { at: _at, ...ev } = events[e]!;
      out.push(ev as SocketEvent);
    }
    if (i === frameCount) break;
    const [socketId, flags, time, length] = table.subarray(
      i * FRAME_COLUMNS,
      (i + 1) * FRAME_COLUMNS,
    ) as unknown as number[];
    const direction = flags! & FRAME_RECEIVED ? 'received' : 'sent';
    const opcode = flags! & FRAME_BINARY ? 'binary' : 'text';
    out.push({
      type: 'frame',
      socketId: socketId!,
      direction,
      opcode,
      time: time!,
      data: bytes.slice(offset, offset + length!).buffer,
      ...(flags! & FRAME_WIRESCOPE ? { wirescope: true as const } : {}),
      ...(flags! & FRAME_HELD ? { held: true as const } : {}),
      ...(flags! & FRAME_DROPPED ? { dropped: true as const } : {}),
    });
    offset += length!;
  }
  return out;
}

export function unpackHookBatch(b: HookBatch): PlainEvent[] {
  return unpack(
    b.events,
    new Float64Array(b.frameTable, 0, b.frameCount * FRAME_COLUMNS),
    b.frameCount,
    new Uint8Array(b.frameBytes, 0, b.frameBytesUsed),
  );
}

const bytesOfWire = (w: WireFrameBytes): Uint8Array => {
  if ('blob' in w) throw new Error('unpackWire: read the Blob first (blobBytes)');
  return 'b64' in w ? new Uint8Array(Buffer.from(w.b64, 'base64')) : w.bytes;
};

export function unpackWire(c: WireCapture): PlainEvent[] {
  const tableBytes = bytesOfWire(c.frameTable).slice();
  const table = new Float64Array(tableBytes.buffer, 0, tableBytes.length / 8);
  return unpack(c.events, table, table.length / FRAME_COLUMNS, bytesOfWire(c.frameBytes));
}

/**
 * Whether frames' bytes fill their buffers exactly: each its own buffer, or consecutive views
 * of one batch buffer from its start to its end (what the worker client transfers whole;
 * nothing else is kept alive with them).
 */
export function fillBuffers(frames: readonly { readonly data: Uint8Array }[]): boolean {
  const ends = new Map<ArrayBufferLike, number>();
  for (const f of frames) {
    const end = ends.get(f.data.buffer) ?? 0;
    if (f.data.byteOffset !== end) return false;
    ends.set(f.data.buffer, end + f.data.byteLength);
  }
  return [...ends].every(([buffer, end]) => buffer.byteLength === end);
}

/** A Blob's bytes: `arrayBuffer()` where the Blob has it (Node, browsers), else a FileReader (jsdom's Blob). */
export function blobBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}
