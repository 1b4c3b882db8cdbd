import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { WebSocket, type WebSocketServer } from 'ws';
import { captureProxy, until, type CapturedFrame } from '../../../codecs/protocols/test/ws-capture.js';
import { ingestFrames as ingest } from './test/ingest-frames.js';
import { localWsServer } from '../../../codecs/protocols/test/ws-server.js';

// One copy of graphql for the schema and both servers (its ESM and CJS builds refuse each other's schemas).
const require = createRequire(import.meta.url);
const { GraphQLInt, GraphQLObjectType, GraphQLSchema, GraphQLString, execute, subscribe } =
  require('graphql') as typeof import('graphql');
const { createClient } = require('graphql-ws') as typeof import('graphql-ws');
const { useServer } = require('graphql-ws/use/ws') as typeof import('graphql-ws/use/ws');
const { SubscriptionClient, SubscriptionServer } =
  require('subscriptions-transport-ws') as typeof import('subscriptions-transport-ws');

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { hello: { type: GraphQLString, resolve: () => 'world' } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      countdown: {
        type: GraphQLInt,
        args: { from: { type: GraphQLInt } },
        subscribe: async function* (_: unknown, { from }: { from: number }) {
          for (let i = from; i >= 0; i--) yield { countdown: i };
        },
      },
    },
  }),
});

async function serve(
  attach: (wss: WebSocketServer) => void,
  subprotocol: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = await localWsServer({
    handleProtocols: (offered) => (offered.has(subprotocol) ? subprotocol : false),
  });
  attach(server.wss);
  return server;
}

let modern: CapturedFrame[] = [];
let legacy: CapturedFrame[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const a = await serve((wss) => useServer({ schema, execute, subscribe }, wss), 'graphql-transport-ws');
  const capA = await captureProxy(a.url);
  closers.push(() => capA.close(), a.close);
  const client = createClient({ url: `${capA.url}/graphql`, webSocketImpl: WebSocket, lazy: false });
  const values: unknown[] = [];
  await new Promise<void>((resolve, reject) =>
    client.subscribe(
      { query: 'subscription Countdown { countdown(from: 3) }' },
      { next: (v) => values.push(v), error: reject, complete: resolve },
    ),
  );
  await new Promise<void>((resolve, reject) =>
    client.subscribe({ query: '{ hello }' }, { next: (v) => values.push(v), error: reject, complete: resolve }),
  );
  await client.dispose();
  await until(() => capA.frames.filter((f) => new TextDecoder().decode(f.data).includes('"complete"')).length >= 2);
  modern = capA.frames.slice();

  const b = await serve((wss) => SubscriptionServer.create({ schema, execute, subscribe }, wss as never), 'graphql-ws');
  const capB = await captureProxy(b.url);
  closers.push(() => capB.close(), b.close);
  const legacyClient = new SubscriptionClient(`${capB.url}/subscriptions`, { reconnect: false }, WebSocket);
  await new Promise<void>((resolve, reject) =>
    legacyClient
      .request({ query: 'subscription Countdown { countdown(from: 2) }' })
      .subscribe({ next: () => {}, error: reject, complete: () => resolve() }),
  );
  legacyClient.close();
  await until(() => capB.frames.some((f) => new TextDecoder().decode(f.data).includes('"complete"')));
  legacy = capB.frames.slice();
}, 20_000);
afterAll(async () => {
  for (const c of closers) await c();
});

describe("GraphQL over WebSocket: an operation's frames are linked by id", () => {
  it("graphql-ws: subscribe → next ×4 → complete, each frame's detail names the others", () => {
    const { handlers, rows } = ingest(modern);
    const sub = rows.find((r) => r.protocol?.message === 'subscribe' && r.protocol.event === 'Countdown')!;
    expect(sub.protocol).toMatchObject({ name: 'graphql-ws', id: expect.any(String) });
    const id = sub.protocol!.id!;
    const nexts = rows.filter((r) => r.protocol?.message === 'next' && r.protocol.id === id);
    const complete = rows.find((r) => r.protocol?.message === 'complete' && r.protocol.id === id)!;
    expect(nexts).toHaveLength(4);
    const expected = `operation ${id}: subscribe at frame ${sub.frameId}, 4 next (frames ${nexts[0].frameId}–${nexts[3].frameId}), complete at frame ${complete.frameId}`;
    for (const r of [sub, nexts[2], complete])
      expect(handlers.methods.decode({ frameId: r.frameId, format: 'auto' })!.links!.map((l) => l.text)).toEqual([
        expected,
      ]);
    expect(handlers.methods.decode({ frameId: sub.frameId, format: 'auto' })!.links![0].frameIds).toEqual([
      sub.frameId,
      nexts[0].frameId,
      complete.frameId,
    ]);
    // Keep-alive-free: connection_init / ack carry no id and link nothing.
    const init = rows.find((r) => r.protocol?.message === 'connection_init')!;
    expect(handlers.methods.decode({ frameId: init.frameId, format: 'auto' })!.links).toEqual([]);
  });

  it('subscriptions-transport-ws: start → data → complete', () => {
    const { handlers, rows } = ingest(legacy);
    const start = rows.find((r) => r.protocol?.message === 'start')!;
    expect(start.protocol).toMatchObject({ name: 'subscriptions-transport-ws', event: 'Countdown' });
    const data = rows.filter((r) => r.protocol?.message === 'data');
    expect(data).toHaveLength(3);
    const line = handlers.methods.decode({ frameId: data[1].frameId, format: 'auto' })!.links![0].text;
    expect(line).toMatch(
      new RegExp(
        `^operation ${start.protocol!.id}: start at frame ${start.frameId}, 3 data \\(frames ${data[0].frameId}–${data[2].frameId}\\), complete at frame \\d+$`,
      ),
    );
  });
});
