import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpanIndex } from '../core/span-index.js';
import { decodeUtf8 } from '../core/utf8.js';
import { socketIoPacket, socketIoWalker } from './socketio-walker.js';
import { twoWalkPacket, twoWalkSocketIoWalker } from './test/socketio-two-walk.js';

// Every string decode of the shared UTF-8 decoder is counted (and passed through).
vi.mock('../core/utf8.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../core/utf8.js')>();
  return { ...original, decodeUtf8: vi.fn(original.decodeUtf8) };
});
const utf8Decodes = vi.mocked(decodeUtf8);

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * Indexing a Socket.IO frame records its header's nodes and walks the payload; the packet's
 * summary (event name, namespace, the header's values) is what the list and the tree ask
 * for afterwards, so it is read from the bytes then, once per index, not on every walk
 * (that read is the framing's fixed cost per frame on top of the JSON walker's).
 */
describe('Socket.IO walker: the packet summary is read when asked, once', () => {
  afterEach(() => vi.restoreAllMocks());

  it('indexing an EVENT decodes no string; the packet decodes its event name once', () => {
    // A name no earlier frame used (names read again come from a cache of recent ones).
    const name = `ev-${Math.random().toString(36).slice(2)}`;
    const frame = utf8(`42["${name}",{"n":1},[true,null]]`);
    utf8Decodes.mockClear();
    const index = new SpanIndex(frame, socketIoWalker);
    expect(utf8Decodes).not.toHaveBeenCalled();
    expect(socketIoPacket(index)?.event).toBe(name);
    expect(utf8Decodes).toHaveBeenCalledTimes(1);
    expect(socketIoPacket(index)).toBe(socketIoPacket(index));
    expect(utf8Decodes).toHaveBeenCalledTimes(1);
  });

  it("indexing decodes none of the header's text (namespace, query, Engine.IO text); reading the values does", () => {
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    const frames = [
      '40/admin?token=abc,{"a":1}',
      '451-/chat,7["up",{"_placeholder":true,"num":0}]',
      '2probe',
      '4hello',
    ];
    const indexes = frames.map((f) => new SpanIndex(utf8(f), socketIoWalker));
    expect(decode).not.toHaveBeenCalled();
    expect(indexes.map((index) => index.value(index.root))).toEqual([
      { 'engine.io': 'message', 'socket.io': 'CONNECT', namespace: '/admin', query: 'token=abc', data: { a: 1 } },
      {
        'engine.io': 'message',
        'socket.io': 'BINARY_EVENT',
        attachments: 1,
        namespace: '/chat',
        ack: 7,
        data: ['up', { _placeholder: true, num: 0 }],
      },
      { 'engine.io': 'ping', data: 'probe' },
      { 'engine.io': 'message', data: 'hello' },
    ]);
    expect(indexes.map((index) => socketIoPacket(index)?.namespace)).toEqual(['/admin', '/chat', '/', '/']);
  });

  it('a packet re-read after the root of a depth-0 index expands names the payload node it now has', () => {
    const index = new SpanIndex(utf8('42["chat",1]'), socketIoWalker, { depth: 0 });
    expect(socketIoPacket(index)).toMatchObject({ event: 'chat', data: -1 });
    index.expand(index.root);
    const data = socketIoPacket(index)!.data;
    expect(data).toBeGreaterThan(0);
    expect(index.value(data)).toEqual(['chat', 1]);
  });

  it("reads the same header values and packet as the reference walker, for broken packets too (the walk's prefix reading and the summary's agree)", () => {
    const frames = [
      '451-',
      '45x-[]',
      '461-/a?q=1,3[1',
      '42/admin,7["ev"',
      '44/locked,"Not authorized"',
      '44/locked,"x',
      '40/a?,{}',
      '4213[1]',
      '4hello',
      '2probe',
      '0{"sid"',
      '42[]]',
      '7',
      '',
      '4',
      '45',
      '451-/ns,',
    ];
    for (const text of frames) {
      for (const depth of [0, 1, Infinity]) {
        const one = new SpanIndex(utf8(text), socketIoWalker, { depth });
        const two = new SpanIndex(utf8(text), twoWalkSocketIoWalker, { depth });
        const values = (index: SpanIndex) =>
          Array.from({ length: index.store.size }, (_, id) =>
            index.store.parent[id] === 0 || id === 0
              ? [id, index.walker.describe?.(index, id), index.walker.leafValue(index, id)]
              : null,
          );
        expect({ text, depth, values: values(one) }).toEqual({ text, depth, values: values(two) });
        expect({ text, depth, packet: socketIoPacket(one) }).toEqual({ text, depth, packet: twoWalkPacket(two) });
      }
    }
  });
});
