import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCapture } from '../../codecs/capture/capture-file.js';
import { fileHookSink } from './capture-sink.js';

const newFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'wirescope-sink-')), 'out.wirescope');
const throwing = (w: string) => {
  throw new Error(w);
};

describe('fileHookSink', () => {
  it('writes every frame in order across its buffer, a frame larger than the buffer included', () => {
    const file = newFile();
    const sink = fileHookSink(file, throwing, { bufferBytes: 1024 * 1024, flushMs: 0 });
    sink.opened({ connectionId: 'pid1-1', url: 'ws://h/ü', protocol: 'p', extensions: '', time: 1.5 });
    const sizes = [...Array.from({ length: 40 }, (_, i) => 100_000 + i), 3 * 1024 * 1024, 10, 0];
    sizes.forEach((size, i) => {
      const data = new Uint8Array(size).fill(i);
      sink.frame('pid1-1', i % 2 ? 'received' : 'sent', i % 3 ? 'binary' : 'text', 2 + i / 7, data);
      data.fill(255); // the app reuses its buffer: the recording must not change
    });
    sink.closed('pid1-1', 1000, 'bye ✓', true, 100);
    sink.flushNow();
    const capture = parseCapture(readFileSync(file));
    expect(capture.errors).toEqual([]);
    expect(capture.connections[0]).toMatchObject({ url: 'ws://h/ü', protocol: 'p', time: 1.5 });
    expect(capture.frames.map((f) => f.data.length)).toEqual(sizes);
    expect(capture.frames.every((f, i) => f.data.every((b) => b === i))).toBe(true);
    expect(capture.frames.map((f) => [f.direction, f.opcode, f.time])).toEqual(
      sizes.map((_, i) => [i % 2 ? 'received' : 'sent', i % 3 ? 'binary' : 'text', 2 + i / 7]),
    );
  });

  it('a file cut inside a record reads up to the last complete record, the error naming its byte', () => {
    const file = newFile();
    const sink = fileHookSink(file, throwing, { flushMs: 0 });
    sink.opened({ connectionId: 'pid1-1', url: 'ws://h/', protocol: '', extensions: '', time: 1 });
    sink.frame('pid1-1', 'sent', 'binary', 2, new Uint8Array([1, 2, 3]));
    sink.frame('pid1-1', 'received', 'binary', 3, new Uint8Array(100).fill(7));
    sink.flushNow();
    const whole = readFileSync(file);
    const cutAt = whole.length - 100 - 10 - 'pid1-1'.length - 5;
    writeFileSync(file, whole.subarray(0, whole.length - 40));
    const capture = parseCapture(readFileSync(file));
    expect(capture.frames.map((f) => Array.from(f.data))).toEqual([[1, 2, 3]]);
    expect(capture.errors).toEqual([
      {
        path: `byte ${cutAt}`,
        message: `the recording ends inside a record at byte ${cutAt} (cut short): read up to the last complete record`,
      },
    ]);
  });

  it('an unknown record kind stops the reading with its byte offset, what came before kept', () => {
    const file = newFile();
    const sink = fileHookSink(file, throwing, { flushMs: 0 });
    sink.opened({ connectionId: 'pid1-1', url: 'ws://h/', protocol: '', extensions: '', time: 1 });
    sink.frame('pid1-1', 'sent', 'text', 2, Buffer.from('hi'));
    sink.flushNow();
    const whole = readFileSync(file);
    const capture = parseCapture(Buffer.concat([whole, Buffer.from([9, 0, 0, 0, 0])]));
    expect(capture.frames).toHaveLength(1);
    expect(capture.errors.map((e) => e.message)).toEqual([
      `unknown record kind 9 at byte ${whole.length}: the rest of the file is not read`,
    ]);
  });

  it('stops recording with one warning when a write fails, and never throws to the app', () => {
    const warnings: string[] = [];
    const sink = fileHookSink('/dev/full', (w) => warnings.push(w), { bufferBytes: 4096, flushMs: 0 });
    sink.opened({ connectionId: 'pid1-1', url: 'ws://h/', protocol: '', extensions: '', time: 1 });
    for (let i = 0; i < 10; i++) sink.frame('pid1-1', 'sent', 'binary', 2, new Uint8Array(3000));
    sink.flushNow();
    expect(warnings).toEqual(['wirescope: recording stopped: ENOSPC']);
  });
});
