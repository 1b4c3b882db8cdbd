import type { SpanIndex } from '../core/span-index.js';
import { socketIoPacket } from './socketio-walker.js';
import { recognizeProtocol, type ProtocolInfo } from './recognize.js';

/**
 * Which Engine.IO protocol a connection speaks: 3 (socket.io 2.x, Socket.IO protocol v4) or
 * 4 (socket.io 3 and later, Socket.IO protocol v5). The URL says so when it is known
 * (`/socket.io/?EIO=3&transport=websocket`); over a WebSocket the traffic says so too:
 * - in v3 the client pings and the server pongs; in v4 the server pings (`2` / `3`);
 * - in socket.io 2.x the server connects the default namespace unasked with a bare `40`
 *   (`40/admin,` for another); from 3.0 the client asks (`40`) and the server answers with
 *   the namespace's sid (`40{"sid":"…"}`);
 * - socket.io 2.x's ERROR carries a string (`44"Not authorized"`), 3.0's CONNECT_ERROR an object.
 * (`2probe` / `3probe` are the upgrade probe, the same in both.)
 */
export type EngineIoVersion = 3 | 4;

export interface VersionEvidence {
  readonly version: EngineIoVersion;
  /** What showed it, in words for the frame detail. */
  readonly reason: string;
}

/** The `EIO` query parameter of a connection URL, or null. */
export function engineIoVersionFromUrl(url: string): EngineIoVersion | null {
  const m = /[?&]EIO=(\d+)(?:&|#|$)/.exec(url);
  if (!m) return null;
  return m[1] === '3' ? 3 : m[1] === '4' ? 4 : null;
}

/** The version one decoded frame shows, given who sent it (`sent`: the client), or null. */
export function engineIoVersionEvidence(
  index: SpanIndex,
  format: string | null,
  direction: 'sent' | 'received',
): VersionEvidence | null {
  if (format !== 'socketio' || index.error || !socketIoPacket(index)) return null;
  return versionEvidence(recognizeProtocol(index, format), index.bytes, direction);
}

/**
 * The same from a text frame's recognized protocol and its bytes (what the worker holds as
 * frames arrive). Text frames only: socket.io-msgpack-parser's binary packets say nothing here.
 */
export function versionEvidence(
  info: ProtocolInfo | null,
  bytes: Uint8Array,
  direction: 'sent' | 'received',
): VersionEvidence | null {
  if (!info) return null;
  if (info.protocol === 'engine.io' && info.message === 'ping' && bytes.length === 1) {
    return direction === 'sent'
      ? { version: 3, reason: 'the client pings (Engine.IO v3)' }
      : { version: 4, reason: 'the server pings (Engine.IO v4)' };
  }
  if (info.protocol !== 'socket.io') return null;
  if (info.message === 'ERROR') return { version: 3, reason: 'ERROR with a string payload (socket.io 2.x)' };
  if (info.message !== 'CONNECT') return null;
  const last = bytes[bytes.length - 1];
  const hasPayload = last === 0x7d || last === 0x5d;
  if (direction === 'received') {
    return hasPayload
      ? { version: 4, reason: 'the server answers CONNECT with a sid (socket.io 3 or later)' }
      : { version: 3, reason: 'the server sends CONNECT without a sid (socket.io 2.x)' };
  }
  // socket.io 2.x clients never ask for the default namespace: the server connects it.
  if (info.event === undefined)
    return { version: 4, reason: 'the client asks to CONNECT the default namespace (socket.io 3 or later)' };
  return null;
}
