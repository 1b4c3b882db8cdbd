/**
 * The built-ins the hook relies on, captured once at install: a page that later patches
 * `Array.prototype.push`, `Blob.prototype.arrayBuffer`, `ArrayBuffer[Symbol.species]`,
 * `WeakMap.prototype.get`, `Function.prototype.call`… can neither break the hook nor see its
 * data. Type checks go through the built-in getters' brand checks, which (unlike
 * `instanceof`) accept objects from other realms, e.g. a Blob from an iframe.
 *
 * Methods are "uncurried" (`uncurry(fn)(self, ...args)` is `fn.call(self, ...args)`, bound
 * to the original `call`): unlike `Reflect.apply(fn, self, [args])`, a call allocates no
 * argument array, which matters on the per-frame path.
 */

export const apply = Reflect.apply;
export const construct = Reflect.construct;
export const defineProperty = Reflect.defineProperty;
export const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const getPrototypeOf = Reflect.getPrototypeOf;
const bindCall = Function.prototype.bind.bind(Function.prototype.call) as (
  fn: Function,
) => (self: unknown, ...args: unknown[]) => unknown;
/** `fn` as a plain function taking its `this` first. */
export const uncurry = <R = unknown>(fn: Function): ((self: unknown, ...args: unknown[]) => R) =>
  bindCall(fn) as (self: unknown, ...args: unknown[]) => R;
const wmGet = uncurry(WeakMap.prototype.get);
const wmSet = uncurry(WeakMap.prototype.set);
const mapGet = uncurry(Map.prototype.get);
const mapSet = uncurry(Map.prototype.set);
const mapDelete = uncurry(Map.prototype.delete);
const promiseThen = uncurry(Promise.prototype.then);
const objectToString = uncurry<string>(Object.prototype.toString);

/** A WeakMap whose methods cannot be intercepted through `WeakMap.prototype`. */
export class SafeWeakMap<K extends object, V> {
  private readonly map = new WeakMap<K, V>();
  get(key: unknown): V | undefined {
    return wmGet(this.map, key) as V | undefined;
  }
  set(key: K, value: V): void {
    wmSet(this.map, key, value);
  }
}

/** A Map whose methods cannot be intercepted through `Map.prototype`. */
export class SafeMap<K, V> {
  private readonly map = new Map<K, V>();
  get(key: K): V | undefined {
    return mapGet(this.map, key) as V | undefined;
  }
  set(key: K, value: V): void {
    mapSet(this.map, key, value);
  }
  delete(key: K): void {
    mapDelete(this.map, key);
  }
}

function findSetter(proto: object | null | undefined, name: PropertyKey): Function | undefined {
  for (let p = proto; p; p = getPrototypeOf(p)) {
    const d = getOwnPropertyDescriptor(p, name);
    if (d) return typeof d.set === 'function' ? d.set : undefined;
  }
  return undefined;
}

/** 2001-09-09 in epoch ms: a time stamp beyond it is since the epoch, not since the time origin. */
const EPOCH_MS_2001 = 1e12;

function findGetter(proto: object | null | undefined, name: PropertyKey): Function | undefined {
  for (let p = proto; p; p = getPrototypeOf(p)) {
    const d = getOwnPropertyDescriptor(p, name);
    if (d) return typeof d.get === 'function' ? d.get : undefined;
  }
  return undefined;
}

/** Reads `name` through the built-in getter on `proto`'s chain (a plain read when none). */
function reader<T>(proto: object | null | undefined, name: PropertyKey): (o: object) => T {
  const g = findGetter(proto, name);
  return g ? uncurry<T>(g) : (o) => (o as Record<PropertyKey, unknown>)[name] as T;
}

/** True when the built-in getter accepts `o`, i.e. `o` carries that brand. */
function brand(proto: object | null | undefined, name: PropertyKey): ((o: unknown) => boolean) | undefined {
  const g = findGetter(proto, name);
  if (!g) return undefined;
  const get = uncurry(g);
  return (o) => {
    try {
      get(o);
      return true;
    } catch {
      return false;
    }
  };
}

export type Win = Window & typeof globalThis;

export function captureNatives(win: Win) {
  const WS = win.WebSocket;
  const wsProto = WS.prototype;
  const send = wsProto.send as Function;
  const fnProto = getPrototypeOf(send) as object;
  const fnToString = getOwnPropertyDescriptor(fnProto, 'toString')?.value as Function;

  const AB = win.ArrayBuffer;
  const U8 = win.Uint8Array;
  const F64 = win.Float64Array;
  const taProto = getPrototypeOf(U8.prototype);
  const taTagGetter = findGetter(taProto, Symbol.toStringTag);
  const taTag = taTagGetter && uncurry<string | undefined>(taTagGetter);
  const taBuffer = reader<ArrayBuffer>(taProto, 'buffer');
  const taOffset = reader<number>(taProto, 'byteOffset');
  const taLength = reader<number>(taProto, 'byteLength');
  const taSet = uncurry<void>(U8.prototype.set as Function);
  const dvProto = win.DataView?.prototype;
  const dvBuffer = reader<ArrayBuffer>(dvProto, 'buffer');
  const dvOffset = reader<number>(dvProto, 'byteOffset');
  const dvLength = reader<number>(dvProto, 'byteLength');
  const abLength = reader<number>(AB.prototype, 'byteLength');
  const abLengthGetter = findGetter(AB.prototype, 'byteLength');
  const abLengthOf = abLengthGetter && uncurry<number>(abLengthGetter);
  const isView = uncurry<boolean>(AB.isView);
  const SAB = (win as { SharedArrayBuffer?: typeof SharedArrayBuffer }).SharedArrayBuffer;
  const isShared =
    (SAB && brand(SAB.prototype, 'byteLength')) || ((o: unknown) => objectToString(o) === '[object SharedArrayBuffer]');

  const blobProto = win.Blob?.prototype;
  const isBlob = brand(blobProto, 'size') ?? (() => false);
  const blobSize = reader<number>(blobProto, 'size');
  const blobArrayBufferFn =
    blobProto && (getOwnPropertyDescriptor(blobProto, 'arrayBuffer')?.value as Function | undefined);
  const blobArrayBuffer =
    typeof blobArrayBufferFn === 'function' ? uncurry<Promise<ArrayBuffer>>(blobArrayBufferFn) : null;
  const FR = win.FileReader;
  const frRead = FR && uncurry<void>(FR.prototype.readAsArrayBuffer as Function);
  const frResult = reader<unknown>(FR?.prototype, 'result');

  const etProto = win.EventTarget.prototype;
  const addListener = uncurry<void>(etProto.addEventListener as Function);
  // The window's own methods (the vitest jsdom global is not an EventTarget brand-wise).
  const winAdd = uncurry<void>(win.addEventListener as Function);
  const winRemove = uncurry<void>(win.removeEventListener as Function);
  const winDispatch = uncurry<boolean>(win.dispatchEvent as Function);
  const EventCtor = win.Event;
  const preventDefault = uncurry<void>(EventCtor.prototype.preventDefault as Function);

  const encoder = new win.TextEncoder();
  const encodeFn = uncurry<Uint8Array>(win.TextEncoder.prototype.encode as Function);
  const encodeIntoFn = win.TextEncoder.prototype.encodeInto as Function | undefined;
  const encodeInto = encodeIntoFn && uncurry<{ read: number; written: number }>(encodeIntoFn);
  // The private channel to the relay (hook/channel.ts): its constructor, the port's
  // postMessage and the MessageEvent that hands the far port over, captured before the page runs.
  const MC =
    typeof win.MessageChannel === 'function' && typeof win.MessagePort === 'function' ? win.MessageChannel : null;
  const portProto = MC ? win.MessagePort.prototype : null;
  const portPost = uncurry<void>((portProto?.postMessage ?? Function.prototype) as Function);
  const portClose = uncurry<void>((portProto?.close ?? Function.prototype) as Function);
  const MessageEventCtor = win.MessageEvent;
  const stopImmediate = uncurry<void>(EventCtor.prototype.stopImmediatePropagation as Function);
  // Peers (hook/peers.ts): a CustomEvent on an ancestor window, its detail read through the built-in getter.
  const CustomEventCtor = win.CustomEvent;
  const detailOf = reader<unknown>(CustomEventCtor?.prototype, 'detail');
  const etDispatch = uncurry<boolean>(win.EventTarget.prototype.dispatchEvent as Function);
  // Worker script URLs (install.ts): resolved with the captured URL against the document's base.
  const URLCtor = win.URL;
  const urlHref = brand(URLCtor?.prototype, 'href') && reader<string>(URLCtor.prototype, 'href');
  const baseURI = reader<string>(win.Node?.prototype, 'baseURI');
  const doc = win.document;
  const topGetter = getOwnPropertyDescriptor(win, 'top')?.get;
  const parentGetter = getOwnPropertyDescriptor(win, 'parent')?.get;
  const setTimer = uncurry<unknown>(win.setTimeout as Function);
  const clearTimer = uncurry<void>(win.clearTimeout as Function);
  const perf = win.performance;
  const perfNow = perf?.now ? uncurry<number>(perf.now as Function) : null;
  const timeOrigin = perf?.timeOrigin;
  const dateNow = Date.now;
  // An event's own time (ms since the time origin, as performance.now): read through the
  // built-in getter it costs a fifth of calling performance.now, the dearest step per message.
  const eventTimeStamp = reader<number>(EventCtor.prototype, 'timeStamp');
  // Actions (hook/actions.ts): what wirescope sends or delivers goes through these, captured
  // before the page runs, so a page that later replaces `send`, `dispatchEvent`, `MessageEvent`
  // or `Blob` neither sees nor fakes it.
  const BlobCtor = win.Blob;
  const decoder = typeof win.TextDecoder === 'function' ? new win.TextDecoder() : null;
  const decodeFn = decoder && uncurry<string>(win.TextDecoder.prototype.decode as Function);
  const binaryType = reader<string>(wsProto, 'binaryType');
  const urlOrigin = URLCtor && reader<string>(URLCtor.prototype, 'origin');
  const messageDataGetter = findGetter(win.MessageEvent?.prototype, 'data');
  const messageDataOf = messageDataGetter
    ? uncurry<unknown>(messageDataGetter)
    : (e: Event): unknown => (e as MessageEvent).data;
  const portOnMessage = portProto ? findSetter(portProto, 'onmessage') : undefined;
  const setPortOnMessage = portOnMessage && uncurry<void>(portOnMessage);

  return {
    WS,
    wsProto,
    send,
    fnProto,
    fnToString,
    OPEN: typeof WS.OPEN === 'number' ? WS.OPEN : 1,
    readyState: reader<number>(wsProto, 'readyState'),
    url: reader<string>(wsProto, 'url'),
    protocol: reader<string>(wsProto, 'protocol'),
    extensions: reader<string>(wsProto, 'extensions'),
    messageData: reader<unknown>(win.MessageEvent?.prototype, 'data'),
    closeCode: reader<number>(win.CloseEvent?.prototype, 'code'),
    closeReason: reader<string>(win.CloseEvent?.prototype, 'reason'),
    closeWasClean: reader<boolean>(win.CloseEvent?.prototype, 'wasClean'),
    isView: (o: unknown): boolean => isView(AB, o),
    /** The byte length of an ArrayBuffer, or -1 when `o` is not one (brand check, any realm). */
    bufferLength(o: unknown): number {
      if (!abLengthOf) return o instanceof AB ? o.byteLength : -1;
      try {
        return abLengthOf(o);
      } catch {
        return -1;
      }
    },
    isShared,
    isBlob,
    blobSize,
    abLength,
    /** A fresh zeroed byte array (the captured constructor: no species, no page code). */
    newBytes: (length: number): Uint8Array => new U8(length),
    newTable: (length: number): Float64Array => new F64(length),
    /** A Uint8Array over `buf` (no copy). */
    bytesOf: (buf: ArrayBuffer, offset: number, length: number): Uint8Array => new U8(buf, offset, length),
    /** A Uint8Array over exactly the bytes an ArrayBuffer view covers (no copy). */
    bytesOfView(v: ArrayBufferView): Uint8Array {
      if (taTag && taTag(v) !== undefined) return new U8(taBuffer(v), taOffset(v), taLength(v));
      return new U8(dvBuffer(v), dvOffset(v), dvLength(v));
    },
    /** `dst.set(src, offset)` through the captured method. */
    setBytes: (dst: Uint8Array | Float64Array, src: Uint8Array | Float64Array, offset: number): void =>
      taSet(dst, src, offset),
    byteLength: taLength,
    bufferOf: taBuffer,
    /** A fresh, exactly sized copy of `src`. */
    copyBytes(src: Uint8Array): ArrayBuffer {
      const dst = new U8(taLength(src));
      taSet(dst, src, 0);
      return taBuffer(dst);
    },
    /** UTF-8 bytes of a string (lone surrogates become U+FFFD, as on the wire), as a view. */
    encode: (s: string): Uint8Array => encodeFn(encoder, s),
    /**
     * Encodes `s` into `dst` (at least 3 × `s.length` bytes long, so it always fits);
     * returns the bytes written. Falls back to encode + copy where `encodeInto` is missing.
     */
    encodeInto(s: string, dst: Uint8Array): number {
      if (encodeInto) return encodeInto(encoder, s, dst).written;
      const bytes = encodeFn(encoder, s);
      taSet(dst, bytes, 0);
      return taLength(bytes);
    },
    /** Reads a Blob; `done(null)` when it cannot be read. */
    readBlob(blob: Blob, done: (data: ArrayBuffer | null) => void): void {
      try {
        if (blobArrayBuffer) {
          promiseThen(
            blobArrayBuffer(blob),
            (ab: ArrayBuffer) => done(ab),
            () => done(null),
          );
        } else if (FR && frRead) {
          const fr = new FR();
          addListener(fr, 'loadend', () => done((frResult(fr) as ArrayBuffer | null) ?? null));
          frRead(fr, blob);
        } else {
          done(null);
        }
      } catch {
        done(null);
      }
    },
    /** `capture`: the listener runs before the page's own, capture-phase ones included. */
    listen(target: object, type: string, fn: (e: Event) => void, capture = false): void {
      addListener(target, type, fn, capture);
    },
    listenWindow: (type: string, fn: (e: Event) => void): void => winAdd(win, type, fn),
    unlistenWindow: (type: string, fn: (e: Event) => void): void => winRemove(win, type, fn),
    /** Dispatches a cancelable event on the window; false when a listener cancelled it. */
    probe: (type: string): boolean => winDispatch(win, new EventCtor(type, { cancelable: true })),
    /** Dispatches a cancelable MessageEvent carrying `port` on the window; false when a listener took it (cancelled it). */
    offerPort: (type: string, port: MessagePort): boolean =>
      winDispatch(win, new MessageEventCtor(type, { cancelable: true, ports: [port] })),
    cancel: (e: Event): void => {
      preventDefault(e);
      stopImmediate(e);
    },
    /** `v` as an absolute URL string when it is a string or a URL object (no page code runs), else ''. */
    scriptUrl(v: unknown): string {
      let s = '';
      if (typeof v === 'string') s = v;
      else if (urlHref && typeof v === 'object' && v !== null) {
        try {
          s = urlHref(v);
        } catch {
          return '';
        }
      } else return '';
      try {
        return urlHref ? urlHref(new URLCtor(s, baseURI(doc))) : s;
      } catch {
        return s;
      }
    },
    /** The windows above this one, highest first (`top`, then `parent`), never this window. */
    ancestors(): object[] {
      const out: object[] = [];
      try {
        const top = topGetter ? (apply(topGetter, win, []) as object) : win.top;
        if (top && top !== win) out[out.length] = top;
        const parent = parentGetter ? (apply(parentGetter, win, []) as object) : win.parent;
        if (parent && parent !== win && parent !== top) out[out.length] = parent;
      } catch {
        /* none reachable */
      }
      return out;
    },
    /** Dispatches a CustomEvent carrying `detail` on `target` (throws across origins). */
    dispatchDetail: (target: object, type: string, detail: unknown): boolean =>
      etDispatch(target, new CustomEventCtor(type, { detail })),
    detailOf: (e: Event): unknown => detailOf(e),
    /** A new MessageChannel, or null where there is none. */
    newChannel: (): MessageChannel | null => (MC ? new MC() : null),
    portPost: (port: MessagePort, message: unknown, transfer: ArrayBuffer[]): void => portPost(port, message, transfer),
    portClose: (port: MessagePort): void => portClose(port),
    /** Sets `port.onmessage` through the captured setter (which also starts the port). */
    portOnMessage(port: MessagePort, fn: ((e: MessageEvent) => void) | null): void {
      if (setPortOnMessage) setPortOnMessage(port, fn);
      else (port as { onmessage: unknown }).onmessage = fn;
    },
    binaryType,
    /** A port message's data: through the captured getter, or read plainly from another realm's event (Node's ports under jsdom). */
    portMessageData(e: Event): unknown {
      try {
        return messageDataOf(e);
      } catch {
        return (e as MessageEvent).data;
      }
    },
    /** The socket URL's origin (a MessageEvent's `origin` from a WebSocket), '' when unknown. */
    originOf(url: string): string {
      try {
        return urlOrigin ? urlOrigin(new URLCtor(url)) : '';
      } catch {
        return '';
      }
    },
    /** A Blob of a copy of `bytes` (the captured constructor). */
    newBlob: (bytes: Uint8Array): Blob => new BlobCtor([bytes as Uint8Array<ArrayBuffer>]),
    /** UTF-8 bytes → string (U+FFFD for bad sequences), the captured decoder. */
    decode: (bytes: Uint8Array): string => (decodeFn ? decodeFn(decoder, bytes) : ''),
    /** A MessageEvent named `message` carrying `data` from `origin` (the captured constructor). */
    messageEvent: (data: unknown, origin: string): Event => new MessageEventCtor('message', { data, origin }),
    /** `target.dispatchEvent(event)` through the captured method. */
    dispatch: (target: object, event: Event): boolean => etDispatch(target, event),
    setTimer: (fn: () => void, ms: number): unknown => setTimer(win, fn, ms),
    clearTimer: (id: unknown): void => clearTimer(win, id),
    /** When `e` happened, on the `now()` clock: its own `timeStamp` after the time origin. */
    eventTime:
      typeof timeOrigin === 'number'
        ? (e: Event): number => {
            const t = eventTimeStamp(e);
            return t > EPOCH_MS_2001 ? t : timeOrigin + t; // some engines (jsdom) stamp events in epoch ms
          }
        : (_e: Event): number => apply(dateNow, Date, []) as number,
    now:
      perfNow && typeof timeOrigin === 'number'
        ? (): number => timeOrigin + perfNow(perf)
        : (): number => apply(dateNow, Date, []) as number,
  };
}

export type Natives = NonNullable<ReturnType<typeof captureNatives>>;
