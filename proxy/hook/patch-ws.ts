/**
 * Captures the `ws` package's sockets, client and server: when a module loads whose exports
 * are ws's WebSocket class (or WebSocketServer), its prototype's `emit` and `send` are
 * wrapped once. The wrappers call the originals with the same arguments and return what
 * they return, so the app sees the same API, errors and timing.
 *
 * Sent fragments (`send(chunk, { fin: false })`) gather into one message, as the peer
 * receives it. Directions are this process's: 'sent' is what this socket sent.
 */
import { createRequire } from 'node:module';
import type { Tap } from './tap.js';
import { bytesOf } from './tap.js';

const HOOKED = Symbol.for('wirescope.hooked');
const STATE = Symbol.for('wirescope.state');

interface SocketState {
  id: string;
  opened: boolean;
  url: string;
  fragments: Uint8Array[] | null;
  fragmentOpcode: 'text' | 'binary';
}

type Proto = Record<string | symbol, unknown> & {
  emit: (event: string, ...args: unknown[]) => boolean;
  send: (data: unknown, options?: unknown, cb?: unknown) => void;
};
type WsLike = Record<string | symbol, unknown> & {
  readyState: number;
  protocol: string;
  extensions: string;
  url?: string;
};

export function hookWsModules(tap: Tap): void {
  const require = createRequire(import.meta.url);
  const Module = require('node:module') as { _load: (...args: unknown[]) => unknown };
  const load = Module._load;
  hookUpgradeRequests(require);
  Module._load = function hookedLoad(this: unknown, ...args: unknown[]) {
    const exports = load.apply(this, args);
    try {
      inspectExports(exports, tap);
    } catch {
      // never break a require
    }
    return exports;
  };
}

function inspectExports(exports: unknown, tap: Tap): void {
  if (typeof exports !== 'function') return;
  const proto = (exports as { prototype?: Proto }).prototype;
  if (!proto || proto[HOOKED]) return;
  const ctor = exports as unknown as Record<string, unknown>;
  if (typeof proto.setSocket === 'function' && typeof proto.send === 'function' && ctor.CONNECTING === 0) {
    proto[HOOKED] = true;
    patchWebSocket(proto, tap);
  }
}

function stateOf(ws: WsLike, tap: Tap): SocketState {
  let state = ws[STATE] as SocketState | undefined;
  if (!state) {
    state = { id: tap.newId(), opened: false, url: '', fragments: null, fragmentOpcode: 'binary' };
    ws[STATE] = state;
  }
  return state;
}

function open(ws: WsLike, tap: Tap, url: string): void {
  const state = stateOf(ws, tap);
  if (state.opened) return;
  state.opened = true;
  state.url = url;
  tap.opened(state.id, url, ws.protocol ?? '', ws.extensions ?? '');
}

function patchWebSocket(proto: Proto, tap: Tap): void {
  const emit = proto.emit;
  const send = proto.send;
  // `arguments`, not a rest parameter: no array made for the events the hook does not read.
  proto.emit = function hookedEmit(this: WsLike, event: string) {
    // biome-ignore lint/complexity/noArguments: passed on as they came
    const args = arguments;
    if (event === 'message' || event === 'open' || event === 'close') {
      try {
        if (event === 'open') open(this, tap, this._isServer ? serverSocketUrl(this) : String(this.url ?? ''));
        else if (event === 'message') {
          const state = stateOf(this, tap);
          const bytes = bytesOf(args[1]);
          if (state.opened && bytes) tap.message(state.id, 'received', args[2] ? 'binary' : 'text', bytes);
        } else {
          const state = stateOf(this, tap);
          if (state.opened) {
            const code = Number(args[1]);
            tap.closed(state.id, code, String(args[2] ?? ''), code !== 1006);
          }
        }
      } catch {
        // recording never breaks the app
      }
    }
    return emit.apply(this, args as unknown as [string, ...unknown[]]);
  };
  proto.send = function hookedSend(this: WsLike, data: unknown, options?: unknown, cb?: unknown) {
    try {
      const state = this.readyState === 1 ? stateOf(this, tap) : null;
      if (state?.opened) recordSend(state, data, typeof options === 'object' && options ? options : {}, tap);
    } catch {
      // recording never breaks the app
    }
    return send.call(this, data, options, cb);
  };
}

function recordSend(state: SocketState, data: unknown, options: { binary?: boolean; fin?: boolean }, tap: Tap): void {
  const bytes = bytesOf(typeof data === 'number' ? String(data) : data);
  if (!bytes) return;
  const binary = options.binary ?? typeof data !== 'string';
  if (state.fragments === null) state.fragmentOpcode = binary ? 'binary' : 'text';
  if (options.fin === false) {
    (state.fragments ??= []).push(Buffer.from(bytes)); // a copy: the app may reuse its buffer before the last fragment
    return;
  }
  const opcode = state.fragmentOpcode;
  const whole = state.fragments ? Buffer.concat([...state.fragments, bytes]) : bytes;
  state.fragments = null;
  tap.message(state.id, 'sent', opcode, whole);
}

/**
 * A server socket's URL is its upgrade request's: every HTTP(S) server's 'upgrade' event is
 * noted (socket → request), and a server-side ws socket looks its TCP socket up on 'open'.
 */
const upgradeRequests = new WeakMap<object, { url?: string; headers?: Record<string, unknown> }>();

function hookUpgradeRequests(require: NodeJS.Require): void {
  for (const name of ['node:http', 'node:https']) {
    const proto = (require(name) as { Server: { prototype: Proto } }).Server.prototype;
    if (proto[HOOKED]) continue;
    proto[HOOKED] = true;
    const emit = proto.emit;
    const scheme = name === 'node:https' ? 'wss' : 'ws';
    proto.emit = function hookedServerEmit(this: unknown, event: string, ...args: unknown[]) {
      if (event === 'upgrade' && args[0] && args[1]) {
        const req = args[0] as { url?: string; headers?: Record<string, unknown> };
        upgradeRequests.set(args[1] as object, {
          url: `${scheme}://${String(req.headers?.host ?? 'localhost')}${req.url ?? '/'}`,
        });
      }
      return emit.call(this, event, ...args);
    };
  }
}

function serverSocketUrl(ws: WsLike): string {
  const socket = ws._socket as object | undefined;
  const url = socket ? upgradeRequests.get(socket)?.url : undefined;
  return `${url ?? 'ws://unknown'} (server side)`;
}
