/**
 * SignalR's hub protocol, JSON and MessagePack: frames written by the library's own hub
 * protocols (`writeMessage`), read back with spans tiling the frame; malformed frames keep the
 * records before the error, with its byte offset.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonHubProtocol, MessageType, NullLogger, type HubMessage } from '@microsoft/signalr';
import { MessagePackHubProtocol } from '@microsoft/signalr-protocol-msgpack';
import { decodeFrame, recognizeProtocol, signalrEncoding, signalrMessages, type SpanIndex } from '../index.js';
import { assertTiles } from './test/tiles.js';
import { newReadState, readInOrder } from '../reading/read-in-order.js';
import type { OrderedFrame } from '../reading/compressed-streams.js';
import { hex } from '../test/helpers/hex.js';

const utf8 = new TextEncoder();
const json = new JsonHubProtocol();
const msgpack = new MessagePackHubProtocol();

function read(bytes: Uint8Array, isText: boolean, preferFormat?: string) {
  const d = decodeFrame(bytes, { isText, preferFormat, depth: Infinity });
  return { ...d, protocol: recognizeProtocol(d.index, d.format) };
}

/** The message maps of a frame: one record, or each record of several. */
function messages(index: SpanIndex): Record<string, unknown>[] {
  const value = index.value(0) as { message: Record<string, unknown> } | { message: Record<string, unknown> }[];
  return (Array.isArray(value) ? value : [value]).map((r) => r.message);
}

describe('SignalR JSON hub protocol', () => {
  it('reads a record ending in 0x1e: no trailing byte, the message named', () => {
    const frame = read(utf8.encode('{"type":6}\x1e'), true);
    expect(frame).toMatchObject({ format: 'signalr', verdict: 'decoded', error: null });
    expect(frame.protocol).toMatchObject({ protocol: 'signalr', message: 'Ping', quiet: true });
    assertTiles(frame.index!);
  });

  it('splits a frame of several records, each with its own span', () => {
    const bytes = utf8.encode('{"type":1,"target":"Send","arguments":["hi"],"invocationId":"7"}\x1e{"type":6}\x1e');
    const frame = read(bytes, true);
    expect(frame.format).toBe('signalr');
    const index = frame.index!;
    const records = index.children(0);
    expect(records.map((id) => [index.store.start[id], index.store.end[id]])).toEqual([
      [0, 65],
      [65, 76],
    ]);
    expect(frame.protocol).toMatchObject({ message: 'Invocation +1', event: 'Send', id: '7' });
    assertTiles(index);
  });

  it('names the handshake request and response', () => {
    const request = read(utf8.encode('{"protocol":"messagepack","version":1}\x1e'), true);
    expect(request.protocol).toMatchObject({ protocol: 'signalr', message: 'handshake request', event: 'messagepack' });
    expect(read(utf8.encode('{}\x1e'), true).protocol).toMatchObject({ message: 'handshake response' });
  });

  it('a broken record is malformed SignalR with the offset, the records before it kept', () => {
    const frame = read(utf8.encode('{"type":6}\x1e{"type":1,"target":}\x1e'), true);
    expect(frame).toMatchObject({ format: 'signalr', verdict: 'malformed' });
    expect(frame.error!.offset).toBe(30);
    expect(signalrMessages(frame.index!).map((m) => m.name)).toEqual(['Ping']);
    // Without its last separator (detection reads it as two JSON values): read as SignalR.
    const cut = decodeFrame(utf8.encode('{"type":6}\x1e{"type":6}'), { format: 'signalr' });
    expect(cut).toMatchObject({ format: 'signalr', verdict: 'malformed' });
    expect(cut.error).toMatchObject({ code: 'truncated', offset: 21 });
  });
});

describe('SignalR MessagePack hub protocol', () => {
  const joinGroup = new Uint8Array([
    0x16,
    0x95,
    0x01,
    0x80,
    0xa1,
    0x30,
    0xa9,
    ...utf8.encode('JoinGroup'),
    0x91,
    0xa5,
    ...utf8.encode('lobby'),
  ]);

  it('reads the length prefix and names the array items by the message type', () => {
    const frame = read(joinGroup, false);
    expect(frame).toMatchObject({ format: 'signalr', verdict: 'decoded' });
    expect(frame.index!.value(0)).toEqual({
      length: 22,
      message: { type: 1, headers: {}, invocationId: '0', target: 'JoinGroup', arguments: ['lobby'] },
    });
    expect(frame.protocol).toMatchObject({ protocol: 'signalr', message: 'Invocation', event: 'JoinGroup', id: '0' });
    expect(signalrEncoding(frame.index!)).toBe('messagepack');
    assertTiles(frame.index!);
  });

  it('02 91 06 is a ping, not a json-joy patch; certain on a SignalR connection', () => {
    expect(read(hex('029106'), false)).toMatchObject({ format: 'signalr', verdict: 'decoded' });
    const known = decodeFrame(hex('029106'), { preferFormat: 'signalr' });
    expect(known.detection!.candidates[0]).toMatchObject({ format: 'signalr' });
    expect(known.detection!.candidates[0].confidence).toBeGreaterThan(0.99);
  });

  it('reads several records in one frame', () => {
    const frame = read(new Uint8Array([...joinGroup, ...hex('029106'), ...joinGroup]), false);
    expect(signalrMessages(frame.index!).map((m) => m.name)).toEqual(['Invocation', 'Ping', 'Invocation']);
    expect(frame.protocol).toMatchObject({ message: 'Invocation +2', event: 'JoinGroup' });
    assertTiles(frame.index!);
  });

  it('a length prefix and array head that pass for a zlib header are still SignalR', () => {
    // 18 95: a 24-byte Completion; as zlib, a header that inflates to nothing.
    const bytes = hex('18950380ab202020202020202020202001a720202020202020029106');
    const frame = read(bytes, false);
    expect(frame).toMatchObject({ format: 'signalr', verdict: 'decoded' });
    expect(frame.compression).toBeUndefined();
    expect(signalrMessages(frame.index!).map((m) => m.name)).toEqual(['Completion', 'Ping']);
  });

  it('a length past the frame is malformed on a SignalR connection, with the offset', () => {
    const frame = decodeFrame(new Uint8Array([...hex('029106'), 0x20, 0x95, 0x01]), {
      preferFormat: 'signalr',
      depth: Infinity,
    });
    expect(frame).toMatchObject({ format: 'signalr', verdict: 'malformed' });
    expect(frame.error).toMatchObject({ code: 'truncated', offset: 6 });
    expect(signalrMessages(frame.index!).map((m) => m.name)).toEqual(['Ping']);
  });
});

const jsonValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 4 }),
  fc.array(fc.integer(), { maxLength: 4 }),
);
const id = fc.string({ minLength: 1, maxLength: 12 });
const headers = fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 })), {
  nil: undefined,
});
/** Random hub messages of every type the library writes. */
const hubMessage: fc.Arbitrary<HubMessage> = fc.oneof(
  fc.record({
    type: fc.constantFrom(MessageType.Invocation, MessageType.StreamInvocation),
    target: fc.string({ minLength: 1, maxLength: 20 }),
    arguments: fc.array(jsonValue, { maxLength: 4 }),
    invocationId: id,
    headers,
    streamIds: fc.array(id, { maxLength: 2 }),
  }),
  fc.record({ type: fc.constant(MessageType.StreamItem), invocationId: id, item: jsonValue, headers }),
  fc.record({
    type: fc.constant(MessageType.Completion),
    invocationId: id,
    headers,
    result: fc.option(jsonValue, { nil: undefined }),
  }),
  fc.record({ type: fc.constant(MessageType.Completion), invocationId: id, headers, error: fc.string() }),
  fc.record({ type: fc.constant(MessageType.CancelInvocation), invocationId: id, headers }),
  fc.constant({ type: MessageType.Ping }),
  fc.record({ type: fc.constant(MessageType.Close), error: fc.option(fc.string(), { nil: undefined }) }),
  fc.record({ type: fc.constant(MessageType.Ack), sequenceId: fc.nat() }),
  fc.record({ type: fc.constant(MessageType.Sequence), sequenceId: fc.nat() }),
) as fc.Arbitrary<HubMessage>;

/**
 * The frame read as the library's own `parseMessages` reads it: the same messages, and every
 * field it names with the same value.
 */
function expectReadAsLibrary(index: SpanIndex, parsed: HubMessage[], written: HubMessage[]): void {
  expect(parsed.length).toBeGreaterThan(0);
  expect(signalrMessages(index).map((m) => m.type)).toEqual(parsed.map((m) => m.type));
  const read = messages(index);
  parsed.forEach((p, i) => {
    const m = p as unknown as Record<string, unknown>;
    const r = read[i];
    expect(r.type).toBe(m.type);
    for (const name of ['target', 'invocationId', 'arguments', 'item', 'error', 'result', 'sequenceId'])
      if (m[name] !== undefined) expect(r[name], `${name} of message ${i}`).toEqual(m[name]);
    // The client's MessagePack parser leaves stream ids out (a server reads them): as written.
    const streamIds = (written[i] as { streamIds?: string[] }).streamIds;
    if (streamIds?.length) expect(r.streamIds).toEqual(streamIds);
    const info = signalrMessages(index)[i];
    expect(info.target).toBe(m.target);
  });
}

/**
 * A written message as the library reads it back (`parseMessages`); the messages only a
 * server reads (CancelInvocation), which the client's parser drops, as written.
 */
function asLibraryReads(message: HubMessage, wire: string | ArrayBuffer): HubMessage {
  const [parsed] =
    typeof wire === 'string'
      ? json.parseMessages(wire, NullLogger.instance)
      : msgpack.parseMessages(wire, NullLogger.instance);
  return parsed ?? message;
}

describe("SignalR readers agree with the library's writeMessage", () => {
  it('JSON hub protocol: every message, several per frame', () => {
    fc.assert(
      fc.property(fc.array(hubMessage, { minLength: 1, maxLength: 4 }), (written) => {
        const text = written.map((m) => json.writeMessage(m) as string).join('');
        const frame = read(utf8.encode(text), true);
        expect(frame.format).toBe('signalr');
        expect(frame.error).toBeNull();
        assertTiles(frame.index!);
        expectReadAsLibrary(
          frame.index!,
          written.map((m) => asLibraryReads(m, json.writeMessage(m))),
          written,
        );
      }),
      { numRuns: 200 },
    );
  });

  it('MessagePack hub protocol: every message, several per frame', () => {
    fc.assert(
      fc.property(fc.array(hubMessage, { minLength: 1, maxLength: 4 }), (written) => {
        const parts = written.map((m) => new Uint8Array(msgpack.writeMessage(m) as ArrayBuffer));
        const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
        const frame = read(bytes, false, 'signalr');
        expect(frame.format).toBe('signalr');
        expect(frame.error).toBeNull();
        assertTiles(frame.index!);
        expectReadAsLibrary(
          frame.index!,
          written.map((m, i) => asLibraryReads(m, parts[i].slice().buffer)),
          written,
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("a SignalR connection's handshake fixes how its later frames read", () => {
  it('after the MessagePack handshake, binary frames read as SignalR with certainty', () => {
    const state = newReadState();
    const frames: OrderedFrame[] = [
      {
        connectionId: 'c',
        direction: 'sent',
        opcode: 'text',
        data: utf8.encode('{"protocol":"messagepack","version":1}\x1e'),
      },
      { connectionId: 'c', direction: 'received', opcode: 'binary', data: utf8.encode('{}\x1e') },
      { connectionId: 'c', direction: 'received', opcode: 'binary', data: hex('029106') },
    ];
    const read = frames.map((frame) => {
      const { decoded } = readInOrder(frame, state, 1);
      if (decoded.verdict === 'decoded') state.formats.record(frame.connectionId, decoded.format, frame.data.length);
      return decoded;
    });
    expect(read.map((d) => d.format)).toEqual(['signalr', 'signalr', 'signalr']);
    expect(recognizeProtocol(read[1].index, read[1].format)).toMatchObject({ message: 'handshake response' });
    expect(read[2].detection!.candidates[0].confidence).toBeGreaterThan(0.99);
  });
});
