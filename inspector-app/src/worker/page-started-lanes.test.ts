import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { createDispatcher } from './dispatcher.js';
import type { FromWorker, ToWorker } from './api.js';
import { serveLane, type LaneRequest } from '../../../codecs/compare/lane-protocol.js';
import { LANE_MIN_BYTES } from '../../../codecs/compare/lanes.js';
import { CODECS } from '../../../codecs/compare/codecs.js';
import { generateDocument } from '../../../codecs/bench/generate.js';

/**
 * The decode worker never starts a Worker itself: Firefox blocks a worker that does on the
 * main thread, and that wait sometimes never ended, freezing the inspector (compare-lanes.ts).
 * It asks the page for each lane (`lane-open` with a port), and its comparison runs on what
 * the page started; a lane the page reports failed ends in "—" rows, not a hang.
 */
const largeFrame = new CborEncoder().encode(generateDocument(LANE_MIN_BYTES + 64 * 1024)).slice();

const realWorker = (globalThis as { Worker?: unknown }).Worker;
const started: string[] = [];
beforeEach(() => {
  (globalThis as { Worker?: unknown }).Worker = class {
    constructor(url: unknown) {
      started.push(String(url));
      throw new Error('the decode worker started a Worker');
    }
  };
});
const ports: MessagePort[] = [];
afterEach(() => {
  (globalThis as { Worker?: unknown }).Worker = realWorker;
  for (const p of ports.splice(0)) p.close();
});

type Page = (laneId: number, port: MessagePort, reply: (message: ToWorker) => void) => void;

/** A dispatcher whose page answers `lane-open` with `page`; resolves with everything it posted once the comparison ends. */
function compareWithPage(page: Page): Promise<FromWorker[]> {
  const posted: FromWorker[] = [];
  return new Promise((resolve) => {
    const dispatch = createDispatcher(
      (message) => {
        posted.push(message);
        if (message.type === 'lane-open') page(message.laneId, message.port, (m) => setTimeout(() => dispatch(m), 0));
        if (message.type === 'compare-end') resolve(posted);
      },
      { lanes: { cores: 2 } },
    );
    dispatch({
      type: 'ingest',
      frames: [{ frameId: 1, connectionId: 'c1', direction: 'received', time: 0, opcode: 'binary', data: largeFrame }],
    });
    dispatch({ type: 'compare', jobId: 7, frameId: 1, format: 'auto', nodeId: -1 });
  });
}

describe('the comparison lanes are started by the page, not by the decode worker', () => {
  it('a large frame: the worker asks the page for two lanes and every codec gets its row on them', async () => {
    const served: number[] = [];
    const posted = await compareWithPage((laneId, port) => {
      // The page's lane worker, here in this thread: it serves the port it was given.
      ports.push(port);
      const handle = serveLane((reply) => port.postMessage(reply));
      port.onmessage = (e: MessageEvent<LaneRequest>) => (served.push(laneId), handle(e.data));
    });
    expect(started).toEqual([]);
    expect(posted.filter((m) => m.type === 'lane-open')).toHaveLength(2);
    expect(new Set(served).size).toBe(2);
    const rows = posted.filter((m) => m.type === 'compare-row');
    expect(rows).toHaveLength(CODECS.length);
    expect(rows.filter((r) => r.row.unsupported?.includes('lane'))).toEqual([]);
    expect(posted.at(-1)).toMatchObject({ type: 'compare-end', cancelled: false, error: null });
  }, 60_000);

  it('a lane the page reports failed: its codecs say so and the comparison ends', async () => {
    const posted = await compareWithPage((laneId, port, reply) => {
      ports.push(port);
      reply({ type: 'lane-failed', laneId, reason: 'it could not load' });
    });
    const rows = posted.filter((m) => m.type === 'compare-row');
    expect(rows).toHaveLength(CODECS.length);
    expect(rows.every((r) => /the lane failed: it could not load/.test(r.row.unsupported ?? ''))).toBe(true);
    expect(posted.at(-1)).toMatchObject({ type: 'compare-end', cancelled: false });
  }, 60_000);
});
