import { describe, expect, it } from 'vitest';
import { decodeLiveEvent, type LiveEvent } from '../codecs/capture/live-feed.js';
import { createHub, type Viewer } from './hub.js';

const frame = (i: number, size = 10) => ({
  connectionId: 'p1',
  direction: 'sent' as const,
  time: i,
  opcode: 'binary' as const,
  data: new Uint8Array(size).fill(i & 255),
});

function viewer(bufferedAmount = 0): Viewer & { events: LiveEvent[] } {
  const events: LiveEvent[] = [];
  return {
    bufferedAmount,
    events,
    send(text) {
      const e = decodeLiveEvent(text);
      if ('error' in e) throw new Error(e.error);
      events.push(e);
    },
  };
}

const framesOf = (events: LiveEvent[]) => events.flatMap((e) => (e.type === 'frames' ? e.frames : []));

describe('createHub', () => {
  it('gives a page that opens later the history, keeping every connection but only the newest frames, and says how many it missed', () => {
    const hub = createHub({ historyFrames: 5, setTimer: () => undefined });
    hub.opened({ connectionId: 'p1', url: 'ws://u/', protocol: '', extensions: '', time: 0 });
    for (let i = 0; i < 12; i++) {
      hub.frame(frame(i));
      if (i % 3 === 2) hub.flush();
    }
    hub.flush();
    const late = viewer();
    hub.addViewer(late);
    expect(late.events[0]).toMatchObject({ type: 'dropped', count: 9 }); // whole batches of 3 go
    expect(late.events.some((e) => e.type === 'connection-opened')).toBe(true);
    expect(framesOf(late.events).map((f) => f.time)).toEqual([9, 10, 11]);
  });

  it('keeps connection events in order with the frames around them', () => {
    const hub = createHub({ setTimer: () => undefined });
    const page = viewer();
    hub.addViewer(page);
    hub.frame(frame(1));
    hub.closed('p1', 1000, 'bye', true, 2);
    expect(page.events.map((e) => e.type)).toEqual(['frames', 'connection-closed']);
  });

  it('skips frames for a page that cannot keep up, then tells it how many', () => {
    const hub = createHub({ viewerHighWater: 100, setTimer: () => undefined });
    const slow = viewer(1000);
    hub.addViewer(slow);
    hub.frame(frame(1));
    hub.frame(frame(2));
    hub.flush();
    expect(slow.events).toEqual([]);
    (slow as { bufferedAmount: number }).bufferedAmount = 0;
    hub.frame(frame(3));
    hub.flush();
    expect(slow.events[0]).toMatchObject({ type: 'dropped', count: 2 });
    expect(framesOf(slow.events).map((f) => f.time)).toEqual([3]);
  });
});
