/**
 * The pending `HookBatch`, packed so that posting it costs about the same whatever its frame
 * count: each frame's bytes are copied once, back to back, into a slab (a Uint8Array from
 * 64 KiB, doubled as needed up to `maxBatchBytes`); its socketId, flags, time and length go
 * into a row of a Float64 table; socket events into a short list, placed by frame index.
 * A post transfers the two buffers: no per-frame ArrayBuffer, object or transfer.
 * Posted `intervalMs` after the first pending event, or at once past `maxBatchBytes` or
 * `maxBatchEvents` (which bounds what the relay handles in one task). Under a flood (the last
 * batch held `floodThresholdBytes` or more) batches wait `floodIntervalMs` and grow to
 * `floodBatchBytes`: fewer, larger posts, each paying the relay's fixed costs once (a Blob's
 * ~0.2 ms on the page's thread); a batch under the threshold ends the flood.
 */
import {
  CAPTURE_TAG,
  FRAME_COLUMNS,
  MAX_LOST_FRAME_ROWS,
  type BatchEvent,
  type HookBatch,
  type LostFrameRow,
  type LostFrameWhy,
  type SocketEvent,
} from '../shared/messages.js';
import type { Natives } from './natives.js';

export interface BatcherConfig {
  readonly intervalMs: number;
  readonly maxBatchBytes: number;
  /** Frames plus socket events per batch (0-byte frames add rows, not bytes). */
  readonly maxBatchEvents: number;
  /** Under a flood: the interval and the byte bound instead of `intervalMs` and `maxBatchBytes`. */
  readonly floodIntervalMs: number;
  readonly floodBatchBytes: number;
  /** A batch holding this many bytes or more starts (or keeps) a flood. */
  readonly floodThresholdBytes: number;
  readonly transfer: boolean;
  /** Where batches go: the private channel to the relay (channel.ts). */
  readonly post: (batch: HookBatch, transfer: ArrayBuffer[]) => void;
}

const FIRST_SLAB_BYTES = 64 << 10;
const FIRST_TABLE_ROWS = 512;

export class Batcher {
  /** Bytes of frame data in the pending batch (the slab's used part). */
  bytes = 0;
  /** Frames in the pending batch (the table's used rows). */
  frames = 0;
  posted = 0;
  /** Frames dropped so far (cumulative; reported in every batch once non-zero). */
  dropped = 0;
  active = true;
  private slab: Uint8Array | null = null;
  private slabBuffer: ArrayBuffer | null = null;
  /** The slab's size, tracked here: `length` getters are the page's to patch. */
  private slabSize = 0;
  /** Size of the next batch's first slab: what the last batch grew to (bounded). */
  private nextSlabSize = FIRST_SLAB_BYTES;
  private table: Float64Array | null = null;
  private tableRows = 0;
  private nextTableRows = FIRST_TABLE_ROWS;
  private events: BatchEvent[] = [];
  /** Rows of the frames dropped since the last batch (the count covers any beyond MAX_LOST_FRAME_ROWS). */
  private lostRows: LostFrameRow[] = [];
  /** Frames in the batches so far, posted or not (the next batch's framesBefore). */
  private framesBefore = 0;
  private seq = 0;
  private reportedDropped = 0;
  /** Whether the last batch held floodThresholdBytes or more (batches are then coalesced). */
  private flooding = false;
  private timer: unknown = null;
  private readonly onTimer = (): void => {
    this.timer = null;
    this.flush();
  };

  constructor(
    private readonly n: Natives,
    private readonly cfg: BatcherConfig,
  ) {}

  /** A socket event, placed after the frames pending so far. */
  event(ev: SocketEvent): void {
    if (!this.active) return;
    const events = this.events;
    events[events.length] = { ...ev, at: this.frames }; // not push(): Array.prototype is the page's to patch
    if (this.frames + events.length >= this.cfg.maxBatchEvents) this.flush();
    else this.schedule();
  }

  /** A frame whose bytes are `src` (a view; copied into the slab). */
  copyFrame(socketId: number, flags: number, time: number, src: Uint8Array, length: number): void {
    if (!this.active) return;
    const slab = this.room(length);
    if (length > 0) this.n.setBytes(slab, src, this.bytes);
    this.commit(socketId, flags, time, length);
  }

  /** A text frame, UTF-8 encoded straight into the slab (or encoded apart when it is huge). */
  textFrame(socketId: number, flags: number, time: number, text: string): void {
    if (!this.active) return;
    const worst = text.length * 3; // UTF-8 bytes per UTF-16 unit, at most
    if (worst > this.maxBytes()) {
      const bytes = this.n.encode(text);
      this.copyFrame(socketId, flags, time, bytes, this.n.byteLength(bytes));
      return;
    }
    this.room(worst);
    const written = this.n.encodeInto(text, this.n.bytesOf(this.slabBuffer as ArrayBuffer, this.bytes, worst));
    this.commit(socketId, flags, time, written);
  }

  /** A frame dropped before it reached a batch: counted, and its row goes with the next batch. */
  drop(socketId: number, flags: number, time: number, length: number, why: LostFrameWhy): void {
    this.dropped++;
    this.lostRow(socketId, flags, time, length, why);
    this.schedule();
  }

  private lostRow(socketId: number, flags: number, time: number, length: number, why: LostFrameWhy): void {
    const rows = this.lostRows;
    if (rows.length < MAX_LOST_FRAME_ROWS) rows[rows.length] = { socketId, flags, time, length, why }; // not push(): the page's to patch
  }

  flush(): void {
    if (this.timer !== null) {
      this.n.clearTimer(this.timer);
      this.timer = null;
    }
    const events = this.events;
    const frameCount = this.frames;
    const lostRows = this.lostRows;
    if (!this.active || (events.length === 0 && frameCount === 0 && this.dropped === this.reportedDropped)) return;
    const table = this.table;
    const frameTable = this.table === null ? this.n.bufferOf(this.n.newBytes(0)) : this.n.bufferOf(this.table);
    const frameBytes = this.slabBuffer ?? this.n.bufferOf(this.n.newBytes(0));
    const frameBytesUsed = this.bytes;
    // The next batch starts as large as this one grew (a steady stream copies nothing twice).
    if (this.slabSize > 0) this.nextSlabSize = Math.min(Math.max(this.slabSize, FIRST_SLAB_BYTES), this.maxBytes());
    this.flooding = frameBytesUsed >= this.cfg.floodThresholdBytes;
    if (this.tableRows > 0) this.nextTableRows = Math.min(this.tableRows, this.cfg.maxBatchEvents);
    this.events = [];
    this.lostRows = [];
    this.frames = 0;
    this.bytes = 0;
    this.slab = this.slabBuffer = this.table = null;
    this.slabSize = this.tableRows = 0;
    const seq = this.seq + 1;
    const dropped = this.dropped;
    const framesBefore = this.framesBefore;
    this.framesBefore += frameCount;
    const base = {
      tag: CAPTURE_TAG,
      type: 'hook-batch',
      seq,
      events,
      frameCount,
      frameTable,
      frameBytes,
      frameBytesUsed,
      framesBefore,
    } as const;
    const counted: HookBatch = dropped > 0 ? { ...base, droppedFrames: dropped } : base;
    const batch: HookBatch = lostRows.length > 0 ? { ...counted, lostFrames: lostRows } : counted;
    try {
      this.cfg.post(batch, this.cfg.transfer ? [frameTable, frameBytes] : []);
      this.seq = seq;
      this.posted++;
      this.reportedDropped = dropped;
    } catch {
      // Nothing went out (the seq is not used): the rows go with the next batch, with one
      // for each frame of this one (a failed post transfers nothing: the table is readable).
      this.lostRows = lostRows;
      this.dropped += frameCount;
      for (let i = 0; i < frameCount && table !== null; i++) {
        const r = i * FRAME_COLUMNS;
        this.lostRow(
          table[r] as number,
          table[r + 1] as number,
          table[r + 2] as number,
          table[r + 3] as number,
          'unsent',
        );
      }
    }
  }

  stop(): void {
    if (this.timer !== null) this.n.clearTimer(this.timer);
    this.timer = null;
    this.active = false;
  }

  /**
   * The slab, with room for `length` more bytes at `this.bytes`: the pending batch is posted
   * first when they would take it past `maxBatchBytes`; a larger frame gets a slab of its own.
   */
  private room(length: number): Uint8Array {
    const max = this.maxBytes();
    if (this.bytes > 0 && this.bytes + length > max) this.flush();
    const need = this.bytes + length;
    if (this.slab !== null && need <= this.slabSize) return this.slab;
    let size = Math.max(this.slabSize * 2, this.nextSlabSize);
    while (size < need) size *= 2;
    size = Math.min(size, Math.max(this.maxBytes(), need));
    const slab = this.n.newBytes(size);
    if (this.slab !== null && this.bytes > 0) this.n.setBytes(slab, this.slab, 0);
    this.slab = slab;
    this.slabBuffer = this.n.bufferOf(slab);
    this.slabSize = size;
    return slab;
  }

  private commit(socketId: number, flags: number, time: number, length: number): void {
    const r = this.frames * FRAME_COLUMNS;
    let t = this.table;
    if (t === null || this.frames === this.tableRows) t = this.growTable();
    t[r] = socketId;
    t[r + 1] = flags;
    t[r + 2] = time;
    t[r + 3] = length;
    this.frames++;
    this.bytes += length;
    if (this.bytes >= this.maxBytes() || this.frames + this.events.length >= this.cfg.maxBatchEvents) this.flush();
    else this.schedule();
  }

  private growTable(): Float64Array {
    const rows = this.tableRows === 0 ? this.nextTableRows : this.tableRows * 2;
    const table = this.n.newTable(rows * FRAME_COLUMNS);
    if (this.table !== null) this.n.setBytes(table, this.table, 0);
    this.table = table;
    this.tableRows = rows;
    return table;
  }

  private schedule(): void {
    if (this.timer === null && this.active)
      this.timer = this.n.setTimer(this.onTimer, this.flooding ? this.cfg.floodIntervalMs : this.cfg.intervalMs);
  }

  /** The pending batch's byte bound now. */
  private maxBytes(): number {
    return this.flooding ? this.cfg.floodBatchBytes : this.cfg.maxBatchBytes;
  }
}
