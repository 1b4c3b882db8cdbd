import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { WorkerHandlers } from './handlers.js';
import { runCompare, warmCompare } from './compare-job.js';
import { LaneLinks, workerLanes } from './compare-lanes.js';
import type { CompareRowView } from './api.js';
import { LANE_WARM_MIN_BYTES, WARM_CODECS, type LanePool, type LaneWarm } from '../../../codecs/compare/lanes.js';
import type { OpenLane } from '../../../codecs/compare/lane.js';
import { clonedLane } from '../../../codecs/test/helpers/cloned-lane.js';
import { generateDocument } from '../../../codecs/bench/generate.js';

/**
 * The Compare tab's job on lanes (compare-job.ts): the rows a frame's value
 * gets on two lanes are the single lane's (timings aside), in codec order; a cancel ends
 * the run with no row after it; lanes need a page that starts them (lane-host.ts).
 */
const frame = new CborEncoder().encode(generateDocument(8_000)).slice();

async function compareRows(lanes: LanePool, signal = new AbortController().signal, onRow?: (done: number) => void) {
  const h = new WorkerHandlers();
  h.store.add({ frameId: 1, connectionId: 'c1', direction: 'received', time: 0, opcode: 'binary', data: frame });
  const index = h.store.decoded(1, 'auto')!.index!;
  const rows: CompareRowView[] = [];
  const end: { cancelled?: boolean; error?: string | null } = {};
  await runCompare({
    index,
    nodeId: index.root,
    signal,
    sink: {
      row: (r, done) => (rows.push(r), onRow?.(done)),
      end: (c, e) => Object.assign(end, { cancelled: c, error: e }),
    },
    title: 'test',
    lanes,
  });
  return { rows, end };
}

const sizes = (rows: readonly CompareRowView[]) =>
  rows.map((r) => [r.codec, r.size, r.gzipSize, r.deflateSize, r.lossless, r.unsupported]);

describe('the Compare job on lanes', () => {
  it('gives the single lane’s rows, in codec order', async () => {
    const single = await compareRows({ open: clonedLane, count: 1 });
    let opened = 0;
    const counting: OpenLane = (start) => (opened++, clonedLane(start));
    const laned = await compareRows({ open: counting, count: 2, minBytes: 0 });
    expect(opened).toBe(2);
    expect(laned.end.error).toBeNull();
    expect(sizes(laned.rows)).toEqual(sizes(single.rows));
  });

  it('each row carries the count of finished rows: ahead of the rows shown when a later row finished first', async () => {
    // Lane 0 holds each row back 40 ms; lane 1's later rows finish meanwhile.
    const open = (() => {
      let id = 0;
      return ((start) => {
        const mine = id++;
        const lane = clonedLane(start);
        return {
          async *measure(c, o) {
            for await (const row of lane.measure(c, o)) {
              if (mine === 0) await new Promise((r) => setTimeout(r, 40));
              yield row;
            }
          },
          terminate: () => lane.terminate(),
        };
      }) as OpenLane;
    })();
    const dones: number[] = [];
    const { rows } = await compareRows({ open, count: 2, minBytes: 0 }, undefined, (done) => dones.push(done));
    expect(dones).toHaveLength(rows.length);
    expect(dones.at(-1)).toBe(rows.length);
    dones.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(i + 1);
    });
    expect(dones.some((d, i) => d > i + 1)).toBe(true);
  });

  it('a cancel terminates the lanes: the run ends cancelled with no row after it', async () => {
    const ac = new AbortController();
    const terminated: number[] = [];
    let id = 0;
    const open: OpenLane = (start) => {
      const lane = clonedLane(start);
      const mine = id++;
      return { measure: (c, o) => lane.measure(c, o), terminate: () => (terminated.push(mine), lane.terminate()) };
    };
    // Cancelled once the second row is shown (rows come in codec order; the lanes take the
    // json-pack codecs costliest first, so `done` counts rows not yet shown).
    let shown = 0;
    const { rows, end } = await compareRows(
      { open, count: 2, minBytes: 0 },
      ac.signal,
      () => ++shown === 2 && ac.abort(),
    );
    expect(rows).toHaveLength(2);
    expect(end.cancelled).toBe(true);
    expect(terminated.sort()).toEqual([0, 1]);
  });

  it('two lanes where the page starts them (capped at 2), one where it does not', () => {
    const host = new LaneLinks(() => {});
    expect(workerLanes({ cores: 8 }).count).toBe(1);
    expect(workerLanes({ host, cores: 8 }).count).toBe(2);
    expect(workerLanes({ host, cores: 1 }).count).toBe(1);
    expect(workerLanes({ host, cores: undefined }).count).toBe(1);
  });
});

describe('the Compare tab shown on a node warms the lanes (warmCompare)', () => {
  const indexOf = (data: Uint8Array) => {
    const h = new WorkerHandlers();
    h.store.add({ frameId: 1, connectionId: 'c1', direction: 'received', time: 0, opcode: 'binary', data });
    return h.store.decoded(1, 'auto')!.index!;
  };
  const recording = () => {
    const asked: LaneWarm[] = [];
    const pool: LanePool = {
      open: clonedLane,
      count: 2,
      warm: async (w) => (asked.push(w), { started: 2, warmed: 2, interrupted: 0, ms: 1 }),
    };
    return { asked, pool };
  };

  it('a large node: its value goes to the lanes (to warm the json-pack codecs on); a small node or a small child: nothing', async () => {
    const big = generateDocument(400_000) as { events: unknown[] };
    const index = indexOf(new CborEncoder().encode(big).slice());
    expect(index.store.end[index.root] - index.store.start[index.root]).toBeGreaterThanOrEqual(LANE_WARM_MIN_BYTES);
    const { asked, pool } = recording();
    expect(await warmCompare(index, index.root, pool)).toMatchObject({ warmed: 2 });
    expect(asked).toHaveLength(1);
    // The value itself (a lane warms on its own sample of it, and holds it for the Run).
    expect(asked[0].value).toEqual(big);
    expect(asked[0].codecs).toEqual(WARM_CODECS);
    index.expand(index.root);
    const child = index.children(index.root)[0];
    expect(warmCompare(index, child, pool)).toBeNull();
    expect(warmCompare(indexOf(frame), 0, pool)).toBeNull();
    expect(asked).toHaveLength(1);
  });
});
