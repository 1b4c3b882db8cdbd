/**
 * A capture's per-connection decompression state: one inflater per connection and
 * direction (ConnectionInflater), fed in arrival order with the binary frames that end in a
 * sync flush and read as nothing else (the other frames of the connection stay what they
 * are), so a zlib-stream (or raw deflate stream) message is inflated with the context of
 * the frames before it. Shared by the inspector's worker and the CLI's session comparison
 * (read-in-order.ts), so both read a stream's messages the same way; the caller keeps what
 * each frame inflated to (decoding a frame later does not need its predecessors).
 */
import { compressionHeader, endsWithSyncFlush } from '../nested/inflate.js';
import { ConnectionInflater } from '../nested/inflate-stream.js';
import type { DecodeError } from '../core/errors.js';

export interface InflatedMessage {
  readonly method: 'zlib-stream' | 'deflate-stream';
  readonly output: Uint8Array;
  readonly error: DecodeError | null;
}

/** What the streams need of a frame (the worker's IngestFrame and the CLI's capture frames both have it). */
export interface OrderedFrame {
  readonly connectionId: string;
  /** Any direction naming: each direction of a connection is its own stream. */
  readonly direction: string;
  readonly opcode: string;
  readonly data: Uint8Array;
}

export class CompressedStreams {
  private readonly inflaters = new Map<string, ConnectionInflater>();

  private inflater(frame: Pick<OrderedFrame, 'connectionId' | 'direction'>): ConnectionInflater {
    const key = `${frame.connectionId}\u0000${frame.direction}`;
    let inflater = this.inflaters.get(key);
    if (!inflater) this.inflaters.set(key, (inflater = new ConnectionInflater()));
    return inflater;
  }

  /** A frame lost before reaching the reader (evicted upstream, dropped): its stream's context is gone. */
  lost(frame: Pick<OrderedFrame, 'connectionId' | 'direction'>, reason: string): void {
    this.inflater(frame).lost(reason);
  }

  /** Before detection: the first frame of a zlib stream (`78 …` ending `00 00 ff ff`), which (re)starts it. */
  start(frame: OrderedFrame): InflatedMessage | null {
    if (frame.opcode !== 'binary' || compressionHeader(frame.data) !== 'zlib' || !endsWithSyncFlush(frame.data))
      return null;
    return this.inflater(frame).push(frame.data);
  }

  /**
   * After detection found no convincing reading: a message of the connection's running
   * stream, the first of a raw deflate stream (if `accepts` what it inflates to), or one of
   * a stream whose earlier frame is missing (it says so).
   */
  undecodable(frame: OrderedFrame, accepts: (output: Uint8Array) => boolean): InflatedMessage | null {
    if (frame.opcode !== 'binary' || !endsWithSyncFlush(frame.data)) return null;
    return this.inflater(frame).push(frame.data, true, accepts);
  }

  clear(): void {
    this.inflaters.clear();
  }
}
