import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildHar, parseHar } from './har.js';
import type { ConnectionInfo, WireFrame } from '../protocol/messages.js';

/** Shaped like Chrome DevTools' "Save all as HAR with content", trimmed to what matters. */
const CHROME_HAR = JSON.stringify({
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    pages: [
      {
        startedDateTime: '2024-05-01T10:00:00.000Z',
        id: 'page_1',
        title: 'https://app.example/',
        pageTimings: { onContentLoad: 120, onLoad: 300 },
      },
    ],
    entries: [
      {
        _initiator: { type: 'script' },
        _priority: 'High',
        _resourceType: 'document',
        cache: {},
        pageref: 'page_1',
        request: {
          method: 'GET',
          url: 'https://app.example/',
          httpVersion: 'http/2.0',
          headers: [],
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: 0,
        },
        response: {
          status: 200,
          statusText: '',
          httpVersion: 'http/2.0',
          headers: [],
          cookies: [],
          content: { size: 5, mimeType: 'text/html', text: 'hello' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
        startedDateTime: '2024-05-01T10:00:00.000Z',
        time: 50,
        timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 40, receive: 9 },
      },
      {
        _initiator: { type: 'script' },
        _resourceType: 'websocket',
        cache: {},
        connection: '4711',
        pageref: 'page_1',
        request: {
          method: 'GET',
          url: 'wss://rt.example/socket?v=2',
          httpVersion: 'HTTP/1.1',
          headers: [
            { name: 'Upgrade', value: 'websocket' },
            { name: 'Sec-WebSocket-Protocol', value: 'cbor, json' },
          ],
          queryString: [{ name: 'v', value: '2' }],
          cookies: [],
          headersSize: 512,
          bodySize: 0,
        },
        response: {
          status: 101,
          statusText: 'Switching Protocols',
          httpVersion: 'HTTP/1.1',
          headers: [
            { name: 'upgrade', value: 'websocket' },
            { name: 'sec-websocket-protocol', value: 'cbor' },
            { name: 'sec-websocket-extensions', value: 'permessage-deflate; client_max_window_bits=15' },
          ],
          cookies: [],
          content: { size: 0, mimeType: 'x-unknown' },
          redirectURL: '',
          headersSize: 201,
          bodySize: 0,
        },
        serverIPAddress: '203.0.113.7',
        startedDateTime: '2024-05-01T10:00:00.250Z',
        time: 5000.5,
        timings: { blocked: 2, dns: -1, ssl: -1, connect: -1, send: 0, wait: 30, receive: 0, _blocked_queueing: 1 },
        _webSocketMessages: [
          { type: 'send', time: 1714557600.3001, opcode: 1, data: '{"op":"sub","room":"café ☕"}' },
          { type: 'receive', time: 1714557600.5123, opcode: 2, data: 'omJvcGNhY2tiaWQB' },
          { type: 'receive', time: 1714557600.4, opcode: 2, data: 'gwECAw==' },
          { type: 'error', time: 1714557601, opcode: -1, data: 'net::ERR_CONNECTION_RESET' },
        ],
      },
    ],
  },
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('parseHar', () => {
  it('reads a Chrome HAR: the websocket entry, its negotiated protocol, frames in time order', () => {
    const har = parseHar(CHROME_HAR);
    expect(har.connections).toEqual([
      {
        connectionId: 'har-1',
        url: 'wss://rt.example/socket?v=2',
        protocol: 'cbor',
        extensions: 'permessage-deflate; client_max_window_bits=15',
        time: Date.parse('2024-05-01T10:00:00.250Z'),
      },
    ]);
    expect(har.frames.map((f) => [f.direction, f.opcode, hex(f.data)])).toEqual([
      ['sent', 'text', hex(new TextEncoder().encode('{"op":"sub","room":"café ☕"}'))],
      ['received', 'binary', '83010203'],
      ['received', 'binary', Buffer.from('omJvcGNhY2tiaWQB', 'base64').toString('hex')],
    ]);
    expect(har.frames[0].time).toBeCloseTo(1714557600300.1, 3);
    // Chrome's error events are not frames; saying so is not a parse failure of any frame.
    expect(har.errors).toEqual([{ entryIndex: 1, message: expect.stringContaining('skipped 1 error events') }]);
  });

  it('sorts stably: frames at the same time keep file order across entries', () => {
    const entry = (url: string, data: string[]) => ({
      _resourceType: 'websocket',
      request: { url },
      response: {},
      startedDateTime: '2024-01-01T00:00:00Z',
      _webSocketMessages: data.map((d) => ({ type: 'receive', time: 1, opcode: 1, data: d })),
    });
    const har = parseHar(
      JSON.stringify({ log: { entries: [entry('ws://a/', ['a1', 'a2']), entry('ws://b/', ['b1'])] } }),
    );
    expect(har.frames.map((f) => new TextDecoder().decode(f.data))).toEqual(['a1', 'a2', 'b1']);
    expect(har.connections.map((c) => c.protocol)).toEqual(['', '']);
  });

  it('malformed input is errors, never a throw', () => {
    expect(parseHar('{"log":')).toMatchObject({
      connections: [],
      frames: [],
      errors: [{ entryIndex: -1, message: expect.stringContaining('not JSON') }],
    });
    expect(parseHar('{"log":{}}').errors[0].message).toContain('log.entries');
    expect(parseHar('null').errors).toHaveLength(1);
    expect(parseHar('[]').errors).toHaveLength(1);
  });

  it('keeps what parsed around bad messages and entries', () => {
    const good = { type: 'receive', time: 2, opcode: 2, data: 'AAE=' };
    const text = JSON.stringify({
      log: {
        entries: [
          7,
          {
            _webSocketMessages: [
              good,
              { type: 'receive', time: 3, opcode: 2, data: 'not base64!' },
              { type: 'push', time: 3, opcode: 1, data: 'x' },
              { type: 'send', time: 'soon', opcode: 1, data: 'x' },
              null,
            ],
          },
          { _resourceType: 'websocket', request: { url: 'ws://ok/' }, _webSocketMessages: 'oops' },
          {
            _webSocketMessages: [
              { type: 'send', time: 1, opcode: 9, data: '' },
              { ...good, time: 4 },
            ],
          },
        ],
      },
    });
    const har = parseHar(text);
    expect(har.frames.map((f) => [f.connectionId, f.time, hex(f.data)])).toEqual([
      ['har-1', 2000, '0001'],
      ['har-3', 4000, '0001'],
    ]);
    expect(har.connections.map((c) => c.url)).toEqual(['', 'ws://ok/', '']);
    const where = har.errors.map((e) => [e.entryIndex, e.messageIndex]);
    expect(where).toEqual([
      [0, undefined],
      [1, undefined],
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, undefined],
      [3, undefined],
      [3, undefined],
    ]);
    expect(har.errors[1].message).toBe('entry has no request.url');
    expect(har.errors[2].message).toMatch(/message 1: binary data is not valid base64/);
    expect(har.errors.at(-1)!.message).toMatch(/skipped 1 opcode 9 messages/);
  });
});

describe('buildHar', () => {
  const connections: ConnectionInfo[] = [
    {
      connectionId: 'ws-1',
      url: 'wss://rt.example/s',
      protocol: 'cbor',
      extensions: 'permessage-deflate',
      time: 1714557600250.25,
    },
  ];

  it('writes the HAR 1.2 fields Chrome imports', () => {
    const frames: WireFrame[] = [
      {
        connectionId: 'ws-1',
        direction: 'received',
        time: 1714557601250.25,
        opcode: 'binary',
        data: Uint8Array.of(0x83, 1, 2, 3),
      },
    ];
    const log = JSON.parse(buildHar(connections, frames, { creator: { version: '0.1.0' } })).log;
    expect(log).toMatchObject({ version: '1.2', creator: { name: 'wirescope', version: '0.1.0' }, pages: [] });
    const [entry] = log.entries;
    expect(entry).toMatchObject({
      startedDateTime: '2024-05-01T10:00:00.250Z',
      time: 1000,
      request: {
        method: 'GET',
        url: 'wss://rt.example/s',
        httpVersion: 'HTTP/1.1',
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 101,
        statusText: 'Switching Protocols',
        cookies: [],
        content: { size: 0, mimeType: 'x-unknown' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 0,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 1000 },
      _resourceType: 'websocket',
      _webSocketMessages: [{ type: 'receive', time: 1714557601.25025, opcode: 2, data: 'gwECAw==' }],
    });
    expect(entry.request.headers).toContainEqual({ name: 'Upgrade', value: 'websocket' });
    expect(entry.request.headers).toContainEqual({ name: 'Sec-WebSocket-Protocol', value: 'cbor' });
    expect(entry.response.headers).toContainEqual({ name: 'Sec-WebSocket-Extensions', value: 'permessage-deflate' });
    expect(JSON.parse(buildHar([], [], { creator: 'wirescope' })).log.creator).toEqual({
      name: 'wirescope',
      version: 'unknown',
    });
  });

  it('gives frames of an unlisted connection an entry of their own', () => {
    const har = parseHar(
      buildHar([], [{ connectionId: 'x', direction: 'sent', time: 5, opcode: 'text', data: new Uint8Array(0) }]),
    );
    expect(har.connections).toEqual([
      { connectionId: 'x', url: 'wss://unknown.invalid/', protocol: '', extensions: '', time: 5 },
    ]);
    expect(har.frames).toHaveLength(1);
  });

  it('round trip is byte-exact for random binary and text frames; times within 1 µs', () => {
    const time = fc.double({ min: 1e12, max: 2e12, noNaN: true });
    const frame = fc.record({
      connectionId: fc.constantFrom('ws-1', 'ws-2'),
      direction: fc.constantFrom('sent' as const, 'received' as const),
      time,
      opcode: fc.constantFrom('text' as const, 'binary' as const),
      bytes: fc.uint8Array({ maxLength: 300 }),
      text: fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.constantFrom('\uFEFFbom kept', 'ü水𐅑', '\u2028\u0000"\\'),
      ),
    });
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 30 }), (specs) => {
        const frames: WireFrame[] = specs.map((s) => ({
          connectionId: s.connectionId,
          direction: s.direction,
          time: s.time,
          opcode: s.opcode,
          data: s.opcode === 'text' ? new TextEncoder().encode(s.text) : s.bytes,
        }));
        // buildHar writes each connection's frames in the order given; parseHar sorts by time.
        const sorted = [...frames].sort((a, b) => a.time - b.time);
        const conns: ConnectionInfo[] = ['ws-1', 'ws-2'].map((connectionId) => ({
          connectionId,
          url: `ws://h/${connectionId}`,
          protocol: '',
          extensions: '',
          time: 1e12,
        }));
        const back = parseHar(buildHar(conns, sorted, { creator: { version: 't' } }));
        expect(back.errors).toEqual([]);
        expect(back.connections.map((c) => c.connectionId)).toEqual(['ws-1', 'ws-2']);
        // Per connection, the frames come back in order with the same bytes.
        for (const id of ['ws-1', 'ws-2']) {
          const want = sorted.filter((f) => f.connectionId === id);
          const got = back.frames.filter((f) => f.connectionId === id);
          expect(got.map((f) => [f.direction, f.opcode, hex(f.data)])).toEqual(
            want.map((f) => [f.direction, f.opcode, hex(f.data)]),
          );
          got.forEach((f, i) => {
            expect(Math.abs(f.time - want[i].time)).toBeLessThan(0.001);
          });
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a text frame holding invalid UTF-8 goes out as opcode 2 and still comes back as text, bytes intact', () => {
    const bad = Uint8Array.of(0x61, 0xff, 0xc3);
    const text = buildHar(connections, [
      { connectionId: 'ws-1', direction: 'received', time: 1e12, opcode: 'text', data: bad },
    ]);
    expect(JSON.parse(text).log.entries[0]._webSocketMessages[0]).toMatchObject({
      opcode: 2,
      data: 'Yf/D',
      _wirescopeOpcode: 'text',
    });
    expect(parseHar(text).frames[0]).toMatchObject({ opcode: 'text', data: bad });
  });
});
