/**
 * What the extension asks the hook to do with a frame, on the hook's private channel (only
 * the relay holds its far end; the page cannot post there):
 * - `send`: the bytes go out on the socket through the native `send` captured at install, so
 *   a page that replaced `WebSocket.prototype.send` later neither sees nor blocks them;
 * - `deliver`: the page's `onmessage` and `message` listeners get a MessageEvent from the
 *   socket whose `data` is what its `binaryType` asks for (a Blob or an ArrayBuffer; text as
 *   a string), built and dispatched with the natives captured at install.
 * Either is recorded like any frame, flagged FRAME_WIRESCOPE, so the panel marks it. A socket
 * that is not open does nothing and says so.
 */
import {
  FRAME_BINARY,
  FRAME_RECEIVED,
  FRAME_WIRESCOPE,
  type HookAction,
  type HookActionResult,
} from '../shared/messages.js';
import type { Natives } from './natives.js';
import type { Recorder } from './recorder.js';
import type { SocketState } from './socket-state.js';

/** A socket the hook observes, by its id (kept until it closes). */
export interface ObservedSocket {
  readonly ws: WebSocket;
  readonly state: SocketState;
}

const MAX_ACTION_BYTES = 64 << 20;

/** The message as a HookAction, or null when it is not one (checked field by field). */
export function parseHookAction(n: Natives, m: unknown): HookAction | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== 'hook-action') return null;
  const { requestId, action, socketId, binary, bytes } = o;
  if (typeof requestId !== 'number' || !Number.isSafeInteger(requestId)) return null;
  if (action !== 'send' && action !== 'deliver') return null;
  if (typeof socketId !== 'number' || !Number.isSafeInteger(socketId) || socketId < 1) return null;
  if (typeof binary !== 'boolean' || n.bufferLength(bytes) < 0) return null;
  return { type: 'hook-action', requestId, action, socketId, binary, bytes: bytes as ArrayBuffer };
}

export function runHookAction(
  n: Natives,
  rec: Recorder,
  socket: ObservedSocket | undefined,
  action: HookAction,
  io: {
    /** The native `send`, captured at install. */
    readonly send: (ws: unknown, data: unknown) => void;
    /** Dispatches `event` on `ws` (the hook's own listeners let it pass unrecorded). */
    readonly dispatch: (ws: WebSocket, event: Event) => void;
  },
): HookActionResult {
  const done = (ok: boolean, error?: string): HookActionResult =>
    error === undefined
      ? { type: 'hook-action-result', requestId: action.requestId, ok }
      : { type: 'hook-action-result', requestId: action.requestId, ok, error };
  if (socket === undefined) return done(false, 'the socket is closed (or its page was left)');
  const length = n.abLength(action.bytes);
  if (length > MAX_ACTION_BYTES) return done(false, `too large: ${length} bytes`);
  const state = n.readyState(socket.ws);
  if (state !== n.OPEN) return done(false, state === 0 ? 'the socket is not open yet' : 'the socket is closed');
  const bytes = n.bytesOf(action.bytes, 0, length);
  const time = n.now();
  if (action.action === 'send') {
    const data = action.binary ? bytes : n.decode(bytes);
    try {
      io.send(socket.ws, data);
    } catch (e) {
      return done(false, `send failed: ${String(e)}`);
    }
    if (action.binary) rec.binary(socket.state, FRAME_BINARY | FRAME_WIRESCOPE, time, bytes, length);
    else rec.text(socket.state, FRAME_WIRESCOPE, time, data as string);
    return done(true);
  }
  let data: unknown;
  if (!action.binary) data = n.decode(bytes);
  else if (n.binaryType(socket.ws) === 'arraybuffer') data = n.copyBytes(bytes);
  else data = n.newBlob(bytes);
  const event = n.messageEvent(data, n.originOf(n.url(socket.ws)));
  // Recorded first: a listener that throws or sends from inside the dispatch comes after it.
  if (action.binary) rec.binary(socket.state, FRAME_RECEIVED | FRAME_BINARY | FRAME_WIRESCOPE, time, bytes, length);
  else rec.text(socket.state, FRAME_RECEIVED | FRAME_WIRESCOPE, time, data as string);
  try {
    io.dispatch(socket.ws, event);
  } catch (e) {
    return done(false, `delivered, but a listener threw: ${String(e)}`);
  }
  return done(true);
}
