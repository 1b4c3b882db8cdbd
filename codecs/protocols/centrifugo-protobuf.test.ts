/**
 * Centrifugo over Protobuf (subprotocol `centrifuge-protobuf`), with frames produced by the
 * real centrifuge-js Protobuf client over a real WebSocket (recorded by the proxy) and replies
 * built by a test server with the same library's Protobuf codec: read with names through the
 * schema walker and wirescope's own `.proto`, values equal to the library's decode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { Centrifuge } from 'centrifuge/build/protobuf';
import { decodeFrame, recognizeProtocol, Kind, type SpanIndex } from '../index.js';
import { nestedValue } from '../nested/nested-value.js';
import { centrifugoMessages, readCentrifugoProtobuf } from './centrifugo-protobuf.js';
import { captureProxy, until, type WsCapture } from './test/ws-capture.js';
import { localWsServer, type LocalWsServer } from './test/ws-server.js';

interface Codec {
  encodeReplies(replies: unknown[]): Uint8Array;
  decodeReplies(data: Uint8Array): Record<string, unknown>[];
  decodeCommands(data: Uint8Array): Record<string, unknown>[];
}
/** centrifuge-js' own Protobuf codec (the one its client uses), taken from a client instance. */
const codec = (new Centrifuge('ws://unused', { websocket: WebSocket }) as unknown as { _codec: Codec })._codec;
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** A Centrifugo-like server: answers connect / subscribe / publish / rpc / presence, then pushes publications. */
async function server(): Promise<LocalWsServer> {
  const local = await localWsServer({
    handleProtocols: (p) => (p.has('centrifuge-protobuf') ? 'centrifuge-protobuf' : false),
  });
  local.wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      const replies: unknown[] = [];
      for (const c of codec.decodeCommands(new Uint8Array(data as Buffer))) {
        const id = c.id as number;
        if (c.connect)
          replies.push({
            id,
            connect: {
              client: 'client-7',
              version: '5.4.0',
              ping: 25,
              pong: true,
              subs: { news: { recoverable: true, epoch: 'ep', offset: 3 } },
            },
          });
        else if (c.subscribe) {
          const channel = (c.subscribe as { channel: string }).channel;
          replies.push({
            id,
            subscribe: {
              recoverable: true,
              epoch: 'ep',
              offset: 4,
              publications: [{ data: json({ hello: channel }), offset: 4 }],
            },
          });
          // A batch: the subscribe reply and two pushes in one frame.
          replies.push({
            push: {
              channel,
              pub: {
                data: json({ title: 'first', n: 1 }),
                offset: 5,
                tags: { lang: 'en' },
                info: { user: 'ann', client: 'client-3' },
              },
            },
          });
          replies.push({ push: { channel, join: { info: { user: 'bob', client: 'client-9' } } } });
        } else if (c.publish) replies.push({ id, publish: {} });
        else if (c.rpc) replies.push({ id, rpc: { data: json({ sum: 3 }) } });
        else if (c.presence)
          replies.push({ id, presence: { presence: { 'client-3': { user: 'ann', client: 'client-3' } } } });
        else if (id) replies.push({ id, error: { code: 103, message: 'permission denied' } });
      }
      if (replies.length) socket.send(codec.encodeReplies(replies));
    });
  });
  return local;
}

describe('Centrifugo over Protobuf (real centrifuge-js Protobuf client)', () => {
  let capture: WsCapture;
  let stop: () => Promise<void>;
  const received: unknown[] = [];
  beforeAll(async () => {
    const s = await server();
    capture = await captureProxy(s.url);
    const client = new Centrifuge(`${capture.url}/connection/websocket`, {
      websocket: WebSocket,
      minReconnectDelay: 60_000,
    });
    const sub = client.newSubscription('news');
    // The Protobuf client hands publications over as their bytes.
    sub.on('publication', (ctx) => received.push(JSON.parse(new TextDecoder().decode(ctx.data as Uint8Array))));
    sub.subscribe();
    client.connect();
    await until(() => received.length >= 1);
    await client.publish('news', json({ text: 'hi from client' }));
    await client.rpc('sum', json({ a: 1, b: 2 }));
    await client.presence('news');
    stop = async () => {
      client.disconnect();
      await capture.close();
      await s.close();
    };
  }, 20_000);
  afterAll(() => stop?.());

  it('reads every frame whole, with the values centrifuge-js itself decodes', () => {
    expect(received).toContainEqual({ title: 'first', n: 1 });
    expect(capture.frames.length).toBeGreaterThanOrEqual(8);
    for (const f of capture.frames) {
      expect(f.subprotocol).toBe('centrifuge-protobuf');
      expect(f.opcode).toBe('binary');
      const index = readCentrifugoProtobuf(f.data, { direction: f.direction });
      expect(index.error, Buffer.from(f.data).toString('hex')).toBeNull();
      const library = f.direction === 'sent' ? codec.decodeCommands(f.data) : codec.decodeReplies(f.data);
      expect(normalize(index.value(index.root))).toEqual(normalize(library.map((m) => toPlain(m))));
      assertSpans(index);
    }
  });

  it('names each message: method, id, channel; a batch lists them all and a push says its kind', () => {
    const rows = capture.frames.map((f) => {
      const index = readCentrifugoProtobuf(f.data, { direction: f.direction });
      return {
        direction: f.direction,
        info: recognizeProtocol(index, 'protobuf'),
        messages: centrifugoMessages(index),
      };
    });
    const sentMethods = rows.filter((r) => r.direction === 'sent').flatMap((r) => r.messages.map((m) => m.method));
    expect(sentMethods).toEqual(expect.arrayContaining(['connect', 'subscribe', 'publish', 'rpc', 'presence']));
    // The client sends connect and its subscribe in one frame.
    const first = rows[0];
    expect(first.direction).toBe('sent');
    expect(first.info).toMatchObject({ protocol: 'centrifugo', message: 'connect +1', id: '1', event: 'news' });
    expect(first.messages.map((m) => [m.method, m.id])).toEqual([
      ['connect', 1],
      ['subscribe', 2],
    ]);
    const batch = rows.find((r) => r.direction === 'received' && r.messages.some((m) => m.push))!;
    expect(batch.info).toMatchObject({ protocol: 'centrifugo', message: 'connect +3', event: 'news', id: '1' });
    expect(batch.messages.map((m) => m.push ?? m.method)).toEqual(['connect', 'subscribe', 'pub', 'join']);
    const rpc = rows.find((r) => r.direction === 'sent' && r.messages[0]?.method === 'rpc')!;
    expect(rpc.info).toMatchObject({ message: 'rpc', id: '4' });
  });

  it("gives each length prefix and message its span, and opens a Publication's data as JSON", () => {
    const f = capture.frames.find((x) => x.direction === 'received' && codec.decodeReplies(x.data).length === 4)!;
    const index = readCentrifugoProtobuf(f.data, { direction: 'received' });
    const messages = index.children(index.root);
    expect(messages).toHaveLength(4);
    // Each message node starts at its length prefix (its head) and ends where the prefix says.
    let at = 0;
    for (const m of messages) {
      expect(index.store.start[m]).toBe(at);
      const length = f.data[at]; // small messages: a one-byte varint
      expect(length).toBeLessThan(0x80);
      expect(index.headerLength(m)).toBe(1);
      expect(index.store.end[m]).toBe(at + 1 + length);
      at = index.store.end[m];
    }
    expect(at).toBe(f.data.length);
    // push.pub.data holds JSON bytes: the nested-value rules open it.
    const data = findField(index, ['push', 'pub', 'data']);
    const nested = nestedValue(index, data);
    expect(nested?.format).toBe('json');
    expect(nested!.index.value(nested!.index.root)).toEqual({ title: 'first', n: 1 });
  });

  it('says unknown direction by the better reading, and plain detection leaves these frames alone', () => {
    const sent = capture.frames.find((f) => f.direction === 'sent')!;
    expect(centrifugoMessages(readCentrifugoProtobuf(sent.data)).map((m) => m.method)).toContain('connect');
    let rawButNamed = 0;
    // Without the subprotocol nothing is forced: plain detection reads these frames as before
    // (raw Protobuf or unknown), never as Centrifugo by shape alone.
    for (const f of capture.frames) {
      const d = decodeFrame(f.data, { isText: false });
      expect([null, 'protobuf']).toContain(d.format);
      expect(recognizeProtocol(d.index, d.format)).toBeNull();
      // With the subprotocol, a raw Protobuf reading's row still names the Centrifugo messages.
      if (d.format === 'protobuf') {
        const expected = recognizeProtocol(readCentrifugoProtobuf(f.data, { direction: f.direction }), 'protobuf');
        expect(recognizeProtocol(d.index, d.format, { subprotocol: 'centrifuge-protobuf' })).toEqual(expected);
        rawButNamed++;
      }
    }
    expect(rawButNamed).toBeGreaterThan(0);
  });

  it('truncations and mutations never throw, keep the messages before the damage and report an offset in the frame', () => {
    const frames = capture.frames.map((f) => f.data);
    fc.assert(
      fc.property(
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        (pick, cutAt, flipAt, value, sent) => {
          const original = frames[pick % frames.length];
          const bytes = original.slice(0, cutAt % (original.length + 1));
          if (bytes.length) bytes[flipAt % bytes.length] = value;
          const index = readCentrifugoProtobuf(bytes, { direction: sent ? 'sent' : 'received' });
          if (index.error) expect(index.error.offset).toBeLessThanOrEqual(bytes.length);
          index.value(index.root);
          recognizeProtocol(index, 'protobuf');
          centrifugoMessages(index);
        },
      ),
      { numRuns: 400 },
    );
    // A length past the end: an error at the prefix, the message before it kept.
    const two = capture.frames.find(
      (f) => f.direction === 'received' && codec.decodeReplies(f.data).length === 4,
    )!.data;
    const firstEnd = 1 + two[0];
    const broken = new Uint8Array([...two.subarray(0, firstEnd), 0x7f, 1, 2]);
    const index = readCentrifugoProtobuf(broken, { direction: 'received' });
    expect(index.error).toMatchObject({ code: 'length-exceeds-input', offset: firstEnd });
    expect(index.children(index.root)).toHaveLength(1);
  });
});

/** The node of a field path through message maps (first match at each level). */
function findField(index: SpanIndex, path: string[]): number {
  let nodes = index.children(index.root);
  let found = -1;
  for (const name of path) {
    found = -1;
    for (const m of nodes) {
      for (const c of index.children(m)) {
        const k = index.keyOf(c);
        if (k >= 0 && index.value(k) === name) found = c;
      }
      if (found >= 0) break;
    }
    expect(found, name).toBeGreaterThanOrEqual(0);
    nodes = [found];
  }
  return found;
}

/** Every node inside its parent; siblings in order without overlap. */
function assertSpans(index: SpanIndex): void {
  const { store } = index;
  for (let id = 1; id < store.size; id++) {
    const p = store.parent[id];
    expect(store.start[id]).toBeGreaterThanOrEqual(store.start[p]);
    expect(store.end[id]).toBeLessThanOrEqual(store.end[p]);
    const next = store.nextSibling[id];
    if (next >= 0 && store.kind[id] !== Kind.pb_tag) expect(store.start[next]).toBeGreaterThanOrEqual(store.end[id]);
  }
}

/** protobufjs message instances → plain objects with only the fields set (as our values are). */
function toPlain(v: unknown): unknown {
  if (v instanceof Uint8Array) return Array.from(v);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v && typeof v === 'object') {
    if (typeof (v as { toNumber?: unknown }).toNumber === 'function') return (v as { toNumber(): number }).toNumber();
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (Object.hasOwn(v, k)) out[k] = toPlain(x);
    return out;
  }
  return v;
}

const MAP_FIELDS = new Set(['headers', 'subs', 'tags', 'presence']);

/** Leaves out proto3 defaults (protobufjs' decode sets only present fields; ours likewise), bytes as arrays. */
function normalize(v: unknown): unknown {
  if (v instanceof Uint8Array) return Array.from(v);
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const n = normalize(x);
      const emptyMap =
        MAP_FIELDS.has(k) && n !== null && typeof n === 'object' && !Array.isArray(n) && Object.keys(n).length === 0;
      if (n === undefined || emptyMap || (Array.isArray(n) && n.length === 0 && k !== 'data')) continue;
      out[k] = n;
    }
    return out;
  }
  return v;
}
