import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHar } from './har.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const entry = (messages: unknown[]) =>
  JSON.stringify({
    log: {
      entries: [
        {
          request: { url: 'wss://device.test/mqtt' },
          response: { status: 101, headers: [] },
          _webSocketMessages: messages,
        },
      ],
    },
  });

describe('HAR files other tools write', () => {
  it('reads the HAR mitmproxy 11 wrote (scripts/mitmproxy-har/make-fixture.sh): every message, bytes exact', () => {
    const har = parseHar(readFileSync(new URL('./fixtures/mitmproxy-websocket.har', import.meta.url), 'utf8'));
    expect(har.errors).toEqual([]);
    expect(har.connections).toHaveLength(1);
    expect(har.connections[0]).toMatchObject({ url: 'http://127.0.0.1:18765/feed?room=7', protocol: 'wirescope-test' });
    const sent = har.frames.filter((f) => f.direction === 'sent');
    const received = har.frames.filter((f) => f.direction === 'received');
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i)).toString('hex');
    const expected = [
      ['text', Buffer.from('hello').toString('hex')],
      ['text', Buffer.from('héllo 水 🌊').toString('hex')],
      ['binary', 'a26269640163746167826161626262'],
      ['binary', every],
      ['text', ''],
    ];
    expect(sent.map((f) => [f.opcode, hex(f.data)])).toEqual(expected);
    expect(received.map((f) => [f.opcode, hex(f.data)])).toEqual(expected);
    // mitmproxy writes seconds since the epoch, as Chrome does.
    expect(har.frames[0].time).toBeGreaterThan(Date.parse('2020-01-01'));
  });

  it('reads opcode as a word, time in milliseconds, and base64 marked by encoding (HTTP Toolkit-style fields, synthesized)', () => {
    const har = parseHar(
      entry([
        { type: 'send', opcode: 'text', time: 1714557600300.5, data: '{"a":1}' },
        { type: 'receive', opcode: 'binary', time: 1714557600400, data: 'gwECAw==' },
        { type: 'receive', opcode: 1, encoding: 'base64', time: 1714557600.5, data: 'aGk=' },
      ]),
    );
    expect(har.errors).toEqual([]);
    expect(har.frames.map((f) => [f.direction, f.opcode, f.time, hex(f.data)])).toEqual([
      ['sent', 'text', 1714557600300.5, hex(new TextEncoder().encode('{"a":1}'))],
      ['received', 'binary', 1714557600400, '83010203'],
      ['received', 'text', 1714557600500, '6869'],
    ]);
  });

  it('reads direction from fromClient or sent/received words and the kind from type (Proxyman-style fields, synthesized)', () => {
    const har = parseHar(
      entry([
        { type: 'text', fromClient: true, time: 1714557600, data: 'ping' },
        { type: 'binary', fromClient: false, time: '2024-05-01T10:00:00.250Z', data: 'AAE=' },
        { type: 'sent', time: 1714557601, data: 'no opcode: text' },
        { type: 'received', encoding: 'base64', time: 1714557602, data: '/w==' },
        { direction: 'incoming', type: 'binary', time: 1714557603, data: 'AQ==' },
      ]),
    );
    expect(har.errors).toEqual([]);
    expect(har.frames.map((f) => [f.direction, f.opcode, hex(f.data)])).toEqual([
      ['sent', 'text', hex(new TextEncoder().encode('ping'))],
      ['received', 'binary', '0001'],
      ['sent', 'text', hex(new TextEncoder().encode('no opcode: text'))],
      ['received', 'binary', 'ff'],
      ['received', 'binary', '01'],
    ]);
    expect(har.frames[1].time).toBe(Date.parse('2024-05-01T10:00:00.250Z'));
  });

  it('reports a message it cannot place with its index and keeps the rest', () => {
    const har = parseHar(
      entry([
        { type: 'text', time: 1, data: 'which way?' },
        { type: 'send', opcode: 'binary', time: 2, data: '%%' },
        { type: 'send', opcode: 'text', time: 3, data: 'kept' },
      ]),
    );
    expect(har.frames.map((f) => new TextDecoder().decode(f.data))).toEqual(['kept']);
    expect(har.errors.map((e) => [e.messageIndex, e.message])).toEqual([
      [0, expect.stringMatching(/unknown type "text"/)],
      [1, expect.stringMatching(/binary data is not valid base64: .* at character 0/)],
    ]);
  });
});
