/**
 * The relay (isolated-world content script): takes the hook's batches off the hook's
 * private MessageChannel (handed over once at document_start, shared/channel.ts; nothing
 * travels on the page's window), validates them, and forwards them to the background on a runtime port as `RelayBatch`es:
 * the frame table and the frames' bytes each as one Uint8Array where runtime messaging is a
 * structured clone (Firefox; Chrome 148+ with `message_serialization`) or one base64 string
 * where it is JSON (older Chrome), whatever the frame count. Nothing is lost silently: refused or missing hook batches are counted
 * in `lostBatches` and their frames in `lostHookFrames` (a refusal is reported at once);
 * the hook's rows for frames it dropped go on as placeholder rows; frames too large to send (and those the hook dropped) in
 * `droppedFrames`; a relay batch that could not be sent leaves a gap in the relay's `seq`,
 * and `framesBefore` (which counts its frames) lets the background count them exactly.
 */
import { channelNames } from '../shared/channel.js';
import {
  FRAME_COLUMNS,
  FRAME_ROW_BYTES,
  MAX_LOST_FRAME_ROWS,
  RELAY_PORT,
  type BatchEvent,
  type LostFrameRow,
  type RelayBatch,
  type RelayHello,
  type WireBytes,
  type WireCapture,
  type WireFrameBytes,
} from '../shared/messages.js';
import { hookActionOf, parseRelayAction, relayActionResultOf } from './actions.js';
import { hookHoldOf, hookRulesOf, parseRelayHold, parseRelayRules, RELEASE } from './intercept.js';
import { toBase64 } from './base64.js';
import { splitBatch } from './split.js';
import { parseHookBatch, type ParsedHookBatch } from './validate.js';

export interface PortEvent<F> {
  addListener(listener: F): void;
}

/** The part of a `chrome.runtime.Port` the relay uses. */
export interface RelayPort {
  postMessage(message: unknown): void;
  readonly onMessage: PortEvent<(message: unknown) => void>;
  readonly onDisconnect: PortEvent<(port: RelayPort) => void>;
  disconnect?(): void;
}

export interface RelayRuntime {
  connect(name: string): RelayPort;
}

export interface RelayOptions {
  readonly win: Window;
  readonly runtime: RelayRuntime;
  /**
   * How frame bytes travel: `bytes` where runtime messaging is a structured clone (Firefox),
   * `base64` where it is JSON, `probe` where it depends (Chrome: JSON, or structured clone
   * from Chrome 148 with the manifest's `message_serialization`): base64 until the
   * background answers the `relay-hello` each new port starts with that a Uint8Array
   * arrived as one, bytes from then on — or, when its Blob probe arrived as a Blob too, frame
   * bytes as one Blob per relay batch (the table stays bytes).
   */
  readonly bytesAs: 'base64' | 'bytes' | 'probe';
  /** Random per document when not given. */
  readonly documentId?: string;
  /**
   * A hook batch is split into port messages of about this much encoded payload (frame bytes
   * and table rows). Default: 64 KiB for base64, so that each message's base64 and JSON
   * strings stay below V8's large-object size (128 KiB) and die young instead of filling
   * the page's old generation at the capture rate (full GCs: long page tasks); 2 MiB for
   * bytes (not strings on the heap), so a hook batch (up to 1 MiB under a flood, with its
   * table rows) is one post; 4 MiB in Blob mode.
   */
  readonly maxMessageBytes?: number;
  /**
   * Frames whose encoded payload is larger are dropped and counted (Chrome refuses runtime
   * messages over 64 MiB). Default 48 MiB in Chrome (base64 or bytes), unlimited for Firefox's
   * bytes and for Blobs (the message holds only a handle).
   */
  readonly maxFrameBytes?: number;
  /**
   * In Blob mode, frame bytes under this size go as bytes: a Blob has a fixed cost (~0.2 ms
   * of the page's main thread and ~0.8 ms across the browser's threads per Blob, measured in
   * Chrome 156), so it only pays for larger batches. Default 64 KiB.
   */
  readonly minBlobBytes?: number;
  /** The secret in the handshake's event names (shared/channel.ts); the content script passes the build's. Default '' (tests). */
  readonly channelSecret?: string;
}

export interface RelayStats {
  /** How frame bytes travel now. */
  readonly bytesAs: WireAs;
  readonly hookBatches: number;
  readonly lostBatches: number;
  /** Frames in those batches. */
  readonly lostHookFrames: number;
  readonly droppedFrames: number;
  readonly sentBatches: number;
  /** Relay batches that could not be posted (their seq is a gap the background reports). */
  readonly failedSends: number;
  /** Frames in all relay batches so far, sent or not (the next batch's `framesBefore`). */
  readonly frames: number;
  readonly connects: number;
}

/** How bytes travel: base64 strings (JSON messaging), bytes (structured clone), or frame bytes as Blobs (structured clone with Blobs; tables as bytes). */
export type WireAs = 'base64' | 'bytes' | 'blob';

export interface RelayHandle {
  readonly documentId: string;
  stop(): void;
  stats(): RelayStats;
}

function randomId(win: Window): string {
  const c = (win as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  let s = '';
  for (let i = 0; i < 4; i++)
    s += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return s;
}

export function startRelay(options: RelayOptions): RelayHandle {
  const { win, runtime, bytesAs } = options;
  const documentId = options.documentId ?? randomId(win);
  let wireAs: WireAs = bytesAs === 'bytes' ? 'bytes' : 'base64';
  // This world's own Blob (the isolated world's in Chrome: the page cannot patch it).
  const BlobCtor = typeof globalThis.Blob === 'function' ? globalThis.Blob : null;
  let isTopFrame = false;
  try {
    isTopFrame = win.top === win;
  } catch {
    /* cross-origin parent: not the top frame */
  }
  // When this document's navigation started: the background tells a new page's frames from the old page's by it.
  let documentStart: number | undefined;
  try {
    const origin = win.performance?.timeOrigin;
    if (typeof origin === 'number' && Number.isFinite(origin)) documentStart = origin;
  } catch {
    /* no performance timeline */
  }
  let port: RelayPort | null = null;
  let lastHookSeq = 0;
  let seq = 0;
  let lost = 0;
  /** Frames in the hook batches lost or refused, and frames the hook's batches held so far (counted or received). */
  let lostHookFrames = 0;
  let hookFrames = 0;
  let hookDropped = 0;
  let relayDropped = 0;
  let hookBatches = 0;
  let sentBatches = 0;
  let failedSends = 0;
  let connects = 0;
  let framesBefore = 0;
  /** Frames dropped for size, not yet sent as rows: each goes with the first batch after it (placeholder rows in the panel). */
  let lostRows: { index: number; row: LostFrameRow }[] = [];

  function connect(): RelayPort {
    const p = runtime.connect(RELAY_PORT);
    connects++;
    port = p;
    p.onDisconnect.addListener(() => {
      if (port === p) port = null; // the next batch reconnects (and wakes the service worker)
      // The extension went away (reloaded, updated): its rules go, held frames are forwarded.
      try {
        hookPort?.postMessage(RELEASE);
      } catch {
        /* the hook's channel is closed */
      }
    });
    // The extension's actions for this document's sockets: on to the hook, on its private channel.
    p.onMessage.addListener((m) => {
      const rules = parseRelayRules(m);
      if (rules !== null) return void hookPort?.postMessage(hookRulesOf(rules));
      const held = parseRelayHold(m);
      if (held !== null) {
        if (hookPort === null)
          return void p.postMessage({
            type: 'relay-action-result',
            requestId: held.requestId,
            ok: false,
            error: 'no hook here',
          });
        const forHook = hookHoldOf(held);
        return void hookPort.postMessage(forHook, forHook.bytes === null ? [] : [forHook.bytes]);
      }
      const action = parseRelayAction(m);
      if (action === null) return;
      if (hookPort === null) {
        p.postMessage({ type: 'relay-action-result', requestId: action.requestId, ok: false, error: 'no hook here' });
        return;
      }
      const forHook = hookActionOf(action);
      hookPort.postMessage(forHook, [forHook.bytes]);
    });
    if (bytesAs === 'probe' && wireAs === 'base64') {
      p.onMessage.addListener((m) => {
        if (
          typeof m !== 'object' ||
          m === null ||
          (m as { type?: unknown }).type !== 'relay-config' ||
          (m as { bytes?: unknown }).bytes !== true
        )
          return;
        wireAs = (m as { blobs?: unknown }).blobs === true && BlobCtor !== null ? 'blob' : 'bytes';
      });
      const hello: RelayHello = BlobCtor
        ? {
            type: 'relay-hello',
            probe: new Uint8Array([1, 2, 3]),
            probeBlob: new BlobCtor([new Uint8Array([1, 2, 3])]),
          }
        : { type: 'relay-hello', probe: new Uint8Array([1, 2, 3]) };
      p.postMessage(hello); // first on the port; a throw here is the caller's stale-port retry
    }
    return p;
  }

  function send(capture: WireCapture, frames: number, lostFrames: readonly LostFrameRow[] = []): boolean {
    const dropped = hookDropped + relayDropped;
    let documentUrl = '';
    try {
      documentUrl = win.location.href;
    } catch {
      /* keep '' */
    }
    const base = {
      type: 'relay-batch',
      documentId,
      documentUrl,
      isTopFrame,
      ...(documentStart === undefined ? {} : { documentStart }),
      seq: ++seq,
      ...capture,
      lostBatches: lost,
      lostHookFrames,
      framesBefore,
    } as const;
    const counted: RelayBatch = dropped > 0 ? { ...base, droppedFrames: dropped } : base;
    const message: RelayBatch = lostFrames.length
      ? { ...counted, lostFrames: lostFrames.slice(0, MAX_LOST_FRAME_ROWS) }
      : counted;
    framesBefore += frames; // sent or not: a failed batch's frames show in the next one's framesBefore
    // A stale port (its disconnect not yet delivered) throws: reconnect once and retry.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        (port ?? connect()).postMessage(message);
        sentBatches++;
        return true;
      } catch {
        const p = port;
        port = null;
        try {
          p?.disconnect?.();
        } catch {
          /* already gone */
        }
      }
    }
    failedSends++;
    return false;
  }

  /**
   * Bytes as they go on the port: one base64 string, or bytes that own their whole buffer
   * (structured clone copies a view's whole buffer: `own` says `bytes` is exactly its
   * buffer, so it goes as is, not copied a second time).
   */
  function wire(bytes: Uint8Array, own = false): WireBytes {
    if (wireAs === 'base64') return { b64: toBase64(bytes) };
    return {
      bytes: own && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice(),
    };
  }

  /** Frame bytes as they go on the port: as `wire`, or one Blob (its constructor takes the only copy) from `minBlobBytes` on. */
  function wireFrames(bytes: Uint8Array): WireFrameBytes {
    const blob = wireAs === 'blob' && BlobCtor !== null && bytes.byteLength >= (options.minBlobBytes ?? 64 << 10);
    return blob ? { blob: new BlobCtor([bytes as Uint8Array<ArrayBuffer>]) } : wire(bytes, true);
  }

  /**
   * `opening` and `worker` events with the document they happened in, read here (the page
   * cannot set it): its URL and origin ('null' in a sandboxed frame).
   */
  function withDocument(events: BatchEvent[]): BatchEvent[] {
    let doc: { documentUrl: string; documentOrigin: string } | null = null;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (e.type !== 'opening' && e.type !== 'worker') continue;
      if (doc === null) {
        doc = { documentUrl: '', documentOrigin: '' };
        try {
          doc.documentUrl = win.location.href;
          doc.documentOrigin = String(win.origin);
        } catch {
          /* keep what was read */
        }
      }
      events[i] = { ...e, ...doc };
    }
    return events;
  }

  /** Posts a checked hook batch as one or more relay batches (split.ts). */
  function forward(batch: ParsedHookBatch): void {
    withDocument(batch.events);
    // The hook's rows for frames it dropped go with the first relay batch (index -1: before every run).
    for (const row of batch.lostFrames) lostRows.push({ index: -1, row });
    const table = new Uint8Array(batch.table.buffer, batch.table.byteOffset, batch.table.byteLength);
    const cost = wireAs === 'base64' ? (n: number) => Math.ceil(n / 3) * 4 : (n: number) => n;
    const maxMessageBytes =
      options.maxMessageBytes ?? (wireAs === 'base64' ? 64 << 10 : wireAs === 'bytes' ? 2 << 20 : 4 << 20);
    // Chrome refuses messages over 64 MiB, JSON or structured clone; a Blob is not in the message.
    const maxFrameBytes = options.maxFrameBytes ?? (bytesAs === 'bytes' || wireAs === 'blob' ? Infinity : 48 << 20);
    splitBatch(
      batch,
      { cost, maxMessageBytes, maxFrameBytes },
      (run) => {
        const frameTable = wire(table.subarray(run.first * FRAME_ROW_BYTES, run.end * FRAME_ROW_BYTES), true);
        // Rows of frames dropped before this run (not those the run ends at: they follow it).
        const due = lostRows.filter((l) => l.index < run.first).map((l) => l.row);
        lostRows = lostRows.filter((l) => l.index >= run.first);
        send(
          { events: run.events, frameTable, frameBytes: wireFrames(batch.bytes.subarray(run.firstByte, run.endByte)) },
          run.end - run.first,
          due,
        );
      },
      (index) => {
        relayDropped++;
        const r = index * FRAME_COLUMNS;
        const t = batch.table;
        lostRows.push({
          index,
          row: { socketId: t[r]!, flags: t[r + 1]!, time: t[r + 2]!, length: t[r + 3]!, why: 'too-large' },
        });
      },
    );
    lostRows = []; // every run of this batch is sent; indexes are per batch
  }

  const onMessage = (event: MessageEvent): void => {
    const answer = relayActionResultOf(event.data);
    if (answer !== null) {
      try {
        port?.postMessage(answer);
      } catch {
        /* the background is gone: the panel's request times out there */
      }
      return;
    }
    let batch: ReturnType<typeof parseHookBatch>;
    try {
      // In Blob mode the bytes are not copied out: the Blob constructor copies them, in this
      // task, from a buffer the hook transferred (no page script holds it or runs meanwhile).
      batch = parseHookBatch(event.data, wireAs !== 'blob');
    } catch {
      batch = null; // a getter that throws: not the hook's (structured clones have none)
    }
    if (batch === undefined) return;
    if (batch === null || batch.seq <= lastHookSeq) {
      lost++; // malformed, or a replayed / forged seq
      // Its frames, as far as it says (the next batch's framesBefore corrects the count), and
      // the loss reported now, in an empty relay batch, not when a later batch comes.
      const claimed = claimedFrames(event.data);
      // Refused as the next batch: its seq is accounted for, the next one is no gap.
      if (batch === null && readField(event.data, 'seq') === lastHookSeq + 1) lastHookSeq++;
      lostHookFrames += claimed;
      hookFrames += claimed;
      send({ events: [], frameTable: wire(new Uint8Array(0)), frameBytes: wire(new Uint8Array(0)) }, 0);
      return;
    }
    hookBatches++;
    lost += batch.seq - lastHookSeq - 1;
    lastHookSeq = batch.seq;
    // Batches that never came (or were refused) held the frames the hook counted before this one.
    if (batch.framesBefore !== undefined && batch.framesBefore > hookFrames) {
      lostHookFrames += batch.framesBefore - hookFrames;
      hookFrames = batch.framesBefore;
    }
    hookFrames += batch.frameCount;
    if (batch.droppedFrames > hookDropped) hookDropped = batch.droppedFrames;
    forward(batch);
  };
  /** A refused batch's field, read once (a getter may throw). */
  function readField(data: unknown, name: 'seq' | 'frameCount'): unknown {
    try {
      return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
    } catch {
      return undefined;
    }
  }

  /** A refused batch's own frame count when it has a plausible one, else 0. */
  function claimedFrames(data: unknown): number {
    const n = readField(data, 'frameCount');
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 0;
  }
  // The handshake (shared/channel.ts): take the first port the hook offers, then stop
  // listening, so nothing offered later (by a page that learnt the names) is taken.
  const names = channelNames(options.channelSecret ?? '');
  let hookPort: MessagePort | null = null;
  const onOffer = (event: Event): void => {
    if (hookPort !== null) return;
    const ports = (event as MessageEvent).ports;
    const p = ports && ports.length === 1 ? ports[0] : undefined;
    if (!p) return;
    event.preventDefault(); // tells the hook its port was taken
    event.stopImmediatePropagation();
    hookPort = p;
    win.removeEventListener(names.offer, onOffer, true);
    p.onmessage = onMessage;
  };
  win.addEventListener(names.offer, onOffer, true);
  // The hook may have installed first: ask it to offer again (synchronously, before the page runs).
  if (hookPort === null) win.dispatchEvent(new Event(names.ready, { cancelable: true }));

  return {
    documentId,
    stop(): void {
      win.removeEventListener(names.offer, onOffer, true);
      if (hookPort !== null) {
        hookPort.onmessage = null;
        hookPort.close();
      }
      const p = port;
      port = null;
      try {
        p?.disconnect?.();
      } catch {
        /* already gone */
      }
    },
    stats: () => ({
      bytesAs: wireAs,
      hookBatches,
      lostBatches: lost,
      lostHookFrames,
      droppedFrames: hookDropped + relayDropped,
      sentBatches,
      failedSends,
      frames: framesBefore,
      connects,
    }),
  };
}
