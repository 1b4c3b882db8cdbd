/**
 * Socket.IO binary attachments, with frames produced by the real socket.io server and
 * socket.io-client over a real socket (recorded by a ws proxy in between): the attachment
 * frames are linked to the event that announced them, both ways.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import msgpackParser from 'socket.io-msgpack-parser';
import { captureProxy, until, type WsCapture } from '../../../codecs/protocols/test/ws-capture.js';
import type { WorkerHandlers } from './handlers.js';
import type { TreeNode } from './api.js';
import { ingestFrames as ingest } from './test/ingest-frames.js';

interface Rig {
  readonly capture: WsCapture;
  readonly client: Socket;
  close(): Promise<void>;
}

async function rig(parser?: unknown): Promise<Rig> {
  const httpServer = http.createServer();
  const io = new Server(httpServer, { transports: ['websocket'], ...(parser ? { parser } : {}) } as never);
  io.on('connection', (socket) => {
    socket.on('file', (name: string, bytes: Buffer, ack: (reply: unknown) => void) =>
      ack({ ok: true, name, echo: bytes.subarray(0, 4) }),
    );
    socket.on('hello', () =>
      socket.emit(
        'upload',
        { name: 'avatar.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
        Buffer.from('second'),
      ),
    );
  });
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  const capture = await captureProxy(`ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}`);
  const client = connect(capture.url, {
    transports: ['websocket'],
    forceNew: true,
    ...(parser ? { parser } : {}),
  } as never);
  return {
    capture,
    client,
    async close() {
      client.close();
      await capture.close();
      io.close();
      httpServer.closeAllConnections();
    },
  };
}

/** Every node of a frame's tree, breadth first (small frames). */
function allNodes(handlers: WorkerHandlers, frameId: number): TreeNode[] {
  const decoded = handlers.methods.decode({ frameId, format: 'auto' });
  const out: TreeNode[] = decoded?.root ? [decoded.root] : [];
  for (let i = 0; i < out.length; i++)
    if (out[i].isContainer)
      out.push(...handlers.methods.children({ frameId, format: 'auto', nodeId: out[i].id, limit: 100 }).nodes);
  return out;
}

describe('Socket.IO binary attachments (default parser, real socket.io)', () => {
  let r: Rig;
  let ackReply: unknown;
  beforeAll(async () => {
    r = await rig();
    await new Promise<void>((resolve) => r.client.on('connect', resolve));
    const uploaded = new Promise<void>((resolve) => r.client.on('upload', () => resolve()));
    r.client.emit('hello');
    await uploaded;
    ackReply = await r.client.emitWithAck('file', 'notes.bin', Buffer.from([9, 8, 7, 6, 5]));
    await until(() => r.capture.frames.filter((f) => f.opcode === 'binary').length >= 4);
  }, 20_000);
  afterAll(() => r?.close());

  it('links each attachment frame to the BINARY_EVENT that announced it, and the placeholders to the frames', () => {
    expect(ackReply).toMatchObject({ ok: true, name: 'notes.bin' });
    const { handlers, rows } = ingest(r.capture.frames);
    const event = rows.find((row) => row.protocol?.message === 'BINARY_EVENT' && row.protocol.event === 'upload');
    expect(event, JSON.stringify(rows.map((row) => row.preview))).toBeTruthy();
    const [first, second] = rows.filter((row) => row.frameId > event!.frameId && row.opcode === 'binary');
    expect(first.preview).toContain(`attachment 0 of frame ${event!.frameId} (upload)`);
    expect(second.preview).toContain(`attachment 1 of frame ${event!.frameId} (upload)`);
    expect(first.protocol).toMatchObject({ name: 'socket.io', message: 'attachment', event: 'upload' });
    // The detail links both ways too.
    const [version, ...links] = handlers.methods.decode({ frameId: second.frameId, format: 'auto' })!.links!;
    expect(version.text).toMatch(/^Engine\.IO v4 \(socket\.io 3 or later\): /);
    expect(links).toEqual([
      { text: `attachment 1 of 2 of frame ${event!.frameId} (upload)`, frameIds: [event!.frameId] },
    ]);
    expect(handlers.methods.decode({ frameId: event!.frameId, format: 'auto' })!.links!.slice(1)).toEqual([
      {
        text: `attachments: #0 frame ${first.frameId}, #1 frame ${second.frameId}`,
        frameIds: [first.frameId, second.frameId],
      },
    ]);

    const nodes = allNodes(handlers, event!.frameId);
    const linked = nodes.filter((n) => n.link).sort((a, b) => a.head.localeCompare(b.head));
    expect(linked.map((n) => [n.head, n.link!.frameId])).toEqual([
      ['attachment #0', first.frameId],
      ['attachment #1', second.frameId],
    ]);
    expect(linked[0].preview).toContain(`frame ${first.frameId}`);
    expect(linked[0].preview).toContain('7 B');
  });

  it('links BINARY_ACK attachments the same way, in the direction they were sent', () => {
    const { handlers, rows } = ingest(r.capture.frames);
    const sentEvent = rows.find((row) => row.direction === 'sent' && row.protocol?.message === 'BINARY_EVENT');
    expect(sentEvent?.protocol?.event).toBe('file');
    const sentAttachment = rows.find((row) => row.direction === 'sent' && row.opcode === 'binary')!;
    expect(sentAttachment.preview).toContain(`attachment 0 of frame ${sentEvent!.frameId} (file)`);
    const ack = rows.find((row) => row.protocol?.message === 'BINARY_ACK')!;
    expect(ack.protocol?.id).toBe(sentEvent!.protocol!.id);
    const ackAttachment = rows.find((row) => row.frameId > ack.frameId && row.opcode === 'binary')!;
    expect(ackAttachment.preview).toContain(`attachment 0 of frame ${ack.frameId}`);
    expect(
      allNodes(handlers, ack.frameId)
        .filter((n) => n.link)
        .map((n) => n.link!.frameId),
    ).toEqual([ackAttachment.frameId]);
  });

  it('marks ping / pong quiet and leaves frames after the attachments alone', () => {
    const { rows } = ingest([
      ...r.capture.frames,
      { direction: 'received', opcode: 'binary', data: new Uint8Array([1, 2, 3]), subprotocol: '' },
    ]);
    expect(rows.at(-1)!.protocol).toBeUndefined();
    expect(rows.at(-1)!.preview).not.toContain('attachment');
  });
});

describe('socket.io-msgpack-parser (real socket.io)', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig(msgpackParser);
    await new Promise<void>((resolve) => r.client.on('connect', resolve));
    const uploaded = new Promise<void>((resolve) => r.client.on('upload', () => resolve()));
    r.client.emit('hello');
    await uploaded;
    await r.client.emitWithAck('file', 'notes.bin', Buffer.from([9, 8, 7]));
  }, 20_000);
  afterAll(() => r?.close());

  it('names the MessagePack packets {type, data, nsp, id}: CONNECT, EVENT with its name, ACK with its id', () => {
    const { rows } = ingest(r.capture.frames);
    const packets = rows.filter((row) => row.format === 'msgpack');
    expect(packets.length).toBeGreaterThanOrEqual(4);
    for (const p of packets) expect(p.protocol?.name, p.preview).toBe('socket.io');
    const events = packets.filter((p) => p.protocol?.message === 'EVENT').map((p) => p.protocol!.event);
    expect(events).toEqual(expect.arrayContaining(['hello', 'upload', 'file']));
    expect(packets.some((p) => p.protocol?.message === 'CONNECT')).toBe(true);
    const ack = packets.find((p) => p.protocol?.message === 'ACK')!;
    expect(ack.protocol?.id).toBe(packets.find((p) => p.protocol?.event === 'file')!.protocol!.id);
  });
});
