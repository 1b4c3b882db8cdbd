/** SockJS frames over its WebSocket transport: the letter, then the JSON it frames, each app message opened. */
import { describe, expect, it } from 'vitest';
import { decodeFrame, nestedValue, recognizeProtocol, sockjsFrame } from '../index.js';
import { assertTiles } from './test/tiles.js';

const utf8 = new TextEncoder();

function read(text: string, preferFormat?: string) {
  const d = decodeFrame(utf8.encode(text), { isText: true, preferFormat, depth: Infinity });
  return { ...d, protocol: recognizeProtocol(d.index, d.format, { connectionFormat: preferFormat }) };
}

describe('SockJS', () => {
  it("opens an array frame's JSON-encoded strings as the app's messages", () => {
    const frame = read('a["{\\"room\\":\\"room-42\\",\\"user\\":\\"ada\\"}","second"]');
    expect(frame).toMatchObject({ format: 'sockjs', verdict: 'decoded' });
    expect(frame.protocol).toMatchObject({ protocol: 'sockjs', message: 'messages ×2' });
    const index = frame.index!;
    assertTiles(index);
    const [first] = index.children(index.children(0).at(-1)!);
    const inner = nestedValue(index, first);
    expect(inner?.format).toBe('json');
    expect(inner!.index.value(0)).toEqual({ room: 'room-42', user: 'ada' });
  });

  it('reads a close frame: code and reason in the topic column', () => {
    const frame = read('c[3000,"Go away!"]');
    expect(sockjsFrame(frame.index!)).toEqual({ name: 'close', messages: 0, code: 3000, reason: 'Go away!' });
    expect(frame.protocol).toMatchObject({ message: 'close', event: '3000 Go away!' });
    assertTiles(frame.index!);
  });

  it('o and h are SockJS on a SockJS connection, text elsewhere (one letter says little)', () => {
    expect(read('o', 'sockjs')).toMatchObject({ format: 'sockjs', verdict: 'decoded' });
    expect(read('h', 'sockjs').protocol).toMatchObject({ message: 'heartbeat', quiet: true });
    expect(read('o').format).toBe('text');
  });

  it("the client's frames are JSON arrays of strings, SockJS on a SockJS connection", () => {
    const frame = read('["{\\"text\\":\\"hi\\"}"]', 'sockjs');
    expect(frame.format).toBe('json');
    expect(frame.protocol).toMatchObject({ protocol: 'sockjs', message: 'send' });
    expect(read('["a"]').protocol).toBeNull();
  });

  it('a broken array frame is malformed SockJS with its offset', () => {
    const frame = read('a["ok","cut');
    expect(frame).toMatchObject({ format: 'sockjs', verdict: 'malformed' });
    expect(frame.error).toMatchObject({ code: 'truncated', offset: 11 });
    expect(read('a[1]')).toMatchObject({ format: 'sockjs', verdict: 'malformed' });
  });
});
