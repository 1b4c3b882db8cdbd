/**
 * A large value compared on two lanes (codecs/compare/lanes.ts): every row's
 * sizes, compression, losslessness and parts equal the single lane's; rows come in codec
 * order with progress; an abort terminates the lanes and yields nothing more; a lane that
 * fails turns its rows into "—" rows that say why; small values stay on one lane. Lanes here
 * run in this process (rows do not depend on where they are measured; timings do): through
 * the message protocol with every message structured-cloned (helpers/cloned-lane.ts), and
 * once in real worker threads (node-lane.ts).
 */
import { describe, expect, it } from 'vitest';
import { CODECS } from './codecs.js';
import { compareValue, isMeasured, runComparison, type CompareProgress, type Row } from './compare.js';
import { LANE_MIN_BYTES, type LanePool } from './lanes.js';
import { inProcessLane, type Lane, type OpenLane } from './lane.js';
import { nodeLanes } from './node-lane.js';
import { generateDocument } from '../bench/generate.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue, setOwn } from '../core/values.js';
import { clonedLane } from '../test/helpers/cloned-lane.js';
import { comparable } from '../test/helpers/comparable-row.js';

const options = { runs: 1, warmup: 0 } as const;
/** Lanes for any value (minBytes 0): the test values are small. */
const pool = (open: OpenLane, count = 2): LanePool => ({ open, count, minBytes: 0 });

function withClasses(): unknown {
  const o: Record<string, unknown> = {
    when: new TaggedValue(1, 1_700_000_000),
    uuid: new TaggedValue(
      37,
      Uint8Array.from({ length: 16 }, (_, i) => i),
    ),
    ext: new ExtValue(5, Uint8Array.of(1, 2, 3)),
    simple: new SimpleValue(16),
    map: new Map<unknown, unknown>([
      [1, 'one'],
      [new TaggedValue(32, 'https://example.com'), [new SimpleValue(99)]],
    ]),
    big: (1n << 70n) + 5n,
    nested: new TaggedValue(100, { inner: new TaggedValue(101, [new ExtValue(-1, Uint8Array.of(0, 0, 0, 1))]) }),
    undef: undefined,
    negZero: -0,
    nan: NaN,
  };
  setOwn(o, '__proto__', { a: new TaggedValue(5, 1) });
  return o;
}

const values: [string, unknown][] = [
  ['a JSON document (json-joy builds models for it)', generateDocument(20_000)],
  [
    'bigints, bytes and a top-level array (json-joy and BSON refuse it)',
    [1n << 70n, { a: Uint8Array.of(1, 2, 3), b: -(1n << 66n) }, 1.5],
  ],
  ['CBOR tags, MessagePack extensions, simple values, a Map, -0, NaN, own __proto__', withClasses()],
  [
    'nested 1,500 levels deep (under MAX_DEPTH: codecs try it)',
    (() => {
      let v: unknown = { leaf: new TaggedValue(1, 0) };
      for (let i = 0; i < 1500; i++) v = i % 2 ? [v] : { k: v };
      return v;
    })(),
  ],
  [
    'duplicate map keys (every codec refuses)',
    {
      d: new EntriesMap([
        ['k', new TaggedValue(9, 1)],
        ['k', 2],
      ]),
    },
  ],
];

describe('rows on two lanes', () => {
  for (const [what, value] of values) {
    it(`equal the single lane's rows: ${what}`, async () => {
      const single = await runComparison(value, options);
      const laned = await runComparison(value, { ...options, lanes: pool(clonedLane) });
      expect(laned.map(comparable)).toEqual(single.map(comparable));
    });
  }

  it('equal the single lane’s rows in real worker threads (node-lane.ts, loaded through tsx)', async () => {
    const value = values[2][1];
    const single = await runComparison(value, options);
    const laned = await runComparison(value, { ...options, lanes: { ...nodeLanes({ cores: 2 }), minBytes: 0 } });
    expect(laned.map(comparable)).toEqual(single.map(comparable));
  }, 60_000);
});

/** A lane that counts what it was asked and can be slowed, broken or watched for terminate. */
function instrumented(
  behaviour: { delayMs?: (lane: number) => number; failOnCall?: (lane: number, call: number) => boolean } = {},
) {
  const terminated: number[] = [];
  const measured: string[][] = [[], []];
  let opened = 0;
  const open: OpenLane = (start) => {
    const id = opened++;
    const inner = inProcessLane(start);
    let calls = 0;
    // Terminated: the lane delivers nothing more (a worker's terminate ends it mid-call).
    let dead = false;
    const lane: Lane = {
      async *measure(codecs, o) {
        const call = calls++;
        if (behaviour.failOnCall?.(id, call)) throw new Error(`lane ${id} died (test)`);
        for await (const row of inner.measure(codecs, o)) {
          const delay = behaviour.delayMs?.(id) ?? 0;
          if (delay) await new Promise((r) => setTimeout(r, delay));
          if (dead) return;
          measured[id].push(row.codec);
          yield row;
        }
      },
      terminate() {
        terminated.push(id);
        dead = true;
        inner.terminate();
      },
    };
    return lane;
  };
  return { open, terminated, measured, opened: () => opened };
}

const small = generateDocument(2_000);

describe('order, progress and the queue', () => {
  it('yields rows in codec order while lanes finish out of order; progress counts finished rows', async () => {
    const lanes = instrumented({ delayMs: (id) => (id === 0 ? 30 : 0) });
    const progress: CompareProgress[] = [];
    const rows = await runComparison(small, {
      ...options,
      lanes: pool(lanes.open),
      onProgress: (p) => progress.push(p),
    });
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    expect(progress.map((p) => p.done)).toEqual(CODECS.map((_, i) => i + 1));
    expect(progress.every((p) => p.total === CODECS.length)).toBe(true);
    expect(new Set(progress.map((p) => p.codec))).toEqual(new Set(CODECS.map((c) => c.name)));
    // Both lanes worked, and the fast one took more codecs from the queue.
    expect(lanes.measured[0].length).toBeGreaterThan(0);
    expect(lanes.measured[1].length).toBeGreaterThan(lanes.measured[0].length);
    // The progress order is the finishing order: not codec order, since lane 0 is slow.
    expect(progress.map((p) => p.codec)).not.toEqual(CODECS.map((c) => c.name));
  });

  it('hands out the json-pack codecs before any json-joy codec', async () => {
    const lanes = instrumented();
    const progress: CompareProgress[] = [];
    await runComparison(small, { ...options, lanes: pool(lanes.open), onProgress: (p) => progress.push(p) });
    const firstJoy = progress.findIndex((p) => p.phase === 'json-joy');
    const lastPack = progress.map((p) => p.phase).lastIndexOf('json-pack');
    // At most one json-joy row can finish while the other lane ends the last json-pack row.
    expect(lastPack).toBeLessThanOrEqual(firstJoy + 1);
  });
});

describe('cancel', () => {
  it('an abort terminates both lanes at once and no row follows it', async () => {
    const lanes = instrumented({ delayMs: () => 5 });
    const ac = new AbortController();
    const rows: Row[] = [];
    for await (const row of compareValue(small, { ...options, lanes: pool(lanes.open), signal: ac.signal })) {
      rows.push(row);
      if (rows.length === 3) ac.abort();
    }
    expect(rows).toHaveLength(3);
    expect([...lanes.terminated].sort()).toEqual([0, 1]);
    const afterAbort = lanes.measured.flat().length;
    await new Promise((r) => setTimeout(r, 50));
    expect(lanes.measured.flat().length).toBe(afterAbort);
  });
});

describe('a lane that fails', () => {
  it('turns the codec it was measuring into a "—" row that says why; the other lane measures the rest', async () => {
    const lanes = instrumented({ failOnCall: (id, call) => id === 0 && call === 2 });
    const rows = await runComparison(small, { ...options, lanes: pool(lanes.open) });
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    const dashes = rows.filter((r) => !isMeasured(r));
    expect(dashes).toHaveLength(1);
    expect(dashes[0].unsupported).toMatch(/the comparison lane stopped \(lane 0 died \(test\)\)/);
    expect(lanes.terminated).toContain(0);
  });

  it('when every lane fails, every codec not measured gets a "—" row with the reason; nothing is thrown', async () => {
    const lanes = instrumented({ failOnCall: (_id, call) => call === 1 });
    const rows = await runComparison(small, { ...options, lanes: pool(lanes.open) });
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    expect(rows.filter(isMeasured)).toHaveLength(2);
    for (const row of rows.filter((r) => !isMeasured(r))) expect(row.unsupported).toMatch(/lane [01] died/);
  });

  it('a lane that cannot be opened (the value cannot be sent) leaves the comparison on one lane', async () => {
    const open: OpenLane = () => {
      throw new DOMException('could not be cloned', 'DataCloneError');
    };
    const single = await runComparison(small, options);
    const rows = await runComparison(small, { ...options, lanes: pool(open) });
    expect(rows.map(comparable)).toEqual(single.map(comparable));
  });
});

describe('which values go to lanes', () => {
  it(`small values stay on one lane; a value whose first encoding reaches ${LANE_MIN_BYTES} bytes goes to two`, async () => {
    const lanes = instrumented();
    const pooled: LanePool = { open: lanes.open, count: 2 };
    await runComparison(small, { ...options, codecs: ['json', 'cbor'], lanes: pooled });
    expect(lanes.opened()).toBe(0);
    const large = generateDocument(LANE_MIN_BYTES + 20_000);
    expect(new TextEncoder().encode(JSON.stringify(large)).length).toBeGreaterThanOrEqual(LANE_MIN_BYTES);
    await runComparison(large, { ...options, codecs: ['json', 'cbor'], compress: false, lanes: pooled });
    expect(lanes.opened()).toBe(2);
  });

  it('one core, custom codec entries or a value with functions keep one lane', async () => {
    const lanes = instrumented();
    await runComparison(small, { ...options, codecs: ['json', 'cbor'], lanes: pool(lanes.open, 1) });
    await runComparison(small, {
      ...options,
      codecs: [{ ...CODECS[0], name: 'twin' }, 'cbor'],
      lanes: pool(lanes.open),
    });
    await runComparison({ f: () => 1 }, { ...options, codecs: ['json', 'cbor'], lanes: pool(lanes.open) });
    expect(lanes.opened()).toBe(0);
  });
});
