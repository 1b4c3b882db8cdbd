/**
 * Shape checks for what arrives on the window: anything in the page can post a message
 * with the capture tag, so every field is checked and copied into a fresh event (each field
 * read once), and every row of the frame table is checked against the byte slab.
 * ArrayBuffers are recognised by the built-in getter's brand check, which also accepts a
 * buffer from another compartment (Firefox hands the relay Xray-wrapped objects).
 */
import {
  CAPTURE_TAG,
  FRAME_COLUMNS,
  FRAME_ROW_BYTES,
  type BatchEvent,
  type LostFrameRow,
  type SocketEvent,
} from '../shared/messages.js';
import { checkFrameTable } from '../shared/frame-table.js';
import { parseLostRows } from '../shared/lost-rows.js';

export interface ParsedHookBatch {
  readonly seq: number;
  /** Socket events, `at` checked (0 … frameCount, never decreasing). */
  readonly events: BatchEvent[];
  readonly frameCount: number;
  /** The relay's own copy of the frame table, every row checked; exactly frameCount rows. */
  readonly table: Float64Array;
  /** The relay's own copy of the frames' bytes, back to back: exactly the sum of the rows' lengths. */
  readonly bytes: Uint8Array;
  /** The hook's cumulative count of dropped frames (0 when absent). */
  readonly droppedFrames: number;
  /** Frames in the hook's earlier batches (undefined when absent). */
  readonly framesBefore: number | undefined;
  /** Rows of the frames the hook dropped since its last batch. */
  readonly lostFrames: LostFrameRow[];
}

const abProto = ArrayBuffer.prototype;
const abByteLength = Object.getOwnPropertyDescriptor(abProto, 'byteLength')?.get;
const abDetached = Object.getOwnPropertyDescriptor(abProto, 'detached')?.get;

/** The byte length of a live (not detached) ArrayBuffer from any realm, else -1; SharedArrayBuffers are refused. */
export function liveByteLength(v: unknown): number {
  if (typeof v !== 'object' || v === null || !abByteLength) return -1;
  try {
    const length = Reflect.apply(abByteLength, v, []) as number;
    return abDetached && Reflect.apply(abDetached, v, []) ? -1 : length;
  } catch {
    return -1;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function parseEvent(v: unknown): SocketEvent | null {
  if (typeof v !== 'object' || v === null) return null;
  const e = v as Record<string, unknown>;
  const type = e.type;
  const socketId = e.socketId;
  const time = e.time;
  if (!isCount(socketId) || !isTime(time)) return null;
  switch (type) {
    case 'opening': {
      const url = e.url;
      return isStr(url) ? { type, socketId, url, time } : null;
    }
    case 'open': {
      const url = e.url;
      const protocol = e.protocol;
      const extensions = e.extensions;
      return isStr(url) && isStr(protocol) && isStr(extensions)
        ? { type, socketId, url, protocol, extensions, time }
        : null;
    }
    case 'close': {
      const code = e.code;
      const reason = e.reason;
      const wasClean = e.wasClean;
      return isCount(code) && code <= 0xffff && isStr(reason) && typeof wasClean === 'boolean'
        ? { type, socketId, code, reason, wasClean, time }
        : null;
    }
    case 'error':
      return { type, socketId, time };
    case 'worker': {
      const kind = e.kind;
      const url = e.url;
      return (kind === 'dedicated' || kind === 'shared') && isStr(url) ? { type, socketId, kind, url, time } : null;
    }
    case 'hold': {
      const { direction, held, heldBytes, head, forwarded, dropped, lost, why } = e;
      if (direction !== 'sent' && direction !== 'received') return null;
      if (!isCount(held) || !isCount(heldBytes) || !isCount(head)) return null;
      if (!isCount(forwarded) || !isCount(dropped) || !isCount(lost)) return null;
      const ev = { type, socketId, time, direction, held, heldBytes, head, forwarded, dropped, lost } as const;
      if (why === undefined) return ev;
      return why === 'rules-cleared' || why === 'pagehide' || why === 'limit' || why === 'closed'
        ? { ...ev, why }
        : null;
    }
    default:
      return null;
  }
}

/**
 * `undefined`: not a capture message (someone else's postMessage; ignored, not counted).
 * `null`: tagged as ours but malformed (refused, counted as a lost batch).
 * `copyBytes` false: `bytes` is a view of the message's own buffer (for a caller that copies
 * them at once, in the same task, e.g. into a Blob); the table is always copied and checked.
 */
export function parseHookBatch(data: unknown, copyBytes = true): ParsedHookBatch | null | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.tag !== CAPTURE_TAG) return undefined;
  const seq = m.seq;
  const list = m.events;
  const droppedFrames = m.droppedFrames;
  const frameCount = m.frameCount;
  const frameTable = m.frameTable;
  const frameBytes = m.frameBytes;
  const used = m.frameBytesUsed;
  const framesBefore = m.framesBefore;
  const lostList = m.lostFrames;
  if (framesBefore !== undefined && !isCount(framesBefore)) return null;
  const lostFrames = lostList === undefined ? [] : parseLostRows(lostList);
  if (lostFrames === null) return null;
  if (m.type !== 'hook-batch' || !isCount(seq) || seq < 1 || !Array.isArray(list)) return null;
  if (droppedFrames !== undefined && !isCount(droppedFrames)) return null;
  if (!isCount(frameCount) || !isCount(used)) return null;
  const tableBytes = frameCount * FRAME_ROW_BYTES;
  if (liveByteLength(frameTable) < tableBytes || liveByteLength(frameBytes) < used) return null;
  const table = new Float64Array(copyOut(frameTable as ArrayBuffer, tableBytes).buffer, 0, frameCount * FRAME_COLUMNS);
  if (!checkFrameTable(table, frameCount, used)) return null;
  const length = list.length;
  const events: BatchEvent[] = new Array<BatchEvent>(length);
  let last = 0;
  for (let i = 0; i < length; i++) {
    const item = list[i] as Record<string, unknown> | null;
    const at = typeof item === 'object' && item !== null ? item.at : undefined;
    if (!isCount(at) || at < last || at > frameCount) return null;
    const ev = parseEvent(item);
    if (ev === null) return null;
    events[i] = { ...ev, at };
    last = at;
  }
  const bytes = copyBytes
    ? copyOut(frameBytes as ArrayBuffer, used)
    : new Uint8Array(frameBytes as ArrayBuffer, 0, used);
  return { seq, events, frameCount, table, bytes, droppedFrames: droppedFrames ?? 0, framesBefore, lostFrames };
}

/**
 * The first `length` bytes of the page's buffer, copied in one call into the relay's own
 * memory: the page cannot change them once checked, and in Firefox everything after reads
 * relay-owned arrays, not wrappers of the page's (whose `subarray`/`slice` would have to
 * reach through the wrapper for `constructor`, which the Xray refuses).
 */
function copyOut(buffer: ArrayBuffer, length: number): Uint8Array {
  const own = new Uint8Array(length);
  if (length > 0) own.set(new Uint8Array(buffer, 0, length));
  return own;
}
