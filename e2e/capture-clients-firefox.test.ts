/**
 * The real client libraries of capture-clients.test.ts in Firefox ESR
 * (dist/firefox-test, the panel opened through the test build's hook): each keeps working and
 * the panel shows exactly the frames the server recorded on the wire.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'puppeteer-core';
import {
  bundleClients,
  startGraphqlWs,
  startPhoenix,
  startProtobuf,
  startSocketIo,
  type ClientServer,
} from './support/client-servers.js';
import { fromWire, frameLine, perDirection } from './support/client-panel.js';
import { READ_PANEL, waitForRows, type PanelState } from './support/ext-panel.js';
import { ensureExtensionBuild, requireBrowser } from './support/ext-env.js';
import { findPageByLocation, launchFirefox, OPEN_PANEL_TAB, type PanelTabOpened } from './support/ext-firefox.js';

let browser: Browser;
let clientsJs: string;
const servers: ClientServer[] = [];

beforeAll(async () => {
  requireBrowser('firefox');
  const dir = await ensureExtensionBuild('firefox-test');
  [browser, clientsJs] = await Promise.all([launchFirefox({ extension: dir }), bundleClients()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
});

async function check(server: ClientServer, expectResult: (result: unknown) => void): Promise<void> {
  servers.push(server);
  const errors: string[] = [];
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  await page.goto(`${server.httpUrl}page.html`);
  expectResult(await page.evaluate('window.__done'));
  await new Promise((r) => setTimeout(r, 200));
  const opened = (await page.evaluate(OPEN_PANEL_TAB)) as PanelTabOpened;
  expect(opened.wirescopeTest, JSON.stringify(opened)).toBe('panel-tab-opened');
  const panel = await findPageByLocation(browser, opened.url);
  const state = await waitForRows(() => panel.evaluate(READ_PANEL) as Promise<PanelState>, server.frames.length);
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
      check(await startSocketIo(clientsJs, 'default'), (r) =>
        expect(r).toEqual({ reply: { got: { text: 'hi ✓', n: 1 }, size: 4 }, bin: 300 }),
      ),
    60_000,
  );
  it(
    'socket.io with socket.io-msgpack-parser',
    async () =>
      check(await startSocketIo(clientsJs, 'msgpack'), (r) =>
        expect(r).toEqual({ reply: { got: { text: 'hi ✓', n: 1 }, size: 4 }, bin: 300 }),
      ),
    60_000,
  );
  it(
    'graphql-ws',
    async () =>
      check(await startGraphqlWs(clientsJs), (r) =>
        expect(r).toEqual([{ data: { hello: 'world' } }, { data: { count: 1 } }, { data: { count: 2 } }]),
      ),
    60_000,
  );
  it(
    'protobufjs over a raw WebSocket',
    async () =>
      check(await startProtobuf(clientsJs), (r) =>
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
      check(await startPhoenix(clientsJs), (r) =>
        expect(r).toEqual({ json: { pong: { n: 1, text: 'hi' } }, bin: [9, 8, 7, 6] }),
      ),
    60_000,
  );
});
