/**
 * The real client libraries of capture-clients.test.ts in Firefox ESR
 * (dist/firefox-test, the panel opened through the test build's hook): each keeps working and
 * the panel shows exactly the frames the server recorded on the wire.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
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
import { fromWire, frameLine, perDirection } from './support/client-panel.js';
import { panelReader, waitForRows } from './support/ext-panel.js';
import { openPanelTab } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';

const run = firefoxAndServerPerFile(() => clientPagesOf<ClientServer>(bundleClients), 60_000);

async function check(server: ClientServer, expectResult: (result: unknown) => void): Promise<void> {
  run.server.keep(server);
  const errors: string[] = [];
  const page = await run.browser.newPage();
  page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  await page.goto(`${server.httpUrl}page.html`);
  expectResult(await page.evaluate('window.__done'));
  await new Promise((r) => setTimeout(r, 200));
  const panel = await openPanelTab(run.browser, page);
  const state = await waitForRows(panelReader(panel), server.frames.length);
  expect(server.frames.length).toBeGreaterThan(3);
  expect(
    perDirection(state.rows),
    state.rows.map((r) => `${r.direction} ${frameLine(r)} ${r.preview}`).join('\n'),
  ).toEqual(fromWire(server.frames));
  expect(state.dropped).toBeNull();
  expect(errors).toEqual([]);
  await panel.close();
  await page.close();
}

describe('real client libraries in Firefox (dist/firefox-test)', () => {
  it(
    'socket.io, default parser',
    async () =>
      check(await startSocketIo(run.server.clientsJs, 'default'), (r) =>
        expect(r).toEqual({ reply: { got: { text: 'hi ✓', n: 1 }, size: 4 }, bin: 300 }),
      ),
    60_000,
  );
  it(
    'socket.io with socket.io-msgpack-parser',
    async () =>
      check(await startSocketIo(run.server.clientsJs, 'msgpack'), (r) =>
        expect(r).toEqual({ reply: { got: { text: 'hi ✓', n: 1 }, size: 4 }, bin: 300 }),
      ),
    60_000,
  );
  it(
    'graphql-ws',
    async () =>
      check(await startGraphqlWs(run.server.clientsJs), (r) =>
        expect(r).toEqual([{ data: { hello: 'world' } }, { data: { count: 1 } }, { data: { count: 2 } }]),
      ),
    60_000,
  );
  it(
    'protobufjs over a raw WebSocket',
    async () =>
      check(await startProtobuf(run.server.clientsJs), (r) =>
        expect(r).toEqual([
          [100, 're: msg 1', 10],
          [200, 're: msg 2', 20],
          [300, 're: msg 3', 30],
        ]),
      ),
    60_000,
  );
  it(
    'phoenix channels (JSON and binary)',
    async () =>
      check(await startPhoenix(run.server.clientsJs), (r) =>
        expect(r).toEqual({ json: { pong: { n: 1, text: 'hi' } }, bin: [9, 8, 7, 6] }),
      ),
    60_000,
  );
});
