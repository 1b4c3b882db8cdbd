/**
 * The app's `Transport` over a runtime port to the background. It subscribes on connect,
 * converts background batches into HostMessages (PanelConverter), buffers them until the app
 * listens, and reconnects when the port drops (Chrome stops idle service workers): it then
 * resumes from its cursor, so nothing arrives twice, and whatever the restart lost reaches
 * the app as `dropped` (the background's `gap` items, counted against what this panel has).
 * Work is sliced: items are converted and delivered a few milliseconds at a time
 * (`sliceMs`), the rest after the browser had a turn, so a large backlog (a hostile page's
 * 70,000 connection events) or a flood never holds the panel's main thread: the panel comes
 * up and stays responsive while the backlog streams in.
 * Frame bytes that arrive as Blobs (Chrome: relay/README.md) are read as they arrive, all at
 * once, and items are converted in order: nothing after an item whose Blob is still being
 * read is delivered before it.
 * Pure: the port comes from a `connect` function, so tests pass a fake.
 */
import { encodeBase64 } from '../../codecs/core/base64.js';
import {
  PROTOCOL_VERSION,
  type AppMessage,
  type HostMessage,
  type InterceptRuleSpec,
} from '../../inspector-app/src/protocol/messages.js';
import type { Transport } from '../../inspector-app/src/protocol/transport.js';
import type {
  PanelActionResult,
  PanelOptions,
  PanelCursor,
  PanelHeld,
  PanelItem,
  PanelRequest,
  PanelTailItem,
} from '../shared/messages.js';
import { isPanelBatch, isPanelHeld, PanelConverter } from './convert.js';
import { heldMessage, isPanelTail, tailMessage } from './held-messages.js';

/** The part of a runtime port this transport uses (browser.runtime.Port fits). */
export interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: { addListener(listener: (message: unknown) => void): void };
  readonly onDisconnect: { addListener(listener: () => void): void };
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface PortTransportOptions {
  /** Opens a new port to the background; may throw when the extension is gone. */
  readonly connect: () => PortLike;
  readonly timers?: Timers;
  /** Delays before reconnect attempts; the last one repeats. */
  readonly reconnectDelays?: readonly number[];
  /** Keeps a Chrome service worker awake while the panel is open (each message resets its idle timer). */
  readonly pingMs?: number;
  readonly hostName?: string;
  readonly log?: (message: string) => void;
  /** Milliseconds of converting and delivering per task before yielding (default 8). */
  readonly sliceMs?: number;
  readonly now?: () => number;
  /** Reads a Blob's bytes (null when it cannot be read); default `Blob.prototype.arrayBuffer`. */
  readonly readBlob?: (blob: Blob) => Promise<Uint8Array | null>;
}

function isPanelActionResult(m: unknown): m is PanelActionResult {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  return (
    o.type === 'panel-action-result' &&
    typeof o.requestId === 'number' &&
    typeof o.ok === 'boolean' &&
    (o.error === undefined || typeof o.error === 'string')
  );
}

function isPanelOptions(m: unknown): m is PanelOptions {
  if (typeof m !== 'object' || m === null) return false;
  const o = m as Record<string, unknown>;
  return o.type === 'panel-options' && typeof o.actions === 'boolean';
}

const defaultReadBlob = (blob: Blob): Promise<Uint8Array | null> =>
  blob.arrayBuffer().then(
    (b) => new Uint8Array(b),
    () => null,
  );

/**
 * An item as received; `reading` while its Blob of frame bytes is being read (it then
 * replaces `item`). Or a message for the app (the background's held count, the live tail:
 * `reading` while the tail's Blobs are read), kept in line so it reaches the app after the
 * items that came before it.
 */
type Inbound = { item: PanelItem; reading: boolean } | { host: HostMessage; reading: boolean };

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
};

export class PortTransport implements Transport {
  private readonly handlers = new Set<(message: HostMessage) => void>();
  /** Converted, not yet delivered (in order), from `outHead` on. */
  private outbox: HostMessage[] = [];
  private outHead = 0;
  /** Received from the background, not yet converted, from `inHead` on. */
  private inbox: Inbound[] = [];
  private inHead = 0;
  private drainTimer: unknown = null;
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly converter = new PanelConverter();
  private readonly timers: Timers;
  private readonly delays: readonly number[];
  private port: PortLike | null = null;
  private cursor: PanelCursor | undefined;
  private attempts = 0;
  private reconnectTimer: unknown = null;
  private pingTimer: unknown = null;
  private closed = false;
  /** The last held count passed on was not 0 (a dropped port then clears it). */
  private heldShown = false;
  /** The last live tail passed on had frames (a dropped port then clears it: the backlog brings them). */
  private tailShown = false;
  /** The intercept rules the app set last (sent again on a new port). */
  private rules: readonly InterceptRuleSpec[] = [];
  /** Ports opened so far (1 + reconnects); for tests and diagnostics. */
  connections = 0;

  constructor(private readonly options: PortTransportOptions) {
    this.timers = options.timers ?? defaultTimers;
    this.delays = options.reconnectDelays ?? [100, 250, 500, 1000, 2000];
    this.sliceMs = options.sliceMs ?? 8;
    this.now = options.now ?? (() => globalThis.performance.now());
    this.deliver({ type: 'hello', protocolVersion: PROTOCOL_VERSION, host: options.hostName ?? 'extension' });
    this.open();
  }

  listen(handler: (message: HostMessage) => void): () => void {
    this.handlers.add(handler);
    // What arrived before the app listened is delivered, in order (a slice now, the rest soon).
    this.drain();
    return () => this.handlers.delete(handler);
  }

  /**
   * The panel opens no connections of its own; it passes on "Show now" (`show-held`) and the
   * actions on the page (`frame-action`: Send again, Deliver to page), whose answers come back
   * as `frame-action-result` (at once when the extension cannot be reached).
   */
  send(message: AppMessage): void {
    if (message.type === 'show-held') this.request({ type: 'panel-release' });
    else if (message.type === 'frame-action') {
      const sent = this.request({
        type: 'panel-action',
        requestId: message.requestId,
        action: message.action,
        connectionId: message.connectionId,
        binary: message.opcode === 'binary',
        b64: encodeBase64(message.data),
      });
      if (!sent) this.passActionResult(message.requestId, false, 'the extension cannot be reached; reopen DevTools');
    } else if (message.type === 'set-intercept-rules') {
      this.rules = message.rules;
      this.request({ type: 'panel-rules', rules: message.rules });
    } else if (message.type === 'hold-action') {
      const edit =
        message.action === 'edit'
          ? { binary: message.opcode === 'binary', b64: encodeBase64(message.data ?? new Uint8Array(0)) }
          : {};
      const sent = this.request({
        type: 'panel-hold',
        requestId: message.requestId,
        action: message.action,
        connectionId: message.connectionId,
        direction: message.direction,
        seq: message.seq,
        ...edit,
      });
      if (!sent) this.passActionResult(message.requestId, false, 'the extension cannot be reached; reopen DevTools');
    }
  }

  /** An action's answer, in line with what came before it. */
  private passActionResult(requestId: number, ok: boolean, error?: string): void {
    this.inbox.push({
      host:
        error === undefined
          ? { type: 'frame-action-result', requestId, ok }
          : { type: 'frame-action-result', requestId, ok, error },
      reading: false,
    });
    this.drain();
  }

  /** Stops for good (tests; the page going away needs nothing). */
  close(): void {
    this.closed = true;
    this.stopPing();
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    if (this.drainTimer !== null) this.timers.clearTimeout(this.drainTimer);
    const port = this.port;
    this.port = null;
    port?.disconnect();
  }

  private deliver(message: HostMessage): void {
    this.outbox.push(message);
  }

  /** Messages and items still queued (for tests and diagnostics). */
  get queued(): number {
    return this.outbox.length - this.outHead + this.inbox.length - this.inHead;
  }

  /**
   * Converts and delivers in order until the queues are empty or this task's slice is used
   * up; then yields and goes on in a later task. Nothing is delivered before the app listens.
   */
  private drain(): void {
    if (this.handlers.size === 0 || this.drainTimer !== null) return;
    const start = this.now();
    let n = 0;
    for (;;) {
      if (this.outHead < this.outbox.length) {
        const message = this.outbox[this.outHead++]!;
        for (const h of this.handlers) h(message);
      } else if (this.inHead < this.inbox.length) {
        const inbound = this.inbox[this.inHead]!;
        if (inbound.reading) return; // its read's end drains again; everything after it waits
        this.inHead++;
        this.outbox = 'host' in inbound ? [inbound.host] : this.converter.convert([inbound.item]);
        this.outHead = 0;
      } else {
        this.outbox = [];
        this.outHead = 0;
        this.inbox = [];
        this.inHead = 0;
        return;
      }
      if (++n % 32 === 0 && this.now() - start >= this.sliceMs) break;
    }
    // Let go of what is done, then go on after the browser had its turn.
    if (this.inHead > 4096) {
      this.inbox = this.inbox.slice(this.inHead);
      this.inHead = 0;
    }
    this.drainTimer = this.timers.setTimeout(() => {
      this.drainTimer = null;
      this.drain();
    }, 0);
  }

  /** The item, its Blob of frame bytes (if any) being read into bytes meanwhile. */
  private inbound(item: PanelItem): Inbound {
    if (
      typeof item !== 'object' ||
      item === null ||
      item.type !== 'events' ||
      typeof item.frameBytes !== 'object' ||
      item.frameBytes === null ||
      !('blob' in item.frameBytes)
    )
      return { item, reading: false };
    const entry: Inbound = { item, reading: true };
    const settle = (bytes: Uint8Array | null): void => {
      // Unreadable: the item goes on without bytes (its frames counted as undecodable).
      entry.item = { ...item, frameBytes: bytes ? { bytes } : { b64: '' } };
      entry.reading = false;
      this.drain();
    };
    let reading: Promise<Uint8Array | null>;
    try {
      reading = (this.options.readBlob ?? defaultReadBlob)(item.frameBytes.blob);
    } catch {
      reading = Promise.resolve(null);
    }
    reading.then(settle, () => settle(null));
    return entry;
  }

  private open(): void {
    this.reconnectTimer = null;
    if (this.closed) return;
    let port: PortLike;
    try {
      port = this.options.connect();
    } catch (e) {
      // The extension was reloaded or removed: this page can no longer reach it.
      this.options.log?.(`wirescope: cannot reach the extension (${String(e)}); reopen DevTools`);
      this.closed = true;
      return;
    }
    this.port = port;
    this.connections++;
    port.onMessage.addListener((message) => {
      if (port !== this.port) return;
      if (isPanelHeld(message)) {
        this.passHeld(message);
        return;
      }
      if (isPanelTail(message)) {
        this.passTail(message.items);
        return;
      }
      if (isPanelActionResult(message)) {
        this.passActionResult(message.requestId, message.ok, message.error);
        return;
      }
      if (isPanelOptions(message)) {
        this.inbox.push({ host: { type: 'page-actions', allowed: message.actions }, reading: false });
        this.drain();
        return;
      }
      if (!isPanelBatch(message)) return;
      this.attempts = 0;
      this.cursor = { bufferId: message.bufferId, cursor: message.cursor, framesThrough: message.framesThrough };
      for (const item of message.items) this.inbox.push(this.inbound(item));
      this.drain();
    });
    port.onDisconnect.addListener(() => {
      if (port !== this.port) return;
      this.port = null;
      // What the background held for this port comes to the next one as its backlog.
      if (this.tailShown) this.passTail([]);
      if (this.heldShown) this.passHeld({ type: 'panel-held', frames: 0, bytes: 0 });
      this.stopPing();
      if (this.closed) return;
      const delay = this.delays[Math.min(this.attempts, this.delays.length - 1)] ?? 1000;
      this.attempts++;
      this.reconnectTimer = this.timers.setTimeout(() => this.open(), delay);
    });
    this.request({ type: 'panel-subscribe', ...(this.cursor ? { since: this.cursor } : {}) });
    // A new port (the background restarted): the rules, which ended with the old port, again.
    if (this.rules.length > 0) this.request({ type: 'panel-rules', rules: this.rules });
    this.stopPing();
    const pingMs = this.options.pingMs ?? 20_000;
    if (pingMs > 0) this.pingTimer = this.timers.setInterval(() => this.request({ type: 'panel-ping' }), pingMs);
  }

  /** The background's held count, in line with the items before it. */
  private passHeld(held: PanelHeld): void {
    this.heldShown = held.frames > 0 || held.bytes > 0;
    this.inbox.push({ host: heldMessage(held), reading: false });
    this.drain();
  }

  /** The live tail, in line; its Blobs of frame bytes (if any) are read first, everything after it waiting. */
  private passTail(items: readonly PanelTailItem[]): void {
    this.tailShown = items.length > 0;
    const blobs = items.filter((i) => 'blob' in i.frameBytes);
    if (!blobs.length) {
      this.inbox.push({ host: tailMessage(items), reading: false });
      this.drain();
      return;
    }
    const entry: Inbound = { host: { type: 'tail', frames: [] }, reading: true };
    this.inbox.push(entry);
    const read = this.options.readBlob ?? defaultReadBlob;
    const readItem = (i: PanelTailItem): Promise<PanelTailItem> => {
      if (!('blob' in i.frameBytes)) return Promise.resolve(i);
      let reading: Promise<Uint8Array | null>;
      try {
        reading = read(i.frameBytes.blob);
      } catch {
        reading = Promise.resolve(null);
      }
      // Unreadable: the item gives no frame (its table no longer adds up).
      return reading.then(
        (bytes) => ({ ...i, frameBytes: bytes ? { bytes } : { b64: '' } }),
        () => ({ ...i, frameBytes: { b64: '' } }),
      );
    };
    void Promise.all(items.map(readItem)).then((readItems) => {
      entry.host = tailMessage(readItems);
      entry.reading = false;
      this.drain();
    });
  }

  /** Posts to the background; false when there is no port (or it just went). */
  private request(message: PanelRequest): boolean {
    if (!this.port) return false;
    try {
      this.port.postMessage(message);
      return true;
    } catch {
      // Disconnected; onDisconnect schedules the reconnect.
      return false;
    }
  }

  private stopPing(): void {
    if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}
