/**
 * The shapes of the packed batches that cross between the main thread and the decode worker
 * (ingest-packing.ts packs frames on their way in, summary-packing.ts waiting rows on their
 * way out). A leaf module: api.ts names these in its messages without importing the packers.
 */
import type { PackedFrames } from '../protocol/packed-frames.js';

/** A packed batch (packed-frames.ts) with the app's frame id per frame. */
export interface PackedIngest extends PackedFrames {
  readonly frameIds: Float64Array;
}

export interface PackedWaitingRows {
  /** Each row's place in the batch's row order. */
  readonly at: Uint32Array;
  readonly frameIds: Float64Array;
  readonly times: Float64Array;
  readonly sizes: Float64Array;
  /** Bit 0: sent (else received); bit 1: text (else binary). */
  readonly kinds: Uint8Array;
  readonly connectionOf: Uint32Array;
  readonly connections: readonly string[];
}
