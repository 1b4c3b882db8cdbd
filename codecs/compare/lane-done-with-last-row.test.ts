/**
 * A lane answers `done` right after its last row, with no timer between them
 * (codecs/compare/lane.ts). With one, a lane whose event loop then stalled (a collection of
 * the json-joy models it had just dropped) kept the comparison "running" at 16 / 16 codecs
 * with every row shown: 1–9 s in Firefox on a ~1 MB frame. The single lane likewise ends
 * with its last row.
 */
import { describe, expect, it } from 'vitest';
import { serveLane, type LaneReply } from './lane-protocol.js';
import { compareValue } from './compare.js';
import { packValue } from './lane-value.js';
import { scanValue } from './features.js';

const settings = { runs: 1, warmup: 0 } as const;

describe('the end of a measure follows its last row at once', () => {
  it('serveLane: `done` is posted before any timer set when the last row was', async () => {
    const replies: string[] = [];
    let doneBeforeTimer: boolean | null = null;
    const handle = serveLane((reply: LaneReply) => {
      replies.push(reply.type);
      if (reply.type === 'row' && replies.filter((r) => r === 'row').length === 2)
        setTimeout(() => (doneBeforeTimer = replies.includes('done')), 0);
    });
    const value = { a: [1, 2, 'x'] };
    const features = scanValue(value);
    handle({ type: 'start', packed: packValue(value, features), features, settings, codecs: ['json', 'cbor'] });
    handle({ type: 'measure', id: 0, codecs: ['json', 'cbor'], keep: [] });
    await expect.poll(() => doneBeforeTimer).not.toBeNull();
    expect(replies).toEqual(['row', 'row', 'done']);
    expect(doneBeforeTimer).toBe(true);
  });

  it('compareValue on one lane: the generator ends before any timer set when its last row came', async () => {
    const generator = compareValue({ a: [1, 2, 'x'] }, { ...settings, codecs: ['json', 'cbor'] });
    await generator.next();
    await generator.next();
    let timerFired = false;
    setTimeout(() => (timerFired = true), 0);
    expect((await generator.next()).done).toBe(true);
    expect(timerFired).toBe(false);
  });
});
