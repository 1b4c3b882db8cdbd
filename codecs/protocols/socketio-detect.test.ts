import { describe, expect, it } from 'vitest';
import { Encoder, PacketType } from 'socket.io-parser';
import { encodePacket } from 'engine.io-parser';
import { decodeFrame, previewValue, socketIoPacket } from '../index.js';

/**
 * Socket.IO over Engine.IO text frames, produced by the real libraries'
 * encoders (socket.io-parser and engine.io-parser, the ones socket.io and its client use).
 */
const utf8 = (s: string) => new TextEncoder().encode(s);

/** The text frames socket.io writes for one Socket.IO packet (binary attachments follow as binary frames). */
function frames(packet: Parameters<Encoder['encode']>[0]): (string | Uint8Array)[] {
  const out: (string | Uint8Array)[] = [];
  for (const part of new Encoder().encode(packet)) {
    encodePacket({ type: 'message', data: part as string }, true, (encoded) =>
      out.push(encoded as string | Uint8Array),
    );
  }
  return out;
}

function engine(type: 'open' | 'ping' | 'pong' | 'close' | 'noop' | 'upgrade', data?: string): string {
  let frame = '';
  encodePacket({ type, data }, true, (encoded) => (frame = encoded as string));
  return frame;
}

describe('Socket.IO text frames', () => {
  it('an EVENT: packet types, event name and the JSON arguments with spans into the frame', () => {
    const [text] = frames({ type: PacketType.EVENT, nsp: '/', data: ['chat message', { from: 'ann', text: 'hi ☕' }] });
    expect(text).toBe('42["chat message",{"from":"ann","text":"hi ☕"}]');
    const frame = decodeFrame(utf8(text as string), { isText: true });
    expect(frame).toMatchObject({ format: 'socketio', verdict: 'decoded', error: null });
    const index = frame.index!;
    const packet = socketIoPacket(index)!;
    expect(packet).toMatchObject({
      engineType: 'message',
      socketType: 'EVENT',
      namespace: '/',
      ack: null,
      event: 'chat message',
      attachments: 0,
    });
    expect(index.value(index.root)).toEqual({
      'engine.io': 'message',
      'socket.io': 'EVENT',
      data: ['chat message', { from: 'ann', text: 'hi ☕' }],
    });
    // The payload's span is the JSON text after the two type digits.
    expect([index.store.start[packet.data], index.store.end[packet.data]]).toEqual([2, utf8(text as string).length]);
    const [, args] = index.children(packet.data);
    const text2 = index.children(args)[1];
    expect(new TextDecoder().decode(index.bytes.subarray(index.store.start[text2], index.store.end[text2]))).toBe(
      '"hi ☕"',
    );
  });

  it('namespace, ack id and binary attachments', () => {
    const [text, attachment] = frames({
      type: PacketType.EVENT,
      nsp: '/admin',
      id: 12,
      data: ['upload', { name: 'a.png', blob: Buffer.from([1, 2, 3]) }],
    });
    expect(text).toBe('451-/admin,12["upload",{"name":"a.png","blob":{"_placeholder":true,"num":0}}]');
    expect(attachment).toBeInstanceOf(Uint8Array);
    const frame = decodeFrame(utf8(text as string), { isText: true });
    expect(frame.format).toBe('socketio');
    expect(socketIoPacket(frame.index!)).toMatchObject({
      socketType: 'BINARY_EVENT',
      attachments: 1,
      namespace: '/admin',
      ack: 12,
      event: 'upload',
    });
    const ack = frames({ type: PacketType.ACK, nsp: '/', id: 7, data: ['ok'] })[0] as string;
    expect(socketIoPacket(decodeFrame(utf8(ack), { isText: true }).index!)).toMatchObject({
      socketType: 'ACK',
      ack: 7,
    });
  });

  it('the attachment count is its digits, not the dash after them, at any reading depth', () => {
    const bytes = utf8('4512-/admin,["upload",{"_placeholder":true,"num":0}]');
    for (const depth of [1, Infinity]) {
      const index = decodeFrame(bytes, { isText: true, depth }).index!;
      const value = index.children(index.root).find((c) => previewValue(index, index.keyOf(c)) === '"attachments"')!;
      expect(previewValue(index, value)).toBe('12');
      // The dash stays in the value's span (every byte of the frame is in one leaf).
      expect([index.store.start[value], index.store.end[value]]).toEqual([2, 5]);
    }
  });

  it('connect, disconnect, the Engine.IO handshake and ping/pong', () => {
    const open = engine(
      'open',
      JSON.stringify({
        sid: 'lv_VI97HAXpY6yYWAAAC',
        upgrades: [],
        pingInterval: 25000,
        pingTimeout: 20000,
        maxPayload: 1000000,
      }),
    );
    expect(decodeFrame(utf8(open), { isText: true })).toMatchObject({ format: 'socketio', verdict: 'decoded' });
    expect(socketIoPacket(decodeFrame(utf8(open), { isText: true }).index!)).toMatchObject({
      engineType: 'open',
      socketType: null,
    });
    const connect = frames({ type: PacketType.CONNECT, nsp: '/', data: { sid: 'abc' } })[0] as string;
    expect(socketIoPacket(decodeFrame(utf8(connect), { isText: true }).index!)).toMatchObject({
      socketType: 'CONNECT',
    });
    expect(decodeFrame(utf8(engine('ping', 'probe')), { isText: true }).format).toBe('socketio');
    // `2` and `40` are also JSON numbers: the connection's other frames decide.
    expect(decodeFrame(utf8(engine('ping')), { isText: true }).format).toBe('json');
    expect(decodeFrame(utf8(engine('ping')), { isText: true, preferFormat: 'socketio' }).format).toBe('socketio');
    expect(decodeFrame(utf8('40'), { isText: true, preferFormat: 'socketio' }).format).toBe('socketio');
  });

  it('a broken payload is a malformed socket.io frame with the offset in the frame; other text stays text', () => {
    const frame = decodeFrame(utf8('42["ev",{"a":}]'), { isText: true });
    expect(frame).toMatchObject({ format: 'socketio', verdict: 'malformed' });
    expect(frame.error!.offset).toBe(13);
    expect(decodeFrame(utf8('3 apples'), { isText: true }).format).toBe('text');
    expect(decodeFrame(utf8('7 days'), { isText: true }).format).toBe('text');
  });
});
