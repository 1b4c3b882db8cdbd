/**
 * `centrifuge-protobuf`: a connection that negotiated it carries varint-length-delimited
 * Centrifugo Commands / Replies, which no other reader (raw Protobuf included) reads whole.
 * With the subprotocol, detection reads them with readCentrifugoProtobuf: names, spans, the
 * protocol row; never forced (a frame it cannot read keeps its other reading).
 */
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Centrifuge } from 'centrifuge/build/protobuf';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { decodeFrame, recognizeProtocol } from './index.js';

interface Codec {
  encodeReplies(replies: unknown[]): Uint8Array;
  encodeCommands(commands: unknown[]): Uint8Array;
}
/** centrifuge-js' own Protobuf codec (the one its client uses). */
const codec = (new Centrifuge('ws://unused', { websocket: WebSocket }) as unknown as { _codec: Codec })._codec;
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const SUB = 'centrifuge-protobuf';

describe('centrifuge-protobuf in detection', () => {
  it('a reply batch (subscribe reply + publication push) reads as Centrifugo Protobuf only with the subprotocol', () => {
    const replies = codec.encodeReplies([
      { id: 2, subscribe: { recoverable: true, epoch: 'ep', offset: 4 } },
      { push: { channel: 'news', pub: { data: json({ title: 'first' }), offset: 5 } } },
    ]);
    expect(decodeFrame(replies, { depth: 1 }).verdict).not.toBe('decoded');
    const d = decodeFrame(replies, { depth: 1, subprotocol: SUB });
    expect(d).toMatchObject({ format: 'protobuf', verdict: 'decoded', error: null, chosenBy: `subprotocol ${SUB}` });
    expect(d.detection!.candidates[0].reason).toMatch(
      /^by subprotocol centrifuge-protobuf: Centrifugo Protobuf, 2 replies/,
    );
    expect(recognizeProtocol(d.index, d.format, { subprotocol: SUB })).toMatchObject({
      protocol: 'centrifugo',
      message: 'subscribe +1',
      event: 'news',
      id: '2',
    });
    // Every byte is covered: the two messages tile the frame.
    const index = d.index!;
    const messages = index.children(index.root);
    expect(messages).toHaveLength(2);
    expect(index.store.start[messages[0]]).toBe(0);
    expect(index.store.end[messages[1]]).toBe(replies.length);
  });

  it('a command (client → server) too', () => {
    const command = codec.encodeCommands([{ id: 1, connect: { name: 'js', version: '5.4.0' } }]);
    const d = decodeFrame(command, { depth: 1, subprotocol: SUB });
    expect(d).toMatchObject({ format: 'protobuf', verdict: 'decoded' });
    expect(recognizeProtocol(d.index, d.format, { subprotocol: SUB })).toMatchObject({
      protocol: 'centrifugo',
      message: 'connect',
      id: '1',
    });
  });

  it('never forced: a CBOR frame on a centrifuge-protobuf connection stays CBOR; a cut batch is malformed with its offset', () => {
    const cbor = new CborEncoder().encode({ user: 'ada', n: [1, 2, 3] });
    expect(decodeFrame(cbor, { depth: 1, subprotocol: SUB })).toMatchObject({ format: 'cbor', verdict: 'decoded' });
    const replies = codec.encodeReplies([
      { push: { channel: 'news', pub: { data: json({ title: 'first' }), offset: 5 } } },
    ]);
    for (let cut = 1; cut < replies.length; cut++) {
      const d = decodeFrame(replies.subarray(0, cut), { depth: 1, subprotocol: SUB });
      if (d.verdict === 'malformed' && d.format === 'protobuf') expect(d.error!.offset).toBeLessThanOrEqual(cut);
    }
  });
});
