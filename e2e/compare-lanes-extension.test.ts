/**
 * The Compare tab's lanes inside the Chromium extension (dist/chrome): the panel's decode
 * worker's lane workers (the panel page starts them for it) load from chrome-extension:// under the extension pages'
 * CSP (root manifest.json, `script-src 'self'`), and a frame above the lane threshold gets
 * every codec's row with no lane failure. A local page receives the frame from a local `ws`
 * server before the panel opens. Fails (never skips) without Chromium or the extension build.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { ensureExtensionBuild, launchChromiumWithExtension, newPageWithTabId, requireBrowser, type ChromiumWithExtension } from './support/ext-env.js';
import { generateDocument } from '../codecs/bench/generate.js';
import { LANE_MIN_BYTES } from '../codecs/compare/lanes.js';
import { CODECS } from '../codecs/compare/codecs.js';

let ext: ChromiumWithExtension;
let http: Server;
let wss: WebSocketServer;
const frame = new CborEncoder().encode(generateDocument(LANE_MIN_BYTES + 64 * 1024)).slice();

beforeAll(async () => {
  requireBrowser('chromium');
  const dir = await ensureExtensionBuild('chrome');
  http = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>large frame</title><script>
      const ws = new WebSocket('ws://127.0.0.1:' + ${'location.port'} + '/ws');
      ws.binaryType = 'arraybuffer';
      ws.onmessage = (e) => { window.__received = e.data.byteLength; };
    </script>`);
  });
  wss = new WebSocketServer({ server: http, path: '/ws' });
  wss.on('connection', (socket) => socket.send(frame));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  ext = await launchChromiumWithExtension(dir);
}, 60_000);

afterAll(async () => {
  await ext?.close();
  wss?.close();
  await new Promise((resolve) => http?.close(resolve));
});

describe('Compare lanes in the Chromium extension', () => {
  it('a frame above the lane threshold is compared in lane workers of the panel: every codec gets its row', async () => {
    const port = (http.address() as AddressInfo).port;
    const { page, tabId } = await newPageWithTabId(ext.worker, () => ext.context.newPage());
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => (window as unknown as { __received?: number }).__received !== undefined, undefined, { timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { __received: number }).__received)).toBe(frame.length);

    const panel = await ext.context.newPage();
    const errors: string[] = [];
    panel.on('pageerror', (e) => errors.push(e.message));
    const laneScripts: string[] = [];
    panel.on('request', (r) => /compare-lane-worker/.test(r.url()) && laneScripts.push(r.url()));
    panel.on('worker', (w) => /compare-lane-worker/.test(w.url()) && laneScripts.push(w.url()));
    const csp: string[] = [];
    panel.on('console', (m) => /Content Security Policy|Refused/.test(m.text()) && csp.push(m.text()));
    await panel.goto(`chrome-extension://${ext.extensionId}/panel.html?tabId=${tabId}`);
    await panel.locator('[data-testid=frame-row]').first().waitFor({ timeout: 15_000 });
    await panel.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await panel.getByTestId('tab-compare').click();
    await panel.getByRole('button', { name: /Run comparison/ }).click();
    await expect.poll(() => panel.getByTestId('compare-status').textContent(), { timeout: 120_000, interval: 500 }).toMatch(/\d+ codecs compared/);
    expect(await panel.locator('[data-testid=compare-table] [data-testid=compare-row]').count()).toBeGreaterThanOrEqual(CODECS.length - 1);
    expect(await panel.getByTestId('compare-table').textContent()).not.toMatch(/lane stopped/);
    expect(laneScripts.length, 'the lane script was loaded').toBeGreaterThan(0);
    expect(csp, 'CSP reports').toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);
});
