/**
 * Intercept rules on the page: Pause (the frame is held until the panel forwards, edits or
 * drops it), Drop, and Delay N ms, per socket and direction.
 *
 * Rules come from the extension on the private channel only (`hook-rules`); which rules can
 * apply to a socket (direction, URL pattern, socket ids) is worked out when the socket is
 * observed and when the rules change, so a socket no rule applies to has `intercept` null and
 * its frames pay one null check. A frame a rule matches is recorded as usual, flagged
 * FRAME_HELD or FRAME_DROPPED:
 * - received: the hook's `message` listener runs first (capture phase, registered in the
 *   construct trap), so it stops the trusted event before any page listener; Forward
 *   dispatches a MessageEvent built with the captured constructor (untrusted: `isTrusted` is
 *   false), which the hook's own listener lets pass;
 * - sent: the native `send` is not called; `send()` returns at once and `bufferedAmount`
 *   counts the held bytes; Forward calls the native `send` captured at install.
 * While frames of a socket wait in one direction, every later frame of that socket in that
 * direction waits behind them, in order. Nothing stays held for good: clearing the rules, the
 * relay going away, `pagehide`, or more than `maxHeldBytes` / `maxHeldFrames` held forwards
 * every held frame in order; a held sent frame whose socket closed is counted as lost and
 * reported (a held received frame is delivered before the page's close listeners run).
 * Every change is reported to the panel as a `hold` event in the capture batches.
 */
import {
  FRAME_BINARY,
  FRAME_DROPPED,
  FRAME_HELD,
  FRAME_RECEIVED,
  FRAME_WIRESCOPE,
  type Direction,
  type HoldReleaseWhy,
  type HookActionResult,
  type HookHoldAction,
  type HookRules,
} from '../shared/messages.js';
import { holdFields, parseRules } from '../shared/intercept-rules.js';
import { apply, type Natives, uncurry } from './natives.js';
import type { Recorder } from './recorder.js';
import type { Compiled, Held, Lane, SocketIntercept, SocketState } from './socket-state.js';

const indexOf = uncurry<number>(String.prototype.indexOf);
const slice = uncurry<string>(String.prototype.slice);
const mapForEach = uncurry<void>(Map.prototype.forEach);
const mapGet = uncurry(Map.prototype.get);
const mapSet = uncurry(Map.prototype.set);
const mapDelete = uncurry(Map.prototype.delete);

/**
 * A Proxy of a native accessor's getter (apply trap only, null-prototype handler: name,
 * length and the rest are the native's) whose value `adjust` may change.
 */
export function wrapGetter(
  native: Function,
  adjust: (self: unknown, value: unknown) => unknown,
  scrub: (e: unknown) => unknown,
): Function {
  const traps = Object.create(null) as ProxyHandler<Function>;
  traps.apply = (target, self, args: unknown[]): unknown => {
    let value: unknown;
    try {
      value = apply(target, self, args);
    } catch (e) {
      throw scrub(e); // an illegal invocation: the native's TypeError, the page's frames
    }
    return adjust(self, value);
  };
  return new Proxy(native, traps);
}

const PAUSE = 1;
const DELAY = 2;
/** Matched no rule, held only because frames before it wait. */
const FOLLOW = 3;

export interface InterceptIO {
  /** The native `send`, captured at install. */
  readonly send: (ws: unknown, data: unknown) => void;
  /** Dispatches `event` on `ws` (the hook's own listeners let it pass unrecorded). */
  readonly dispatch: (ws: WebSocket, event: Event) => void;
}

export interface InterceptLimits {
  readonly maxHeldBytes: number;
  readonly maxHeldFrames: number;
}

export interface Intercept {
  /** A new socket: which rules apply to it. */
  observe(ws: WebSocket, state: SocketState): void;
  /** A received frame on a socket with `state.intercept` set: true when the rule took it (the event is stopped). */
  received(si: SocketIntercept, e: Event, data: unknown, time: number): boolean;
  /** `send(arg)` on an OPEN socket with `state.intercept` set (`arg` as the native gets it): true when held or dropped (the native is not called). */
  sent(si: SocketIntercept, arg: unknown): boolean;
  /** The socket closed: received frames still held are delivered, sent ones counted as lost. */
  closed(state: SocketState): void;
  /** Parses and applies a message from the relay: true when it was one of the intercept's. */
  message(data: unknown, reply: (result: HookActionResult) => void): boolean;
  /** Forwards every held frame, in order. */
  releaseAll(why: HoldReleaseWhy): void;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The message as HookRules, or null (checked field by field; copies only). */
export function parseHookRules(m: unknown): HookRules | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== 'hook-rules') return null;
  const rules = parseRules(o.rules);
  return rules === null ? null : { type: 'hook-rules', rules };
}

/** The message as HookHoldAction, or null. */
export function parseHookHold(n: Natives, m: unknown): HookHoldAction | null {
  const f = holdFields(m, 'hook-hold');
  if (f === null) return null;
  const { socketId, binary, bytes } = f.o;
  if (!isCount(socketId) || socketId < 1 || typeof binary !== 'boolean') return null;
  if (f.action === 'edit' ? n.bufferLength(bytes) < 0 : bytes !== null) return null;
  const { requestId, action, direction, seq } = f;
  return { type: 'hook-hold', requestId, action, socketId, direction, seq, binary, bytes: bytes as ArrayBuffer | null };
}

/** `url` matches the glob (`*`: any run of characters; '' matches every URL). */
export function globMatches(glob: readonly string[], url: string): boolean {
  if (glob.length === 1) return glob[0] === '' || glob[0] === url;
  const first = glob[0]!;
  const last = glob[glob.length - 1]!;
  if (url.length < first.length + last.length) return false;
  if (slice(url, 0, first.length) !== first || slice(url, url.length - last.length) !== last) return false;
  let at = first.length;
  const end = url.length - last.length;
  for (let i = 1; i < glob.length - 1; i++) {
    const part = glob[i]!;
    const found = indexOf(url, part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** The pattern cut at each '*'. */
export function compileGlob(pattern: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    const star = indexOf(pattern, '*', from);
    if (star < 0) break;
    parts[parts.length] = slice(pattern, from, star);
    from = star + 1;
  }
  parts[parts.length] = slice(pattern, from);
  return parts;
}

/** True when `needle` occurs in `hay` (both byte arrays; an empty needle always does). */
export function bytesContain(hay: Uint8Array, length: number, needle: Uint8Array): boolean {
  const m = needle.length;
  if (m === 0) return true;
  const first = needle[0]!;
  const last = length - m;
  outer: for (let i = 0; i <= last; i++) {
    if (hay[i] !== first) continue;
    for (let j = 1; j < m; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

export function createIntercept(
  n: Natives,
  rec: Recorder,
  io: InterceptIO,
  limits: InterceptLimits = { maxHeldBytes: 64 << 20, maxHeldFrames: 10_000 },
): Intercept {
  let rules: Compiled[] = [];
  /** Every open socket, by id (left when it closes). */
  const all = new Map<number, SocketIntercept>();
  let totalBytes = 0;
  let totalFrames = 0;

  const lane = (direction: Direction): Lane => ({
    direction,
    rules: [],
    items: [],
    head: 0,
    heldBytes: 0,
    nextSeq: 1,
    forwarded: 0,
    dropped: 0,
    lost: 0,
    timer: null,
  });

  function resolve(si: SocketIntercept): void {
    const url = n.url(si.ws);
    const id = si.state.id;
    const sent: Compiled[] = [];
    const received: Compiled[] = [];
    for (let i = 0; i < rules.length; i++) {
      const c = rules[i]!;
      const ids = c.rule.socketIds;
      if (ids !== undefined) {
        let found = false;
        for (let j = 0; j < ids.length && !found; j++) found = ids[j] === id;
        if (!found) continue;
      }
      if (!globMatches(c.glob, url)) continue;
      if (c.rule.direction !== 'received') sent[sent.length] = c;
      if (c.rule.direction !== 'sent') received[received.length] = c;
    }
    si.sent.rules = sent;
    si.received.rules = received;
    activate(si);
  }

  /** `state.intercept` is set while a rule applies or frames wait: the per-frame check. */
  function activate(si: SocketIntercept): void {
    const busy =
      si.sent.rules.length > 0 ||
      si.received.rules.length > 0 ||
      si.sent.head < si.sent.items.length ||
      si.received.head < si.received.items.length;
    si.state.intercept = busy ? si : null;
  }

  /** The first rule of `lane` the frame matches (its text, or its bytes), or null. */
  function match(l: Lane, text: string | null, bytes: Uint8Array | null, length: number): Compiled | null {
    const list = l.rules;
    for (let i = 0; i < list.length; i++) {
      const c = list[i]!;
      if (c.needle === '') return c;
      if (text !== null) {
        if (indexOf(text, c.needle) >= 0) return c;
      } else if (bytes !== null && bytesContain(bytes, length, c.needleBytes)) return c;
    }
    return null;
  }

  function report(si: SocketIntercept, l: Lane, why?: HoldReleaseWhy): void {
    const h = l.items[l.head];
    rec.event(si.state, {
      type: 'hold',
      socketId: si.state.id,
      time: n.now(),
      direction: l.direction,
      held: l.items.length - l.head,
      heldBytes: l.heldBytes,
      head: h === undefined ? 0 : h.seq,
      forwarded: l.forwarded,
      dropped: l.dropped,
      lost: l.lost,
      ...(why === undefined ? {} : { why }),
    });
  }

  function record(si: SocketIntercept, flags: number, time: number, data: unknown): void {
    if (typeof data === 'string') return rec.text(si.state, flags, time, data);
    const length = n.bufferLength(data);
    if (length >= 0)
      rec.binary(si.state, flags | FRAME_BINARY, time, n.bytesOf(data as ArrayBuffer, 0, length), length);
    else rec.blob(si.state, flags | FRAME_BINARY, time, data as Blob);
  }

  function sizeOf(data: unknown): number {
    if (typeof data === 'string') return n.byteLength(n.encode(data));
    const length = n.bufferLength(data);
    return length >= 0 ? length : n.blobSize(data as Blob);
  }

  function hold(si: SocketIntercept, l: Lane, data: unknown, kind: number, delayMs: number): void {
    const bytes = sizeOf(data);
    l.items[l.items.length] = { seq: l.nextSeq++, data, bytes, kind, due: kind === DELAY ? n.now() + delayMs : 0 };
    l.heldBytes += bytes;
    totalBytes += bytes;
    totalFrames++;
    si.state.intercept = si;
  }

  /** Puts `item` where it was going: out on the socket, or to the page's listeners. */
  function deliver(si: SocketIntercept, l: Lane, data: unknown): boolean {
    if (l.direction === 'sent') {
      if (n.readyState(si.ws) !== n.OPEN) return false;
      io.send(si.ws, data);
      return true;
    }
    try {
      io.dispatch(si.ws, n.messageEvent(data, n.originOf(n.url(si.ws))));
    } catch {
      /* a listener threw: it was delivered */
    }
    return true;
  }

  function shift(l: Lane): Held {
    const item = l.items[l.head]!;
    l.items[l.head++] = undefined;
    l.heldBytes -= item.bytes;
    totalBytes -= item.bytes;
    totalFrames--;
    if (l.head === l.items.length) {
      l.items = [];
      l.head = 0;
    }
    return item;
  }

  function forwardHead(si: SocketIntercept, l: Lane): void {
    const item = shift(l);
    if (deliver(si, l, item.data)) l.forwarded++;
    else l.lost++;
  }

  /** Forwards what may go now (frames behind nothing held by a pause, delays that are due); arms the next delay's timer. */
  function pump(si: SocketIntercept, l: Lane): void {
    for (;;) {
      const item = l.items[l.head];
      if (item === undefined || item.kind === PAUSE) break;
      if (item.kind === DELAY) {
        const wait = item.due - n.now();
        if (wait > 0) {
          if (l.timer === null)
            l.timer = n.setTimer(() => {
              l.timer = null;
              pump(si, l);
              activate(si);
              report(si, l);
            }, wait);
          break;
        }
      }
      forwardHead(si, l);
    }
  }

  function releaseLane(si: SocketIntercept, l: Lane, why: HoldReleaseWhy): void {
    if (l.head === l.items.length) return;
    if (l.timer !== null) {
      n.clearTimer(l.timer);
      l.timer = null;
    }
    while (l.head < l.items.length) forwardHead(si, l);
    activate(si);
    report(si, l, why);
  }

  function releaseAll(why: HoldReleaseWhy): void {
    mapForEach(all, (si: SocketIntercept) => {
      releaseLane(si, si.sent, why);
      releaseLane(si, si.received, why);
    });
  }

  function overLimit(): boolean {
    return totalBytes > limits.maxHeldBytes || totalFrames > limits.maxHeldFrames;
  }

  /** A frame on a lane with rules or frames waiting: true when it was held or dropped (recorded here). */
  function take(
    si: SocketIntercept,
    l: Lane,
    flags: number,
    time: number,
    text: string | null,
    bytes: Uint8Array | null,
    length: number,
    raw: unknown,
  ): boolean {
    const c = match(l, text, bytes, length);
    const waiting = l.head < l.items.length;
    if (c === null && !waiting) return false;
    if (time < 0) time = n.now(); // sent: read the clock only for a frame taken
    // A sent buffer may be reused by the page once send() returned: the hook keeps its own copy.
    const data = flags === 0 && bytes !== null ? n.copyBytes(bytes) : raw;
    if (c !== null && c.rule.action === 'drop') {
      record(si, flags | FRAME_DROPPED, time, data);
      l.dropped++;
      report(si, l);
      return true;
    }
    record(si, flags | FRAME_HELD, time, data);
    const kind = c === null ? FOLLOW : c.rule.action === 'pause' ? PAUSE : DELAY;
    hold(si, l, data, kind, c === null ? 0 : c.rule.delayMs);
    pump(si, l);
    report(si, l);
    if (overLimit()) releaseAll('limit');
    return true;
  }

  /** Forward / Edit and forward / Drop / Forward all: null when done, else why not. */
  function act(a: HookHoldAction): string | null {
    const si = mapGet(all, a.socketId) as SocketIntercept | undefined;
    if (si === undefined) return 'the socket is closed (or its page was left)';
    const l = a.direction === 'sent' ? si.sent : si.received;
    const head = l.items[l.head];
    if (head === undefined) return 'nothing is held';
    if (a.action === 'forward-all') {
      releaseLane(si, l, 'rules-cleared');
      return null;
    }
    if (head.seq !== a.seq) return `frame ${a.seq} is not the first held frame (${head.seq} is)`;
    let error: string | null = null;
    if (a.action === 'forward') forwardHead(si, l);
    else if (a.action === 'drop') {
      shift(l);
      l.dropped++;
    } else {
      shift(l);
      error = forwardEdited(si, l, a.binary, a.bytes as ArrayBuffer);
    }
    pump(si, l);
    activate(si);
    report(si, l);
    return error;
  }

  /** The edited frame goes instead of the held one, recorded as wirescope's. */
  function forwardEdited(si: SocketIntercept, l: Lane, binary: boolean, buffer: ArrayBuffer): string | null {
    const length = n.abLength(buffer);
    const bytes = n.bytesOf(buffer, 0, length);
    if (l.direction === 'sent' && n.readyState(si.ws) !== n.OPEN) {
      l.lost++;
      return 'the socket is closed';
    }
    let out: unknown;
    if (!binary) out = n.decode(bytes);
    else if (l.direction === 'sent' || n.binaryType(si.ws) === 'arraybuffer') out = n.copyBytes(bytes);
    else out = n.newBlob(bytes);
    const flags = (l.direction === 'received' ? FRAME_RECEIVED : 0) | FRAME_WIRESCOPE;
    if (binary) rec.binary(si.state, flags | FRAME_BINARY, n.now(), bytes, length);
    else rec.text(si.state, flags, n.now(), out as string);
    deliver(si, l, out);
    l.forwarded++;
    return null;
  }

  return {
    observe(ws, state) {
      const si: SocketIntercept = { ws, state, sent: lane('sent'), received: lane('received') };
      mapSet(all, state.id, si);
      if (rules.length > 0) resolve(si);
    },

    received(si, e, data, time) {
      const l = si.received;
      let text: string | null = null;
      let bytes: Uint8Array | null = null;
      let length = 0;
      if (typeof data === 'string') text = data;
      else if ((length = n.bufferLength(data)) >= 0) bytes = n.bytesOf(data as ArrayBuffer, 0, length);
      const taken = take(si, l, FRAME_RECEIVED, time, text, bytes, length, data);
      if (taken) n.cancel(e);
      return taken;
    },

    sent(si, arg) {
      const l = si.sent;
      let text: string | null = null;
      let bytes: Uint8Array | null = null;
      let length = 0;
      if (typeof arg === 'string') text = arg;
      else if (n.isView(arg)) {
        bytes = n.bytesOfView(arg as ArrayBufferView);
        length = n.byteLength(bytes);
      } else if ((length = n.bufferLength(arg)) >= 0) bytes = n.bytesOf(arg as ArrayBuffer, 0, length);
      else if (!n.isBlob(arg)) return false;
      return take(si, l, 0, -1, text, bytes, length, arg);
    },

    closed(state) {
      const si = mapGet(all, state.id) as SocketIntercept | undefined;
      if (si === undefined) return;
      mapDelete(all, state.id);
      releaseLane(si, si.received, 'closed');
      releaseLane(si, si.sent, 'closed'); // the socket is closed: counted as lost, reported
      state.intercept = null;
    },

    message(data, reply) {
      const r = parseHookRules(data);
      if (r !== null) {
        rules = [];
        for (let i = 0; i < r.rules.length; i++) {
          const rule = r.rules[i]!;
          rules[rules.length] = {
            rule,
            glob: compileGlob(rule.url),
            needle: rule.contains,
            needleBytes: n.encode(rule.contains),
          };
        }
        mapForEach(all, (si: SocketIntercept) => {
          resolve(si);
          // A direction no rule applies to any more lets its frames go.
          if (si.sent.rules.length === 0) releaseLane(si, si.sent, 'rules-cleared');
          if (si.received.rules.length === 0) releaseLane(si, si.received, 'rules-cleared');
        });
        return true;
      }
      const a = parseHookHold(n, data);
      if (a === null) return false;
      const error = act(a);
      reply(
        error === null
          ? { type: 'hook-action-result', requestId: a.requestId, ok: true }
          : { type: 'hook-action-result', requestId: a.requestId, ok: false, error },
      );
      return true;
    },

    releaseAll,
  };
}
