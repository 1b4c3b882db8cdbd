/**
 * The standalone inspector's host: the app asks it to open ws:// / wss:// connections and
 * send frames; it reports connection events and every frame both ways through the app's
 * `Transport` seam. The environment (WebSocket class, clock, timers) is passed in, so it
 * runs unchanged in a page, a worker, Node with `ws`, and tests with a fake socket.
 *
 * Frames are batched: one `frames` message per `flushMs` (10k frames/s become ~60
 * messages/s, each one React render at most). Everything the app sees keeps arrival order:
 * a connection event waits behind frames still in the batch, and a Blob frame (a server
 * or polyfill ignoring `binaryType`) holds its place while its bytes are read.
 */
import {
  PROTOCOL_VERSION,
  type AppMessage,
  type HostMessage,
  type Opcode,
  type WireFrame,
} from '../protocol/messages.js';
import type { Transport } from '../protocol/transport.js';
import { decodeUtf8, findInvalidUtf8 } from '../../../codecs/core/utf8.js';

/** The parts of a WebSocket this host uses; the DOM's `WebSocket` and `ws`'s both fit. */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly protocol: string;
  readonly extensions: string;
  send(data: string | Uint8Array<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (event: { readonly data: unknown }) => void): void;
  addEventListener(
    type: 'close',
    listener: (event: { readonly code: number; readonly reason: string; readonly wasClean: boolean }) => void,
  ): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
}

export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WebSocketLike;

export interface WebSocketTransportOptions {
  /** Default: `globalThis.WebSocket` (absent in Node 20: connecting then reports an error). */
  readonly WebSocketImpl?: WebSocketConstructor;
  /** Wall-clock ms since the epoch; default `performance.timeOrigin + performance.now()` (sub-ms). */
  readonly now?: () => number;
  /** How long frames gather into one `frames` message; default 16 ms (one display frame). */
  readonly flushMs?: number;
  readonly setTimer?: (callback: () => void, ms: number) => unknown;
  readonly clearTimer?: (handle: unknown) => void;
  /** The name in the `hello` message; default 'web'. */
  readonly hostName?: string;
}

export type WebSocketTransport = Transport & { close(): void };

const OPEN = 1; // WebSocket.OPEN; fakes and `ws` may not carry the static

/** One place in the ordered outbox: a frame, a connection event, or a Blob still being read. */
interface Slot {
  ready: boolean;
  frame?: WireFrame;
  message?: HostMessage;
}

export function createWebSocketTransport(options: WebSocketTransportOptions = {}): WebSocketTransport {
  const WebSocketImpl = options.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const flushMs = options.flushMs ?? 16;
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const hostName = options.hostName ?? 'web';

  const handlers = new Set<(message: HostMessage) => void>();
  const backlog: HostMessage[] = []; // host messages from before the app listened
  const sockets = new Map<string, WebSocketLike>();
  let outbox: Slot[] = [];
  let timer: unknown;
  let timerSet = false;
  let nextId = 1;
  let closed = false;
  let draining = false;

  function deliver(message: HostMessage): void {
    if (handlers.size === 0) backlog.push(message);
    else for (const handler of handlers) handler(message);
  }

  /**
   * Delivers the ready prefix of the outbox: consecutive frames as one `frames` message.
   * Handlers may call `send` while this runs (answering `connection-opened` with a frame);
   * what that adds is delivered by the running loop, after what was already taken.
   */
  function drain(): void {
    if (draining) return;
    draining = true;
    try {
      while (outbox.length > 0 && outbox[0].ready) {
        let end = 1;
        while (end < outbox.length && outbox[end].ready) end++;
        const slots = outbox.slice(0, end);
        outbox = outbox.slice(end);
        let batch: WireFrame[] = [];
        for (const slot of slots) {
          if (slot.frame) batch.push(slot.frame);
          else if (slot.message) {
            if (batch.length) deliver({ type: 'frames', frames: batch });
            batch = [];
            deliver(slot.message);
          }
        }
        if (batch.length) deliver({ type: 'frames', frames: batch });
      }
    } finally {
      draining = false;
    }
  }

  function scheduleFlush(): void {
    if (timerSet || closed) return;
    timerSet = true;
    timer = setTimer(() => {
      timerSet = false;
      drain();
    }, flushMs);
  }

  function pushFrame(frame: WireFrame): void {
    outbox.push({ ready: true, frame });
    scheduleFlush();
  }

  /** Connection events are rare and the UI shows them at once, after the frames before them. */
  function pushMessage(message: HostMessage): void {
    outbox.push({ ready: true, message });
    drain();
  }

  const errorMessage = (connectionId: string, message: string): HostMessage => ({
    type: 'connection-error',
    connectionId,
    message,
    time: now(),
  });

  function connect(url: string, protocols: readonly string[]): void {
    const connectionId = `ws-${nextId++}`;
    const problem = urlProblem(url);
    if (problem) return pushMessage(errorMessage(connectionId, problem));
    if (!WebSocketImpl) return pushMessage(errorMessage(connectionId, 'this environment has no WebSocket'));
    pushMessage({ type: 'connection-opening', connectionId, url, time: now() });
    let socket: WebSocketLike;
    try {
      socket = new WebSocketImpl(url, [...protocols]);
    } catch (e) {
      // e.g. SyntaxError for a repeated or malformed subprotocol name
      return pushMessage(errorMessage(connectionId, `could not open the connection: ${(e as Error).message}`));
    }
    socket.binaryType = 'arraybuffer';
    sockets.set(connectionId, socket);
    socket.addEventListener('open', () => {
      if (closed) return;
      pushMessage({
        type: 'connection-opened',
        connectionId,
        url,
        protocol: socket.protocol ?? '',
        extensions: socket.extensions ?? '',
        time: now(),
      });
    });
    socket.addEventListener('message', (event) => {
      if (!closed) receive(connectionId, event.data);
    });
    socket.addEventListener('error', () => {
      // Browsers give no reason (on purpose, RFC 6455 §10.7 / the WebSocket spec); the close event follows.
      if (!closed)
        pushMessage(
          errorMessage(connectionId, 'the connection failed (the browser gives no details; see the close code)'),
        );
    });
    socket.addEventListener('close', (event) => {
      if (closed) return;
      sockets.delete(connectionId);
      pushMessage({
        type: 'connection-closed',
        connectionId,
        code: event.code ?? 1006,
        reason: event.reason ?? '',
        wasClean: event.wasClean ?? false,
        time: now(),
      });
    });
  }

  function receive(connectionId: string, data: unknown): void {
    const time = now();
    const frame = (opcode: Opcode, bytes: Uint8Array): WireFrame => ({
      connectionId,
      direction: 'received',
      time,
      opcode,
      data: bytes,
    });
    if (typeof data === 'string') return pushFrame(frame('text', new TextEncoder().encode(data)));
    if (data instanceof ArrayBuffer) return pushFrame(frame('binary', new Uint8Array(data)));
    // Node's `ws` hands out Buffers that may share a pooled ArrayBuffer: copy the view.
    if (ArrayBuffer.isView(data))
      return pushFrame(frame('binary', new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice()));
    if (isBlobLike(data)) {
      const slot: Slot = { ready: false };
      outbox.push(slot);
      data
        .arrayBuffer()
        .then(
          (buffer) => Object.assign(slot, { frame: frame('binary', new Uint8Array(buffer)) }),
          (e: unknown) =>
            Object.assign(slot, {
              message: {
                type: 'dropped',
                count: 1,
                reason: `a Blob frame on ${connectionId} could not be read: ${String(e)}`,
              },
            }),
        )
        .finally(() => {
          slot.ready = true;
          scheduleFlush();
        });
      return;
    }
    pushMessage({
      type: 'dropped',
      count: 1,
      reason: `a frame on ${connectionId} carried data of an unknown kind (${typeof data})`,
    });
  }

  /** Sends on the connection and records what was sent; why not, when nothing was sent. */
  function sendFrame(connectionId: string, opcode: Opcode, data: Uint8Array): string | null {
    const socket = sockets.get(connectionId);
    // A closing socket discards sends silently (WebSocket spec): check first so nothing is recorded as sent that was not.
    if (!socket || socket.readyState !== OPEN) return 'frame not sent: the connection is not open';
    if (opcode === 'text') {
      const bad = findInvalidUtf8(data, 0, data.length);
      if (bad >= 0) return `frame not sent: a text frame must be valid UTF-8 (invalid byte at offset ${bad})`;
    }
    // A copy: the app may reuse its buffer after send() returns (and the DOM's send() wants
    // a view of a plain ArrayBuffer, which a copy always is). The copy is what is recorded.
    const bytes = data.slice();
    const time = now();
    try {
      socket.send(opcode === 'text' ? decodeUtf8(bytes, 0, bytes.length) : bytes);
    } catch (e) {
      return `frame not sent: ${(e as Error).message}`;
    }
    pushFrame({ connectionId, direction: 'sent', time, opcode, data: bytes });
    return null;
  }

  /** Send again, Edit and send, Compose: a send answered with its outcome (this host has no page to deliver to). */
  function frameAction(message: Extract<AppMessage, { type: 'frame-action' }>): void {
    const error =
      message.action === 'send'
        ? sendFrame(message.connectionId, message.opcode, message.data)
        : 'the inspector has no page to deliver to';
    pushMessage(
      error === null
        ? { type: 'frame-action-result', requestId: message.requestId, ok: true }
        : { type: 'frame-action-result', requestId: message.requestId, ok: false, error },
    );
  }

  function disconnect(connectionId: string, code: number | undefined, reason: string | undefined): void {
    const socket = sockets.get(connectionId);
    if (!socket) return pushMessage(errorMessage(connectionId, 'not connected'));
    try {
      if (code === undefined) socket.close();
      else socket.close(code, reason ?? '');
    } catch (e) {
      // e.g. InvalidAccessError: only 1000 and 3000–4999 may be sent; SyntaxError: reason over 123 bytes
      pushMessage(errorMessage(connectionId, `could not close: ${(e as Error).message}`));
    }
  }

  return {
    listen(handler) {
      handlers.add(handler);
      // Each listener starts with the handshake, then whatever happened before anyone listened.
      handler({ type: 'hello', protocolVersion: PROTOCOL_VERSION, host: hostName });
      for (const message of backlog.splice(0)) handler(message);
      return () => void handlers.delete(handler);
    },
    send(message: AppMessage) {
      if (closed) return;
      switch (message.type) {
        case 'connect':
          return connect(message.url, message.protocols);
        case 'send-frame': {
          const error = sendFrame(message.connectionId, message.opcode, message.data);
          if (error !== null) pushMessage(errorMessage(message.connectionId, error));
          return;
        }
        case 'frame-action':
          return frameAction(message);
        case 'disconnect':
          return disconnect(message.connectionId, message.code, message.reason);
        case 'hello':
          return;
      }
    },
    close() {
      if (closed) return;
      drain();
      closed = true;
      if (timerSet) clearTimer(timer);
      timerSet = false;
      for (const socket of sockets.values()) {
        try {
          socket.close(1000, 'inspector closed');
        } catch {
          // already closing: nothing to do
        }
      }
      sockets.clear();
      handlers.clear();
    },
  };
}

/** Why `url` cannot be opened, or null. Checked here so the app gets a sentence, not a SyntaxError. */
export function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not a valid URL: ${JSON.stringify(url)}`;
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:')
    return `a WebSocket URL starts with ws:// or wss://, not ${parsed.protocol}//`;
  // The WebSocket constructor throws on any fragment, even an empty one (`ws://host/#`).
  if (url.includes('#')) return 'a WebSocket URL cannot have a #fragment';
  return null;
}

function isBlobLike(data: unknown): data is { arrayBuffer(): Promise<ArrayBuffer> } {
  return (
    typeof data === 'object' && data !== null && typeof (data as { arrayBuffer?: unknown }).arrayBuffer === 'function'
  );
}
