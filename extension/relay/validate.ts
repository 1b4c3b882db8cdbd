/**
 * Shape checks for what arrives on the window: anything in the page can post a message
 * with the capture tag, so every field is checked and copied into a fresh event (each field
 * read once). ArrayBuffers are recognised by the built-in getter's brand check, which also
 * accepts a buffer from another compartment (Firefox hands the relay Xray-wrapped objects).
 */
import { CAPTURE_TAG, type HookEvent } from '../shared/messages.js';

export interface ParsedHookBatch {
  readonly seq: number;
  readonly events: HookEvent[];
  /** The hook's cumulative count of dropped frames (0 when absent). */
  readonly droppedFrames: number;
}

const abProto = ArrayBuffer.prototype;
const abByteLength = Object.getOwnPropertyDescriptor(abProto, 'byteLength')?.get;
const abDetached = Object.getOwnPropertyDescriptor(abProto, 'detached')?.get;

/** A live (not detached) ArrayBuffer, from any realm; SharedArrayBuffers are refused. */
export function isLiveArrayBuffer(v: unknown): v is ArrayBuffer {
  if (typeof v !== 'object' || v === null || !abByteLength) return false;
  try {
    Reflect.apply(abByteLength, v, []);
    return !(abDetached && Reflect.apply(abDetached, v, []));
  } catch {
    return false;
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function parseEvent(v: unknown): HookEvent | null {
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
      return isStr(url) && isStr(protocol) && isStr(extensions) ? { type, socketId, url, protocol, extensions, time } : null;
    }
    case 'frame': {
      const direction = e.direction;
      const opcode = e.opcode;
      const data = e.data;
      if (direction !== 'sent' && direction !== 'received') return null;
      if (opcode !== 'text' && opcode !== 'binary') return null;
      return isLiveArrayBuffer(data) ? { type, socketId, direction, opcode, time, data } : null;
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
    default:
      return null;
  }
}

/**
 * `undefined`: not a capture message (someone else's postMessage; ignored, not counted).
 * `null`: tagged as ours but malformed (refused, counted as a lost batch).
 */
export function parseHookBatch(data: unknown): ParsedHookBatch | null | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.tag !== CAPTURE_TAG) return undefined;
  const seq = m.seq;
  const list = m.events;
  const droppedFrames = m.droppedFrames;
  if (m.type !== 'hook-batch' || !isCount(seq) || seq < 1 || !Array.isArray(list)) return null;
  if (droppedFrames !== undefined && !isCount(droppedFrames)) return null;
  const length = list.length;
  const events: HookEvent[] = new Array<HookEvent>(length);
  for (let i = 0; i < length; i++) {
    const ev = parseEvent(list[i]);
    if (ev === null) return null;
    events[i] = ev;
  }
  return { seq, events, droppedFrames: droppedFrames ?? 0 };
}
