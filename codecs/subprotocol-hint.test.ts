/**
 * The connection's negotiated subprotocol (`Sec-WebSocket-Protocol`) as detection evidence:
 * it ranks its format first (and tells the framing recognizer which protocol it is), but
 * never forces a reading: a frame the hinted format cannot read stays what another format
 * reads it as.
 */
import { describe, expect, it } from 'vitest';
import mqttPacket from 'mqtt-packet';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame, recognizeProtocol, subprotocolHint } from './index.js';
import { hex } from './test/helpers/hex.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('subprotocol hints', () => {
  it('names the format and protocol of each subprotocol it knows', () => {
    expect(subprotocolHint('mqtt')).toMatchObject({ formats: ['mqtt'], protocol: 'mqtt' });
    expect(subprotocolHint('mqttv3.1')).toMatchObject({ formats: ['mqtt'], protocol: 'mqtt' });
    for (const v of ['v10.stomp', 'v11.stomp', 'v12.stomp'])
      expect(subprotocolHint(v)).toMatchObject({ formats: ['stomp'], protocol: 'stomp' });
    expect(subprotocolHint('graphql-transport-ws')).toMatchObject({ protocol: 'graphql-ws' });
    expect(subprotocolHint('graphql-ws')).toMatchObject({ protocol: 'subscriptions-transport-ws' });
    expect(subprotocolHint('wamp.2.json')).toMatchObject({ formats: ['json'], protocol: 'wamp' });
    expect(subprotocolHint('wamp.2.msgpack')).toMatchObject({ formats: ['msgpack'], protocol: 'wamp' });
    expect(subprotocolHint('centrifuge-json')).toMatchObject({ protocol: 'centrifugo' });
    expect(subprotocolHint('centrifuge-protobuf')).toMatchObject({ protocol: 'centrifugo' });
    // Case and surrounding spaces do not matter; an unknown or absent subprotocol is no hint.
    expect(subprotocolHint(' MQTT ')).toMatchObject({ formats: ['mqtt'] });
    expect(subprotocolHint('chat.example.com')).toBeNull();
    expect(subprotocolHint('')).toBeNull();
    expect(subprotocolHint(undefined)).toBeNull();
  });

  it('mqtt: a PINGREQ (c0 00, also CBOR tag 0 of 0) reads as MQTT, and says why', () => {
    const ping = Uint8Array.from(mqttPacket.generate({ cmd: 'pingreq' }));
    expect(decodeFrame(ping, { depth: 1 }).format).toBe('cbor');
    for (const subprotocol of ['mqtt', 'mqttv3.1']) {
      const d = decodeFrame(ping, { depth: 1, subprotocol });
      expect(d).toMatchObject({ format: 'mqtt', verdict: 'decoded', chosenBy: `subprotocol ${subprotocol}` });
      expect(d.detection!.candidates[0].reason).toContain(`by subprotocol ${subprotocol}`);
      // The other reading is still offered.
      expect(d.detection!.candidates.map((c) => c.format)).toContain('cbor');
    }
  });

  it('mqtt: a packet cut by the frame end is malformed MQTT on an mqtt connection (its error at the cut)', () => {
    const publish = Uint8Array.from(
      mqttPacket.generate({
        cmd: 'publish',
        topic: 'sensors/kitchen',
        payload: Buffer.from('{"celsius":21.5}'),
        qos: 1,
        messageId: 7,
        dup: false,
        retain: false,
      }),
    );
    const cut = publish.subarray(0, 12);
    const d = decodeFrame(cut, { depth: 1, subprotocol: 'mqtt' });
    expect(d).toMatchObject({ format: 'mqtt', verdict: 'malformed' });
    expect(d.error!.offset).toBeLessThanOrEqual(12);
  });

  it('a hint never forces: a frame the hinted format cannot read keeps the reading another format has', () => {
    const cbor = new CborEncoder().encode({ user: 'ada', n: [1, 2, 3] });
    const d = decodeFrame(cbor, { depth: 1, subprotocol: 'mqtt' });
    expect(d).toMatchObject({ format: 'cbor', verdict: 'decoded', error: null });
    expect(d.chosenBy).toBeUndefined();
    // JSON in a binary frame on a STOMP connection, and MessagePack on a wamp.2.json one.
    expect(decodeFrame(utf8('{"a":[1,2]}'), { depth: 1, subprotocol: 'v12.stomp' })).toMatchObject({
      format: 'json',
      verdict: 'decoded',
    });
    const msgpack = new MsgPackEncoder().encode({ id: 1, items: ['x', 'y'] });
    expect(decodeFrame(msgpack, { depth: 1, subprotocol: 'wamp.2.json' })).toMatchObject({
      format: 'msgpack',
      verdict: 'decoded',
    });
    // Protobuf (field 1 varint 150, field 2 "hi"): MQTT stops at once (type 0 is reserved); the
    // frame is Protobuf, not "malformed mqtt".
    const pb = hex('08 96 01 12 02 68 69');
    expect(decodeFrame(pb, { depth: 1, subprotocol: 'mqtt' })).toMatchObject({
      format: 'protobuf',
      verdict: 'decoded',
    });
    // Plain text on a STOMP connection that is not a STOMP frame stays text.
    expect(decodeFrame(utf8('hello'), { depth: 1, isText: true, subprotocol: 'v12.stomp' }).verdict).toBe('decoded');
    expect(decodeFrame(utf8('hello'), { depth: 1, isText: true, subprotocol: 'v12.stomp' }).format).toBe('text');
  });

  it('stomp: a heart-beat (a lone EOL) is STOMP on a STOMP connection, plain text elsewhere', () => {
    const beat = utf8('\n');
    expect(decodeFrame(beat, { depth: 1, isText: true }).format).toBe('text');
    const d = decodeFrame(beat, { depth: 1, isText: true, subprotocol: 'v12.stomp' });
    expect(d).toMatchObject({ format: 'stomp', verdict: 'decoded', chosenBy: 'subprotocol v12.stomp' });
    expect(recognizeProtocol(d.index, d.format)).toMatchObject({ protocol: 'stomp', quiet: true });
  });

  it('wamp.2.msgpack: a byte both CBOR and MessagePack read is MessagePack, and its message is named', () => {
    expect(decodeFrame(hex('05'), { depth: 1 }).format).toBe('cbor');
    expect(decodeFrame(hex('05'), { depth: 1, subprotocol: 'wamp.2.msgpack' }).format).toBe('msgpack');
    // EVENT [36, subscription, publication, details, args]
    const event = new MsgPackEncoder().encode([36, 5512315355, 4429313566, {}, ['hello']]);
    const d = decodeFrame(event, { depth: 1, subprotocol: 'wamp.2.msgpack' });
    expect(d).toMatchObject({ format: 'msgpack', chosenBy: 'subprotocol wamp.2.msgpack' });
    expect(recognizeProtocol(d.index, d.format)).toBeNull();
    expect(recognizeProtocol(d.index, d.format, { subprotocol: 'wamp.2.msgpack' })).toMatchObject({
      protocol: 'wamp',
      message: 'EVENT',
    });
  });

  it('graphql: connection_init is graphql-ws under graphql-transport-ws, subscriptions-transport-ws under graphql-ws', () => {
    const init = utf8('{"type":"connection_init","payload":{}}');
    const d = decodeFrame(init, { depth: 1, isText: true, subprotocol: 'graphql-transport-ws' });
    expect(d.format).toBe('json');
    expect(recognizeProtocol(d.index, d.format, { subprotocol: 'graphql-transport-ws' })).toMatchObject({
      protocol: 'graphql-ws',
    });
    expect(recognizeProtocol(d.index, d.format, { subprotocol: 'graphql-ws' })).toMatchObject({
      protocol: 'subscriptions-transport-ws',
    });
  });

  it('centrifuge-json: an empty object is a Centrifugo ping', () => {
    const d = decodeFrame(utf8('{}'), { depth: 1, isText: true, subprotocol: 'centrifuge-json' });
    expect(recognizeProtocol(d.index, d.format)).toBeNull();
    expect(recognizeProtocol(d.index, d.format, { subprotocol: 'centrifuge-json' })).toMatchObject({
      protocol: 'centrifugo',
      message: 'ping',
      quiet: true,
    });
  });

  it('a compressed frame passes the hint to what it inflated to', async () => {
    const { gzipSync } = await import('fflate');
    const d = decodeFrame(gzipSync(hex('05')), { depth: 1, subprotocol: 'wamp.2.msgpack' });
    expect(d.compression?.method).toBe('gzip');
    expect(d.format).toBe('msgpack');
  });

  it('hostile subprotocol strings never throw', () => {
    for (const s of ['\u0000', 'x'.repeat(100_000), 'mqtt, v12.stomp', '__proto__', 'constructor', 'toString']) {
      expect(() => decodeFrame(hex('c0 00'), { depth: 1, subprotocol: s })).not.toThrow();
      expect(decodeFrame(hex('c0 00'), { depth: 1, subprotocol: s }).format).toBe('cbor');
    }
  });
});
