/**
 * The relay (isolated-world content script): takes the hook's batches off the window,
 * validates them, and forwards them to the background on a runtime port as `RelayBatch`es,
 * with frame bytes as base64 (Chrome: JSON-only messaging) or as Uint8Array (Firefox:
 * structured clone). Nothing is lost silently: refused or missing hook batches are counted
 * in `lostBatches`; frames too large to send (and those the hook dropped) in
 * `droppedFrames`; a relay batch that could not be sent leaves a gap in the relay's `seq`,
 * and `framesBefore` (which counts its frames) lets the background count them exactly.
 */
import { RELAY_PORT, type HookEvent, type RelayBatch, type RelayEvent, type WireBytes } from '../shared/messages.js';
import { toBase64 } from './base64.js';
import { parseHookBatch } from './validate.js';

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
  readonly bytesAs: 'base64' | 'bytes';
  /** Random per document when not given. */
  readonly documentId?: string;
  /** A hook batch is split into port messages of about this much frame payload. Default 8 MiB. */
  readonly maxMessageBytes?: number;
  /**
   * Frames whose encoded payload is larger are dropped and counted (Chrome refuses runtime
   * messages over 64 MiB). Default 48 MiB for base64, unlimited for bytes.
   */
  readonly maxFrameBytes?: number;
}

export interface RelayStats {
  readonly hookBatches: number;
  readonly lostBatches: number;
  readonly droppedFrames: number;
  readonly sentBatches: number;
  /** Relay batches that could not be posted (their seq is a gap the background reports). */
  readonly failedSends: number;
  /** Frames in all relay batches so far, sent or not (the next batch's `framesBefore`). */
  readonly frames: number;
  readonly connects: number;
}

export interface RelayHandle {
  readonly documentId: string;
  stop(): void;
  stats(): RelayStats;
}

function randomId(win: Window): string {
  const c = (win as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  let s = '';
  for (let i = 0; i < 4; i++) s += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  return s;
}

export function startRelay(options: RelayOptions): RelayHandle {
  const { win, runtime, bytesAs } = options;
  const documentId = options.documentId ?? randomId(win);
  const maxMessageBytes = options.maxMessageBytes ?? 8 << 20;
  const maxFrameBytes = options.maxFrameBytes ?? (bytesAs === 'base64' ? 48 << 20 : Infinity);
  let isTopFrame = false;
  try {
    isTopFrame = win.top === win;
  } catch {
    /* cross-origin parent: not the top frame */
  }
  let port: RelayPort | null = null;
  let lastHookSeq = 0;
  let seq = 0;
  let lost = 0;
  let hookDropped = 0;
  let relayDropped = 0;
  let hookBatches = 0;
  let sentBatches = 0;
  let failedSends = 0;
  let connects = 0;
  let framesBefore = 0;

  function connect(): RelayPort {
    const p = runtime.connect(RELAY_PORT);
    connects++;
    port = p;
    p.onDisconnect.addListener(() => {
      if (port === p) port = null; // the next batch reconnects (and wakes the service worker)
    });
    return p;
  }

  function send(events: RelayEvent[], frames: number): boolean {
    const dropped = hookDropped + relayDropped;
    let documentUrl = '';
    try {
      documentUrl = win.location.href;
    } catch {
      /* keep '' */
    }
    const base = { type: 'relay-batch', documentId, documentUrl, isTopFrame, seq: ++seq, events, lostBatches: lost, framesBefore } as const;
    const message: RelayBatch = dropped > 0 ? { ...base, droppedFrames: dropped } : base;
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

  function wire(data: ArrayBuffer): WireBytes {
    const bytes = new Uint8Array(data);
    return bytesAs === 'base64' ? { b64: toBase64(bytes) } : { bytes };
  }

  function forward(events: readonly HookEvent[]): void {
    let chunk: RelayEvent[] = [];
    let size = 0;
    let frames = 0;
    for (const ev of events) {
      let out: RelayEvent = ev as RelayEvent;
      let cost = 64;
      if (ev.type === 'frame') {
        const n = ev.data.byteLength;
        cost = bytesAs === 'base64' ? Math.ceil(n / 3) * 4 : n;
        if (cost > maxFrameBytes) {
          relayDropped++;
          continue;
        }
        out = { type: 'frame', socketId: ev.socketId, direction: ev.direction, opcode: ev.opcode, time: ev.time, data: wire(ev.data) };
      }
      if (chunk.length > 0 && size + cost > maxMessageBytes) {
        send(chunk, frames);
        chunk = [];
        size = 0;
        frames = 0;
      }
      chunk.push(out);
      size += cost;
      if (out.type === 'frame') frames++;
    }
    send(chunk, frames);
  }

  const onMessage = (event: MessageEvent): void => {
    if (event.source !== win) return;
    let batch: ReturnType<typeof parseHookBatch>;
    try {
      batch = parseHookBatch(event.data);
    } catch {
      batch = null; // a getter that throws: not the hook's (structured clones have none)
    }
    if (batch === undefined) return;
    if (batch === null || batch.seq <= lastHookSeq) {
      lost++; // malformed, or a replayed / forged seq
      return;
    }
    hookBatches++;
    lost += batch.seq - lastHookSeq - 1;
    lastHookSeq = batch.seq;
    if (batch.droppedFrames > hookDropped) hookDropped = batch.droppedFrames;
    forward(batch.events);
  };
  // Capture phase, registered at document_start: no page listener can stop it first.
  win.addEventListener('message', onMessage, true);

  return {
    documentId,
    stop(): void {
      win.removeEventListener('message', onMessage, true);
      const p = port;
      port = null;
      try {
        p?.disconnect?.();
      } catch {
        /* already gone */
      }
    },
    stats: () => ({
      hookBatches,
      lostBatches: lost,
      droppedFrames: hookDropped + relayDropped,
      sentBatches,
      failedSends,
      frames: framesBefore,
      connects,
    }),
  };
}
