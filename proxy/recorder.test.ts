import { describe, expect, it } from 'vitest';
import { parseCapture } from '../codecs/capture/capture-file.js';
import { createRecorder, type RecordSink } from './recorder.js';

const frame = (text: string) => ({
  connectionId: 'p1',
  direction: 'sent' as const,
  time: 1,
  opcode: 'text' as const,
  data: new TextEncoder().encode(text),
});

describe('createRecorder', () => {
  it('writes the header at once, so a recording where nothing happened is an empty capture', async () => {
    let written = '';
    const sink: RecordSink = {
      write(text, done) {
        written += text;
        done(null);
      },
      writeNow: (text) => {
        written += text;
      },
    };
    createRecorder({ sink, warn: () => {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const parsed = parseCapture(written);
    expect(written).not.toBe('');
    expect(parsed).toMatchObject({ errors: [], connections: [], frames: [] });
  });

  it('writes lines in order, one write in flight at a time', async () => {
    let written = '';
    let inFlight = 0;
    let most = 0;
    const sink: RecordSink = {
      write(text, done) {
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          written += text;
          inFlight--;
          done(null);
        }, 5);
      },
      writeNow: (text) => {
        written += text;
      },
    };
    const recorder = createRecorder({ sink, warn: () => {}, flushMs: 1 });
    recorder.connection({ connectionId: 'p1', url: 'ws://h/', protocol: '', extensions: '', time: 0 });
    for (let i = 0; i < 50; i++) {
      recorder.frame(frame(`m${i}`));
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await recorder.drained();
    expect(most).toBe(1);
    const parsed = parseCapture(written);
    expect(parsed.errors).toEqual([]);
    expect(parsed.frames.map((f) => new TextDecoder().decode(f.data))).toEqual(
      Array.from({ length: 50 }, (_, i) => `m${i}`),
    );
  });

  it('stops at the first failed write with one warning and counts what it could not write', async () => {
    const warnings: string[] = [];
    const sink: RecordSink = {
      write: (_text, done) => setImmediate(() => done(Object.assign(new Error('no space'), { code: 'ENOSPC' }))),
      writeNow: () => {},
    };
    const recorder = createRecorder({ sink, warn: (w) => warnings.push(w), flushMs: 1 });
    recorder.frame(frame('a'));
    await recorder.drained();
    recorder.frame(frame('b'));
    recorder.frame(frame('c'));
    await recorder.drained();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/recording stopped: the disk is full \(ENOSPC\); forwarding goes on/);
    expect(recorder.stopped()).toBe('the disk is full (ENOSPC)');
    expect(recorder.linesLost()).toBe(4); // the header and a (the failed write), b and c
  });

  it('writes what is pending when asked, even if its timer never fires (an unref-ed timer at exit)', async () => {
    let written = '';
    const sink: RecordSink = {
      write: (text, done) => {
        written += text;
        setImmediate(() => done(null));
      },
      writeNow: () => {},
    };
    const recorder = createRecorder({ sink, warn: () => {}, setTimer: () => undefined });
    recorder.frame(frame('pending'));
    await recorder.drained();
    expect(parseCapture(written).frames).toHaveLength(1);
  });
});

describe('a recording that cannot keep up', () => {
  it('says it is backlogged past its high-water mark and calls back once it is down to half', async () => {
    const writes: (() => void)[] = [];
    let written = '';
    const sink: RecordSink = {
      write(text, done) {
        writes.push(() => {
          written += text;
          done(null);
        });
      },
      writeNow: (text) => {
        written += text;
      },
    };
    const recorder = createRecorder({ sink, warn: () => {}, highWaterChars: 2000, flushMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    writes.shift()!(); // the header
    const caughtUp: number[] = [];
    for (let i = 0; i < 40; i++) recorder.frame(frame(`message ${i} `.repeat(4)));
    expect(recorder.backlogged()).toBe(true);
    recorder.whenCaughtUp(() => caughtUp.push(1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(caughtUp).toEqual([]);
    while (writes.length) {
      writes.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(recorder.backlogged()).toBe(false);
    expect(caughtUp).toEqual([1]);
    expect(parseCapture(written).frames).toHaveLength(40);
    recorder.whenCaughtUp(() => caughtUp.push(2)); // not backlogged: at once
    expect(caughtUp).toEqual([1, 2]);
  });
});
