import { describe, expect, it } from 'vitest';
import { detectCaptureKind, parseCapture } from './capture-file.js';
import { captureLinesHeader, closedLine, connectionLine, frameLine } from './capture-lines.js';
import type { WireFrame } from './types.js';

const frame = (i: number): WireFrame => ({
  connectionId: 'c1',
  direction: i % 2 ? 'received' : 'sent',
  time: 1000 + i + 0.25,
  opcode: i % 3 ? 'binary' : 'text',
  data: Uint8Array.from([i, 255 - i, 0xc3]),
});

const connection = {
  connectionId: 'c1',
  url: 'ws://h/',
  protocol: 'mqtt',
  extensions: '',
  extensionsRecorded: true,
  upstreamExtensions: 'permessage-deflate',
  time: 999,
};

const recording =
  captureLinesHeader() +
  connectionLine(connection) +
  [0, 1, 2, 3].map((i) => frameLine(frame(i))).join('') +
  closedLine('c1', 1000, 'bye', 2000);

describe('the line layout of a capture', () => {
  it('reads back every connection and frame exactly, and is detected as a wirescope capture', () => {
    expect(detectCaptureKind(recording)).toBe('wirescope');
    const parsed = parseCapture(recording);
    expect(parsed.errors).toEqual([]);
    expect(parsed.connections).toEqual([connection]);
    expect(parsed.frames).toEqual([0, 1, 2, 3].map(frame));
  });

  it('reads a recording cut short up to its last complete line and names the byte where it ends', () => {
    const withoutClose = recording.slice(0, recording.lastIndexOf('{"closed"'));
    const lastFrameStart = withoutClose.lastIndexOf('{"c"');
    const cut = withoutClose.slice(0, lastFrameStart + 20); // killed while writing frame 3
    const parsed = parseCapture(cut);
    expect(parsed.frames).toEqual([0, 1, 2].map(frame));
    expect(parsed.errors).toEqual([
      {
        path: 'line 6',
        message: `the recording ends inside a line at byte ${new TextEncoder().encode(cut.slice(0, lastFrameStart)).length} (cut short): read up to the last complete line`,
      },
    ]);
  });

  it('skips a broken line in the middle with its byte offset and keeps the lines after it', () => {
    const lines = recording.split('\n');
    lines[3] = '{"c":"c1","d":';
    const parsed = parseCapture(lines.join('\n'));
    expect(parsed.frames).toHaveLength(3);
    expect(parsed.errors[0].message).toMatch(/^line at byte \d+ is not JSON: skipped$/);
  });
});
