/**
 * Real client libraries in Chromium with the extension (dist/chrome): socket.io
 * with its default parser and with socket.io-msgpack-parser, graphql-ws, protobufjs over a
 * raw WebSocket, phoenix channels (JSON and binary pushes). Each library must keep working
 * (its round trips give the right answers) and the panel must show exactly the frames that
 * went over the wire — direction, text/binary and byte size, in order per direction — as the
 * server recorded them, with nothing reported lost.
 * Fails (never skips) without /usr/bin/chromium or a buildable extension.
 */
import { describe, expect, it } from 'vitest';
import {
  bundleClients,
  clientPagesOf,
  startGraphqlWs,
  startPhoenix,
  startProtobuf,
  startSocketIo,
  type ClientServer,
} from './support/client-servers.js';
import { fromWire, frameLine, perDirection, runPageThenReadPanel } from './support/client-panel.js';
import type { PanelRow } from './support/ext-panel.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';

const run = chromiumAndServerPerFile(() => clientPagesOf<ClientServer>(bundleClients), 60_000);

/** Runs the library page, then holds the panel to the server's record of the wire. */
async function check(server: ClientServer, expectResult: (result: unknown) => void): Promise<PanelRow[]> {
  run.server.keep(server);
  const { result, state, errors } = await runPageThenReadPanel(run.browser, server);
  expectResult(result);
  expect(server.frames.length, 'frames on the wire').toBeGreaterThan(3);
  expect(
    perDirection(state.rows),
    state.rows.map((r) => `${r.direction} ${frameLine(r)} ${r.preview}`).join('\n'),
  ).toEqual(fromWire(server.frames));
  expect(state.dropped).toBeNull();
  expect(errors).toEqual([]);
  return state.rows;
}

describe('real client libraries in Chromium (dist/chrome)', () => {
  it('socket.io, default parser: emit / ack with binary attachments', async () => {
    const rows = await check(await startSocketIo(run.server.clientsJs, 'default'), (r) =>
      expect(r).toEqual({ reply: { got: { text: 'hi ✓', n: 1 }, size: 4 }, bin: 300 }),
    );
    expect(rows.some((r) => r.opcode === 'binary')).toBe(true);
  }, 60_000);

  it('socket.io with socket.io-msgpack-parser: every packet a binary MessagePack frame', async () => {
    const rows = await check(await startSocketIo(run.server.clientsJs, 'msgpack'), (r) =>
      expect(r).toEqual({ reply: { got: { text: 'hi ✓', n: 1 }, size: 4 }, bin: 300 }),
    );
    const packets = rows.filter((r) => r.opcode === 'binary');
    expect(packets.length).toBeGreaterThanOrEqual(4);
    expect(
      packets.every((r) => r.format === 'msgpack'),
      rows.map((r) => `${r.opcode} ${r.format}`).join(', '),
    ).toBe(true);
  }, 60_000);

  it('graphql-ws: a query and a subscription', async () => {
    await check(await startGraphqlWs(run.server.clientsJs), (r) =>
      expect(r).toEqual([{ data: { hello: 'world' } }, { data: { count: 1 } }, { data: { count: 2 } }]),
    );
  }, 60_000);

  it('protobufjs messages over a raw WebSocket', async () => {
    await check(await startProtobuf(run.server.clientsJs), (r) =>
      expect(r).toEqual([
        [100, 're: msg 1', 10],
        [200, 're: msg 2', 20],
        [300, 're: msg 3', 30],
      ]),
    );
  }, 60_000);

  it('phoenix channels: join, JSON push and reply, binary push and reply', async () => {
    const rows = await check(await startPhoenix(run.server.clientsJs), (r) =>
      expect(r).toEqual({ json: { pong: { n: 1, text: 'hi' } }, bin: [9, 8, 7, 6] }),
    );
    expect(rows.filter((r) => r.opcode === 'binary').map((r) => r.direction)).toEqual(['sent', 'received']);
  }, 60_000);
});
