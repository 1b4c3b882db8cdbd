/**
 * Background items → the app's HostMessages. Keeps, per document, the last relay batch
 * (`seq`) and the hook losses (`lostBatches`) this panel has seen, so that a replayed backlog
 * adds nothing twice and a `gap` counts only the batches this panel really missed. Frames
 * arrive as a table and one byte string per batch (messages.ts); each frame's bytes are a
 * view of the batch's bytes (the decode worker slices them out), never cut on the page.
 */
import { base64Bytes } from '../../codecs/core/base64.js';
import type { HostMessage, LostFrame, WireFrame } from '../../inspector-app/src/protocol/messages.js';
import {
  KIND_DROPPED,
  KIND_HELD,
  KIND_SENT,
  KIND_TEXT,
  KIND_WIRESCOPE,
} from '../../inspector-app/src/protocol/packed-frames.js';
import { checkFrameTable, frameTableOf, wireFrameCount } from '../shared/frame-table.js';
import {
  FRAME_BINARY,
  FRAME_COLUMNS,
  FRAME_RECEIVED,
  FRAME_WIRESCOPE,
  FRAME_HELD,
  FRAME_DROPPED,
  type BatchEvent,
  type DocumentInfo,
  type LostFrameRow,
  type LostFrameWhy,
  type PanelBatch,
  type PanelHeld,
  type PanelItem,
  type WireBytes,
  type WireCapture,
  type WireFrameBytes,
} from '../shared/messages.js';

export const HOOK_LOSS_REASON = "the page's capture hook lost batches before the relay got them";
export const FRAME_DROP_REASON = 'the page hook or relay dropped frames (too large to send, or over its limits)';
export const LOST_WHY: Readonly<Record<LostFrameWhy, string>> = {
  'too-large': 'dropped: too large to send to the extension (runtime messages are limited to 64 MiB)',
  'hook-limit': "dropped by the page's capture hook (over its limit of bytes waiting to be sent: 64 MiB)",
  unreadable: "dropped: the page's capture hook could not read the Blob it came in",
  unsent: "dropped: the page's capture hook could not hand its batch to the extension (no relay took it)",
};
/** Why a worker's sockets are missing (the `uncaptured` notice's reason). */
export const WORKER_NOT_CAPTURED =
  "WebSockets opened inside a worker are not captured by the page hook (in Chrome, turn on debugger capture in the panel's toolbar to capture them)";
/** Documents remembered (least recently seen forgotten first). */
const MAX_DOCUMENTS = 4096;

/** The bytes of wire bytes; null when they cannot be read (a Blob here was not read first: port-transport.ts reads them). */
export function wireBytes(data: WireBytes | WireFrameBytes): Uint8Array | null {
  if ('blob' in data) return null;
  if ('b64' in data && typeof data.b64 === 'string') {
    return base64Bytes(data.b64);
  }
  const b = (data as { bytes?: unknown }).bytes;
  if (b instanceof Uint8Array) return b;
  // Structured clone may hand over a view from another realm: copy by shape.
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  return null;
}

/** A batch's frame table and bytes, every row checked against the bytes; null when they do not fit. */
export function readFrames(capture: WireCapture): { table: Float64Array; bytes: Uint8Array; count: number } | null {
  const tableBytes = wireBytes(capture.frameTable);
  const bytes = wireBytes(capture.frameBytes);
  const table = tableBytes && frameTableOf(tableBytes);
  if (!table || !bytes) return null;
  const count = table.length / FRAME_COLUMNS;
  return checkFrameTable(table, count, bytes.byteLength) ? { table, bytes, count } : null;
}

export function isPanelBatch(v: unknown): v is PanelBatch {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return (
    b.type === 'panel-batch' &&
    typeof b.bufferId === 'string' &&
    typeof b.cursor === 'number' &&
    typeof b.framesThrough === 'number' &&
    Array.isArray(b.items)
  );
}

/** The background's held count under a flood (background/flood-hold.ts), by shape. */
export function isPanelHeld(v: unknown): v is PanelHeld {
  if (typeof v !== 'object' || v === null) return false;
  const h = v as Record<string, unknown>;
  const count = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  return h.type === 'panel-held' && count(h.frames) && count(h.bytes);
}

interface DocSeen {
  seq: number;
  lostBatches: number;
  /** Frames in the hook batches lost so far (when the relay counts them). */
  lostHookFrames: number;
  droppedFrames: number;
  /** Frames the relay had sent through the last batch seen (when it counts them). */
  framesThrough: number | undefined;
}

export class PanelConverter {
  private readonly docs = new Map<string, DocSeen>();
  /** The connection ids each document opened (a navigation names the documents that stay). */
  private readonly socketsOf = new Map<string, string[]>();

  convert(items: readonly PanelItem[]): HostMessage[] {
    const out: HostMessage[] = [];
    for (const item of items) {
      if (typeof item !== 'object' || item === null) continue;
      switch (item.type) {
        case 'events':
        case 'evicted':
          this.events(item, out);
          break;
        case 'gap':
          this.gap(item, out);
          break;
        case 'dropped':
          if (item.count > 0) out.push({ type: 'dropped', count: item.count, reason: item.reason });
          break;
        case 'navigated':
          out.push(
            item.documents === undefined
              ? { type: 'navigated', url: item.url, time: item.time }
              : { type: 'navigated', url: item.url, time: item.time, stay: this.connectionsOf(item.documents) },
          );
          break;
        default:
          break;
      }
    }
    return out;
  }

  private connectionsOf(documents: readonly string[]): string[] {
    const out: string[] = [];
    for (const d of documents) for (const id of this.socketsOf.get(d) ?? []) out.push(id);
    return out;
  }

  private noteSockets(documentId: string, events: readonly BatchEvent[]): void {
    for (const e of events) {
      if (e.type !== 'opening') continue;
      let ids = this.socketsOf.get(documentId);
      if (ids === undefined) {
        ids = [];
        this.socketsOf.set(documentId, ids);
        if (this.socketsOf.size > MAX_DOCUMENTS) this.socketsOf.delete(this.socketsOf.keys().next().value!);
      }
      ids.push(`${documentId}:${e.socketId}`);
    }
  }

  /**
   * Batches seq-missing … seq-1 never reached the background; this panel may have received
   * some of them before (from the background's previous lifetime). Counted in frames when the
   * relay counts them (`framesBefore`), else in batches.
   */
  private gap(item: Extract<PanelItem, { type: 'gap' }>, out: HostMessage[]): void {
    const seen = this.docs.get(item.documentId);
    if (item.framesBefore !== undefined && (seen === undefined || seen.framesThrough !== undefined)) {
      const lost = item.framesBefore - (seen?.framesThrough ?? 0);
      if (lost > 0) out.push({ type: 'dropped', count: lost, reason: item.reason });
      return;
    }
    const lost = item.seq - 1 - Math.max(seen?.seq ?? 0, item.seq - 1 - item.missing);
    if (lost > 0) out.push({ type: 'dropped', count: lost, reason: `${item.reason} (counted in message batches)` });
  }

  /**
   * An `events` item: socket events and frames in order. An `evicted` item (its bytes gone):
   * the same socket events, and a placeholder row per frame, counted as dropped.
   */
  private events(item: Extract<PanelItem, { type: 'events' | 'evicted' }>, out: HostMessage[]): void {
    const seen = this.docs.get(item.documentId);
    if (seen && item.seq <= seen.seq) return; // already delivered (a replayed backlog)
    const lostBefore = seen?.lostBatches ?? 0;
    const lostFramesBefore = seen?.lostHookFrames ?? 0;
    const droppedBefore = seen?.droppedFrames ?? 0;
    const dropped = typeof item.droppedFrames === 'number' ? item.droppedFrames : 0;
    const lostHookFrames = typeof item.lostHookFrames === 'number' ? item.lostHookFrames : undefined;
    // In frames when the relay counts them; an older relay's count is in batches.
    if (lostHookFrames !== undefined) {
      if (lostHookFrames > lostFramesBefore)
        out.push({ type: 'dropped', count: lostHookFrames - lostFramesBefore, reason: HOOK_LOSS_REASON });
    } else if (item.lostBatches > lostBefore)
      out.push({
        type: 'dropped',
        count: item.lostBatches - lostBefore,
        reason: `${HOOK_LOSS_REASON} (counted in batches)`,
      });
    if (dropped > droppedBefore)
      out.push({ type: 'dropped', count: dropped - droppedBefore, reason: FRAME_DROP_REASON });
    this.docs.delete(item.documentId);
    const frameCount = wireFrameCount(item.frameTable);
    const framesThrough = typeof item.framesBefore === 'number' ? item.framesBefore + frameCount : undefined;
    this.docs.set(item.documentId, {
      seq: item.seq,
      lostBatches: Math.max(lostBefore, item.lostBatches),
      lostHookFrames: Math.max(lostFramesBefore, lostHookFrames ?? 0),
      droppedFrames: Math.max(droppedBefore, dropped),
      framesThrough,
    });
    if (this.docs.size > MAX_DOCUMENTS) this.docs.delete(this.docs.keys().next().value!);

    if (Array.isArray(item.lostFrames) && item.lostFrames.length)
      out.push({ type: 'lost-frames', frames: item.lostFrames.map((r) => lostFrame(r, item.documentId)) });

    const husk = item.type === 'evicted';
    const read = husk ? readRows(item.frameTable, item.frameBytesLength) : readFrames(item);
    const undecodable = read ? 0 : frameCount;
    const count = read ? read.count : 0;
    const table = read?.table;
    const bytes = read?.bytes;
    const events: readonly BatchEvent[] = item.events;
    this.noteSockets(item.documentId, events);
    if (husk && count) out.push({ type: 'dropped', count, reason: item.reason });
    if (!husk && table && bytes && count > 0 && packBatch(item, events, table, bytes, count, out)) return;
    let frames: WireFrame[] | null = null;
    let lost: LostFrame[] | null = null;
    /** The frame messages of this batch: when there is one, its frames are views of the batch's bytes. */
    const frameLists: WireFrame[][] = [];
    let e = 0;
    let offset = 0;
    for (let i = 0; ; i++) {
      // Events placed before frame i (`at` never decreases; anything odd still comes out once).
      for (; e < events.length && (events[e]!.at <= i || i === count); e++) {
        const message = socketMessage(events[e]!, `${item.documentId}:${events[e]!.socketId}`);
        if (message) out.push(message);
        frames = null;
        lost = null;
      }
      if (i === count || !table) break;
      const r = i * FRAME_COLUMNS;
      const flags = table[r + 1]!;
      const length = table[r + 3]!;
      if (husk || !bytes) {
        const reason = husk ? item.reason : '';
        if (!lost) out.push({ type: 'lost-frames', frames: (lost = []) });
        lost.push({
          connectionId: `${item.documentId}:${table[r]!}`,
          direction: flags & FRAME_RECEIVED ? 'received' : 'sent',
          time: table[r + 2]!,
          opcode: flags & FRAME_BINARY ? 'binary' : 'text',
          size: length,
          reason,
        });
        continue;
      }
      const frame: WireFrame = {
        connectionId: `${item.documentId}:${table[r]!}`,
        direction: flags & FRAME_RECEIVED ? 'received' : 'sent',
        time: table[r + 2]!,
        opcode: flags & FRAME_BINARY ? 'binary' : 'text',
        data: bytes.subarray(offset, offset + length),
        ...(flags & FRAME_WIRESCOPE ? { origin: 'wirescope' as const } : {}),
        ...(flags & FRAME_HELD
          ? { intercepted: 'held' as const }
          : flags & FRAME_DROPPED
            ? { intercepted: 'dropped' as const }
            : {}),
      };
      offset += length;
      if (!frames) {
        out.push({ type: 'frames', frames: (frames = []) });
        frameLists.push(frames);
      }
      frames.push(frame);
    }
    // One message whose frames fill the batch's bytes: they go to the decode worker as that
    // one buffer, transferred (worker/client.ts), and the worker slices each frame out — not
    // 10,000 slices and transfers a second on the panel's main thread under a flood. Split
    // by socket events, or not filling the buffer: each frame gets its own buffer here.
    const oneBuffer =
      frameLists.length === 1 &&
      bytes !== undefined &&
      bytes !== null &&
      offset === bytes.byteLength &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength;
    if (!oneBuffer)
      for (const list of frameLists)
        for (let k = 0; k < list.length; k++) list[k] = { ...list[k]!, data: list[k]!.data.slice() };
    if (undecodable)
      out.push({ type: 'dropped', count: undecodable, reason: 'frames arrived with bytes the panel could not read' });
  }
}

/**
 * The usual batch — its frames tile its bytes, no socket event between two of them — goes on
 * as one packed message (packed-frames.ts): typed arrays beside the batch's one buffer, which
 * the app hands the decode worker as they are, transferred. No object per frame is made on
 * the panel's main thread (10,000 a second under a flood). Events come before and after it in
 * their places, as the frame-by-frame path below would place them. False (nothing pushed)
 * when the batch does not fit; the caller then goes frame by frame.
 */
function packBatch(
  item: { documentId: string },
  events: readonly BatchEvent[],
  table: Float64Array,
  bytes: Uint8Array,
  count: number,
  out: HostMessage[],
): boolean {
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength || !(bytes.buffer instanceof ArrayBuffer))
    return false;
  // The events placed before frame 0, in order, then all the others after the last frame.
  let lead = 0;
  while (lead < events.length && events[lead]!.at <= 0) lead++;
  for (let e = lead; e < events.length; e++) if (!(events[e]!.at >= count)) return false;
  const ends = new Float64Array(count);
  const times = new Float64Array(count);
  const kinds = new Uint8Array(count);
  const connectionOf = new Uint32Array(count);
  const connections: string[] = [];
  const socketIndex = new Map<number, number>();
  let end = 0;
  for (let i = 0; i < count; i++) {
    const r = i * FRAME_COLUMNS;
    const flags = table[r + 1]!;
    end += table[r + 3]!;
    ends[i] = end;
    times[i] = table[r + 2]!;
    kinds[i] =
      (flags & FRAME_RECEIVED ? 0 : KIND_SENT) |
      (flags & FRAME_BINARY ? 0 : KIND_TEXT) |
      (flags & FRAME_WIRESCOPE ? KIND_WIRESCOPE : 0) |
      (flags & FRAME_HELD ? KIND_HELD : 0) |
      (flags & FRAME_DROPPED ? KIND_DROPPED : 0);
    const socketId = table[r]!;
    let c = socketIndex.get(socketId);
    if (c === undefined) {
      c = connections.length;
      connections.push(`${item.documentId}:${socketId}`);
      socketIndex.set(socketId, c);
    }
    connectionOf[i] = c;
  }
  if (end !== bytes.byteLength) return false;
  for (let e = 0; e < lead; e++) pushSocketMessage(events[e]!, item.documentId, out);
  out.push({ type: 'frames-packed', packed: { bytes, ends, times, kinds, connectionOf, connections } });
  for (let e = lead; e < events.length; e++) pushSocketMessage(events[e]!, item.documentId, out);
  return true;
}

function pushSocketMessage(e: BatchEvent, documentId: string, out: HostMessage[]): void {
  const message = socketMessage(e, `${documentId}:${e.socketId}`);
  if (message) out.push(message);
}

/** A husk's frame table, every row checked against the size its bytes had. */
function readRows(
  tableWire: WireBytes,
  byteLength: number,
): { table: Float64Array; bytes: null; count: number } | null {
  const tableBytes = wireBytes(tableWire);
  const table = tableBytes && frameTableOf(tableBytes);
  if (!table || typeof byteLength !== 'number') return null;
  const count = table.length / FRAME_COLUMNS;
  return checkFrameTable(table, count, byteLength) ? { table, bytes: null, count } : null;
}

function lostFrame(r: LostFrameRow, documentId: string): LostFrame {
  return {
    connectionId: `${documentId}:${r.socketId}`,
    direction: r.flags & FRAME_RECEIVED ? 'received' : 'sent',
    time: r.time,
    opcode: r.flags & FRAME_BINARY ? 'binary' : 'text',
    size: r.length,
    reason: LOST_WHY[r.why] ?? 'dropped on the way',
  };
}

/** The document fields the relay added, when they are strings. */
function documentOf(e: DocumentInfo): DocumentInfo {
  const out: { documentUrl?: string; documentOrigin?: string } = {};
  if (typeof e.documentUrl === 'string') out.documentUrl = e.documentUrl;
  if (typeof e.documentOrigin === 'string') out.documentOrigin = e.documentOrigin;
  return out;
}

function socketMessage(e: BatchEvent, connectionId: string): HostMessage | null {
  switch (e.type) {
    case 'opening':
      return { type: 'connection-opening', connectionId, url: e.url, time: e.time, ...documentOf(e) };
    case 'worker':
      return {
        type: 'uncaptured',
        kind: `${e.kind}-worker`,
        url: e.url,
        time: e.time,
        ...documentOf(e),
        reason: WORKER_NOT_CAPTURED,
      };
    case 'open':
      return {
        type: 'connection-opened',
        connectionId,
        url: e.url,
        protocol: e.protocol,
        extensions: e.extensions,
        time: e.time,
      };
    case 'close':
      return {
        type: 'connection-closed',
        connectionId,
        code: e.code,
        reason: e.reason,
        wasClean: e.wasClean,
        time: e.time,
      };
    case 'error':
      return { type: 'connection-error', connectionId, message: 'WebSocket error', time: e.time };
    case 'hold': {
      const { type: _type, socketId: _socketId, at: _at, ...state } = e;
      return { type: 'hold-state', connectionId, ...state };
    }
    default:
      return null;
  }
}
