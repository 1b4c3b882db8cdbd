/**
 * The live tail under a flood: the host holds a flood's frames and sends the newest of them
 * as a sample (`tail`). The app lists them after the frames, marked as a sample, outside the
 * frame count; they open like any frame (decode, bytes) and follow the text filter; an empty
 * tail (sent before the held frames come) takes them out, so no frame is listed twice; a
 * pause keeps the listed tail and takes the newest on resume, with every frame in order.
 */
import { describe, expect, it } from 'vitest';
import type { WireFrame } from '../protocol/messages.js';
import { MemoryTransport } from '../protocol/transport.js';
import { inProcessWorker } from '../worker/in-process.js';
import { InspectorSession } from './session.js';

const encoder = new TextEncoder();
const frame = (seq: number, tag = 'x'): WireFrame => ({
  connectionId: 'doc:1',
  direction: 'received',
  time: 1000 + seq,
  opcode: 'text',
  data: encoder.encode(JSON.stringify({ seq, tag })),
});
const frames = (from: number, to: number): WireFrame[] =>
  Array.from({ length: to - from + 1 }, (_, i) => frame(from + i));

function setup() {
  const transport = new MemoryTransport();
  const session = new InspectorSession(transport, inProcessWorker());
  session.start();
  const snap = () => session.model.getSnapshot();
  /** The seq of each listed row, frames then the tail (a sample's marked with "~"). */
  const listed = () =>
    [...snap().visible, ...snap().tail].map(
      (r) => `${r.sample ? '~' : ''}${/seq"?:\s*(\d+)/.exec(r.preview)?.[1] ?? '?'}`,
    );
  return { transport, session, snap, listed };
}

describe('the live tail', () => {
  it('lists the sample after the frames, marked and outside the count, and opens it like any frame', async () => {
    const { transport, session, snap, listed } = setup();
    transport.emit({ type: 'frames', frames: frames(1, 3) });
    transport.emit({
      type: 'held',
      frames: 500,
      bytes: 40_000,
      arriving: 5000,
      heldPerSecond: 5000,
      connections: [{ connectionId: 'doc:1', frames: 500, perSecond: 5000 }],
    });
    transport.emit({ type: 'tail', frames: [frame(502), frame(503)] });
    await expect.poll(listed).toEqual(['1', '2', '3', '~502', '~503']);
    expect(snap().rows).toHaveLength(3);
    expect(snap().hostHeld).toMatchObject({ frames: 500, arriving: 5000, heldPerSecond: 5000 });
    expect(snap().shownPerSecond).toBe(5);
    const sample = snap().tail[1]!;
    expect(sample.frameId).toBeLessThan(0);
    expect(session.model.frame(sample.frameId)).toBe(sample);
    const decoded = await session.worker.call('decode', { frameId: sample.frameId, format: 'auto' });
    expect(decoded?.format).toBe('json');
    const bytes = await session.worker.call('bytes', { frameId: sample.frameId });
    expect(new TextDecoder().decode(bytes!)).toBe('{"seq":503,"tag":"x"}');
    // A newer sample replaces it.
    transport.emit({ type: 'tail', frames: [frame(900), frame(901)] });
    await expect.poll(listed).toEqual(['1', '2', '3', '~900', '~901']);
  });

  it('follows the text filter', async () => {
    const { transport, session, listed } = setup();
    transport.emit({ type: 'frames', frames: [frame(1, 'alpha'), frame(2, 'beta')] });
    session.setFilters({ text: 'beta' });
    await expect.poll(listed).toEqual(['2']);
    transport.emit({ type: 'tail', frames: [frame(10, 'alpha'), frame(11, 'beta'), frame(12, 'alpha')] });
    await expect.poll(listed).toEqual(['2', '~11']);
  });

  it('takes the sample out before the held frames come: every frame listed once, in order', async () => {
    const { transport, snap, listed } = setup();
    transport.emit({ type: 'frames', frames: frames(1, 3) });
    transport.emit({ type: 'tail', frames: [frame(7), frame(8)] });
    await expect.poll(listed).toEqual(['1', '2', '3', '~7', '~8']);
    // The release: an empty tail, then the held frames (those sampled among them), then nothing held.
    transport.emit({ type: 'tail', frames: [] });
    transport.emit({ type: 'frames', frames: frames(4, 8) });
    transport.emit({ type: 'held', frames: 0, bytes: 0 });
    await expect.poll(listed).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(snap().rows.map((r) => r.frameId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(snap().hostHeld).toBeNull();
  });

  it('a pause keeps the listed tail and every frame; the resume lists them in order and the newest tail', async () => {
    const { transport, session, snap, listed } = setup();
    transport.emit({ type: 'frames', frames: frames(1, 2) });
    transport.emit({ type: 'tail', frames: [frame(5)] });
    await expect.poll(listed).toEqual(['1', '2', '~5']);
    session.model.setPaused(true);
    transport.emit({ type: 'tail', frames: [] });
    transport.emit({ type: 'frames', frames: frames(3, 6) });
    transport.emit({ type: 'tail', frames: [frame(9)] });
    await expect.poll(() => snap().pausedBacklog).toBe(4);
    // Nothing moved while paused (and the sampled frame is not listed twice).
    await new Promise((r) => setTimeout(r, 50));
    expect(listed()).toEqual(['1', '2', '~5']);
    session.model.setPaused(false);
    await expect.poll(listed).toEqual(['1', '2', '3', '4', '5', '6', '~9']);
    expect(snap().pausedBacklog).toBe(0);
  });
});
