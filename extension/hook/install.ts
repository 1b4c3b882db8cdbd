/**
 * The page hook: observes every WebSocket the page creates without the page noticing.
 *
 * - `window.WebSocket` becomes a Proxy of the native constructor with only a `construct`
 *   trap, so name, length, statics (CONNECTING…CLOSED), `prototype` (the same object),
 *   `Object.getPrototypeOf(WebSocket)`, own keys, subclassing (`class X extends WebSocket`)
 *   and calling without `new` (the native's own TypeError) are the native's. The trap builds
 *   the socket with `Reflect.construct` (URL/protocol errors propagate untouched) and adds
 *   the hook's listeners first, through the captured native `addEventListener`.
 * - `WebSocket.prototype.send` is replaced in place by a method named `send` with length 1,
 *   no `prototype`, not constructible, like the native's. It calls the native first and
 *   records only when that returned and the socket was OPEN.
 * - `Function.prototype.toString` answers for those two (and for itself) with the natives'
 *   text; everything else goes to the original.
 */
import { channelNames } from '../shared/channel.js';
import { FRAME_BINARY, FRAME_RECEIVED, type SocketEvent } from '../shared/messages.js';
import { Batcher } from './batcher.js';
import { parseHookAction, runHookAction, type ObservedSocket } from './actions.js';
import { openChannel } from './channel.js';
import { createIntercept, wrapGetter } from './intercept.js';
import { joinPeers } from './peers.js';
import { stackScrubber } from './stacks.js';
import {
  apply,
  captureNatives,
  construct,
  defineProperty,
  getOwnPropertyDescriptor,
  SafeMap,
  SafeWeakMap,
  uncurry,
  type Win,
} from './natives.js';
import { Recorder } from './recorder.js';
import type { SocketState } from './socket-state.js';
import type { HookHandle, HookOptions } from './types.js';

const INERT: HookHandle = {
  installed: false,
  flush() {},
  uninstall() {},
  stats: () => ({ sockets: 0, batchesPosted: 0, droppedFrames: 0, pendingBytes: 0 }),
};

/** Longest worker script URL reported (a data: URL can be megabytes); longer ones are cut, marked with '…'. */
const MAX_WORKER_URL = 4096;

const VIEW = 1;
const BUFFER = 2;
const BLOB = 3;
const PASS = 4;

export function installHook(win: Win = globalThis.window, options: HookOptions = {}): HookHandle {
  if (!win || typeof win.WebSocket !== 'function') return INERT;
  const names = channelNames(options.channelSecret ?? '');
  let n: ReturnType<typeof captureNatives>;
  try {
    n = captureNatives(win);
    // Installed already (all_frames, re-injection: a fresh copy of this module)?
    if (!n.probe(names.probe)) return INERT;
  } catch {
    return INERT;
  }
  const natives = n;
  // Batches go to the relay on a private MessageChannel, never on the window (channel.ts):
  // the page's own 'message' listeners see nothing, and nothing the page posts reaches the relay.
  let channel: ReturnType<typeof openChannel>;
  try {
    channel = openChannel(natives, names);
  } catch {
    channel = null;
  }
  if (channel === null) return INERT;
  const line = channel;
  const batcher = new Batcher(natives, {
    intervalMs: options.flushIntervalMs ?? 25,
    maxBatchBytes: options.maxBatchBytes ?? 256 << 10,
    maxBatchEvents: options.maxBatchEvents ?? 8192,
    floodIntervalMs: options.floodIntervalMs ?? 100,
    floodBatchBytes: Math.max(options.floodBatchBytes ?? 1 << 20, options.maxBatchBytes ?? 256 << 10),
    floodThresholdBytes: options.floodThresholdBytes ?? 64 << 10,
    transfer: options.transfer ?? true,
    post: (batch, transfer) => line.post(batch, transfer),
  });
  const rec = new Recorder(natives, batcher, options.maxPendingBytes ?? 64 << 20);
  const trustedOnly = options.trustedEventsOnly ?? true;
  const sockets = new SafeWeakMap<object, SocketState>();
  /** Sockets by id, for the extension's actions (hook/actions.ts); a socket leaves when it closes. */
  const byId = new SafeMap<number, ObservedSocket>();
  let nextId = 1;
  let active = true;
  const accept = (e: Event): boolean => active && (!trustedOnly || e.isTrusted);
  /** The event a "Deliver to page" is dispatching (recorded by the action, not again by the listener). */
  let delivering: Event | null = null;

  function received(s: SocketState, data: unknown, time: number): void {
    if (typeof data === 'string') return rec.text(s, FRAME_RECEIVED, time, data);
    const length = natives.bufferLength(data);
    if (length >= 0)
      rec.binary(s, FRAME_RECEIVED | FRAME_BINARY, time, natives.bytesOf(data as ArrayBuffer, 0, length), length);
    else if (natives.isBlob(data)) rec.blob(s, FRAME_RECEIVED | FRAME_BINARY, time, data as Blob);
  }

  function observe(ws: WebSocket): void {
    const s: SocketState = { id: nextId++, queue: [], head: 0, intercept: null };
    const socketId = s.id;
    sockets.set(ws, s);
    byId.set(socketId, { ws, state: s });
    rec.event(s, { type: 'opening', socketId, url: natives.url(ws), time: natives.now() });
    intercept.observe(ws, s);
    // Capture phase: the hook's listeners run before every page listener (an intercept rule stops a message there).
    const on = (type: string, fn: (e: Event, time: number) => SocketEvent | void): void =>
      natives.listen(
        ws,
        type,
        (e) => {
          if (!accept(e)) return;
          try {
            const ev = fn(e, natives.eventTime(e));
            if (ev) rec.event(s, ev);
          } catch {
            /* never throw into the page's event dispatch */
          }
        },
        true,
      );
    on('open', (_e, time) => ({
      type: 'open',
      socketId,
      url: natives.url(ws),
      protocol: natives.protocol(ws),
      extensions: natives.extensions(ws),
      time,
    }));
    on('message', (e, time) => {
      if (e === delivering) return;
      const data = natives.messageData(e);
      if (s.intercept !== null && intercept.received(s.intercept, e, data, time)) return;
      received(s, data, time);
    });
    on('error', (_e, time) => ({ type: 'error', socketId, time }));
    on(
      'close',
      (e, time) => (
        byId.delete(socketId),
        intercept.closed(s),
        {
          type: 'close',
          socketId,
          code: natives.closeCode(e),
          reason: natives.closeReason(e),
          wasClean: natives.closeWasClean(e),
          time,
        }
      ),
    );
  }

  function sent(s: SocketState, kind: number, data: unknown, text: string, length: number): void {
    const time = natives.now();
    if (kind === VIEW) {
      const bytes = natives.bytesOfView(data as ArrayBufferView);
      rec.binary(s, FRAME_BINARY, time, bytes, natives.byteLength(bytes));
    } else if (kind === BUFFER)
      rec.binary(s, FRAME_BINARY, time, natives.bytesOf(data as ArrayBuffer, 0, length), length);
    else if (kind === BLOB) rec.blob(s, FRAME_BINARY, time, data as Blob);
    else rec.text(s, 0, time, text);
  }

  // Related same-origin windows' hooks (peers.ts): a frame sent on one's socket through
  // another's `send` is recorded by the socket's own hook.
  const peers = joinPeers(natives, names.peers, {
    owns: (ws) => active && sockets.get(ws) !== undefined,
    send(ws, args) {
      if (!active || sockets.get(ws) === undefined) return false;
      hookedSend(ws, args);
      return true;
    },
  });

  const nativeSend = natives.send;
  const callSend = uncurry<void>(nativeSend);
  const OPEN = natives.OPEN;
  const scrub = stackScrubber();
  /** Dispatches an event wirescope made (Deliver to page, a forwarded held frame): the hook's listener lets it pass unrecorded. */
  function dispatchOwn(ws: WebSocket, event: Event): void {
    const outer = delivering;
    delivering = event;
    try {
      natives.dispatch(ws, event);
    } finally {
      delivering = outer;
    }
  }
  // Intercept rules (intercept.ts): a socket no rule applies to has `intercept` null.
  const intercept = createIntercept(natives, rec, { send: callSend, dispatch: dispatchOwn });
  /** What `ws.send(data)` does with the hook: the native send, then the frame recorded. */
  function hookedSend(self: unknown, args: unknown[]): void {
    const s = sockets.get(self);
    if (!active || args.length === 0 || s === undefined) {
      // Another window's socket: its own hook sends and records it (peers.ts).
      if (active && args.length > 0 && peers.send(self, args)) return;
      return apply(nativeSend, self, args) as void;
    }
    const data = args[0];
    let kind = 0;
    let text = '';
    let arg = data; // the native ignores further arguments, as WebIDL does
    let length = 0;
    const t = typeof data;
    if (t === 'string') text = data as string;
    else if ((t === 'object' && data !== null) || t === 'function') {
      if (natives.isView(data)) kind = VIEW;
      else if ((length = natives.bufferLength(data)) >= 0) kind = BUFFER;
      else if (natives.isShared(data)) kind = PASS;
      else if (natives.isBlob(data)) kind = BLOB;
      else {
        // The native would call the object's toString once (USVString); do it here, once,
        // and hand the native the string, so the page's conversion code runs only once.
        text = `${data as string}`;
        arg = text;
      }
    } else if (t === 'symbol') kind = PASS;
    else text = `${data as string}`;
    const state = natives.readyState(self as WebSocket); // after the conversion, like the native
    if (s.intercept !== null && state === OPEN && kind !== PASS && intercept.sent(s.intercept, arg)) return; // held or dropped by a rule
    callSend(self, arg); // CONNECTING: InvalidStateError, nothing recorded
    if (state !== OPEN || kind === PASS) return; // CLOSING/CLOSED: the native discards it
    try {
      sent(s, kind, data, text, length);
    } catch {
      /* the frame went out; recording must not throw into the page */
    }
  }
  // `send` is a Proxy of the native (apply trap only): name, length, no prototype, not
  // constructible are the native's own, and a clean realm's Function.prototype.toString
  // prints a native-code body for it, never the hook's source.
  const sendTraps: ProxyHandler<Function> = Object.create(null) as ProxyHandler<Function>;
  sendTraps.apply = (_target, self, args: unknown[]): void => {
    try {
      hookedSend(self, args);
    } catch (e) {
      throw scrub(e);
    }
  };
  const send = new Proxy(nativeSend, sendTraps);

  const handler: ProxyHandler<typeof WebSocket> = Object.create(null) as ProxyHandler<typeof WebSocket>;
  handler.construct = (target, args, newTarget): object => {
    let ws: WebSocket;
    try {
      ws = construct(target, args, newTarget) as WebSocket;
    } catch (e) {
      throw scrub(e); // a SyntaxError for a bad URL: the page's frames only
    }
    if (active) {
      try {
        observe(ws);
      } catch {
        /* the page gets its socket regardless */
      }
    }
    return ws;
  };
  const Hooked = new Proxy(natives.WS, handler);

  // Workers: their own sockets are out of reach, but the panel must not be silent about them.
  // `Worker` / `SharedWorker` become Proxies of the natives (construct trap only, as for
  // WebSocket) that report a `worker` event once the native constructed it.
  const workerState: SocketState = { id: 0, queue: [], head: 0, intercept: null };
  const workerProxies: [Function, object, Function, string][] = [];
  for (const [name, kind] of [
    ['Worker', 'dedicated'],
    ['SharedWorker', 'shared'],
  ] as const) {
    const Native = (win as unknown as Record<string, unknown>)[name] as Function;
    if (typeof Native !== 'function') continue;
    const h: ProxyHandler<Function> = Object.create(null) as ProxyHandler<Function>;
    h.construct = (target, args, newTarget): object => {
      let worker: object;
      try {
        worker = construct(target, args, newTarget) as object;
      } catch (e) {
        throw scrub(e);
      }
      if (active) {
        try {
          let url = natives.scriptUrl(args[0]);
          if (url.length > MAX_WORKER_URL) url = `${url.slice(0, MAX_WORKER_URL)}…`;
          rec.event(workerState, { type: 'worker', socketId: 0, kind, url, time: natives.now() });
        } catch {
          /* the page gets its worker regardless */
        }
      }
      return worker;
    };
    workerProxies[workerProxies.length] = [
      Native,
      (Native as { prototype: object }).prototype,
      new Proxy(Native, h) as unknown as Function,
      name,
    ];
  }

  const nativeToString = natives.fnToString;
  const masks = new SafeWeakMap<object, string>();
  // A Proxy of the native toString too (see `send`), answering for the hook's Proxies.
  const toStringTraps: ProxyHandler<Function> = Object.create(null) as ProxyHandler<Function>;
  toStringTraps.apply = (target, self, args: unknown[]): string => {
    const masked = masks.get(self);
    if (masked !== undefined) return masked;
    try {
      return apply(target, self, args) as string;
    } catch (e) {
      throw scrub(e); // toString called on a non-function: the native's TypeError, the page's frames
    }
  };
  const toString = new Proxy(nativeToString, toStringTraps);
  masks.set(Hooked, apply(nativeToString, natives.WS, []) as string);
  for (const [Native, , proxy] of workerProxies) masks.set(proxy, apply(nativeToString, Native, []) as string);
  masks.set(send, apply(nativeToString, nativeSend, []) as string);
  masks.set(toString, apply(nativeToString, nativeToString, []) as string);

  const patches: [object, PropertyKey, unknown][] = [
    [natives.fnProto, 'toString', toString],
    [natives.wsProto, 'send', send],
    [natives.wsProto, 'constructor', Hooked],
    [win, 'WebSocket', Hooked],
  ];
  for (const [, proto, proxy, name] of workerProxies) {
    patches[patches.length] = [proto, 'constructor', proxy];
    patches[patches.length] = [win, name, proxy];
  }
  const saved: [object, PropertyKey, PropertyDescriptor][] = [];
  const restore = (): void => {
    for (let i = saved.length - 1; i >= 0; i--) {
      const [obj, key, desc] = saved[i];
      const now = getOwnPropertyDescriptor(obj, key);
      if (now && now.value === patches[i][2]) defineProperty(obj, key, desc); // unless re-patched since
    }
  };
  for (const [obj, key, value] of patches) {
    const desc = getOwnPropertyDescriptor(obj, key);
    if (!desc || !('value' in desc) || !defineProperty(obj, key, { ...desc, value })) {
      restore();
      peers.leave();
      line.close();
      return INERT;
    }
    saved[saved.length] = [obj, key, desc];
  }
  // `bufferedAmount` counts the bytes of sent frames an intercept rule holds (a Proxy of the native getter).
  const bufferedGetter = getOwnPropertyDescriptor(natives.wsProto, 'bufferedAmount');
  let buffered: Function | null = null;
  if (bufferedGetter && typeof bufferedGetter.get === 'function') {
    const nativeGet = bufferedGetter.get;
    const getter = wrapGetter(
      nativeGet,
      (self, value) => {
        const s = sockets.get(self);
        return s !== undefined && s.intercept !== null ? (value as number) + s.intercept.sent.heldBytes : value;
      },
      scrub,
    );
    masks.set(getter, apply(nativeToString, nativeGet, []) as string);
    if (defineProperty(natives.wsProto, 'bufferedAmount', { ...bufferedGetter, get: getter as () => number }))
      buffered = getter;
  }
  const restoreBuffered = (): void => {
    const now = getOwnPropertyDescriptor(natives.wsProto, 'bufferedAmount');
    if (buffered !== null && bufferedGetter && now?.get === buffered)
      defineProperty(natives.wsProto, 'bufferedAmount', bufferedGetter);
  };
  // The page being left: held frames go first (sent ones before the socket closes).
  const onPageHide = (): void => intercept.releaseAll('pagehide');
  natives.listenWindow('pagehide', onPageHide);
  // The extension's actions and intercept rules come on the private channel only (the relay holds its far end).
  line.listen((data) => {
    if (!active) return;
    if (intercept.message(data, (result) => line.post(result, []))) return;
    const action = parseHookAction(natives, data);
    if (action === null) return;
    const result = runHookAction(natives, rec, byId.get(action.socketId), action, {
      send: callSend,
      dispatch: dispatchOwn,
    });
    try {
      line.post(result, []);
    } catch {
      /* the relay is gone: nobody to answer */
    }
  });
  const onProbe = (e: Event): void => natives.cancel(e);
  natives.listenWindow(names.probe, onProbe);

  return {
    installed: true,
    flush: () => batcher.flush(),
    uninstall(): void {
      if (!active) return;
      intercept.releaseAll('rules-cleared');
      batcher.flush();
      active = false;
      batcher.stop();
      restore();
      restoreBuffered();
      natives.unlistenWindow('pagehide', onPageHide);
      natives.unlistenWindow(names.probe, onProbe);
      peers.leave();
      line.close();
    },
    stats: () => ({
      sockets: nextId - 1,
      batchesPosted: batcher.posted,
      droppedFrames: batcher.dropped,
      pendingBytes: rec.pendingBytes(),
    }),
  };
}
