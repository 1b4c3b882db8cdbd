import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { detectCaptureKind, parseCapture, serializeCapture } from './capture-file.js';
import { buildHar } from './har.js';
import type { ConnectionInfo, WireFrame } from '../protocol/messages.js';

const connection = fc.record({
  connectionId: fc.string({ maxLength: 8 }),
  url: fc.webUrl(),
  protocol: fc.string({ maxLength: 10 }),
  extensions: fc.string({ maxLength: 10 }),
  time: fc.double({ noNaN: true, noDefaultInfinity: true }),
});
const frame = fc.record({
  connectionId: fc.string({ maxLength: 8 }),
  direction: fc.constantFrom('sent' as const, 'received' as const),
  time: fc.double({ noNaN: true, noDefaultInfinity: true }),
  opcode: fc.constantFrom('text' as const, 'binary' as const),
  // Text frames too as random bytes: invalid UTF-8 in a text frame must survive as well.
  data: fc.uint8Array({ maxLength: 300 }),
});

const enc = (s: string) => new TextEncoder().encode(s);

describe('capture file', () => {
  it('round trip is exact: bytes, times, order, connections (-0 ms reads back as 0)', () => {
    fc.assert(
      fc.property(
        fc.array(connection, { maxLength: 4 }),
        fc.array(frame, { maxLength: 40 }),
        (connections: ConnectionInfo[], frames: WireFrame[]) => {
          const bytes = serializeCapture(connections, frames);
          expect(detectCaptureKind(bytes)).toBe('wirescope');
          const back = parseCapture(bytes);
          expect(back.connections).toEqual(connections.map((c) => ({ ...c, time: c.time === 0 ? 0 : c.time })));
          expect(back.frames).toEqual(frames.map((f) => ({ ...f, time: f.time === 0 ? 0 : f.time })));
          // The only errors allowed are frames whose connection was not listed (kept anyway).
          const known = new Set(connections.map((c) => c.connectionId));
          expect(back.errors.length).toBe(frames.filter((f) => !known.has(f.connectionId)).length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps one frame per line and `format` first', () => {
    const text = new TextDecoder().decode(
      serializeCapture(
        [{ connectionId: 'ws-1', url: 'ws://h/', protocol: '', extensions: '', time: 1 }],
        [
          { connectionId: 'ws-1', direction: 'sent', time: 2.5, opcode: 'text', data: enc('hi') },
          {
            connectionId: 'ws-1',
            direction: 'received',
            time: 3,
            opcode: 'binary',
            data: Uint8Array.of(0x83, 1, 2, 3),
          },
        ],
      ),
    );
    expect(text.split('\n')).toEqual([
      '{"format":"wirescope-capture","version":1,"connections":[',
      '{"connectionId":"ws-1","url":"ws://h/","protocol":"","extensions":"","time":1}',
      '],"frames":[',
      '{"c":"ws-1","d":"s","t":2.5,"o":"t","b64":"aGk="},',
      '{"c":"ws-1","d":"r","t":3,"o":"b","b64":"gwECAw=="}',
      ']}',
      '',
    ]);
  });

  it('malformed files are errors with a path, and what parsed is kept; never a throw', () => {
    expect(parseCapture(enc('{"format":'))).toMatchObject({
      frames: [],
      errors: [{ path: '', message: expect.stringContaining('not JSON') }],
    });
    expect(parseCapture('{"log":{"entries":[]}}').errors[0].message).toContain('"format"');
    expect(parseCapture('{"format":"wirescope-capture","version":2,"connections":[],"frames":[]}').errors).toEqual([
      { path: 'version', message: 'unsupported capture version 2: this build reads version 1' },
    ]);
    const partial = parseCapture(
      JSON.stringify({
        format: 'wirescope-capture',
        version: 1,
        connections: [
          { connectionId: 'a', url: 'ws://a/', protocol: '', extensions: '', time: 0 },
          { connectionId: 'b' },
        ],
        frames: [
          { c: 'a', d: 's', t: 1, o: 'b', b64: 'AAE=' },
          { c: 'a', d: 'x', t: 2, o: 'b', b64: '' },
          { c: 'a', d: 'r', t: 3, o: 'b', b64: 'A*' },
          { c: 'zz', d: 'r', t: 4, o: 't', b64: 'aGk' },
          'nope',
        ],
      }),
    );
    expect(partial.connections.map((c) => c.connectionId)).toEqual(['a']);
    expect(partial.frames.map((f) => f.time)).toEqual([1, 4]);
    expect(partial.errors.map((e) => e.path)).toEqual([
      'connections[1]',
      'frames[1]',
      'frames[2]',
      'frames[3]',
      'frames[4]',
    ]);
    expect(partial.errors[2].message).toMatch(/b64 is not valid base64: not a base64 character: "\*" at character 1/);
    expect(parseCapture('{"format":"wirescope-capture","version":1}').errors.map((e) => e.path)).toEqual([
      'connections',
      'frames',
    ]);
  });

  it('detectCaptureKind picks the parser for a dropped file', () => {
    expect(detectCaptureKind(buildHar([], []))).toBe('har');
    expect(detectCaptureKind(enc('\uFEFF  {\n  "log": {\n    "version": "1.2"'))).toBe('har');
    expect(detectCaptureKind('{"x":1,"log":{"version":"1.2","entries":[]}}')).toBe('har');
    expect(detectCaptureKind(serializeCapture([], []))).toBe('wirescope');
    expect(detectCaptureKind(Uint8Array.of(0x83, 1, 2, 3))).toBe(null);
    expect(detectCaptureKind('{"a":1}')).toBe(null);
    expect(detectCaptureKind('')).toBe(null);
  });
});
