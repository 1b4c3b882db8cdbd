/**
 * Types of the page hook (MAIN world). Type-only imports: the hook bundle is injected into
 * every page and must stay tiny.
 */
export interface HookOptions {
  /** Post the pending batch this long after its first event (ms). Default 25. */
  readonly flushIntervalMs?: number;
  /**
   * Post at once when the pending batch holds this many bytes. Default 256 KiB: the relay
   * handles a batch in one task of the page's main thread, so this bounds that task.
   */
  readonly maxBatchBytes?: number;
  /** Post at once when the pending batch holds this many frames and socket events. Default 8192. */
  readonly maxBatchEvents?: number;
  /**
   * Under a flood — the last batch held `floodThresholdBytes` (default 64 KiB) or more — post
   * `floodIntervalMs` (default 100) after the first pending event, or at once at
   * `floodBatchBytes` (default 1 MiB; never under `maxBatchBytes`): fewer, larger relay posts.
   */
  readonly floodIntervalMs?: number;
  readonly floodBatchBytes?: number;
  readonly floodThresholdBytes?: number;
  /**
   * Bytes the hook may hold (the pending batch plus frames queued behind Blob reads);
   * frames beyond are dropped and counted. Default 64 MiB.
   */
  readonly maxPendingBytes?: number;
  /** Transfer the batch's frame table and byte slab to the relay (default) instead of cloning them. */
  readonly transfer?: boolean;
  /**
   * Record only browser-fired (`isTrusted`) socket events, so a page's synthetic
   * `dispatchEvent(new MessageEvent(...))` is not taken for a frame. Default true; tests
   * that drive a fake socket from script set it to false.
   */
  readonly trustedEventsOnly?: boolean;
  /**
   * The secret in the names of the private channel's handshake events (shared/channel.ts);
   * the content script passes the build's `__CHANNEL_SECRET__`. Default '' (tests).
   */
  readonly channelSecret?: string;
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
