/**
 * The worker's per-connection decompression state: one inflater per connection and
 * direction (codecs' ConnectionInflater), fed in arrival order at ingest with the binary
 * frames that end in a sync flush and read as nothing else (the other frames of the
 * connection stay what they are), so a zlib-stream (or raw deflate stream) message is inflated with the context of
 * the frames before it. What each frame inflated to is kept by the frame store (and goes
 * when the frame is evicted): decoding a frame later does not need its predecessors.
 */
import { compressionHeader, ConnectionInflater, endsWithSyncFlush, type DecodeError } from '../../../codecs/index.js';
import type { IngestFrame } from './api.js';

export interface InflatedMessage {
  readonly method: 'zlib-stream' | 'deflate-stream';
  readonly output: Uint8Array;
  readonly error: DecodeError | null;
}

export class CompressedStreams {
  private readonly inflaters = new Map<string, ConnectionInflater>();

  private key(frame: Pick<IngestFrame, 'connectionId' | 'direction'>): string {
    return `${frame.connectionId}\u0000${frame.direction}`;
  }

  /** A frame lost before reaching the worker (evicted upstream, dropped): its stream's context is gone. */
  lost(frame: Pick<IngestFrame, 'connectionId' | 'direction'>, reason: string): void {
    let inflater = this.inflaters.get(this.key(frame));
    if (!inflater) this.inflaters.set(this.key(frame), (inflater = new ConnectionInflater()));
    inflater.lost(reason);
  }

  /** Before detection: the first frame of a zlib stream (`78 …` ending `00 00 ff ff`), which (re)starts it. */
  start(frame: IngestFrame): InflatedMessage | null {
    if (frame.opcode !== 'binary' || compressionHeader(frame.data) !== 'zlib' || !endsWithSyncFlush(frame.data)) return null;
    let inflater = this.inflaters.get(this.key(frame));
    if (!inflater) this.inflaters.set(this.key(frame), (inflater = new ConnectionInflater()));
    return inflater.push(frame.data);
  }

  /**
   * After detection found no convincing reading: a message of the connection's running
   * stream, the first of a raw deflate stream (if `accepts` what it inflates to), or one of
   * a stream whose earlier frame is missing (it says so).
   */
  undecodable(frame: IngestFrame, accepts: (output: Uint8Array) => boolean): InflatedMessage | null {
    if (frame.opcode !== 'binary' || !endsWithSyncFlush(frame.data)) return null;
    let inflater = this.inflaters.get(this.key(frame));
    if (!inflater) this.inflaters.set(this.key(frame), (inflater = new ConnectionInflater()));
    return inflater.push(frame.data, true, accepts);
  }

  clear(): void {
    this.inflaters.clear();
  }
}
