/**
 * Waiting rows on their way from the decode worker to the list. Under a flood the worker
 * lists every frame at once as a waiting row (time, direction, size; flood-deferral.ts),
 * ~500 row objects per 50 ms batch at 10,000 frames/s; cloning them cost both threads.
 * They cross as typed arrays (`waitingPacked`) with their places in the batch, and
 * `unpackSummaries` (the main thread's WorkerClient) puts the same rows back in order.
 * Only the real worker packs (decode-worker.ts): in-process tests see plain batches.
 */
import type { FromWorker, FrameSummary } from './api.js';
import { waitingRow } from './flood-deferral.js';

type Summaries = Extract<FromWorker, { type: 'summaries' }>;

const SENT = 1;
const TEXT = 2;

/** The batch with its waiting rows packed (the others stay objects, in order); unchanged when it has none. */
export function packSummaries(batch: Summaries): Summaries {
  let count = 0;
  for (const s of batch.summaries) if (s.waiting) count++;
  if (count === 0) return batch;
  const at = new Uint32Array(count);
  const frameIds = new Float64Array(count);
  const times = new Float64Array(count);
  const sizes = new Float64Array(count);
  const kinds = new Uint8Array(count);
  const connectionOf = new Uint32Array(count);
  const connections: string[] = [];
  const connectionIndex = new Map<string, number>();
  const others: FrameSummary[] = [];
  let k = 0;
  batch.summaries.forEach((s, place) => {
    if (!s.waiting) {
      others.push(s);
      return;
    }
    at[k] = place;
    frameIds[k] = s.frameId;
    times[k] = s.time;
    sizes[k] = s.size;
    kinds[k] = (s.direction === 'sent' ? SENT : 0) | (s.opcode === 'text' ? TEXT : 0);
    let c = connectionIndex.get(s.connectionId);
    if (c === undefined) {
      c = connections.length;
      connections.push(s.connectionId);
      connectionIndex.set(s.connectionId, c);
    }
    connectionOf[k++] = c;
  });
  return {
    ...batch,
    summaries: others,
    waitingPacked: { at, frameIds, times, sizes, kinds, connectionOf, connections },
  };
}

/** The batch's rows in their order, its waiting rows made again. */
export function unpackSummaries(batch: Summaries): Summaries {
  const packed = batch.waitingPacked;
  if (!packed) return batch;
  const { at, frameIds, times, sizes, kinds, connectionOf, connections } = packed;
  const rows: FrameSummary[] = new Array(batch.summaries.length + at.length);
  for (let k = 0; k < at.length; k++) {
    const kind = kinds[k]!;
    rows[at[k]!] = waitingRow(
      {
        frameId: frameIds[k]!,
        connectionId: connections[connectionOf[k]!]!,
        direction: kind & SENT ? 'sent' : 'received',
        time: times[k]!,
        opcode: kind & TEXT ? 'text' : 'binary',
      },
      sizes[k]!,
    );
  }
  let next = 0;
  for (const s of batch.summaries) {
    while (rows[next] !== undefined) next++;
    rows[next++] = s;
  }
  const { waitingPacked: _packed, ...rest } = batch;
  return { ...rest, summaries: rows };
}
