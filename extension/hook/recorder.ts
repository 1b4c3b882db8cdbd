/**
 * Per-socket ordering and the memory bound. Each socket keeps a queue that is empty except
 * while a Blob (sent, or received with `binaryType = 'blob'`) is being read: everything the
 * socket reports after that Blob waits behind it, so frames reach the batch in the order
 * they were sent or received. Frames beyond `maxPendingBytes` are dropped and counted.
 */
import type { Direction, HookEvent, Opcode } from '../shared/messages.js';
import type { Batcher } from './batcher.js';
import type { Natives } from './natives.js';

interface Slot {
  ev: HookEvent | null;
  data: ArrayBuffer | null;
  bytes: number;
  ready: boolean;
}

export interface SocketState {
  readonly id: number;
  queue: (Slot | undefined)[];
  head: number;
}

export class Recorder {
  /** Bytes of frames waiting in socket queues (Blobs being read and what follows them). */
  queuedBytes = 0;

  constructor(
    private readonly n: Natives,
    private readonly batcher: Batcher,
    private readonly maxPendingBytes: number,
  ) {}

  pendingBytes(): number {
    return this.batcher.bytes + this.queuedBytes;
  }

  /** A non-frame event (opening, open, close, error). */
  event(s: SocketState, ev: HookEvent): void {
    this.enqueue(s, { ev, data: null, bytes: 0, ready: true });
  }

  /** A frame whose bytes are already the hook's own copy. */
  frame(s: SocketState, direction: Direction, opcode: Opcode, time: number, data: ArrayBuffer): void {
    const bytes = this.n.abLength(data);
    if (!this.admit(bytes)) return;
    const ev: HookEvent = { type: 'frame', socketId: s.id, direction, opcode, time, data };
    this.enqueue(s, { ev, data, bytes, ready: true });
  }

  /** A binary frame carried by a Blob: read asynchronously, reported in its place. */
  blob(s: SocketState, direction: Direction, time: number, blob: Blob): void {
    const size = this.n.blobSize(blob);
    if (!this.admit(size)) return;
    const slot: Slot = { ev: null, data: null, bytes: size, ready: false };
    this.append(s, slot);
    this.n.readBlob(blob, (data) => {
      if (data !== null) {
        slot.ev = { type: 'frame', socketId: s.id, direction, opcode: 'binary', time, data };
        slot.data = data;
      } else {
        this.batcher.drop(1);
      }
      slot.ready = true;
      this.drain(s);
    });
  }

  private admit(bytes: number): boolean {
    if (this.pendingBytes() + bytes <= this.maxPendingBytes) return true;
    this.batcher.drop(1);
    return false;
  }

  private enqueue(s: SocketState, slot: Slot): void {
    if (s.head === s.queue.length) this.batcher.add(slot.ev as HookEvent, slot.data, slot.bytes);
    else this.append(s, slot);
  }

  private append(s: SocketState, slot: Slot): void {
    s.queue[s.queue.length] = slot;
    this.queuedBytes += slot.bytes;
  }

  private drain(s: SocketState): void {
    const q = s.queue;
    while (s.head < q.length) {
      const slot = q[s.head] as Slot;
      if (!slot.ready) return;
      q[s.head++] = undefined;
      this.queuedBytes -= slot.bytes;
      if (slot.ev !== null) this.batcher.add(slot.ev, slot.data, slot.bytes);
    }
    s.queue = [];
    s.head = 0;
  }
}
