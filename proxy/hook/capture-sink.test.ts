import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCapture } from '../../codecs/capture/capture-file.js';
import { fileHookSink } from './capture-sink.js';

describe('fileHookSink', () => {
  it('writes every frame in order across its 4 MiB buffer, a frame larger than the buffer included', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'wirescope-sink-')), 'out.wirescope');
    const sink = fileHookSink(file, (w) => {
      throw new Error(w);
    });
    sink.opened({ connectionId: 'pid1-1', url: 'ws://h/ü', protocol: '', extensions: '', time: 1 });
    const sizes = [...Array.from({ length: 40 }, (_, i) => 100_000 + i), 6 * 1024 * 1024, 10];
    sizes.forEach((size, i) => {
      const data = new Uint8Array(size).fill(i);
      sink.frame({
        connectionId: 'pid1-1',
        direction: i % 2 ? 'received' : 'sent',
        time: 2 + i,
        opcode: 'binary',
        data,
      });
      data.fill(255); // the app reuses its buffer: the recording must not change
    });
    sink.closed('pid1-1', 1000, 'bye', true, 100);
    sink.flushNow();
    const capture = parseCapture(readFileSync(file));
    expect(capture.errors).toEqual([]);
    expect(capture.connections[0].url).toBe('ws://h/ü');
    expect(capture.frames.map((f) => f.data.length)).toEqual(sizes);
    expect(capture.frames.every((f, i) => f.data.every((b) => b === i))).toBe(true);
  });
});
