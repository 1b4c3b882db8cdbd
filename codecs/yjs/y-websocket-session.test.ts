import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import * as syncProtocol from 'y-protocols/sync';
import * as awarenessProtocol from 'y-protocols/awareness';
import { decodeFrame } from '../index.js';
import { ConnectionFormats } from '../reading/connection-formats.js';
import { recognizeProtocol } from '../protocols/recognize.js';

/**
 * A minimal y-websocket server (the protocol of y-websocket's own server: sync step 1 on
 * connect, sync and awareness messages relayed, updates broadcast), recording every frame
 * it receives and sends with its connection.
 */
function yServer() {
  const doc = new Y.Doc();
  const awareness = new awarenessProtocol.Awareness(doc);
  awareness.setLocalState(null);
  const frames: { connection: number; bytes: Uint8Array }[] = [];
  const conns = new Map<WebSocket, number>();
  const send = (ws: WebSocket, bytes: Uint8Array) => {
    frames.push({ connection: conns.get(ws)!, bytes });
    ws.send(bytes);
  };
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 0);
    syncProtocol.writeUpdate(e, update);
    const bytes = encoding.toUint8Array(e);
    for (const ws of conns.keys()) if (ws !== origin) send(ws, bytes);
  });
  awareness.on('update', ({ added, updated, removed }: Record<string, number[]>, origin: unknown) => {
    const e = encoding.createEncoder();
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint8Array(
      e,
      awarenessProtocol.encodeAwarenessUpdate(awareness, [...added, ...updated, ...removed]),
    );
    const bytes = encoding.toUint8Array(e);
    for (const ws of conns.keys()) if (ws !== origin) send(ws, bytes);
  });
  const wss = new WebSocketServer({ port: 0 });
  wss.on('connection', (ws) => {
    conns.set(ws, conns.size + 1);
    ws.on('message', (data: RawData) => {
      const bytes = new Uint8Array(data as Buffer);
      frames.push({ connection: conns.get(ws)!, bytes });
      const decoder = decoding.createDecoder(bytes);
      const reply = encoding.createEncoder();
      const type = decoding.readVarUint(decoder);
      if (type === 0) {
        encoding.writeVarUint(reply, 0);
        syncProtocol.readSyncMessage(decoder, reply, doc, ws);
        if (encoding.length(reply) > 1) send(ws, encoding.toUint8Array(reply));
      } else if (type === 1) {
        awarenessProtocol.applyAwarenessUpdate(awareness, decoding.readVarUint8Array(decoder), ws);
      } else if (type === 3) {
        encoding.writeVarUint(reply, 1);
        encoding.writeVarUint8Array(
          reply,
          awarenessProtocol.encodeAwarenessUpdate(awareness, [...awareness.getStates().keys()]),
        );
        send(ws, encoding.toUint8Array(reply));
      }
    });
    const step1 = encoding.createEncoder();
    encoding.writeVarUint(step1, 0);
    syncProtocol.writeSyncStep1(step1, doc);
    send(ws, encoding.toUint8Array(step1));
  });
  const port = (wss.address() as { port: number }).port;
  return { frames, url: `ws://127.0.0.1:${port}`, close: () => new Promise((r) => wss.close(r)) };
}

const until = async (ok: () => boolean, ms = 10_000) => {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const server = yServer();
afterAll(() => server.close());

describe('a y-websocket session', () => {
  it('every frame both ways reads as Yjs with spans and its message named, with the connection as evidence', async () => {
    const docs = [new Y.Doc(), new Y.Doc()];
    // y-websocket also syncs documents of one origin through BroadcastChannel: off, so every edit crosses the server.
    const providers = docs.map(
      (doc) =>
        new WebsocketProvider(server.url, 'room-42', doc, { WebSocketPolyfill: WebSocket as never, disableBc: true }),
    );
    await until(() => providers.every((p) => p.synced));
    providers[0].awareness.setLocalStateField('user', { name: 'ada', color: '#f80' });
    docs[0].getText('notes').insert(0, 'hello from ada');
    docs[1].getMap('meta').set('title', 'Room 42');
    docs[1].getArray('items').push([1, 'two', { three: 3 }]);
    docs[0].getText('notes').delete(0, 6);
    await until(
      () => docs[1].getText('notes').toString() === 'from ada' && docs[0].getMap('meta').get('title') === 'Room 42',
    );
    for (const p of providers) p.destroy();

    const evidence = new ConnectionFormats();
    const messages = new Set<string>();
    expect(server.frames.length).toBeGreaterThan(8);
    for (const { connection, bytes } of server.frames) {
      const id = String(connection);
      const d = decodeFrame(bytes, { isText: false, preferFormat: evidence.preferred(id) });
      expect(d.verdict, Buffer.from(bytes).toString('hex')).toBe('decoded');
      expect(d.format).toBe('yjs');
      evidence.record(id, d.format, bytes.length);
      const info = recognizeProtocol(d.index, d.format);
      expect(info?.protocol).toBe('yjs');
      messages.add(info!.message);
      const { store } = d.index!;
      expect([store.start[0], store.end[0]]).toEqual([0, bytes.length]);
    }
    expect([...messages].sort()).toEqual(['awareness', 'sync step 1', 'sync step 2', 'update']);
  });
});
