import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { createWebSocketStream, type WebSocket } from 'ws';
import mqttPacket from 'mqtt-packet';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { decodeFrame, mqttPackets, recognizeProtocol, mqttWalker } from '../index.js';
import { captureProxy, until, type CapturedFrame, type WsCapture } from './test/ws-capture.js';
import { assertTiles } from './test/tiles.js';
import { checkMutationsAndTruncations } from './test/mutations.js';
import { firstOffered, localWsServer } from './test/ws-server.js';

interface Broker {
  readonly url: string;
  close(): Promise<void>;
}

/** aedes for MQTT 3.1.1; it refuses MQTT 5, so for 5 a minimal broker built on mqtt-packet (the mqtt client's own codec). */
async function broker(version: 4 | 5): Promise<Broker> {
  const aedes = await Aedes.createBroker();
  const server = await localWsServer(
    { handleProtocols: firstOffered },
    () => new Promise<void>((r) => aedes.close(() => r())),
  );
  server.wss.on('connection', (socket, request) =>
    version === 4 ? aedes.handle(createWebSocketStream(socket) as never, request) : mqtt5Session(socket),
  );
  return server;
}

/** One MQTT session: connect, subscribe, publish JSON / CBOR / text / binary at QoS 0-2, ping, unsubscribe, disconnect. */
async function session(url: string, protocolVersion: 4 | 5): Promise<CapturedFrame[]> {
  const capture: WsCapture = await captureProxy(url);
  try {
    const client = await mqtt.connectAsync(`${capture.url}/mqtt`, {
      protocolVersion,
      clientId: `wirescope-${protocolVersion}`,
      keepalive: 30,
      reconnectPeriod: 0,
      ...(protocolVersion === 5
        ? { properties: { sessionExpiryInterval: 60, userProperties: { app: 'wirescope' } } }
        : {}),
    });
    await client.subscribeAsync({ 'sensors/+/temp': { qos: 1 }, 'chat/#': { qos: 2 } });
    const got = new Promise<void>((resolve) => {
      let n = 0;
      client.on('message', () => ++n === 4 && resolve());
    });
    await client.publishAsync('sensors/kitchen/temp', JSON.stringify({ celsius: 21.5, ok: true }), {
      qos: 1,
      ...(protocolVersion === 5
        ? { properties: { contentType: 'application/json', userProperties: { unit: 'C' } } }
        : {}),
    });
    await client.publishAsync('chat/room1', 'hello there ☕', { qos: 2 });
    await client.publishAsync(
      'sensors/attic/temp',
      Buffer.from(new CborEncoder().encode({ celsius: 30, at: 1700000000 })),
      { qos: 0, retain: true },
    );
    await client.publishAsync('chat/bin', Buffer.from([0xff, 0x00, 0xfe, 0x01]), { qos: 1 });
    await got;
    await new Promise<void>((resolve) => {
      client.once('packetreceive', (p) => p.cmd === 'pingresp' && resolve());
      (client as unknown as { _sendPacket: (p: object) => void })._sendPacket({ cmd: 'pingreq' });
    });
    await client.unsubscribeAsync('chat/#');
    await client.endAsync();
    await until(() => capture.frames.some((f) => f.direction === 'sent' && f.data[0] === 0xe0));
    return capture.frames.slice();
  } finally {
    await capture.close();
  }
}

/** The broker side of an MQTT 5 session: acks everything, delivers each PUBLISH back to the one subscriber. */
function mqtt5Session(socket: WebSocket): void {
  const parser = mqttPacket.parser({ protocolVersion: 5 }) as unknown as {
    on(event: 'packet', listener: (p: Record<string, unknown>) => void): void;
    parse(data: Buffer): void;
  };
  const send = (packet: object) => socket.send(mqttPacket.generate(packet as never, { protocolVersion: 5 }));
  let nextId = 100;
  parser.on('packet', (p: Record<string, unknown>) => {
    switch (p.cmd) {
      case 'connect':
        return send({
          cmd: 'connack',
          sessionPresent: false,
          reasonCode: 0,
          properties: { topicAliasMaximum: 10, receiveMaximum: 20 },
        });
      case 'subscribe':
        return send({
          cmd: 'suback',
          messageId: p.messageId,
          granted: (p.subscriptions as { qos: number }[]).map((s) => s.qos),
          properties: { reasonString: 'ok' },
        });
      case 'unsubscribe':
        return send({ cmd: 'unsuback', messageId: p.messageId, granted: [0] });
      case 'publish': {
        const qos = p.qos as number;
        if (qos === 1) send({ cmd: 'puback', messageId: p.messageId, reasonCode: 0 });
        if (qos === 2) send({ cmd: 'pubrec', messageId: p.messageId });
        return send({
          cmd: 'publish',
          topic: p.topic,
          payload: p.payload,
          qos: Math.min(qos, 1),
          messageId: qos ? nextId++ : undefined,
          retain: false,
          dup: false,
          properties: p.properties,
        });
      }
      case 'pubrel':
        return send({ cmd: 'pubcomp', messageId: p.messageId });
      case 'pingreq':
        return send({ cmd: 'pingresp' });
      default:
        return undefined;
    }
  });
  socket.on('message', (data: Buffer) => parser.parse(data));
}

/**
 * mqtt.js in Node (and aedes) write a packet in pieces, each its own WebSocket frame; in a
 * browser mqtt.js corks a packet into one frame. `wire` keeps the Node frames as captured;
 * `frames` regroups the same bytes one whole packet per frame, as a browser sends them.
 */
function onePacketPerFrame(captured: CapturedFrame[]): CapturedFrame[] {
  const out: CapturedFrame[] = [];
  for (const direction of ['sent', 'received'] as const) {
    const parts = captured.filter((f) => f.direction === direction);
    const stream = Buffer.concat(parts.map((f) => f.data));
    let pos = 0;
    while (pos < stream.length) {
      let rl = 0;
      let mult = 1;
      let i = pos + 1;
      for (;;) {
        const b = stream[i++];
        rl += (b & 0x7f) * mult;
        mult *= 128;
        if (!(b & 0x80)) break;
      }
      out.push({
        direction,
        opcode: 'binary',
        data: new Uint8Array(stream.subarray(pos, i + rl)),
        subprotocol: parts[0].subprotocol,
      });
      pos = i + rl;
    }
  }
  return out;
}

let brokers: Broker[] = [];
const wire: Record<4 | 5, CapturedFrame[]> = { 4: [], 5: [] };
const frames: Record<4 | 5, CapturedFrame[]> = { 4: [], 5: [] };
beforeAll(async () => {
  brokers = await Promise.all([broker(4), broker(5)]);
  wire[4] = await session(brokers[0].url, 4);
  wire[5] = await session(brokers[1].url, 5);
  frames[4] = onePacketPerFrame(wire[4]);
  frames[5] = onePacketPerFrame(wire[5]);
}, 30_000);
afterAll(() => Promise.all(brokers.map((b) => b.close())));

/** The frames' packets in order, each with the frame's decode. */
function decodeAll(list: CapturedFrame[]) {
  return list.map((f) => {
    const d = decodeFrame(f.data, { isText: f.opcode === 'text', preferFormat: 'mqtt' });
    return { frame: f, d, packets: d.index ? mqttPackets(d.index) : [] };
  });
}

describe.each([4, 5] as const)(
  'MQTT level %s over WebSocket (real mqtt client; aedes, or mqtt-packet for 5)',
  (version) => {
    it('every frame decodes as MQTT, whole, with spans that tile the frame', () => {
      const all = decodeAll(frames[version]);
      expect(all.length).toBeGreaterThan(10);
      for (const { frame, d } of all) {
        expect(d.format, Buffer.from(frame.data).toString('hex')).toBe('mqtt');
        expect(d.error).toBeNull();
        d.index!.expandAll(d.index!.root);
        assertTiles(d.index!);
      }
      const types = all.flatMap((x) => x.packets.map((p) => p.type));
      for (const t of [
        'CONNECT',
        'CONNACK',
        'SUBSCRIBE',
        'SUBACK',
        'PUBLISH',
        'PUBACK',
        'PUBREC',
        'PUBREL',
        'PUBCOMP',
        'PINGREQ',
        'PINGRESP',
        'UNSUBSCRIBE',
        'UNSUBACK',
        'DISCONNECT',
      ])
        expect(types, t).toContain(t);
      // The short acks, pings and a bare DISCONNECT are the same bytes in both versions: they read as 3.1.1.
      const same = (x: (typeof all)[number]) =>
        (x.frame.data.length === 4 && ['PUBACK', 'PUBREC', 'PUBREL', 'PUBCOMP'].includes(x.packets[0].type)) ||
        x.frame.data.length === 2;
      for (const x of all)
        for (const p of x.packets)
          expect(p.version, `${p.type} ${Buffer.from(x.frame.data).toString('hex')}`).toBe(same(x) ? 4 : version);
    });

    it('the CONNECT frame is recognized without the connection hint; the list row says mqtt and the topic', () => {
      const connect = frames[version].find((f) => f.data[0] === 0x10)!;
      const d = decodeFrame(connect.data);
      expect(d.format).toBe('mqtt');
      const value = d.index!.value(d.index!.root) as Record<string, unknown>;
      expect(value).toMatchObject({
        type: 'CONNECT',
        'protocol name': 'MQTT',
        'protocol level': version,
        'client id': `wirescope-${version}`,
      });
      if (version === 5)
        expect(value.properties).toEqual({ 'session expiry interval': 60, 'user property': 'app: wirescope' });
      const pub = decodeAll(frames[version]).find(
        (x) => x.packets[0]?.topic === 'sensors/kitchen/temp' && x.frame.direction === 'sent',
      )!;
      expect(recognizeProtocol(pub.d.index, pub.d.format)).toMatchObject({
        protocol: 'mqtt',
        message: 'PUBLISH',
        event: 'sensors/kitchen/temp',
        id: String(pub.packets[0].packetId),
      });
      const ping = decodeAll(frames[version]).find((x) => x.packets[0]?.type === 'PINGREQ')!;
      expect(recognizeProtocol(ping.d.index, ping.d.format)).toMatchObject({
        protocol: 'mqtt',
        message: 'PINGREQ',
        quiet: true,
      });
    });

    it('PUBLISH payloads decode by the usual rules, with spans into the frame', () => {
      const all = decodeAll(frames[version]).filter(
        (x) => x.frame.direction === 'sent' && x.packets[0]?.type === 'PUBLISH',
      );
      const byTopic = new Map(all.map((x) => [x.packets[0].topic, x]));
      const payloadOf = (topic: string) => {
        const x = byTopic.get(topic)!;
        const ix = x.d.index!;
        const entries = ix.children(ix.root);
        const id = entries.find((c) => ix.value(ix.keyOf(c)) === 'payload')!;
        return { ix, id, value: ix.value(id) };
      };
      const json = payloadOf('sensors/kitchen/temp');
      expect(json.value).toEqual({ celsius: 21.5, ok: true });
      expect(
        new TextDecoder().decode(json.ix.bytes.subarray(json.ix.store.start[json.id], json.ix.store.end[json.id])),
      ).toBe('{"celsius":21.5,"ok":true}');
      const celsius = json.ix.children(json.id)[0];
      expect(
        new TextDecoder().decode(json.ix.bytes.subarray(json.ix.store.start[celsius], json.ix.store.end[celsius])),
      ).toBe('21.5');
      expect(payloadOf('chat/room1').value).toBe('hello there ☕');
      expect(payloadOf('sensors/attic/temp').value).toEqual({ celsius: 30, at: 1700000000 });
      expect(payloadOf('chat/bin').value).toEqual(new Uint8Array([0xff, 0x00, 0xfe, 0x01]));
      if (version === 5) {
        const ix = byTopic.get('sensors/kitchen/temp')!.d.index!;
        expect((ix.value(ix.root) as Record<string, unknown>).properties).toEqual({
          'content type': 'application/json',
          'user property': 'unit: C',
        });
      }
    });

    it('Node mqtt.js writes a packet in pieces: a piece that breaks off is an error at its end, never a throw', () => {
      const pieces = decodeAll(wire[version]);
      expect(pieces.length).toBeGreaterThan(frames[version].length);
      const cut = pieces.filter((x) => x.d.error);
      expect(cut.length).toBeGreaterThan(0);
      for (const x of cut) expect(x.d.error!.offset).toBeLessThanOrEqual(x.frame.data.length);
    });

    it('several packets in one frame; a packet split across frames is an error at the cut, the parts before kept', () => {
      const sent = frames[version].filter((f) => f.direction === 'sent').map((f) => f.data);
      const joined = new Uint8Array(sent.reduce((n, d) => n + d.length, 0));
      let at = 0;
      for (const d of sent) joined.set(d, (at += d.length) - d.length);
      const whole = decodeFrame(joined, { preferFormat: 'mqtt' });
      expect(whole.format).toBe('mqtt');
      expect(whole.error).toBeNull();
      expect(mqttPackets(whole.index!)).toHaveLength(sent.length);
      whole.index!.expandAll(0);
      assertTiles(whole.index!);
      const pub = sent.find((d) => d[0] >> 4 === 3 && d.length > 20)!;
      const cut = pub.subarray(0, pub.length - 5);
      const d = decodeFrame(cut, { preferFormat: 'mqtt' });
      expect(d).toMatchObject({ format: 'mqtt', verdict: 'malformed' });
      expect(d.error).toMatchObject({ code: 'truncated', offset: cut.length });
      expect(d.error!.message).toContain('split across frames');
      expect((d.index!.value(d.index!.root) as Record<string, unknown>).topic).toMatch(/^(sensors|chat)\//);
    });
  },
);

describe('MQTT walker robustness', () => {
  it('mutations and truncations of real frames never throw; spans stay inside the frame', () => {
    const real = [...frames[4], ...frames[5], ...wire[4], ...wire[5]].map((f) => f.data);
    checkMutationsAndTruncations(real, mqttWalker, {}, 400);
  });
});
