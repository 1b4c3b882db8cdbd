/**
 * Rows under a flood. At 10,000 frames/s, reading every frame one level deep for its list
 * row takes the decode worker most of a core, which a page under a flood needs (on a
 * 2-core machine the panel and the page share them). So while frames arrive faster than
 * `framesPerWindow` per `windowMs`, the worker only keeps their bytes and lists them as
 * waiting rows (time, direction, size); it reads them, in arrival order, once the flood
 * has been calm for `calmMs`, or at once when a row comes into view, a request names a
 * frame, or a filter needs every row. Nothing is dropped: only the reading waits.
 * This class is the queue and the clock; dispatcher.ts does the reading.
 */
import type { FrameSummary, IngestFrame } from './api.js';

export interface FloodOptions {
  /** More frames than this within `windowMs` is a flood. */
  readonly framesPerWindow: number;
  readonly windowMs: number;
  /** How long arrivals must stay under the flood rate before the waiting rows are read. */
  readonly calmMs: number;
  /** Runs `run` after `ms` (default setTimeout; tests pass their own). */
  readonly later?: (run: () => void, ms: number) => void;
}

/** 2,000 frames/s and up is a flood; reading starts 150 ms after it ends. */
export const DEFAULT_FLOOD: FloodOptions = { framesPerWindow: 100, windowMs: 50, calmMs: 150 };

/** The row of a frame whose reading waits: what is known without reading it. */
export function waitingSummary(frame: IngestFrame): FrameSummary {
  return waitingRow(frame, frame.data.byteLength);
}

/** The same from what it says (summary-packing.ts makes them again on the main thread). */
export function waitingRow(
  frame: Pick<IngestFrame, 'frameId' | 'connectionId' | 'direction' | 'time' | 'opcode'>,
  size: number,
): FrameSummary {
  const { frameId, connectionId, direction, time, opcode } = frame;
  return {
    frameId,
    connectionId,
    direction,
    time,
    opcode,
    size,
    format: null,
    preview: '',
    error: null,
    waiting: true,
  };
}

export class FloodDeferral {
  /** Frames not read yet, in arrival order, from `head` on. */
  private queue: IngestFrame[] = [];
  private head = 0;
  private readonly waitingIds = new Set<number>();
  private windowStart = -Infinity;
  private windowCount = 0;
  private floodUntil = -Infinity;
  /** Set while the list filters by what rows say (format, protocol, event, text): nothing waits then. */
  eager = false;

  constructor(
    readonly options: FloodOptions,
    private readonly now: () => number,
  ) {}

  /** Counts arriving frames against the flood rate. */
  arrive(count: number): void {
    const t = this.now();
    if (t - this.windowStart >= this.options.windowMs) [this.windowStart, this.windowCount] = [t, 0];
    this.windowCount += count;
    if (this.windowCount > this.options.framesPerWindow) this.floodUntil = t + this.options.calmMs;
  }

  get flooding(): boolean {
    return this.now() < this.floodUntil;
  }

  /** Milliseconds until the flood counts as calm (0 when it is). */
  get calmIn(): number {
    return Math.max(0, this.floodUntil - this.now());
  }

  get waiting(): boolean {
    return this.head < this.queue.length;
  }

  /** Whether a frame arriving now waits: under a flood, or behind frames that wait (rows are read in order). */
  shouldDefer(): boolean {
    return !this.eager && (this.waiting || this.flooding);
  }

  defer(frame: IngestFrame): void {
    this.queue.push(frame);
    this.waitingIds.add(frame.frameId);
  }

  isWaiting(frameId: number): boolean {
    return this.waitingIds.has(frameId);
  }

  /** The next waiting frame, taken off the queue (in arrival order). */
  take(): IngestFrame | undefined {
    if (this.head >= this.queue.length) return undefined;
    const frame = this.queue[this.head++]!;
    this.waitingIds.delete(frame.frameId);
    if (this.head > 4096 && this.head * 2 > this.queue.length)
      [this.queue, this.head] = [this.queue.slice(this.head), 0];
    if (this.head >= this.queue.length) [this.queue, this.head] = [[], 0];
    return frame;
  }

  /** Whether the next waiting frame's id is at most `frameId`. */
  nextAtMost(frameId: number): boolean {
    return this.head < this.queue.length && this.queue[this.head]!.frameId <= frameId;
  }

  /** The waiting frame with this id, still queued (not taken). */
  peek(frameId: number): IngestFrame | undefined {
    if (!this.waitingIds.has(frameId)) return undefined;
    // Ids grow along the queue: a binary search.
    let lo = this.head;
    let hi = this.queue.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const id = this.queue[mid]!.frameId;
      if (id === frameId) return this.queue[mid];
      if (id < frameId) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  clear(): void {
    [this.queue, this.head] = [[], 0];
    this.waitingIds.clear();
  }
}
