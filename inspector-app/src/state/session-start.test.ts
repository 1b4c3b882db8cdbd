import { describe, expect, it } from 'vitest';
import { MemoryTransport } from '../protocol/transport.js';
import type { WorkerClient } from '../worker/client.js';
import type { IngestFrame } from '../worker/api.js';
import { InspectorSession } from './session.js';

/** A worker that only records the frames it is given. */
function recordingWorker() {
  const ingested: number[] = [];
  const worker = {
    onSummaries: () => () => {},
    onFilterProgress: () => () => {},
    onReread: () => () => {},
    onTailRows: () => () => {},
    ingest: (frames: IngestFrame[]) => ingested.push(...frames.map((f) => f.frameId)),
  } as unknown as WorkerClient;
  return { worker, ingested };
}
const frame = (time: number) => ({
  type: 'frames' as const,
  frames: [
    { connectionId: 'c', direction: 'received' as const, time, opcode: 'binary' as const, data: new Uint8Array([1]) },
  ],
});

describe('InspectorSession start and stop', () => {
  it('building a session neither listens nor says hello; start does both', () => {
    const transport = new MemoryTransport();
    const { worker, ingested } = recordingWorker();
    const session = new InspectorSession(transport, worker);
    transport.emit(frame(1));
    expect(transport.sent).toEqual([]);
    expect(ingested).toEqual([]);
    session.start();
    expect(transport.sent.map((m) => m.type)).toEqual(['hello']);
    expect(ingested).toEqual([1]);
  });

  it('started, stopped and started again (React StrictMode) it keeps receiving, once per frame', () => {
    const transport = new MemoryTransport();
    const { worker, ingested } = recordingWorker();
    const session = new InspectorSession(transport, worker);
    const stop = session.start();
    stop();
    session.start();
    transport.emit(frame(1));
    transport.emit(frame(2));
    expect(ingested).toEqual([1, 2]);
  });

  it('starting twice without a stop listens once', () => {
    const transport = new MemoryTransport();
    const { worker, ingested } = recordingWorker();
    const session = new InspectorSession(transport, worker);
    session.start();
    session.start();
    transport.emit(frame(1));
    expect(ingested).toEqual([1]);
  });
});
