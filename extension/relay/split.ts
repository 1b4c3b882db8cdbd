/**
 * Splits a checked hook batch into runs of frames, one per relay batch: at most about
 * `maxMessageBytes` of encoded payload each (frame bytes as they will travel plus table
 * rows), socket events placed among them. A frame whose encoded size is over
 * `maxFrameBytes` is dropped and ends the run it would have been in, so every run is one
 * contiguous stretch of the table and of the slab: sent without copying frame by frame.
 */
import { FRAME_COLUMNS, FRAME_ROW_BYTES, type BatchEvent } from '../shared/messages.js';
import type { ParsedHookBatch } from './validate.js';

export interface FrameRun {
  /** Socket events of the run, `at` counted from its first frame. */
  readonly events: BatchEvent[];
  /** Frames [first, end) of the batch … */
  readonly first: number;
  readonly end: number;
  /** … whose bytes are [firstByte, endByte) of its slab. */
  readonly firstByte: number;
  readonly endByte: number;
}

export interface SplitLimits {
  /** Encoded size of `length` frame bytes (base64 or as is). */
  readonly cost: (length: number) => number;
  readonly maxMessageBytes: number;
  readonly maxFrameBytes: number;
}

/**
 * Calls `emit` for each run in order (always at least once, maybe empty: a relay batch
 * carries loss counts too) and `drop` with its index for each frame dropped as too large, as
 * it goes (so the runs after a drop already count it).
 */
export function splitBatch(
  batch: ParsedHookBatch,
  limits: SplitLimits,
  emit: (run: FrameRun) => void,
  drop: (index: number) => void,
): void {
  const { table, events, frameCount } = batch;
  let runEvents: BatchEvent[] = [];
  let first = 0;
  let firstByte = 0;
  let offset = 0; // where frame i starts in the slab
  let size = 0;
  let e = 0;
  const close = (end: number): void => {
    emit({ events: runEvents, first, end, firstByte, endByte: offset });
    runEvents = [];
    size = 0;
  };
  for (let i = 0; ; i++) {
    while (e < events.length && events[e]!.at === i) runEvents.push({ ...events[e++]!, at: i - first });
    if (i === frameCount) break;
    const length = table[i * FRAME_COLUMNS + 3]!;
    const cost = limits.cost(length);
    if (cost > limits.maxFrameBytes) {
      drop(i);
      if (i > first || runEvents.length > 0) close(i);
      offset += length;
      first = i + 1;
      firstByte = offset;
      continue;
    }
    if (i > first && size + cost > limits.maxMessageBytes) {
      close(i);
      first = i;
      firstByte = offset;
    }
    size += cost + FRAME_ROW_BYTES;
    offset += length;
  }
  close(frameCount);
}
