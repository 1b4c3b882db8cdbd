import { WorkerHandlers } from '../handlers.js';
import type { FrameSummary, IngestFrame } from '../api.js';

/** What a test says of a frame: the rest (id, connection, time) the ingest numbers. */
export type FrameContent = Omit<IngestFrame, 'frameId' | 'connectionId' | 'time'>;

/** The `index`th frame of connection `c1`: id index + 1, time = index. */
export function connectionFrameAt(f: FrameContent, index: number): IngestFrame {
  return {
    frameId: index + 1,
    connectionId: 'c1',
    direction: f.direction,
    time: index,
    opcode: f.opcode,
    data: f.data,
    ...(f.lost ? { lost: f.lost } : {}),
  };
}

/**
 * Fresh worker handlers given `frames` as one connection `c1` (ids from 1, time = index),
 * each stored and summarized as the worker does on ingest. `prepare` runs first: what the
 * connection is known to speak (its subprotocol, its URL).
 */
export function ingestFrames(
  frames: readonly FrameContent[],
  prepare?: (handlers: WorkerHandlers) => void,
): { handlers: WorkerHandlers; rows: FrameSummary[] } {
  const handlers = new WorkerHandlers();
  prepare?.(handlers);
  const rows = frames.map((f, i) => {
    const frame = connectionFrameAt(f, i);
    handlers.store.add(frame);
    return handlers.summarize(frame);
  });
  return { handlers, rows };
}

/** Fresh worker handlers holding `frames` (stored, not summarized). */
export function handlersHolding(...frames: IngestFrame[]): WorkerHandlers {
  const handlers = new WorkerHandlers();
  for (const f of frames) handlers.store.add(f);
  return handlers;
}

/** Fresh worker handlers holding one frame, id 1: `data` received as binary on connection c at time 0. */
export function handlersWithFrame(data: Uint8Array): WorkerHandlers {
  return handlersHolding({ frameId: 1, connectionId: 'c', direction: 'received', time: 0, opcode: 'binary', data });
}
