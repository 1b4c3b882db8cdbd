/**
 * Hostile input to the SignalR and SockJS walkers: cut, flipped and random frames never throw;
 * an error carries an offset inside the frame, the nodes before it are kept inside their
 * parents, and a frame read whole tiles.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeFrame, signalrWalker, sockjsWalker, SpanIndex, type FormatWalker } from '../index.js';
import { assertTiles } from './test/tiles.js';
import { hex } from '../test/helpers/hex.js';

const utf8 = new TextEncoder();

const SEEDS: readonly [FormatWalker, Uint8Array][] = [
  [
    signalrWalker,
    utf8.encode('{"type":1,"target":"Send","arguments":["hi",{"a":[1,2]}],"invocationId":"7"}\x1e{"type":6}\x1e'),
  ],
  [
    signalrWalker,
    hex('16950180a130a94a6f696e47726f757091a56c6f62627902910618950380ab202020202020202020202001a720202020202020'),
  ],
  [sockjsWalker, utf8.encode('a["{\\"room\\":\\"room-42\\"}","x"]')],
  [sockjsWalker, utf8.encode('c[3000,"Go away!"]')],
];

function checkIndex(index: SpanIndex): void {
  const { store } = index;
  if (index.error) {
    expect(index.error.offset).toBeGreaterThanOrEqual(0);
    expect(index.error.offset).toBeLessThanOrEqual(index.bytes.length);
    expect(index.error.message).toMatch(/at byte \d+$/);
  }
  for (let id = 0; id < store.size; id++) {
    expect(store.end[id]).toBeLessThanOrEqual(index.bytes.length);
    const parent = store.parent[id];
    if (parent >= 0) {
      expect(store.start[id]).toBeGreaterThanOrEqual(store.start[parent]);
      expect(store.end[id]).toBeLessThanOrEqual(store.end[parent]);
    }
  }
  if (!index.error && index.root >= 0) {
    index.expandAll(index.root);
    assertTiles(index);
    index.value(index.root);
  }
}

describe('SignalR and SockJS walkers on hostile input', () => {
  it('cut and flipped frames: no throw, offsets in the frame, parents hold their children', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SEEDS),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        ([walker, seed], cut, flips) => {
          const bytes = seed.slice(0, 1 + (cut % seed.length));
          for (const [at, b] of flips) bytes[at % bytes.length] = b;
          checkIndex(new SpanIndex(bytes, walker));
          const frame = decodeFrame(bytes, { isText: walker === sockjsWalker, preferFormat: walker.format });
          expect(['decoded', 'malformed', 'unknown', 'empty']).toContain(frame.verdict);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('random bytes: no throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        checkIndex(new SpanIndex(bytes, signalrWalker));
        checkIndex(new SpanIndex(bytes, sockjsWalker));
      }),
      { numRuns: 400 },
    );
  });
});
