/**
 * A fake WebSocket for the hook's tests: the native's surface (constants, accessors on the
 * prototype, event handler attributes with the HTML ordering rules, CONNECTING /
 * InvalidStateError / silent discard after close, SyntaxError for bad URLs and protocols,
 * TypeError without `new`), driven by `open()`, `deliver()`, `fail()` and `serverClose()`.
 * What the page handed to `send` while OPEN is kept in `sent`.
 */
import type { HookBatch } from '../../shared/messages.js';

type Handler = ((this: unknown, e: Event) => unknown) | null;

export type FakeSocket = WebSocket & {
  readonly sent: unknown[];
  open(protocol?: string, extensions?: string): void;
  deliver(data: string | ArrayBuffer | Uint8Array): void;
  fail(): void;
  serverClose(code?: number, reason?: string, wasClean?: boolean): void;
};
export interface FakeWebSocketClass {
  new (url: string | URL, protocols?: string | string[]): FakeSocket;
  readonly prototype: FakeSocket;
  readonly CONNECTING: 0;
  readonly OPEN: 1;
  readonly CLOSING: 2;
  readonly CLOSED: 3;
}

const STATES = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;

export function makeFakeWebSocket(win: Window & typeof globalThis): FakeWebSocketClass {
  class WebSocket extends win.EventTarget {
    readonly sent: unknown[] = [];
    #readyState = 0;
    #binaryType: BinaryType = 'blob';
    #url: string;
    #protocol = '';
    #extensions = '';
    #buffered = 0;
    #handlers = new Map<string, { fn: Handler; listener: (e: Event) => void }>();

    constructor(url: string | URL, ...rest: unknown[]) {
      super();
      let u: URL;
      try {
        u = new URL(String(url), win.location.href);
      } catch {
        throw new win.DOMException(
          `Failed to construct 'WebSocket': The URL '${String(url)}' is invalid.`,
          'SyntaxError',
        );
      }
      if (u.protocol === 'http:') u.protocol = 'ws:';
      if (u.protocol === 'https:') u.protocol = 'wss:';
      if ((u.protocol !== 'ws:' && u.protocol !== 'wss:') || u.hash) {
        throw new win.DOMException(
          `Failed to construct 'WebSocket': The URL's scheme must be either 'http', 'https', 'ws', or 'wss'. '${u.protocol}' is not allowed.`,
          'SyntaxError',
        );
      }
      const protocols = rest[0] === undefined ? [] : Array.isArray(rest[0]) ? rest[0].map(String) : [String(rest[0])];
      if (
        new Set(protocols).size !== protocols.length ||
        protocols.some((p) => !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(p))
      ) {
        throw new win.DOMException(
          `Failed to construct 'WebSocket': The subprotocol '${protocols.join(', ')}' is invalid.`,
          'SyntaxError',
        );
      }
      this.#url = u.href;
    }

    get url(): string {
      return this.#url;
    }
    get readyState(): number {
      return this.#readyState;
    }
    get protocol(): string {
      return this.#protocol;
    }
    get extensions(): string {
      return this.#extensions;
    }
    get bufferedAmount(): number {
      return this.#buffered;
    }
    get binaryType(): BinaryType {
      return this.#binaryType;
    }
    set binaryType(v: BinaryType) {
      if (v === 'blob' || v === 'arraybuffer') this.#binaryType = v;
    }
    get onopen(): Handler {
      return this.#get('open');
    }
    set onopen(fn: Handler) {
      this.#set('open', fn);
    }
    get onmessage(): Handler {
      return this.#get('message');
    }
    set onmessage(fn: Handler) {
      this.#set('message', fn);
    }
    get onerror(): Handler {
      return this.#get('error');
    }
    set onerror(fn: Handler) {
      this.#set('error', fn);
    }
    get onclose(): Handler {
      return this.#get('close');
    }
    set onclose(fn: Handler) {
      this.#set('close', fn);
    }

    send(data: unknown): void {
      if (arguments.length === 0)
        throw new TypeError("Failed to execute 'send' on 'WebSocket': 1 argument required, but only 0 present.");
      if (typeof data === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
      const isBinary = data instanceof ArrayBuffer || ArrayBuffer.isView(data) || data instanceof win.Blob;
      const value = isBinary ? data : `${data as string}`; // the USVString conversion, once
      if (this.#readyState === 0)
        throw new win.DOMException(
          "Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.",
          'InvalidStateError',
        );
      if (this.#readyState !== 1) {
        this.#buffered += 1; // discarded, as the native does
        return;
      }
      this.sent.push(value);
    }

    close(code?: number, reason?: string): void {
      if (this.#readyState >= 2) return;
      this.#readyState = 2;
      queueMicrotask(() => this.serverClose(code ?? 1005, reason ?? '', true));
    }

    // Test controls (a server's side of the socket).
    open(protocol = '', extensions = ''): void {
      this.#readyState = 1;
      this.#protocol = protocol;
      this.#extensions = extensions;
      this.dispatchEvent(new win.Event('open'));
    }
    deliver(data: string | ArrayBuffer | Uint8Array): void {
      let payload: unknown = data;
      if (typeof data !== 'string') {
        const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
        payload = this.#binaryType === 'blob' ? new win.Blob([bytes.slice()]) : bytes.slice().buffer;
      }
      this.dispatchEvent(new win.MessageEvent('message', { data: payload, origin: new URL(this.#url).origin }));
    }
    fail(): void {
      this.dispatchEvent(new win.Event('error'));
    }
    serverClose(code = 1000, reason = '', wasClean = true): void {
      this.#readyState = 3;
      this.dispatchEvent(new win.CloseEvent('close', { code, reason, wasClean }));
    }

    #get(type: string): Handler {
      return this.#handlers.get(type)?.fn ?? null;
    }
    /** HTML event handler attributes: registered where first set, replaced in place, removed by null. */
    #set(type: string, fn: Handler): void {
      const h = this.#handlers.get(type);
      if (typeof fn !== 'function') {
        if (h) this.removeEventListener(type, h.listener);
        this.#handlers.delete(type);
        return;
      }
      if (h) {
        h.fn = fn;
        return;
      }
      const entry = { fn, listener: (e: Event): void => void entry.fn?.call(this, e) };
      this.#handlers.set(type, entry);
      this.addEventListener(type, entry.listener);
    }
  }
  for (const [name, value] of Object.entries(STATES)) {
    Object.defineProperty(WebSocket, name, { value, enumerable: true });
    Object.defineProperty(WebSocket.prototype, name, { value, enumerable: true });
  }
  return WebSocket as unknown as FakeWebSocketClass;
}

/**
 * Makes the fake's constructor and `send` print like natives (as a browser engine would),
 * by masking them in `Function.prototype.toString`; returns the undo.
 */
export function simulateNativeToString(Fake: FakeWebSocketClass): () => void {
  const original = Function.prototype.toString;
  const natives = new Map<unknown, string>([
    [Fake, 'function WebSocket() { [native code] }'],
    [Fake.prototype.send, 'function send() { [native code] }'],
  ]);
  const engine = {
    toString(this: unknown): string {
      return natives.get(this) ?? (original.call(this as () => void) as string);
    },
  }.toString;
  natives.set(engine, 'function toString() { [native code] }');
  Object.defineProperty(Function.prototype, 'toString', { value: engine });
  return () => Object.defineProperty(Function.prototype, 'toString', { value: original });
}

export interface Posted {
  readonly batch: HookBatch;
  readonly transfer: ArrayBuffer[];
}

/**
 * Replaces `win.MessageChannel` and `win.MessagePort` (before the hook captures them) with a
 * channel whose near port records the hook's posts and hands each at once to the far port's
 * `onmessage` once someone (a relay) set it; returns the posts, a way to make the next posts
 * throw (as a post that cannot clone would) and the undo.
 */
export function recordPosts(win: Window & typeof globalThis): {
  posts: Posted[];
  /** What the hook posted that is not a batch (answers to actions). */
  replies: unknown[];
  /** Posts `message` to the hook on its private channel, as the relay would. */
  toHook(message: unknown): void;
  failNext(n: number): void;
  restore(): void;
} {
  const posts: Posted[] = [];
  const replies: unknown[] = [];
  const channels: RecordingChannel[] = [];
  let failures = 0;
  const saved = (['MessageChannel', 'MessagePort'] as const).map(
    (k) => [k, Object.getOwnPropertyDescriptor(win, k)] as const,
  );
  class RecordingPort {
    onmessage: ((e: { data: unknown }) => void) | null = null;
    other: RecordingPort | null = null;
    postMessage(batch: HookBatch, transfer: ArrayBuffer[]): void {
      if ((batch as { type?: unknown }).type !== 'hook-batch') {
        replies.push(batch);
        return;
      }
      if (failures > 0) {
        failures--;
        throw new win.DOMException('could not clone', 'DataCloneError');
      }
      posts.push({ batch, transfer });
      this.other?.onmessage?.({ data: batch });
    }
    close(): void {
      this.other = null;
    }
  }
  class RecordingChannel {
    readonly port1 = new RecordingPort();
    readonly port2 = new RecordingPort();
    constructor() {
      this.port1.other = this.port2;
      channels.push(this);
    }
  }
  Object.defineProperty(win, 'MessageChannel', { configurable: true, writable: true, value: RecordingChannel });
  Object.defineProperty(win, 'MessagePort', { configurable: true, writable: true, value: RecordingPort });
  return {
    posts,
    replies,
    toHook: (message) => channels.at(-1)?.port1.onmessage?.(new win.MessageEvent('message', { data: message })),
    failNext: (n) => void (failures = n),
    restore: () => {
      for (const [k, d] of saved) if (d) Object.defineProperty(win, k, d);
    },
  };
}

export const bytesOf = (data: ArrayBuffer): number[] => Array.from(new Uint8Array(data));
export const utf8 = (s: string): number[] => Array.from(new TextEncoder().encode(s));
