/**
 * The json-pack phase handed out costliest first (lanes.ts, LANE_COST): taken in comparison
 * order, Ion (the slowest json-pack codec: its encoder builds an AST first) and BSON came
 * last, so one lane measured them while the other had nothing left — on fresh lanes a
 * 200–300 ms tail of the phase. Rows still come in codec order; the json-joy phase still
 * follows the json-pack one.
 */
import { describe, expect, it } from 'vitest';
import { CODECS } from './codecs.js';
import { runComparison } from './compare.js';
import { LANE_COST } from './lanes.js';
import { inProcessLane, type OpenLane } from './lane.js';
import { generateDocument } from '../bench/generate.js';

describe('lane queue by cost', () => {
  it('hands out the json-pack codecs costliest first, then the json-joy ones; rows in codec order', async () => {
    const taken: string[] = [];
    const open: OpenLane = (start) => {
      const lane = inProcessLane(start);
      return { ...lane, measure: (codecs, o) => (taken.push(...codecs), lane.measure(codecs, o)) };
    };
    const rows = await runComparison(generateDocument(5_000), {
      runs: 1,
      warmup: 0,
      lanes: { open, count: 2, minBytes: 0 },
    });
    expect(rows.map((r) => r.codec)).toEqual(CODECS.map((c) => c.name));
    const jsonPack = CODECS.filter((c) => c.family !== 'json-joy').map((c) => c.name);
    const byCost = [...jsonPack].sort((a, b) => (LANE_COST[b] ?? 0) - (LANE_COST[a] ?? 0));
    expect(taken.slice(0, jsonPack.length)).toEqual(byCost);
    expect(taken[0]).toBe('ion');
    expect(new Set(taken.slice(jsonPack.length))).toEqual(
      new Set(CODECS.filter((c) => c.family === 'json-joy').map((c) => c.name)),
    );
  });
});
