import { describe, expect, it } from 'vitest';
import http from 'node:http';
import { WorkerHandlers } from '../inspector-app/src/worker/handlers.js';
import { loadSchema } from '../codecs/protobuf/schema/load.js';
import { rankTypes } from '../codecs/protobuf/schema/rank.js';
import {
  createProtobufTraffic,
  demoProtoFiles,
  ENVELOPE_TYPE,
  PROTOBUF_PATH,
  PROTO_FILE_NAMES,
} from './streams/protobuf-schema.js';
import { startDemoServer } from './server.js';

/**
 * `/demo/protobuf`: frames encoded from demo-server/protobuf/*.proto read as raw Protobuf
 * without the schema, and as market.v1.Envelope with it (the best fit of every type).
 */
describe('demo protobuf traffic', () => {
  const schema = loadSchema(demoProtoFiles());

  it('the .proto files load as the inspector loads them (imports among the files given)', () => {
    expect(schema.ok ? schema.schema.messageTypes : schema.error).toEqual(
      expect.arrayContaining([ENVELOPE_TYPE, 'market.v1.Trade', 'market.v1.Quote', 'market.v1.Heartbeat']),
    );
  });

  it('every frame is raw Protobuf without the schema, and an Envelope (best fit, read whole) with it', () => {
    if (!schema.ok) throw new Error(schema.error);
    const traffic = createProtobufTraffic({ seed: 3 });
    const h = new WorkerHandlers();
    const bodies = new Set<string>();
    let withAny = 0;
    for (let frameId = 1; frameId <= 30; frameId++) {
      const m = traffic.next();
      expect(m.opcode).toBe('binary');
      const data = m.data as Uint8Array;
      const frame = { frameId, connectionId: 'pb', direction: 'received' as const, time: 0, opcode: m.opcode, data };
      h.store.add(frame);
      expect(h.summarize(frame), m.label).toMatchObject({ format: 'protobuf', verdict: 'decoded' });
      const [best] = rankTypes(schema.schema, data);
      expect(best.type, m.label).toBe(ENVELOPE_TYPE);
      expect(best).toMatchObject({ whole: true, unknownFields: 0, wireMismatches: 0 });
      const decoded = schema.schema.root.lookupType(ENVELOPE_TYPE).decode(data) as unknown as Record<string, unknown>;
      bodies.add(String(decoded.body));
      if (decoded.related) withAny++;
    }
    expect([...bodies].sort()).toEqual(['heartbeat', 'quote', 'trade']);
    expect(withAny).toBeGreaterThan(0);
  });

  it('the server streams it and serves the .proto files', async () => {
    const server = await startDemoServer({ port: 0, messagesPerSecond: 50 });
    try {
      const get = (p: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          http
            .get(`${server.httpUrl.replace(/\/$/, '')}${p}`, (res) => {
              let body = '';
              res.on('data', (c) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
            })
            .on('error', reject);
        });
      for (const name of PROTO_FILE_NAMES) {
        const res = await get(`${PROTOBUF_PATH}/${name}`);
        expect(res.status).toBe(200);
        expect(res.body).toContain('package market.v1;');
      }
      expect((await get(`${PROTOBUF_PATH}/../server.ts`)).body).not.toContain('startDemoServer');
      const { WebSocket } = await import('ws');
      const ws = new WebSocket(server.wsUrl.replace(/\/demo$/, PROTOBUF_PATH));
      const first = await new Promise<Buffer>((resolve, reject) => {
        ws.once('message', (data: Buffer) => resolve(data));
        ws.once('error', reject);
      });
      ws.close();
      if (!schema.ok) throw new Error(schema.error);
      expect(rankTypes(schema.schema, new Uint8Array(first))[0].type).toBe(ENVELOPE_TYPE);
    } finally {
      await server.close();
    }
  });
});
