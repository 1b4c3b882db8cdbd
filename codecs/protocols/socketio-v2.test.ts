/**
 * socket.io 2.x (Engine.IO protocol v3, Socket.IO protocol v4) as the real 2.5 server and
 * client put it on a real WebSocket: where it differs from v4 (binary frames carry the `04`
 * message-type byte, the client pings, the default namespace's CONNECT carries no sid,
 * ERROR's payload is a string, a namespace carries its query), and which version a
 * connection speaks, from its URL or its traffic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeFrame, recognizeProtocol, socketIoPacket } from '../index.js';
import { engineIoVersionEvidence, engineIoVersionFromUrl } from './engineio-version.js';
import { v2Session, type V2Traffic } from './test/socketio-v2-rig.js';
import { assertTiles } from './test/tiles.js';

const textOf = (data: Uint8Array) => new TextDecoder().decode(data);

describe('socket.io 2.x traffic (Engine.IO v3)', () => {
  let s: V2Traffic;
  beforeAll(async () => {
    s = await v2Session();
  }, 20_000);
  afterAll(() => s?.close());

  it('reads every text frame as Socket.IO, decoded whole', () => {
    for (const f of s.capture.frames.filter((x) => x.opcode === 'text')) {
      const frame = decodeFrame(f.data, { isText: true, preferFormat: 'socketio' });
      expect(frame, textOf(f.data)).toMatchObject({ format: 'socketio', verdict: 'decoded', error: null });
      assertTiles(frame.index!);
    }
  });

  it("reads a binary frame's leading 04 as Engine.IO's message type and the attachment after it", () => {
    const binaries = s.capture.frames.filter((f) => f.opcode === 'binary');
    expect(binaries.length).toBeGreaterThanOrEqual(4);
    for (const f of binaries) {
      expect(f.data[0]).toBe(0x04);
      const frame = decodeFrame(f.data, { isText: false, preferFormat: 'socketio' });
      expect(frame, Buffer.from(f.data).toString('hex')).toMatchObject({
        format: 'socketio',
        verdict: 'decoded',
        error: null,
      });
      const index = frame.index!;
      assertTiles(index);
      const [typeKey, type, dataKey, data] = index.children(index.root).flatMap((c) => [index.keyOf(c), c]);
      expect([index.value(typeKey), index.value(type), index.value(dataKey)]).toEqual(['engine.io', 'message', 'data']);
      expect([index.store.start[type], index.store.end[type]]).toEqual([0, 1]);
      expect([index.store.start[data], index.store.end[data]]).toEqual([1, f.data.length]);
      expect(recognizeProtocol(index, frame.format)).toMatchObject({
        protocol: 'engine.io',
        message: 'binary message',
      });
    }
    // The server's first attachment is the PNG header it was given.
    const png = binaries.find((f) => f.direction === 'received')!;
    const frame = decodeFrame(png.data, { isText: false, preferFormat: 'socketio' });
    expect(frame.index!.value(frame.index!.root)).toEqual({
      'engine.io': 'message',
      data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
    });
  });

  it('names ERROR (a string payload, read as JSON) and splits a namespace from its query', () => {
    const error = s.capture.frames.find((f) => textOf(f.data).startsWith('44'))!;
    expect(textOf(error.data)).toBe('44/locked,"Not authorized"');
    const frame = decodeFrame(error.data, { isText: true, preferFormat: 'socketio' });
    expect(socketIoPacket(frame.index!)).toMatchObject({ socketType: 'ERROR', namespace: '/locked' });
    expect(frame.index!.value(frame.index!.root)).toMatchObject({ data: 'Not authorized' });
    expect(recognizeProtocol(frame.index, frame.format)).toMatchObject({
      protocol: 'socket.io',
      message: 'ERROR',
      event: '/locked',
    });

    const join = s.capture.frames.find((f) => f.direction === 'sent' && textOf(f.data).startsWith('40/admin'))!;
    expect(textOf(join.data)).toBe('40/admin?token=abc,');
    const joined = decodeFrame(join.data, { isText: true, preferFormat: 'socketio' });
    expect(socketIoPacket(joined.index!)).toMatchObject({ socketType: 'CONNECT', namespace: '/admin' });
    expect(joined.index!.value(joined.index!.root)).toMatchObject({ namespace: '/admin', query: 'token=abc' });
    expect(recognizeProtocol(joined.index, joined.format)).toMatchObject({ message: 'CONNECT', event: '/admin' });
  });

  it('tells the version from the URL and from the traffic: the client pings, the CONNECT has no sid', () => {
    expect(s.url).toContain('EIO=3');
    expect(engineIoVersionFromUrl(s.url)).toBe(3);
    expect(engineIoVersionFromUrl('wss://chat.example/socket.io/?EIO=4&transport=websocket')).toBe(4);
    expect(engineIoVersionFromUrl('wss://chat.example/socket.io/?transport=websocket')).toBeNull();
    expect(engineIoVersionFromUrl('not a url')).toBeNull();

    const verdicts = s.capture.frames
      .filter((f) => f.opcode === 'text')
      .map((f) => {
        const frame = decodeFrame(f.data, { isText: true, preferFormat: 'socketio' });
        return engineIoVersionEvidence(frame.index!, frame.format, f.direction);
      })
      .filter((v) => v !== null);
    expect(verdicts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(verdicts.map((v) => v!.version))).toEqual(new Set([3]));
    const reasons = verdicts.map((v) => v!.reason).join('\n');
    expect(reasons).toContain('the client pings');
    expect(reasons).toContain('CONNECT without a sid');
  });

  it('v4 traffic says 4: the server pings, the CONNECT answers with a sid', () => {
    const read = (t: string, direction: 'sent' | 'received') => {
      const frame = decodeFrame(new TextEncoder().encode(t), { isText: true, preferFormat: 'socketio' });
      return engineIoVersionEvidence(frame.index!, frame.format, direction);
    };
    expect(read('2', 'received')).toMatchObject({ version: 4 });
    expect(read('40{"sid":"abc"}', 'received')).toMatchObject({ version: 4 });
    expect(read('40', 'sent')).toMatchObject({ version: 4 });
    expect(read('2', 'sent')).toMatchObject({ version: 3 });
    expect(read('2probe', 'sent')).toBeNull();
    expect(read('42["a"]', 'sent')).toBeNull();
  });

  it('mutated and truncated binary frames never throw and keep their offsets in the frame', () => {
    const binaries = s.capture.frames.filter((f) => f.opcode === 'binary').map((f) => f.data);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (pick, cutAt, flipAt, value) => {
        const original = binaries[pick % binaries.length];
        const bytes = original.slice(0, 1 + (cutAt % original.length));
        bytes[flipAt % bytes.length] = value;
        const frame = decodeFrame(bytes, { isText: false, preferFormat: 'socketio' });
        if (frame.error) expect(frame.error.offset).toBeLessThanOrEqual(bytes.length);
        if (frame.format === 'socketio' && frame.index) frame.index.value(frame.index.root);
      }),
      { numRuns: 300 },
    );
    // The v2 text shapes (a namespace's query, ERROR's string) cut and flipped anywhere.
    const texts = s.capture.frames.filter((f) => f.opcode === 'text').map((f) => f.data);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), fc.integer({ min: 0x20, max: 0x7e }), (pick, cutAt, flipAt, value) => {
        const original = texts[pick % texts.length];
        const bytes = original.slice(0, 1 + (cutAt % original.length));
        bytes[flipAt % bytes.length] = value;
        const frame = decodeFrame(bytes, { isText: true, preferFormat: 'socketio' });
        if (frame.error) expect(frame.error.offset).toBeLessThanOrEqual(bytes.length);
        if (frame.index) {
          frame.index.value(frame.index.root);
          engineIoVersionEvidence(frame.index, frame.format, 'received');
        }
      }),
      { numRuns: 500 },
    );
  });
});
