import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { WorkerHandlers, summarize } from './handlers.js';
import { CaptureModel, matchesFormat } from '../state/capture-model.js';
import { formatLabel } from '../components/list/FrameList.js';
import { formatTime } from '../components/shell/format.js';
import { numberedFrames } from './test/numbered-frames.js';

/** In the app: every frame labelled honestly in the list and the detail view. */
const utf8 = (s: string) => new TextEncoder().encode(s);
const msgpack = (v: unknown) => new MsgPackEncoder().encode(v);

const frame = numberedFrames();

function protobufPush(): Uint8Array {
  const root = protobuf.Root.fromJSON({
    nested: {
      Push: {
        fields: {
          channel: { type: 'string', id: 1 },
          offset: { type: 'uint64', id: 2 },
          data: { type: 'bytes', id: 4 },
        },
      },
    },
  });
  const Push = root.lookupType('Push');
  return Push.encode(Push.create({ channel: 'news:sport', offset: 1234567, data: utf8('{"score":"2-1"}') })).finish();
}

describe('list rows and detail views say what a frame is', () => {
  it('text frames are text, not CBOR or MessagePack readings of their bytes', () => {
    expect(summarize(frame(utf8('via prototype.send.call'), { opcode: 'text' }))).toMatchObject({
      format: 'text',
      error: null,
      preview: 'via prototype.send.call',
    });
    expect(summarize(frame(utf8('a'), { opcode: 'text' }))).toMatchObject({ format: 'text', error: null });
    expect(summarize(frame(utf8('{"a":1}\n{"b":2}'), { opcode: 'text' }))).toMatchObject({
      format: 'ndjson',
      error: null,
    });
  });

  it('a Protobuf frame reads as Protobuf without a schema', () => {
    expect(summarize(frame(protobufPush()))).toMatchObject({ format: 'protobuf', error: null, verdict: 'decoded' });
  });

  it('foreign binary is "unknown", with the nearest readings and the strings found', () => {
    const h = new WorkerHandlers();
    // A made-up binary envelope (a Phoenix push's layout with kind 7, which Phoenix has not): sizes, then the strings.
    const f = frame(
      Uint8Array.of(7, 2, 10, 7, ...utf8('12'), ...utf8('news:sport'), ...utf8('new_msg'), 0xff, 0x00, 0xc1),
    );
    h.store.add(f);
    const row = summarize(f, h.store);
    expect(row).toMatchObject({ format: null, verdict: 'unknown' });
    expect(formatLabel(row)).toBe('unknown');
    expect(matchesFormat(row, 'error')).toBe(false);
    expect(matchesFormat(row, 'unknown')).toBe(true);
    const decoded = h.methods.decode({ frameId: f.frameId, format: 'auto' })!;
    expect(decoded.verdict).toBe('unknown');
    expect(decoded.nearMisses!.length).toBeGreaterThan(0);
    expect(decoded.strings).toEqual(['12news:sportnew_msg']);
  });

  it('a 1-byte frame follows its connection; an empty frame is "empty", not an error', () => {
    const h = new WorkerHandlers();
    for (let i = 0; i < 3; i++) {
      const f = frame(msgpack({ type: 'tick', seq: i, payload: 'abcdefgh' }), { connectionId: 'mp' });
      h.store.add(f);
      summarize(f, h.store);
    }
    const tiny = frame(Uint8Array.of(0x2a), { connectionId: 'mp' });
    h.store.add(tiny);
    expect(summarize(tiny, h.store)).toMatchObject({ format: 'msgpack', preview: '42' });
    expect(h.methods.decode({ frameId: tiny.frameId, format: 'auto' })!.format).toBe('msgpack');
    const empty = frame(new Uint8Array(0), { connectionId: 'mp' });
    h.store.add(empty);
    const row = summarize(empty, h.store);
    expect(row).toMatchObject({ verdict: 'empty', error: null });
    expect(formatLabel(row)).toBe('empty');
    expect(h.methods.decode({ frameId: empty.frameId, format: 'auto' })).toMatchObject({
      error: null,
      verdict: 'empty',
    });
  });

  it('a frame time out of range reads "invalid time", not NaN:NaN', () => {
    expect(formatTime(1e300)).toBe('invalid time');
    expect(formatTime(-1e300)).toBe('invalid time');
    expect(formatTime(Number.NaN)).toBe('invalid time');
  });

  it('a connection without its opening event still gets a name', () => {
    const model = new CaptureModel((run) => run());
    const row = summarize(
      frame(utf8('{"a":1}'), { opcode: 'text', connectionId: '6f1c2a54-0000-4000-8000-000000000000:3' }),
    );
    model.applySummaries({ summaries: [row], evictedIds: [], evictedTotal: 0, bytesHeld: 7 } as never);
    const snap = model.getSnapshot();
    expect(snap.connections.get(row.connectionId)).toMatchObject({ url: '', detail: 'its opening was not captured' });
  });
});

describe('list rows name the framing protocol', () => {
  it("the list: a plain connection's ping is not dimmed; one after connection_init is", () => {
    const h = new WorkerHandlers();
    const frame = numberedFrames({ opcode: 'text' });
    const PING = '{"type":"ping"}';
    const PONG = '{"type":"pong"}';
    const INIT = '{"type":"connection_init","payload":{}}';
    const row = (connectionId: string, t: string) => {
      const f = frame(utf8(t), { connectionId });
      h.store.add(f);
      return summarize(f, h.store);
    };
    expect(row('plain', PING).protocol).toBeUndefined();
    expect(row('gql', INIT).protocol).toMatchObject({ name: 'subscriptions-transport-ws', message: 'connection_init' });
    expect(row('gql', PING).protocol).toMatchObject({ name: 'graphql-ws', message: 'ping', quiet: true });
    expect(row('plain', PONG).protocol).toBeUndefined();
  });

  it('socket.io, phoenix and graphql-ws rows carry protocol, message and event', () => {
    expect(summarize(frame(utf8('42["chat",{"a":1}]'), { opcode: 'text' })).protocol).toMatchObject({
      name: 'socket.io',
      message: 'EVENT',
      event: 'chat',
    });
    expect(
      summarize(frame(utf8(JSON.stringify(['1', '2', 'room:lobby', 'phx_join', {}])), { opcode: 'text' })).protocol,
    ).toMatchObject({ name: 'phoenix', message: 'phx_join', event: 'room:lobby' });
    expect(
      summarize(
        frame(utf8('{"type":"subscribe","id":"1","payload":{"query":"subscription S { s }"}}'), { opcode: 'text' }),
      ).protocol,
    ).toMatchObject({ name: 'graphql-ws', message: 'subscribe', event: 'S' });
    expect(summarize(frame(utf8('{"users":[1,2,3]}'), { opcode: 'text' })).protocol).toBeUndefined();
  });
});
