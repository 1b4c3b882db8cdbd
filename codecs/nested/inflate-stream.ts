import { compressionHeader, endsWithSyncFlush, flateStream, pushBounded, type FlateStream, type InflateLimits } from './inflate.js';
import type { DecodeError } from '../core/errors.js';

/**
 * One connection direction's compressed stream: zlib (Discord's zlib-stream) or raw deflate
 * whose context carries across frames, each message ending in a sync flush (`00 00 ff ff`).
 * Frames must be pushed in order; a frame lost before it (evicted, dropped) leaves the
 * context missing, and the frames after it say so instead of showing garbage.
 */
export interface StreamFrame {
  readonly method: 'zlib-stream' | 'deflate-stream';
  readonly output: Uint8Array;
  readonly error: DecodeError | null;
}

export class ConnectionInflater {
  private stream: FlateStream | null = null;
  private method: 'zlib' | 'deflate' = 'zlib';
  /** Why the stream cannot go on (a lost frame, an inflate error), or null. */
  private broken: string | null = null;
  /** Frames pushed since the stream started. */
  private frames = 0;

  constructor(private readonly limits: InflateLimits = {}) {}

  get active(): boolean {
    return this.stream !== null && this.broken === null;
  }

  /** A frame of this direction was lost before reaching us: the stream's context is gone. */
  lost(reason: string): void {
    if (this.stream || this.frames === 0) this.broken = `an earlier frame of this compressed stream is missing (${reason})`;
  }

  /**
   * The next frame in order. Null when it is not part of a compressed stream (none started,
   * or it does not look like a message of one). `undecodable`: the caller found the frame
   * unreadable otherwise, so a stream of raw deflate may start here if `accepts` its first
   * message's output, and a message of a broken stream says why it cannot be inflated.
   */
  push(bytes: Uint8Array, undecodable = false, accepts: (output: Uint8Array) => boolean = () => true): StreamFrame | null {
    const header = compressionHeader(bytes);
    // A zlib header with a sync-flushed end starts (or restarts) a zlib stream.
    if (header === 'zlib' && endsWithSyncFlush(bytes) && (!this.active || this.method !== 'zlib')) return this.start(bytes, 'zlib');
    if (this.active) {
      const r = pushBounded(this.stream!, bytes, false, this.limits, `message ${this.frames + 1} of the ${this.method} stream`);
      this.frames++;
      if (r.error) this.broken = r.error.message;
      return { method: `${this.method}-stream`, output: r.output, error: r.error };
    }
    if (!endsWithSyncFlush(bytes)) return null;
    if (!undecodable) return null;
    if (this.broken) {
      // A message of a stream whose earlier frames we do not have: say so, with where.
      return { method: `${this.method}-stream`, output: new Uint8Array(0), error: { code: 'invalid-compressed-data', offset: 0, message: `cannot inflate: ${this.broken} at input offset 0` } };
    }
    return this.start(bytes, 'deflate', accepts);
  }

  private start(bytes: Uint8Array, method: 'zlib' | 'deflate', accepts: (output: Uint8Array) => boolean = () => true): StreamFrame | null {
    const stream = flateStream(method);
    const r = pushBounded(stream, bytes, false, this.limits, `the first message of the ${method} stream`);
    // A raw start that does not inflate to something readable was not a stream after all.
    if (method === 'deflate' && (r.error || r.output.length === 0 || !accepts(r.output))) return null;
    [this.stream, this.method, this.broken, this.frames] = [stream, method, r.error ? r.error.message : null, 1];
    return { method: `${method}-stream`, output: r.output, error: r.error };
  }
}
