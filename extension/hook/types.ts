/**
 * Types of the page hook (MAIN world). Type-only imports: the hook bundle is injected into
 * every page and must stay tiny.
 */
import type { HookBatch } from '../shared/messages.js';

/**
 * A `HookBatch` with the hook's drop count. Proposed for messages.ts as an optional field
 * of `HookBatch`; kept here until then (a receiver that ignores it stays compatible).
 */
export interface HookBatchWithDrops extends HookBatch {
  /**
   * Frames the hook dropped so far in this document — cumulative, so a lost batch loses no
   * count (over the pending-bytes cap, unreadable Blobs, a failed post). Absent while 0.
   */
  readonly droppedFrames?: number;
}

export interface HookOptions {
  /** Post the pending batch this long after its first event (ms). Default 25. */
  readonly flushIntervalMs?: number;
  /** Post at once when the pending batch holds this many bytes. Default 1 MiB. */
  readonly maxBatchBytes?: number;
  /**
   * Bytes the hook may hold (the pending batch plus frames queued behind Blob reads);
   * frames beyond are dropped and counted. Default 64 MiB.
   */
  readonly maxPendingBytes?: number;
  /** Transfer the copied frame buffers to the relay (default) instead of cloning them. */
  readonly transfer?: boolean;
  /**
   * Record only browser-fired (`isTrusted`) socket events, so a page's synthetic
   * `dispatchEvent(new MessageEvent(...))` is not taken for a frame. Default true; tests
   * that drive a fake socket from script set it to false.
   */
  readonly trustedEventsOnly?: boolean;
}

export interface HookStats {
  readonly sockets: number;
  readonly batchesPosted: number;
  readonly droppedFrames: number;
  /** Bytes held now: the pending batch plus frames queued behind Blob reads. */
  readonly pendingBytes: number;
}

export interface HookHandle {
  /** False when a hook was already installed in this window (nothing was done). */
  readonly installed: boolean;
  /** Post the pending batch now (events queued behind an unread Blob stay queued). */
  flush(): void;
  /** Restore the page's WebSocket, `send` and `Function.prototype.toString`; stop posting. */
  uninstall(): void;
  stats(): HookStats;
}
