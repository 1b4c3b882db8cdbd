/**
 * Collects hook events and posts them to the relay as `HookBatch`es: every
 * `flushIntervalMs` after the first pending event, or at once past `maxBatchBytes`. The
 * frames' buffers are the hook's own copies and go in the transfer list.
 */
import { CAPTURE_TAG, type HookEvent } from '../shared/messages.js';
import type { Natives } from './natives.js';
import type { HookBatchWithDrops } from './types.js';

export interface BatcherConfig {
  readonly intervalMs: number;
  readonly maxBatchBytes: number;
  readonly transfer: boolean;
  readonly targetOrigin: string;
}

export class Batcher {
  /** Bytes of frame data in the pending batch. */
  bytes = 0;
  posted = 0;
  /** Frames dropped so far (cumulative; reported in every batch once non-zero). */
  dropped = 0;
  active = true;
  private events: HookEvent[] = [];
  private transfers: ArrayBuffer[] = [];
  private seq = 0;
  private reportedDropped = 0;
  private timer: unknown = null;
  private readonly onTimer = (): void => {
    this.timer = null;
    this.flush();
  };

  constructor(
    private readonly n: Natives,
    private readonly cfg: BatcherConfig,
  ) {}

  add(ev: HookEvent, data: ArrayBuffer | null, bytes: number): void {
    if (!this.active) return;
    const events = this.events;
    events[events.length] = ev; // not push(): Array.prototype is the page's to patch
    if (data !== null && this.cfg.transfer) {
      const transfers = this.transfers;
      transfers[transfers.length] = data;
    }
    this.bytes += bytes;
    if (this.bytes >= this.cfg.maxBatchBytes) this.flush();
    else this.schedule();
  }

  drop(frames: number): void {
    this.dropped += frames;
    this.schedule();
  }

  flush(): void {
    if (this.timer !== null) {
      this.n.clearTimer(this.timer);
      this.timer = null;
    }
    const events = this.events;
    if (!this.active || (events.length === 0 && this.dropped === this.reportedDropped)) return;
    const transfers = this.transfers;
    this.events = [];
    this.transfers = [];
    this.bytes = 0;
    const seq = this.seq + 1;
    const dropped = this.dropped;
    const batch: HookBatchWithDrops =
      dropped > 0
        ? { tag: CAPTURE_TAG, type: 'hook-batch', seq, events, droppedFrames: dropped }
        : { tag: CAPTURE_TAG, type: 'hook-batch', seq, events };
    try {
      this.n.post(batch, this.cfg.targetOrigin, transfers);
      this.seq = seq;
      this.posted++;
      this.reportedDropped = dropped;
    } catch {
      // Nothing went out (the seq is not used): count the frames; the next batch says so.
      let frames = 0;
      for (let i = 0; i < events.length; i++) if (events[i].type === 'frame') frames++;
      this.dropped += frames;
    }
  }

  stop(): void {
    if (this.timer !== null) this.n.clearTimer(this.timer);
    this.timer = null;
    this.active = false;
  }

  private schedule(): void {
    if (this.timer === null && this.active) this.timer = this.n.setTimer(this.onTimer, this.cfg.intervalMs);
  }
}
