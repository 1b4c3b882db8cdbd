/**
 * socket.io 2.x (Engine.IO v3) in the worker, with frames the real 2.5 server and client
 * sent over a real WebSocket: attachments (binary frames with Engine.IO's `04` byte) still
 * link to their event both ways and open as the data after that byte, and the frame detail
 * says which protocol version the connection speaks and what showed it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2Session, type V2Traffic } from '../../../codecs/protocols/test/socketio-v2-rig.js';
import type { CapturedFrame } from '../../../codecs/protocols/test/ws-capture.js';
import { MemoryTransport } from '../protocol/transport.js';
import { inProcessWorker } from './in-process.js';
import { CaptureModel } from '../state/capture-model.js';
import { InspectorSession } from '../state/session.js';
import { ingestFrames, type FrameContent } from './test/ingest-frames.js';

const ingest = (frames: readonly FrameContent[], url?: string) =>
  ingestFrames(frames, (h) => url && h.links.setConnectionUrl('c1', url));

describe('socket.io 2.x in the worker', () => {
  let s: V2Traffic;
  beforeAll(async () => {
    s = await v2Session();
  }, 20_000);
  afterAll(() => s?.close());

  it('links each 04-prefixed attachment to its BINARY_EVENT and opens it as the data after the type byte', () => {
    const { handlers, rows } = ingest(s.capture.frames);
    const event = rows.find((row) => row.protocol?.message === 'BINARY_EVENT' && row.protocol.event === 'upload')!;
    expect(event).toBeTruthy();
    const [first, second] = rows.filter((row) => row.frameId > event.frameId && row.opcode === 'binary');
    expect(first.preview).toContain(`attachment 0 of frame ${event.frameId} (upload)`);
    expect(second.preview).toContain(`attachment 1 of frame ${event.frameId} (upload)`);
    expect(first.format).toBe('socketio');
    const decoded = handlers.methods.decode({ frameId: first.frameId, format: 'auto' })!;
    expect(decoded.error).toBeNull();
    const children = handlers.methods.children({
      frameId: first.frameId,
      format: 'auto',
      nodeId: decoded.root!.id,
      limit: 10,
    }).nodes;
    const data = children.find((n) => n.label === 'data')!;
    expect([data.start, data.end]).toEqual([1, 8]);
    expect(decoded.links!.map((l) => l.text)).toContain(`attachment 0 of 2 of frame ${event.frameId} (upload)`);
  });

  it('says Engine.IO v3 from the traffic, and from the URL when it is known', () => {
    const { handlers, rows } = ingest(s.capture.frames);
    const event = rows.find((row) => row.protocol?.message === 'BINARY_EVENT')!;
    const line = handlers.methods
      .decode({ frameId: event.frameId, format: 'auto' })!
      .links!.find((l) => l.text.startsWith('Engine.IO'))!;
    expect(line.text).toMatch(
      /^Engine\.IO v3 \(socket\.io 2\.x\): the server sends CONNECT without a sid \(socket\.io 2\.x\) at frame \d+$/,
    );
    const connect = rows.find((row) => row.protocol?.message === 'CONNECT')!;
    expect(line.frameIds).toEqual([connect.frameId]);

    const withUrl = ingest(s.capture.frames, s.url);
    const urlLine = withUrl.handlers.methods
      .decode({ frameId: event.frameId, format: 'auto' })!
      .links!.find((l) => l.text.startsWith('Engine.IO'))!;
    expect(urlLine).toEqual({ text: 'Engine.IO v3 (socket.io 2.x): the URL says EIO=3', frameIds: [] });
  });

  it('takes the URL from the connection as the host (or an imported file) announces it: EIO=3 settles the version', async () => {
    const transport = new MemoryTransport();
    const model = new CaptureModel((run) => run());
    const session = new InspectorSession(transport, inProcessWorker(), { model });
    session.start();
    const frames = (connectionId: string) =>
      s.capture.frames.map((f, i) => ({
        connectionId,
        direction: f.direction,
        time: i + 1,
        opcode: f.opcode,
        data: f.data.slice(),
      }));
    transport.emit({
      type: 'connection-opened',
      connectionId: 'live',
      url: s.url,
      protocol: '',
      extensions: '',
      time: 0,
    });
    transport.emit({ type: 'frames', frames: frames('live') });
    session.importConnection({ connectionId: 'file', url: s.url, protocol: '', extensions: '' });
    session.ingest(frames('file'));
    const total = 2 * s.capture.frames.length;
    const deadline = Date.now() + 5000;
    while (model.getSnapshot().rows.length < total && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    const rows = model.getSnapshot().rows;
    expect(rows.length).toBe(total);
    for (const id of ['live', 'file']) {
      const event = rows.find((row) => row.connectionId === id && row.protocol?.message === 'BINARY_EVENT')!;
      const decoded = await session.worker.call('decode', { frameId: event.frameId, format: 'auto' });
      expect(
        decoded!.links!.find((l) => l.text.startsWith('Engine.IO')),
        id,
      ).toEqual({ text: 'Engine.IO v3 (socket.io 2.x): the URL says EIO=3', frameIds: [] });
    }
    session.dispose();
  });

  it('a cleared list keeps the version the URL gave (the connection outlives its frames)', () => {
    const { handlers } = ingest(s.capture.frames, s.url);
    handlers.methods.clear({});
    const rows = s.capture.frames.map((f, i) => {
      const frame = {
        frameId: 100 + i,
        connectionId: 'c1',
        direction: f.direction,
        time: i,
        opcode: f.opcode,
        data: f.data,
      };
      handlers.store.add(frame);
      return handlers.summarize(frame);
    });
    const event = rows.find((row) => row.protocol?.message === 'BINARY_EVENT')!;
    expect(
      handlers.methods
        .decode({ frameId: event.frameId, format: 'auto' })!
        .links!.find((l) => l.text.startsWith('Engine.IO')),
    ).toEqual({ text: 'Engine.IO v3 (socket.io 2.x): the URL says EIO=3', frameIds: [] });
  });

  it('says v4 for socket.io 4 traffic (the server pings, CONNECT answers with a sid)', () => {
    const utf8 = (t: string) => new TextEncoder().encode(t);
    const v4: CapturedFrame[] = [
      {
        direction: 'received',
        opcode: 'text',
        data: utf8('0{"sid":"x","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}'),
        subprotocol: '',
      },
      { direction: 'sent', opcode: 'text', data: utf8('40'), subprotocol: '' },
      { direction: 'received', opcode: 'text', data: utf8('40{"sid":"y"}'), subprotocol: '' },
    ];
    const { handlers } = ingest(v4);
    expect(handlers.methods.decode({ frameId: 3, format: 'auto' })!.links!.map((l) => l.text)).toContain(
      'Engine.IO v4 (socket.io 3 or later): the client asks to CONNECT the default namespace (socket.io 3 or later) at frame 2',
    );
  });
});
