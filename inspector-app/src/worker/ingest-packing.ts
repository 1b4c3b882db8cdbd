/**
 * A panel batch on its way to the decode worker: frames that are consecutive views of one
 * buffer (the extension's batches) travel as a few typed arrays beside that buffer, not as
 * one object per frame. Under a flood (10,000 frames/s) cloning the objects was the panel
 * main thread's largest cost besides drawing; typed arrays are copied whole.
 */
import type { Direction, Opcode } from '../protocol/messages.js';
import { KIND_SENT as SENT, KIND_TEXT as TEXT } from '../protocol/packed-frames.js';
import type { IngestFrame } from './api.js';
import type { PackedIngest } from './packed-batches.js';

/** The batch packed, when its frames tile one buffer from its start to its end and none is a lost frame's placeholder; else null. */
export function packIngest(frames: readonly IngestFrame[]): PackedIngest | null {
  if (frames.length < 2) return null;
  const buffer = frames[0]!.data.buffer;
  if (!(buffer instanceof ArrayBuffer)) return null;
  let end = 0;
  for (const f of frames) {
    if (f.lost || f.data.buffer !== buffer || f.data.byteOffset !== end) return null;
    end += f.data.byteLength;
  }
  if (end !== buffer.byteLength) return null;
  const n = frames.length;
  const ends = new Float64Array(n);
  const frameIds = new Float64Array(n);
  const times = new Float64Array(n);
  const kinds = new Uint8Array(n);
  const connectionOf = new Uint32Array(n);
  const connections: string[] = [];
  const connectionIndex = new Map<string, number>();
  for (let k = 0; k < n; k++) {
    const f = frames[k]!;
    ends[k] = f.data.byteOffset + f.data.byteLength;
    frameIds[k] = f.frameId;
    times[k] = f.time;
    kinds[k] = (f.direction === 'sent' ? SENT : 0) | (f.opcode === 'text' ? TEXT : 0);
    let c = connectionIndex.get(f.connectionId);
    if (c === undefined) {
      c = connections.length;
      connections.push(f.connectionId);
      connectionIndex.set(f.connectionId, c);
    }
    connectionOf[k] = c;
  }
  return { bytes: new Uint8Array(buffer), ends, frameIds, times, kinds, connectionOf, connections };
}

/**
 * A batch up to this size keeps its frames as views of its one buffer. Copying each frame
 * out (one ArrayBuffer per frame, 10,000 a second under a flood) was a fifth of the worker's
 * time while the flood lasted. The store evicts oldest first, so the buffer goes with the
 * batch's last frame: the memory cap is off by at most this much. A larger batch's frames get
 * their own bytes, so a large frame's memory goes when it is evicted.
 */
export const SHARED_BATCH_BYTES = 1024 * 1024;

/** The frames of a packed batch: views of its buffer (a small batch), or each with its own copy of its bytes. */
export function unpackIngest(packed: PackedIngest): IngestFrame[] {
  const { bytes, ends, frameIds, times, kinds, connectionOf, connections } = packed;
  const share = bytes.byteLength <= SHARED_BATCH_BYTES;
  const frames: IngestFrame[] = new Array(ends.length);
  let start = 0;
  for (let k = 0; k < ends.length; k++) {
    const end = ends[k]!;
    const kind = kinds[k]!;
    const direction: Direction = kind & SENT ? 'sent' : 'received';
    const opcode: Opcode = kind & TEXT ? 'text' : 'binary';
    frames[k] = {
      frameId: frameIds[k]!,
      connectionId: connections[connectionOf[k]!]!,
      direction,
      time: times[k]!,
      opcode,
      data: share ? bytes.subarray(start, end) : bytes.slice(start, end),
    };
    start = end;
  }
  return frames;
}
