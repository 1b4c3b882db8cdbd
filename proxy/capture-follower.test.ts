import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeLiveEvent, type LiveEvent } from '../codecs/capture/live-feed.js';
import { createCaptureFollower } from './capture-follower.js';
import { fileHookSink } from './hook/capture-sink.js';

function recording(): Buffer {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'wirescope-follow-')), 'r.wirescope');
  const sink = fileHookSink(file, (w) => {
    throw new Error(w);
  });
  sink.opened({ connectionId: 'pid1-1', url: 'ws://h/', protocol: 'p', extensions: '', time: 1 });
  for (let i = 0; i < 5; i++)
    sink.frame('pid1-1', i % 2 ? 'received' : 'sent', 'binary', 2 + i, new Uint8Array(1000).fill(i));
  sink.closed('pid1-1', 4000, 'bye', true, 10);
  sink.flushNow();
  return readFileSync(file);
}

const events = (messages: string[]) =>
  messages.map((m) => {
    const e = decodeLiveEvent(m);
    if ('error' in e) throw new Error(e.error);
    return e;
  });
const summary = (list: LiveEvent[]) =>
  list.map((e) =>
    e.type === 'frames' ? `frames ${e.frames.map((f) => `${f.direction[0]}${f.data[0]}`).join(',')}` : e.type,
  );

describe('createCaptureFollower', () => {
  it('turns a growing file into feed messages in order, whatever the chunks it is read in', () => {
    const file = recording();
    const whole = summary(events(createCaptureFollower().push(file)));
    expect(whole).toEqual(['connection-opened', 'frames s0,r1,s2,r3,s4', 'connection-closed']);
    for (const chunk of [1, 7, 1000]) {
      const follower = createCaptureFollower(2500);
      const out: string[] = [];
      for (let i = 0; i < file.length; i += chunk) out.push(...follower.push(file.subarray(i, i + chunk)));
      const list = events(out);
      expect(summary(list).filter((s) => !s.startsWith('frames'))).toEqual(['connection-opened', 'connection-closed']);
      const frames = list.flatMap((e) => (e.type === 'frames' ? e.frames : []));
      expect(frames.map((f) => [f.time, f.data.length, f.data[999]])).toEqual(
        [0, 1, 2, 3, 4].map((i) => [2 + i, 1000, i]),
      );
      expect(follower.pendingBytes()).toBe(0);
    }
    const closed = events(createCaptureFollower().push(file)).at(-1);
    expect(closed).toEqual({
      type: 'connection-closed',
      connectionId: 'pid1-1',
      code: 4000,
      reason: 'bye',
      wasClean: true,
      time: 10,
    });
  });

  it('stops with one error for a file that is not a records-layout capture', () => {
    const follower = createCaptureFollower();
    expect(
      follower.push(Buffer.from(`{"format":"wirescope-capture","version":1,"layout":"lines"}\n${'x'.repeat(100)}`)),
    ).toEqual([]);
    expect(follower.error()).toMatch(/not a records-layout capture/);
  });
});
