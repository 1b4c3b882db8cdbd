// @vitest-environment jsdom
/**
 * Losses as rows and in frames: the hook's rows for the frames it dropped reach
 * the background, a hook batch the relay refuses is reported at once (not when a later batch
 * arrives), and lost hook batches are counted in frames (the hook's framesBefore).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { FRAME_BINARY, type LostFrameRow } from '../../shared/messages.js';
import { hookBatch, plainFrame } from '../../shared/test/plain-capture.js';
import { startRelay, type RelayHandle } from '../relay.js';
import { recordingRuntime } from './relay-rig.js';
import { hookLine } from './hook-line.js';

const win = window as Window & typeof globalThis;

let relay: RelayHandle | null = null;
afterEach(() => {
  relay?.stop();
  relay = null;
});

const frame = (bytes: number[]) => plainFrame(1, bytes, { opcode: 'binary' });

describe('relay: losses', () => {
  test("the hook's rows for frames it dropped go with the relay batch", () => {
    const rt = recordingRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    const post = hookLine(win);
    const row: LostFrameRow = { socketId: 1, flags: FRAME_BINARY, time: 5, length: 70 << 20, why: 'hook-limit' };
    post(hookBatch(1, [frame([1])], { droppedFrames: 1, framesBefore: 0, lostFrames: [row] }));
    expect(rt.messages).toHaveLength(1);
    expect(rt.messages[0].lostFrames).toEqual([row]);
    expect(rt.messages[0].droppedFrames).toBe(1);
  });

  test('malformed rows make the batch refused (a page cannot smuggle rows in)', () => {
    const rt = recordingRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    const post = hookLine(win);
    post(
      hookBatch(1, [frame([1])], { lostFrames: [{ socketId: 1, flags: 9, time: 5, length: 3, why: 'hook-limit' }] }),
    );
    post(hookBatch(2, [frame([1])], { lostFrames: [{ socketId: 1, flags: 0, time: 5, length: 3, why: 'because' }] }));
    expect(relay.stats().lostBatches).toBe(2);
    expect(rt.messages.every((m) => m.lostFrames === undefined)).toBe(true);
  });

  test('a refused hook batch is reported at once, its frames counted in frames', () => {
    const rt = recordingRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    const post = hookLine(win);
    post(hookBatch(1, [frame([1])], { framesBefore: 0 }));
    post({ ...hookBatch(2, [frame([1]), frame([2]), frame([3])], { framesBefore: 1 }), frameBytesUsed: 99 }); // refused: the rows do not fit the bytes
    expect(rt.messages).toHaveLength(2); // the loss went out now, not with a later batch
    expect(rt.messages[1]).toMatchObject({ lostBatches: 1, lostHookFrames: 3 });
    post(hookBatch(3, [frame([4])], { framesBefore: 4 }));
    expect(rt.messages[2]).toMatchObject({ lostBatches: 1, lostHookFrames: 3 }); // nothing counted twice
  });

  test("hook batches that never arrived are counted in frames from the next batch's framesBefore", () => {
    const rt = recordingRuntime();
    relay = startRelay({ win, runtime: rt, bytesAs: 'base64' });
    const post = hookLine(win);
    post(hookBatch(1, [frame([1]), frame([2])], { framesBefore: 0 }));
    post(hookBatch(4, [frame([3])], { framesBefore: 9 })); // batches 2 and 3 held 7 frames
    expect(rt.messages.map((m) => [m.lostBatches, m.lostHookFrames ?? 0])).toEqual([
      [0, 0],
      [2, 7],
    ]);
  });
});
