/**
 * Per-socket ordering and the memory bound. Each socket keeps a queue that is empty except
 * while a Blob (sent, or received with `binaryType = 'blob'`) is being read: everything the
 * socket reports after that Blob waits behind it (frames as their own copies), so frames
 * reach the batch in the order they were sent or received. The usual case, an empty queue,
 * copies the frame straight into the batch's slab. Frames beyond `maxPendingBytes` are
 * dropped and counted.
 */
import type { SocketEvent } from '../shared/messages.js';
import type { Batcher } from './batcher.js';
import type { Natives } from './natives.js';
import type { Slot, SocketState } from './socket-state.js';

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

  /** A socket event (opening, open, close, error). */
  event(s: SocketState, ev: SocketEvent): void {
    if (s.head === s.queue.length) this.batcher.event(ev);
    else this.append(s, { ev, flags: 0, time: 0, data: null, bytes: 0, ready: true });
  }

  /** A binary frame: the `length` bytes `src` covers (a view of the page's data; copied here, once). */
  binary(s: SocketState, flags: number, time: number, src: Uint8Array, length: number): void {
    if (!this.admit(s, flags, time, length)) return;
    if (s.head === s.queue.length) this.batcher.copyFrame(s.id, flags, time, src, length);
    else this.append(s, { ev: null, flags, time, data: this.n.copyBytes(src), bytes: length, ready: true });
  }

  /** A text frame (UTF-8 encoded once, straight into the batch when nothing waits before it). */
  text(s: SocketState, flags: number, time: number, text: string): void {
    if (s.head === s.queue.length && this.pendingBytes() + text.length * 3 <= this.maxPendingBytes) {
      this.batcher.textFrame(s.id, flags, time, text);
      return;
    }
    const bytes = this.n.encode(text);
    this.binary(s, flags, time, bytes, this.n.byteLength(bytes));
  }

  /** A binary frame carried by a Blob: read asynchronously, reported in its place. */
  blob(s: SocketState, flags: number, time: number, blob: Blob): void {
    const size = this.n.blobSize(blob);
    if (!this.admit(s, flags, time, size)) return;
    const slot: Slot = { ev: null, flags, time, data: null, bytes: size, ready: false };
    this.append(s, slot);
    this.n.readBlob(blob, (data) => {
      if (data !== null) slot.data = data;
      else this.batcher.drop(s.id, flags, time, size, 'unreadable');
      slot.ready = true;
      this.drain(s);
    });
  }

  private admit(s: SocketState, flags: number, time: number, bytes: number): boolean {
    if (this.pendingBytes() + bytes <= this.maxPendingBytes) return true;
    this.batcher.drop(s.id, flags, time, bytes, 'hook-limit');
    return false;
  }

  private append(s: SocketState, slot: Slot): void {
    s.queue[s.queue.length] = slot; // not push(): Array.prototype is the page's to patch
    this.queuedBytes += slot.bytes;
  }

  private drain(s: SocketState): void {
    const q = s.queue;
    while (s.head < q.length) {
      const slot = q[s.head] as Slot;
      if (!slot.ready) return;
      q[s.head++] = undefined;
      this.queuedBytes -= slot.bytes;
      if (slot.ev !== null) this.batcher.event(slot.ev);
      else if (slot.data !== null) {
        const length = this.n.abLength(slot.data);
        this.batcher.copyFrame(s.id, slot.flags, slot.time, this.n.bytesOf(slot.data, 0, length), length);
      }
    }
    s.queue = [];
    s.head = 0;
  }
}
