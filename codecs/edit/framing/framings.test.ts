/**
 * Framed frames edited: frames made by the real libraries (socket.io-parser, mqtt-packet,
 * stompjs, graphql-ws) and in the layouts Phoenix, Centrifugo and WAMP clients write. The
 * unchanged edit text gives back the original bytes; an edited value or field gives a frame
 * the library's own parser reads back with the new value, the framing rebuilt around it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decoder, Encoder, PacketType, type Packet } from 'socket.io-parser';
import mqttPacket from 'mqtt-packet';
import { FrameImpl, Parser, type IFrame } from '@stomp/stompjs';
import { stringifyMessage, MessageType } from 'graphql-ws';
import { encode as encodeCbor, decode as decodeCbor } from 'cbor-x';
import { FRAMINGS, type FramingName, framedFromText } from './index.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function source(framing: FramingName, bytes: Uint8Array): string {
  const text = FRAMINGS[framing].source(bytes);
  if (text === null) throw new Error(`not read as ${framing}: ${dec.decode(bytes)}`);
  return text;
}

function build(framing: FramingName, original: Uint8Array, text: string): Uint8Array {
  const r = framedFromText(framing, original, text);
  if (!r.ok) throw new Error(`${r.error.line}:${r.error.column}: ${r.error.message}\n${text}`);
  return r.bytes;
}

const unchanged = (framing: FramingName, bytes: Uint8Array) =>
  expect(build(framing, bytes, source(framing, bytes))).toEqual(bytes);

/** The edit text with field `name` set to `value` (JSON text). */
const setField = (text: string, name: string, value: string) =>
  text.replace(new RegExp(`^${name.replace(/[[\]().]/g, '\\$&')}: .*$`, 'm'), `${name}: ${value}`);

/** The edit text with the value after the separator replaced. */
const setValue = (text: string, value: string) =>
  text.replace(/(^--- .*$\n)[\s\S]*$/m, (_, sep: string) => sep + value);

// ---------------------------------------------------------------- Socket.IO

const socketIoFrames = (packet: Packet): (string | Uint8Array)[] =>
  (new Encoder().encode(packet) as (string | Uint8Array)[]).map((p) => (typeof p === 'string' ? `4${p}` : p));

function socketIoDecode(frame: Uint8Array): Packet {
  let out: Packet | null = null;
  const d = new Decoder();
  d.on('decoded', (p: Packet) => {
    out = p;
  });
  d.add(dec.decode(frame).slice(1));
  if (!out) throw new Error('socket.io-parser decoded nothing');
  return out;
}

describe('Socket.IO', () => {
  it('gives back socket.io-parser packets exactly when unchanged: events with and without namespace and ack id, acks, connects', () => {
    const packets: Packet[] = [
      { type: PacketType.EVENT, nsp: '/', data: ['message', { a: 1, b: [true, null] }] },
      { type: PacketType.EVENT, nsp: '/chat', id: 17, data: ['say', 'héllo', 2.5] },
      { type: PacketType.ACK, nsp: '/chat', id: 3, data: [{ ok: true }] },
      { type: PacketType.CONNECT, nsp: '/admin', data: { token: 'x' } },
      { type: PacketType.DISCONNECT, nsp: '/admin' },
    ];
    for (const p of packets) unchanged('socketio', enc.encode(socketIoFrames(p)[0] as string));
  });

  it('edits the data, the namespace and the ack id; socket.io-parser reads the rebuilt packet', () => {
    const original = enc.encode(
      socketIoFrames({ type: PacketType.EVENT, nsp: '/', data: ['message', { a: 1 }] })[0] as string,
    );
    const text = source('socketio', original);
    expect(text).toContain('namespace: "/"\nack id: null\n--- data as JSON\n["message",{"a":1}]');
    let edited = build('socketio', original, setValue(text, '["message", {"a": 2, "n": [1,2]}]'));
    expect(socketIoDecode(edited)).toMatchObject({
      type: PacketType.EVENT,
      nsp: '/',
      data: ['message', { a: 2, n: [1, 2] }],
    });
    edited = build('socketio', original, setField(setField(text, 'namespace', '"/chat"'), 'ack id', '42'));
    expect(dec.decode(edited)).toBe('42/chat,42["message",{"a":1}]');
    expect(socketIoDecode(edited)).toMatchObject({
      type: PacketType.EVENT,
      nsp: '/chat',
      id: 42,
      data: ['message', { a: 1 }],
    });
    // And back: the namespace and the ack id taken away.
    const back = build(
      'socketio',
      edited,
      setField(setField(source('socketio', edited), 'namespace', '"/"'), 'ack id', 'null'),
    );
    expect(back).toEqual(original);
  });

  it('a binary event keeps its attachment count and placeholders; its data edits as JSON', () => {
    const [head, attachment] = socketIoFrames({
      type: PacketType.EVENT,
      nsp: '/files',
      id: 5,
      data: ['upload', { name: 'a.bin', blob: new Uint8Array([1, 2, 3]) }],
    });
    expect(attachment).toBeInstanceOf(Uint8Array);
    const original = enc.encode(head as string);
    unchanged('socketio', original);
    const text = source('socketio', original);
    expect(text).toContain('binary attachment follows');
    const edited = build('socketio', original, text.replace('"a.bin"', '"b.bin"'));
    expect(dec.decode(edited)).toBe('451-/files,5["upload",{"name":"b.bin","blob":{"_placeholder":true,"num":0}}]');
  });

  it('round trips any event socket.io-parser writes, and any edited value reads back', () => {
    const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<unknown>;
    fc.assert(
      fc.property(
        fc.constantFrom('/', '/chat', '/a-b_c', '/ünï'),
        fc.option(fc.nat({ max: 1e9 }), { nil: undefined }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.array(json, { maxLength: 3 }),
        json,
        (nsp, id, event, args, next) => {
          const original = enc.encode(
            socketIoFrames({ type: PacketType.EVENT, nsp, id, data: [event, ...args] })[0] as string,
          );
          const text = source('socketio', original);
          expect(build('socketio', original, text)).toEqual(original);
          const edited = build('socketio', original, setValue(text, JSON.stringify([event, next])));
          const p = socketIoDecode(edited);
          expect(p.nsp).toBe(nsp);
          expect(p.id).toBe(id);
          expect(p.data).toEqual(JSON.parse(JSON.stringify([event, next])));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a bad edit is an error with line and column, no bytes', () => {
    const original = enc.encode('42["m",1]');
    const text = source('socketio', original);
    const bad = framedFromText('socketio', original, setValue(text, '["m", ]'));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect([bad.error.line, bad.error.column]).toEqual([text.split('\n').length, 7]);
    const badNs = framedFromText('socketio', original, setField(text, 'namespace', '"chat"'));
    expect(badNs.ok || badNs.error.message).toMatch(/starting with '\/'/);
    const badAck = framedFromText('socketio', original, setField(text, 'ack id', '-1'));
    expect(badAck.ok || `${badAck.error.line}:${badAck.error.message}`).toMatch(/^3:an ack id/);
  });
});

// ---------------------------------------------------------------- MQTT

function mqttParse(bytes: Uint8Array, protocolVersion: 4 | 5): mqttPacket.IPublishPacket {
  const parser = mqttPacket.parser({ protocolVersion });
  let out: mqttPacket.Packet | null = null;
  let error: Error | null = null;
  parser.on('packet', (p) => {
    out = p;
  });
  parser.on('error', (e) => {
    error = e;
  });
  parser.parse(Buffer.from(bytes));
  if (error) throw error;
  if (!out) throw new Error('mqtt-packet read nothing');
  return out as mqttPacket.IPublishPacket;
}

const publish = (p: Partial<mqttPacket.IPublishPacket>, protocolVersion: 4 | 5 = 4) =>
  new Uint8Array(
    mqttPacket.generate(
      { cmd: 'publish', topic: 't', payload: '', qos: 0, dup: false, retain: false, ...p } as mqttPacket.IPublishPacket,
      { protocolVersion },
    ),
  );

describe('MQTT PUBLISH', () => {
  it('gives back mqtt-packet publishes exactly when unchanged: QoS 0-2, retain, dup, MQTT 5 properties, CBOR / JSON / text / binary payloads', () => {
    const frames = [
      publish({ topic: 'sensors/1', payload: Buffer.from('{"t":21.5}') }),
      publish({
        topic: 'a/b',
        qos: 1,
        messageId: 7,
        retain: true,
        payload: Buffer.from(encodeCbor({ a: 1, b: [1, 2] })),
      }),
      publish({ topic: 'x', qos: 2, messageId: 65535, dup: true, payload: Buffer.from('hello world') }),
      publish({ topic: 'bin', payload: Buffer.from([0xff, 0x00, 0x80]) }),
      publish({ topic: 'big', payload: Buffer.alloc(300, 0x61) }),
      publish(
        {
          topic: 'v5',
          qos: 1,
          messageId: 9,
          payload: Buffer.from('{"v":5}'),
          properties: { contentType: 'application/json', userProperties: { k: 'v' }, messageExpiryInterval: 60 },
        },
        5,
      ),
    ];
    for (const f of frames) unchanged('mqtt', f);
    expect(source('mqtt', frames[1])).toContain('--- payload as EDN\n{_1 "a": 1, "b": [1, 2]}');
    expect(source('mqtt', frames[2])).toContain('--- payload as text\nhello world');
    expect(source('mqtt', frames[3])).toContain('--- payload as hex\nff 00 80');
    expect(source('mqtt', frames[5])).toContain('MQTT 5 properties');
  });

  it('edits the payload and the fields; the remaining length is counted again and mqtt-packet reads the new values', () => {
    const original = publish({ topic: 'sensors/1', payload: Buffer.from(encodeCbor({ t: 21 })) });
    const text = source('mqtt', original);
    // Past 127 bytes the remaining length takes two bytes.
    const long = 'x'.repeat(200);
    const edited = build(
      'mqtt',
      original,
      setValue(
        setField(setField(setField(text, 'qos', '1'), 'packet id', '12'), 'retain', 'true'),
        `{"t": 22, "s": "${long}"}`,
      ),
    );
    const p = mqttParse(edited, 4);
    expect(p).toMatchObject({ topic: 'sensors/1', qos: 1, messageId: 12, retain: true, dup: false });
    expect(decodeCbor(p.payload as Buffer)).toEqual({ t: 22, s: long });
    expect(edited[1] & 0x80, 'a two-byte remaining length').toBe(0x80);
    const renamed = build('mqtt', original, setField(text, 'topic', '"sensors/ü/2"'));
    expect(mqttParse(renamed, 4)).toMatchObject({ topic: 'sensors/ü/2', qos: 0 });
  });

  it('keeps MQTT 5 properties byte for byte around an edited payload', () => {
    const properties = {
      contentType: 'application/json',
      userProperties: { k: 'v' },
      correlationData: Buffer.from([1, 2]),
    };
    const original = publish({ topic: 'v5', qos: 1, messageId: 9, payload: Buffer.from('{"v":5}'), properties }, 5);
    const edited = build('mqtt', original, setValue(source('mqtt', original), '{"v": 6, "more": true}'));
    const p = mqttParse(edited, 5);
    expect(p.properties).toEqual(properties);
    expect(JSON.parse(String(p.payload))).toEqual({ v: 6, more: true });
  });

  it('round trips random publishes and reads back random edited payloads', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        fc.uint8Array({ maxLength: 400 }),
        fc.uint8Array({ maxLength: 400 }),
        (topic, qos, retain, payload, next) => {
          const original = publish({
            topic,
            qos: qos as 0 | 1 | 2,
            retain,
            messageId: qos ? 1 : undefined,
            payload: Buffer.from(payload),
          });
          const text = source('mqtt', original);
          expect(build('mqtt', original, text)).toEqual(original);
          const hex = [...next].map((b) => b.toString(16).padStart(2, '0')).join(' ');
          const edited = build(
            'mqtt',
            original,
            setValue(text.replace(/^--- payload as .*$/m, '--- payload as hex'), hex),
          );
          // A 3.1.1 payload whose first bytes form MQTT 5 properties reads as MQTT 5 (a frame does not say
          // its version): the edit keeps those bytes as properties, and so does an MQTT 5 reader.
          const p = mqttParse(edited, text.includes('MQTT 5 PUBLISH') ? 5 : 4);
          expect([p.topic, p.qos, p.retain, [...(p.payload as Buffer)]]).toEqual([topic, qos, retain, [...next]]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses fields MQTT cannot carry, at their line and column', () => {
    const original = publish({ topic: 't', payload: Buffer.from('x') });
    const text = source('mqtt', original);
    const r = framedFromText('mqtt', original, setField(text, 'qos', '1'));
    expect(r.ok || `${r.error.line}:${r.error.message}`).toMatch(/^6:a QoS 1 or 2 PUBLISH has a packet id/);
    const q = framedFromText('mqtt', original, setField(text, 'qos', '3'));
    expect(q.ok || q.error.message).toBe('QoS is 0, 1 or 2');
  });
});

// ---------------------------------------------------------------- STOMP

const stompFrame = (
  command: string,
  headers: Record<string, string>,
  body: string,
  skipContentLengthHeader = false,
) => {
  const m = FrameImpl.marshall({ command, headers, body, escapeHeaderValues: true, skipContentLengthHeader });
  return typeof m === 'string' ? enc.encode(m) : new Uint8Array(m);
};

function stompParse(bytes: Uint8Array): IFrame {
  let out: IFrame | null = null;
  const parser = new Parser(
    (raw) => {
      out = FrameImpl.fromRawFrame(raw, true);
    },
    () => {},
  );
  parser.parseChunk(bytes.slice().buffer as ArrayBuffer);
  if (!out) throw new Error('stompjs parsed nothing');
  return out;
}

describe('STOMP', () => {
  it('gives back stompjs frames exactly when unchanged, with and without content-length, escaped headers, CRLF', () => {
    unchanged('stomp', stompFrame('SEND', { destination: '/queue/a', 'content-type': 'application/json' }, '{"a":1}'));
    unchanged('stomp', stompFrame('MESSAGE', { destination: '/t', 'x-note': 'a:b\nc' }, 'plain text', true));
    unchanged('stomp', enc.encode('SEND\r\ndestination:/q\r\ncontent-length:2\r\n\r\nhi\0\n'));
  });

  it('edits the body and a header; content-length is set to the new body’s length and stompjs reads it', () => {
    const original = stompFrame('SEND', { destination: '/queue/a', 'content-type': 'application/json' }, '{"a":1}');
    const text = source('stomp', original);
    expect(text).toContain(
      'SEND\ndestination:/queue/a\ncontent-type:application/json\ncontent-length:7\n--- body as JSON\n{"a":1}',
    );
    const edited = build(
      'stomp',
      original,
      setValue(text.replace('destination:/queue/a', 'destination:/queue/b'), '{"a": "ünï"}'),
    );
    const f = stompParse(edited);
    expect(f.command).toBe('SEND');
    expect(f.headers.destination).toBe('/queue/b');
    expect(f.headers['content-length']).toBe(String(enc.encode('{"a": "ünï"}').length));
    expect(JSON.parse(f.body)).toEqual({ a: 'ünï' });
  });

  it('round trips random frames stompjs writes (escaped header values, any body), and reads back random edited bodies', () => {
    const headerText = fc.string({ maxLength: 12 }).filter((v) => !v.includes('\r'));
    fc.assert(
      fc.property(
        fc.constantFrom('SEND', 'MESSAGE', 'SUBSCRIBE'),
        fc.dictionary(fc.stringMatching(/^[a-z][a-z-]{0,8}$/), headerText, { maxKeys: 4 }),
        fc.string({ maxLength: 60 }),
        fc.string({ maxLength: 60 }).filter((b) => !b.includes('\r') && !b.includes('\0')),
        fc.boolean(),
        (command, headers, body, next, noLength) => {
          delete headers['content-length'];
          const original = stompFrame(
            command,
            { destination: '/q', ...headers },
            body,
            noLength && !body.includes('\0'),
          );
          const text = FRAMINGS.stomp.source(original);
          // A frame whose lines the edit text cannot carry (a header value with CR, say) is edited as hex.
          if (text === null) return;
          expect(build('stomp', original, text)).toEqual(original);
          const edited = stompParse(
            build('stomp', original, setValue(text.replace(/^--- body as .*$/m, '--- body as text'), next)),
          );
          expect([edited.command, edited.body]).toEqual([command, next]);
          // The headers as stompjs reads them (it trims values) are as they were, content-length aside.
          const { 'content-length': _, ...before } = stompParse(original).headers;
          const { 'content-length': __, ...after } = edited.headers;
          expect(after).toEqual(before);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a body with a NUL needs a content-length', () => {
    const original = stompFrame('SEND', { destination: '/q' }, 'x', true);
    const r = framedFromText(
      'stomp',
      original,
      setValue(source('stomp', original).replace('as text', 'as hex'), '61 00 62'),
    );
    expect(r.ok || r.error.message).toMatch(/content-length/);
  });
});

// ---------------------------------------------------------------- JSON framings

describe('JSON framings', () => {
  const cases: [FramingName, string, string, unknown][] = [
    ['phoenix', JSON.stringify(['3', '4', 'room:lobby', 'new_msg', { body: 'hi' }]), '[4]', { body: 'bye' }],
    ['phoenix', JSON.stringify({ topic: 'room:1', event: 'phx_join', payload: {}, ref: '1' }), 'payload', { k: 1 }],
    [
      'graphql-ws',
      stringifyMessage({ id: 'a1', type: MessageType.Subscribe, payload: { query: '{ hello }' } }),
      'payload',
      { query: '{ bye }' },
    ],
    [
      'graphql-ws',
      stringifyMessage({ id: 'a1', type: MessageType.Next, payload: { data: { hello: 'world' } } }),
      'payload',
      { data: { hello: 'there' } },
    ],
    [
      'subscriptions-transport-ws',
      JSON.stringify({ id: '1', type: 'start', payload: { query: 'subscription { x }' } }),
      'payload',
      { query: 'y' },
    ],
    [
      'centrifugo',
      JSON.stringify({ id: 3, publish: { channel: 'news', data: { text: 'hi' } } }),
      'publish.data',
      [1, 2],
    ],
    [
      'centrifugo',
      JSON.stringify({ push: { channel: 'news', pub: { data: { n: 1 }, offset: 3 } } }),
      'push.pub.data',
      { n: 2 },
    ],
    ['wamp', JSON.stringify([16, 1, {}, 'com.myapp.topic', ['hello', 2], { k: 'v' }]), '[4]', ['bye']],
    ['wamp', JSON.stringify([50, 7, {}, [30]]), '[3]', [31]],
  ];
  it.each(cases)(
    '%s %s: unchanged gives the bytes back; an edited value is put in its place',
    (framing, frame, part, next) => {
      const original = enc.encode(frame);
      unchanged(framing, original);
      const text = source(framing, original);
      expect(text).toContain(`--- ${part} as JSON`);
      const edited = JSON.parse(dec.decode(build(framing, original, setValue(text, JSON.stringify(next)))));
      const expected = JSON.parse(frame);
      const steps = part.split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
      let at = expected;
      for (const s of steps.slice(0, -1)) at = at[s];
      at[steps[steps.length - 1]!] = next;
      expect(edited).toEqual(expected);
    },
  );

  it('round trip random graphql-ws and Phoenix messages, and put random edited payloads in place', () => {
    const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<unknown>;
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), json, json, (id, payload, next) => {
        for (const [framing, frame, at] of [
          [
            'graphql-ws',
            stringifyMessage({ id: id || 'x', type: MessageType.Next, payload: { data: payload } } as never),
            'payload',
          ],
          ['phoenix', JSON.stringify([null, id, 'room:1', 'msg', payload]), '[4]'],
        ] as const) {
          const original = enc.encode(frame);
          const text = source(framing, original);
          expect(build(framing, original, text)).toEqual(original);
          expect(text).toContain(`--- ${at} as JSON`);
          const edited = JSON.parse(dec.decode(build(framing, original, setValue(text, JSON.stringify(next)))));
          const expected = JSON.parse(frame);
          if (at === 'payload') expected.payload = next;
          else expected[4] = next;
          expect(edited).toEqual(JSON.parse(JSON.stringify(expected)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a field edits in place, as JSON; a bad one says where', () => {
    const original = enc.encode(
      stringifyMessage({ id: 'a1', type: MessageType.Subscribe, payload: { query: '{ hello }' } }),
    );
    const text = source('graphql-ws', original);
    expect(text).toContain('id: "a1"\ntype: "subscribe"\n--- payload as JSON');
    expect(dec.decode(build('graphql-ws', original, setField(text, 'id', '"b2"')))).toBe(
      '{"id":"b2","type":"subscribe","payload":{"query":"{ hello }"}}',
    );
    const bad = framedFromText('graphql-ws', original, setField(text, 'id', '"b2'));
    expect(bad.ok || `${bad.error.line}:${bad.error.column}`).toBe('2:5');
  });
});

describe('hostile edit text', () => {
  const originals: [FramingName, Uint8Array][] = [
    ['socketio', enc.encode('42/chat,7["say",{"n":1}]')],
    ['mqtt', publish({ topic: 't/1', qos: 1, messageId: 3, payload: Buffer.from(encodeCbor({ a: [1, 2] })) })],
    ['stomp', stompFrame('SEND', { destination: '/q', 'content-type': 'application/json' }, '{"a":1}')],
    ['graphql-ws', enc.encode('{"id":"1","type":"next","payload":{"data":{"x":1}}}')],
    ['wamp', enc.encode('[16,1,{},"t",[1],{"k":2}]')],
  ];
  it('never throws: any text, or a valid one cut or spliced anywhere, gives bytes or an error inside the text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...originals),
        fc.string({ maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        (pair, junk, a, b) => {
          const [framing, original] = pair;
          const valid = source(framing, original);
          const at = a % (valid.length + 1);
          const to = at + (b % (valid.length - at + 1));
          for (const text of [junk, valid.slice(0, at), valid.slice(0, at) + junk + valid.slice(to)]) {
            const r = framedFromText(framing, original, text);
            if (!r.ok) {
              expect(r.error.offset).toBeGreaterThanOrEqual(0);
              expect(r.error.offset).toBeLessThanOrEqual(text.length);
              expect(r.error.line).toBeGreaterThanOrEqual(1);
              expect(r.error.message).not.toBe('');
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
