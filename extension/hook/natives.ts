/**
 * The built-ins the hook relies on, captured once at install: a page that later patches
 * `Array.prototype.push`, `Blob.prototype.arrayBuffer`, `ArrayBuffer[Symbol.species]`,
 * `WeakMap.prototype.get`, `Reflect.apply`… can neither break the hook nor see its data.
 * Type checks go through the built-in getters' brand checks, which (unlike `instanceof`)
 * accept objects from other realms, e.g. a Blob from an iframe.
 */

export const apply = Reflect.apply;
export const construct = Reflect.construct;
export const defineProperty = Reflect.defineProperty;
export const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const getPrototypeOf = Reflect.getPrototypeOf;
const wmGet = WeakMap.prototype.get;
const wmSet = WeakMap.prototype.set;
const promiseThen = Promise.prototype.then;
const objectToString = Object.prototype.toString;

/** A WeakMap whose methods cannot be intercepted through `WeakMap.prototype`. */
export class SafeWeakMap<K extends object, V> {
  private readonly map = new WeakMap<K, V>();
  get(key: unknown): V | undefined {
    return apply(wmGet, this.map, [key]) as V | undefined;
  }
  set(key: K, value: V): void {
    apply(wmSet, this.map, [key, value]);
  }
}

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
  return g ? (o) => apply(g, o, []) as T : (o) => (o as Record<PropertyKey, unknown>)[name] as T;
}

/** True when the built-in getter accepts `o`, i.e. `o` carries that brand. */
function brand(proto: object | null | undefined, name: PropertyKey): ((o: unknown) => boolean) | undefined {
  const g = findGetter(proto, name);
  if (!g) return undefined;
  return (o) => {
    try {
      apply(g, o, []);
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
  const taProto = getPrototypeOf(U8.prototype);
  const taTag = findGetter(taProto, Symbol.toStringTag);
  const taBuffer = reader<ArrayBuffer>(taProto, 'buffer');
  const taOffset = reader<number>(taProto, 'byteOffset');
  const taLength = reader<number>(taProto, 'byteLength');
  const taSet = U8.prototype.set as Function;
  const dvProto = win.DataView?.prototype;
  const dvBuffer = reader<ArrayBuffer>(dvProto, 'buffer');
  const dvOffset = reader<number>(dvProto, 'byteOffset');
  const dvLength = reader<number>(dvProto, 'byteLength');
  const abLength = reader<number>(AB.prototype, 'byteLength');
  const isView = AB.isView;
  const isArrayBuffer = brand(AB.prototype, 'byteLength') ?? ((o: unknown) => o instanceof AB);
  const SAB = (win as { SharedArrayBuffer?: typeof SharedArrayBuffer }).SharedArrayBuffer;
  const isShared =
    (SAB && brand(SAB.prototype, 'byteLength')) ||
    ((o: unknown) => apply(objectToString, o, []) === '[object SharedArrayBuffer]');

  const blobProto = win.Blob?.prototype;
  const isBlob = brand(blobProto, 'size') ?? (() => false);
  const blobSize = reader<number>(blobProto, 'size');
  const blobArrayBuffer = blobProto && (getOwnPropertyDescriptor(blobProto, 'arrayBuffer')?.value as Function | undefined);
  const FR = win.FileReader;
  const frRead = FR?.prototype.readAsArrayBuffer as Function | undefined;
  const frResult = reader<unknown>(FR?.prototype, 'result');

  const etProto = win.EventTarget.prototype;
  const addListener = etProto.addEventListener as Function;
  // The window's own methods (the vitest jsdom global is not an EventTarget brand-wise).
  const winAdd = win.addEventListener as Function;
  const winRemove = win.removeEventListener as Function;
  const winDispatch = win.dispatchEvent as Function;
  const EventCtor = win.Event;
  const preventDefault = EventCtor.prototype.preventDefault as Function;

  const encoder = new win.TextEncoder();
  const encodeFn = win.TextEncoder.prototype.encode as Function;
  const postMessage = win.postMessage as Function;
  const setTimer = win.setTimeout as Function;
  const clearTimer = win.clearTimeout as Function;
  const perf = win.performance;
  const perfNow = perf?.now as Function | undefined;
  const timeOrigin = perf?.timeOrigin;
  const dateNow = Date.now;

  /** A fresh, exactly sized copy of `len` bytes of `buf` from `off` — no species lookup. */
  function copyRange(buf: ArrayBuffer, off: number, len: number): ArrayBuffer {
    const dst = new U8(len);
    if (len > 0) apply(taSet, dst, [new U8(buf, off, len)]);
    return taBuffer(dst);
  }

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
    isView: (o: unknown): boolean => apply(isView, AB, [o]) as boolean,
    isArrayBuffer,
    isShared,
    isBlob,
    blobSize,
    abLength,
    /** Copy of the bytes an ArrayBuffer view covers (only the view's range). */
    copyView(v: ArrayBufferView): ArrayBuffer {
      if (taTag && apply(taTag, v, []) !== undefined) return copyRange(taBuffer(v), taOffset(v), taLength(v));
      return copyRange(dvBuffer(v), dvOffset(v), dvLength(v));
    },
    copyBuffer: (b: ArrayBuffer): ArrayBuffer => copyRange(b, 0, abLength(b)),
    /** UTF-8 bytes of a string (lone surrogates become U+FFFD, as on the wire). */
    encode(s: string): ArrayBuffer {
      const u8 = apply(encodeFn, encoder, [s]) as Uint8Array;
      const buf = taBuffer(u8);
      const off = taOffset(u8);
      const len = taLength(u8);
      return off === 0 && abLength(buf) === len ? buf : copyRange(buf, off, len);
    },
    /** Reads a Blob; `done(null)` when it cannot be read. */
    readBlob(blob: Blob, done: (data: ArrayBuffer | null) => void): void {
      try {
        if (typeof blobArrayBuffer === 'function') {
          const p = apply(blobArrayBuffer, blob, []) as Promise<ArrayBuffer>;
          apply(promiseThen, p, [(ab: ArrayBuffer) => done(ab), () => done(null)]);
        } else if (FR && frRead) {
          const fr = new FR();
          apply(addListener, fr, ['loadend', () => done((frResult(fr) as ArrayBuffer | null) ?? null)]);
          apply(frRead, fr, [blob]);
        } else {
          done(null);
        }
      } catch {
        done(null);
      }
    },
    listen(target: object, type: string, fn: (e: Event) => void): void {
      apply(addListener, target, [type, fn]);
    },
    listenWindow: (type: string, fn: (e: Event) => void): void => void apply(winAdd, win, [type, fn]),
    unlistenWindow: (type: string, fn: (e: Event) => void): void => void apply(winRemove, win, [type, fn]),
    /** Dispatches a cancelable event on the window; false when a listener cancelled it. */
    probe(type: string): boolean {
      return apply(winDispatch, win, [new EventCtor(type, { cancelable: true })]) as boolean;
    },
    cancel: (e: Event): void => void apply(preventDefault, e, []),
    post(message: unknown, targetOrigin: string, transfer: ArrayBuffer[]): void {
      apply(postMessage, win, [message, targetOrigin, transfer]);
    },
    setTimer: (fn: () => void, ms: number): unknown => apply(setTimer, win, [fn, ms]),
    clearTimer: (id: unknown): void => void apply(clearTimer, win, [id]),
    now: (): number =>
      perfNow && typeof timeOrigin === 'number' ? timeOrigin + (apply(perfNow, perf, []) as number) : apply(dateNow, Date, []) as number,
  };
}

export type Natives = NonNullable<ReturnType<typeof captureNatives>>;
