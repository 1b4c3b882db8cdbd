import {
  compressionHeader,
  endsWithSyncFlush,
  flateStream,
  pushBounded,
  type FlateStream,
  type InflateLimits,
} from './inflate.js';
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
    if (this.stream || this.frames === 0)
      this.broken = `an earlier frame of this compressed stream is missing (${reason})`;
  }

  /**
   * The next frame in order. A zlib header with a sync-flushed end starts (or restarts) a
   * zlib stream. Any other frame is a message of the stream only when it ends in a sync flush
   * and the caller found it `undecodable` otherwise (so the CBOR, JSON, … frames sharing the
   * connection stay what they are): it goes on the running stream, or may start a raw
   * deflate stream if `accepts` what it inflates to, or — the stream being broken — says why
   * it cannot be inflated. Null when the frame is not part of a compressed stream.
   */
  push(
    bytes: Uint8Array,
    undecodable = false,
    accepts: (output: Uint8Array) => boolean = () => true,
  ): StreamFrame | null {
    if (compressionHeader(bytes) === 'zlib' && endsWithSyncFlush(bytes)) return this.start(bytes, 'zlib');
    if (!undecodable || !endsWithSyncFlush(bytes)) return null;
    if (this.active) {
      const r = pushBounded(
        this.stream!,
        bytes,
        false,
        this.limits,
        `message ${this.frames + 1} of the ${this.method} stream`,
      );
      this.frames++;
      if (r.error) this.broken = r.error.message;
      return { method: `${this.method}-stream`, output: r.output, error: r.error };
    }
    if (this.broken) {
      // A message of a stream whose earlier frames we do not have: say so, with where.
      return {
        method: `${this.method}-stream`,
        output: new Uint8Array(0),
        error: {
          code: 'invalid-compressed-data',
          offset: 0,
          message: `cannot inflate: ${this.broken} at input offset 0`,
        },
      };
    }
    return this.start(bytes, 'deflate', accepts);
  }

  private start(
    bytes: Uint8Array,
    method: 'zlib' | 'deflate',
    accepts: (output: Uint8Array) => boolean = () => true,
  ): StreamFrame | null {
    const stream = flateStream(method);
    const r = pushBounded(stream, bytes, false, this.limits, `the first message of the ${method} stream`);
    // A raw start that does not inflate to something readable was not a stream after all.
    if (method === 'deflate' && (r.error || r.output.length === 0 || !accepts(r.output))) return null;
    [this.stream, this.method, this.broken, this.frames] = [stream, method, r.error ? r.error.message : null, 1];
    return { method: `${method}-stream`, output: r.output, error: r.error };
  }
}
