/**
 * The connection's negotiated subprotocol reaches the worker (from the host's
 * connection-opened, and from an imported file's connections) and is detection evidence for
 * the list rows and the frame detail: ranked first, never forced, and the detail says why.
 */
import { describe, expect, it } from 'vitest';
import mqttPacket from 'mqtt-packet';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MemoryTransport } from '../protocol/transport.js';
import { inProcessWorker } from './in-process.js';
import { WorkerHandlers } from './handlers.js';
import type { IngestFrame } from './api.js';
import { CaptureModel } from '../state/capture-model.js';
import { InspectorSession } from '../state/session.js';
import { numberedFrames } from './test/numbered-frames.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const PINGREQ = Uint8Array.from(mqttPacket.generate({ cmd: 'pingreq' }));

const frame = numberedFrames({ direction: 'sent', time: 1 });

function summarizeOn(h: WorkerHandlers, f: IngestFrame) {
  h.store.add(f);
  return h.summarize(f);
}

describe('the subprotocol in the worker', () => {
  it('mqtt: a PINGREQ row is MQTT (quiet), and the detail says "by subprotocol mqtt"', () => {
    const h = new WorkerHandlers();
    expect(summarizeOn(h, frame(PINGREQ)).format).toBe('cbor');
    h.setSubprotocol('c1', 'mqtt');
    const f = frame(PINGREQ);
    const row = summarizeOn(h, f);
    expect(row).toMatchObject({
      format: 'mqtt',
      verdict: 'decoded',
      protocol: { name: 'mqtt', message: 'PINGREQ', quiet: true },
    });
    const detail = h.methods.decode({ frameId: f.frameId, format: 'auto' })!;
    expect(detail).toMatchObject({ format: 'mqtt', chosenBy: 'subprotocol mqtt' });
    // Another connection has no subprotocol: the same bytes stay CBOR there.
    expect(summarizeOn(h, frame(PINGREQ, { connectionId: 'c2' })).format).toBe('cbor');
  });

  it('never forces: a CBOR frame on an mqtt connection is CBOR, not malformed MQTT', () => {
    const h = new WorkerHandlers();
    h.setSubprotocol('c1', 'mqtt');
    const f = frame(new CborEncoder().encode({ user: 'ada', tags: ['a', 'b'] }));
    const row = summarizeOn(h, f);
    expect(row).toMatchObject({ format: 'cbor', verdict: 'decoded', error: null });
    expect(h.methods.decode({ frameId: f.frameId, format: 'auto' })!.chosenBy).toBeUndefined();
  });

  it('graphql-transport-ws: connection_init is a graphql-ws row, and the detail says the protocol came from the subprotocol', () => {
    const h = new WorkerHandlers();
    const init = () => frame(utf8('{"type":"connection_init","payload":{}}'), { opcode: 'text' });
    expect(summarizeOn(h, init()).protocol?.name).toBe('subscriptions-transport-ws');
    h.setSubprotocol('c1', 'graphql-transport-ws');
    const f = init();
    expect(summarizeOn(h, f).protocol).toMatchObject({ name: 'graphql-ws', message: 'connection_init' });
    expect(h.methods.decode({ frameId: f.frameId, format: 'auto' })!.chosenBy).toBe('subprotocol graphql-transport-ws');
  });

  it("a loaded schema's type chosen for the connection is the reason shown", () => {
    const h = new WorkerHandlers();
    h.methods.setSchema({
      files: [{ name: 'p.proto', source: 'syntax = "proto3"; message Ping { uint64 at = 1; string who = 2; }' }],
    });
    h.methods.setSchemaType({ connectionId: 'c1', choice: 'Ping' });
    const f = frame(Uint8Array.from([0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69]));
    h.store.add(f);
    expect(h.methods.decode({ frameId: f.frameId, format: 'auto' })!.chosenBy).toBe(
      'the message type chosen for this connection (Ping)',
    );
  });

  it("InspectorSession passes connection-opened's protocol, and an imported connection's, before their frames", async () => {
    const transport = new MemoryTransport();
    const model = new CaptureModel((run) => run());
    const session = new InspectorSession(transport, inProcessWorker(), { model });
    session.start();
    transport.emit({
      type: 'connection-opened',
      connectionId: 'live',
      url: 'ws://x/mqtt',
      protocol: 'mqtt',
      extensions: '',
      time: 1,
    });
    transport.emit({
      type: 'frames',
      frames: [{ connectionId: 'live', direction: 'received', time: 2, opcode: 'binary', data: PINGREQ.slice() }],
    });
    session.importConnection({ connectionId: 'file', url: 'ws://y/', protocol: 'wamp.2.msgpack', extensions: '' });
    session.ingest([
      { connectionId: 'file', direction: 'received', time: 3, opcode: 'binary', data: Uint8Array.of(0x05) },
    ]);
    const deadline = Date.now() + 5000;
    while (model.getSnapshot().rows.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const rows = model.getSnapshot().rows;
    expect(rows.map((r) => [r.connectionId, r.format])).toEqual([
      ['live', 'mqtt'],
      ['file', 'msgpack'],
    ]);
    expect(model.getSnapshot().connections.get('file')).toMatchObject({
      protocol: 'wamp.2.msgpack',
      status: 'imported',
    });
    session.dispose();
  });
});
