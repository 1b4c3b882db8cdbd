/**
 * The live feed: connection events and frames as JSON text messages, so a proxy can stream
 * what it sees to an inspector page (and a hooked Node process to a proxy). Frames carry
 * their bytes as base64. Pure TS: the proxy (Node) and the page both use it.
 *
 * Every decoded message is checked by shape; one that is not a feed message is reported,
 * never thrown.
 */
import type { Direction, Opcode, WireFrame } from './types.js';
import type {
  ConnectionClosed,
  ConnectionError,
  ConnectionOpened,
  ConnectionOpening,
  FramesArrived,
  FramesDropped,
} from './connection-events.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';

export type LiveEvent =
  | ConnectionOpening
  | ConnectionOpened
  | FramesArrived
  | ConnectionClosed
  | ConnectionError
  | FramesDropped;

interface FrameOnFeed {
  readonly c: string;
  readonly d: 's' | 'r';
  readonly t: number;
  readonly o: 't' | 'b';
  readonly b64: string;
}

export function encodeLiveEvent(event: LiveEvent): string {
  if (event.type !== 'frames') return JSON.stringify(event);
  const frames: FrameOnFeed[] = event.frames.map((f) => ({
    c: f.connectionId,
    d: f.direction === 'sent' ? 's' : 'r',
    t: f.time,
    o: f.opcode === 'text' ? 't' : 'b',
    b64: encodeBase64(f.data),
  }));
  return JSON.stringify({ type: 'frames', frames });
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The event in one feed message, or what is wrong with the message. */
export function decodeLiveEvent(text: string): LiveEvent | { readonly error: string } {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    return { error: `feed message is not JSON (${(e as Error).message})` };
  }
  if (!isObject(m)) return { error: 'feed message is not an object' };
  switch (m.type) {
    case 'connection-opening':
      if (isString(m.connectionId) && isString(m.url) && isNumber(m.time))
        return { type: m.type, connectionId: m.connectionId, url: m.url, time: m.time };
      break;
    case 'connection-opened':
      if (
        isString(m.connectionId) &&
        isString(m.url) &&
        isString(m.protocol) &&
        isString(m.extensions) &&
        isNumber(m.time)
      )
        return {
          type: m.type,
          connectionId: m.connectionId,
          url: m.url,
          protocol: m.protocol,
          extensions: m.extensions,
          ...(m.extensionsRecorded === true ? { extensionsRecorded: true } : {}),
          ...(isString(m.upstreamExtensions) ? { upstreamExtensions: m.upstreamExtensions } : {}),
          time: m.time,
        };
      break;
    case 'connection-closed':
      if (isString(m.connectionId) && isNumber(m.code) && isString(m.reason) && isNumber(m.time))
        return {
          type: m.type,
          connectionId: m.connectionId,
          code: m.code,
          reason: m.reason,
          wasClean: m.wasClean === true,
          time: m.time,
        };
      break;
    case 'connection-error':
      if (isString(m.connectionId) && isString(m.message) && isNumber(m.time))
        return { type: m.type, connectionId: m.connectionId, message: m.message, time: m.time };
      break;
    case 'dropped':
      if (isNumber(m.count) && m.count >= 0 && isString(m.reason))
        return { type: m.type, count: m.count, reason: m.reason };
      break;
    case 'frames': {
      if (!Array.isArray(m.frames)) break;
      const frames: WireFrame[] = [];
      for (const [i, f] of m.frames.entries()) {
        const frame = readFrame(f);
        if (typeof frame === 'string') return { error: `frames[${i}]: ${frame}` };
        frames.push(frame);
      }
      return { type: 'frames', frames };
    }
  }
  return { error: `not a feed message of a known type and shape: ${JSON.stringify(m.type)}` };
}

function readFrame(f: unknown): WireFrame | string {
  if (!isObject(f)) return 'frame is not an object';
  if (
    !isString(f.c) ||
    (f.d !== 's' && f.d !== 'r') ||
    !isNumber(f.t) ||
    (f.o !== 't' && f.o !== 'b') ||
    !isString(f.b64)
  )
    return 'frame needs c, d ("s"/"r"), t, o ("t"/"b") and b64';
  const decoded = decodeBase64(f.b64);
  if (!decoded.ok) return `b64 is not valid base64: ${decoded.error} at character ${decoded.offset}`;
  const direction: Direction = f.d === 's' ? 'sent' : 'received';
  const opcode: Opcode = f.o === 't' ? 'text' : 'binary';
  return { connectionId: f.c, direction, time: f.t, opcode, data: decoded.bytes };
}
