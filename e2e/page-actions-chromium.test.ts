/**
 * Send again and Deliver to page in Chromium with the production build (dist/chrome): a CBOR
 * page talks to a local server that records every frame it receives. From the panel
 * (panel.html?tabId=N):
 * - Send again reaches the server byte-exact, on the same socket, and is listed marked;
 * - Edit and send of a CBOR map value (edited as EDN) reaches the server as the bytes cbor-x
 *   (an encoder wirescope does not use) gives the edited value; a bad edit sends nothing;
 * - Deliver to page reaches the page's listener as its binaryType asks (ArrayBuffer, Blob;
 *   text as a string), and is listed marked;
 * - the options turn actions off; a closed socket says so.
 * The page is hostile: after load it replaces `WebSocket.prototype.send`, `dispatchEvent`,
 * `MessageEvent` and `Blob` (it sees none of wirescope's sends or deliveries), and, knowing the
 * secret in hook.js's source, posts forged actions and handshake events on its window and
 * reaches for the hooks' peer registry: no send happens and no frame is faked.
 * Fails (never skips) without /usr/bin/chromium or a buildable extension.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encode as encodeCbor } from 'cbor-x';
import { actionPageReady, CBOR_FRAME, startActionServer } from './support/action-page.js';
import { panelReader, waitForRows } from './support/ext-panel.js';
import { openPanelOf, openTabAt } from './support/ext-env.js';
import { fitsSideways, screenshotEach, shotsOf } from './support/shots.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';
import { actOnFrame, openFrame, waitForEditChange } from './support/frame-actions-chromium.js';
import { waitUntil } from './support/wait.js';

const run = chromiumAndServerPerFile(startActionServer, 120_000);

/** Waits until the frame's Send again, Edit and send and Deliver to page are all off; their shared reason. */
async function actionsOff(panel: Page, frameId: number): Promise<string> {
  await openFrame(panel, frameId);
  const buttons = panel.getByTestId('page-actions').getByRole('button');
  await waitUntil('the page actions are off', async () =>
    (await buttons.evaluateAll((els) => els.map((e) => (e as HTMLButtonElement).disabled))).every(Boolean),
  );
  return (await panel.getByTestId('page-actions-blocked').textContent()) ?? '';
}

/** The ids of the frames listed in the panel. */
const frameIds = (panel: Page): Promise<number[]> =>
  panel.$$eval('[data-testid=frame-row]', (els) => els.map((e) => Number((e as HTMLElement).dataset.frameId)));

it('Send again, Deliver to page, the options switch and a closed socket, on a page that replaced send, dispatchEvent, MessageEvent and Blob', async () => {
  const { browser: ext, server, dir } = run;
  const { page, tabId } = await openTabAt(ext, server.url);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await actionPageReady(page, server);

  // The page read the build's secret out of hook.js (it ships in the extension) and tries its way in.
  const secret = /"([0-9a-f]{24})"/.exec(readFileSync(path.join(dir, 'hook.js'), 'utf8'))?.[1];
  expect(secret, 'the secret in hook.js').toBeTruthy();
  const forged = await page.evaluate((s) => {
    const { MessageEvent } = (window as unknown as { Real: { MessageEvent: typeof globalThis.MessageEvent } }).Real;
    const tag = 'wirescope/capture/v1';
    const bytes = new Uint8Array([0x66, 0x6f, 0x72, 0x67, 0x65, 0x64]);
    const b64 = btoa('forged');
    const attempts = [
      { type: 'hook-action', requestId: 1, action: 'send', socketId: 1, binary: true, bytes: bytes.buffer },
      { type: 'relay-action', requestId: 1, action: 'send', socketId: 1, binary: true, b64 },
      { type: 'panel-action', requestId: 1, action: 'send', connectionId: 'x:1', binary: true, b64 },
    ];
    for (const a of attempts) {
      window.postMessage(a, '*');
      for (const name of ['message', `${tag}:offer:${s}`, `${tag}:ready:${s}`])
        window.dispatchEvent(new MessageEvent(name, { data: a }));
    }
    // A port of its own offered to the relay, in case it listened still.
    const channel = new MessageChannel();
    window.dispatchEvent(new MessageEvent(`${tag}:offer:${s}`, { ports: [channel.port2], cancelable: true }));
    channel.port1.postMessage(attempts[0]);
    // The peer registry: what it offers now sends for real; nothing records a frame that was not sent.
    const box = { registry: null as null | { list: Record<string, unknown>[] } };
    window.dispatchEvent(new CustomEvent(`${tag}:peers:${s}`, { detail: box }));
    const peer = box.registry?.list[0];
    (window as unknown as { seenDispatches: number }).seenDispatches = 0; // its own forgeries went through it
    return { reachedRegistry: !!peer, recordSent: typeof peer?.recordSent };
  }, secret!);
  expect(forged.recordSent, 'the registry offers no way to record a frame that was not sent').toBe('undefined');

  const panel = await openPanelOf(ext, tabId);
  const read = panelReader(panel);
  let state = await waitForRows(read, 2);
  expect(state.rows.map((r) => r.direction)).toEqual(['sent', 'sent']);
  await new Promise((r) => setTimeout(r, 500));
  expect(server.received, 'no forged action reached the server').toHaveLength(2);

  // Send again: byte-exact, at the server, through none of the page's replacements.
  expect(await actOnFrame(panel, 1, 'Send again')).toBe('sent again');
  await waitUntil('the frame sent again at the server', () => server.received.length === 3);
  expect(server.received[2]).toEqual({ bytes: [...CBOR_FRAME], binary: true });
  expect(await actOnFrame(panel, 2, 'Send again')).toBe('sent again');
  await waitUntil('the text frame sent again', () => server.received.length === 4);
  expect(server.received[3]).toEqual({ bytes: [...Buffer.from('text frame')], binary: false });

  // Edit and send: a CBOR map value edited as EDN reaches the server as cbor-x's bytes for the edited value.
  await panel.locator('[data-testid=frame-row][data-frame-id="1"]').dispatchEvent('mousedown');
  await panel.getByRole('button', { name: 'Edit and send' }).click();
  const editor = panel.getByLabel('Edit the frame (CBOR as EDN)');
  expect(await editor.inputValue()).toBe('{_1 "a": 1, "b": "x"}'); // cbor-x writes the map's length in a 1-byte argument: EDN says so
  await editor.fill('{_1 "a": 1, "b": }');
  expect(await panel.getByTestId('edit-error').textContent()).toMatch(/^1:\d+: .* — nothing will be sent$/);
  expect(await panel.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
  await editor.fill('{_1 "a": 2, "b": "y"}');
  await waitForEditChange(panel);
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  expect(await panel.getByTestId('page-action-outcome').textContent()).toBe('edited frame sent');
  await waitUntil('the edited frame at the server', () => server.received.length === 5);
  expect(server.received[4]).toEqual({ bytes: [...encodeCbor({ a: 2, b: 'y' })], binary: true });

  // Deliver to page: ArrayBuffer (binaryType arraybuffer), then Blob, then text.
  expect(await actOnFrame(panel, 1, 'Deliver to page')).toBe('delivered to the page');
  await page.evaluate(() => {
    (window as unknown as { ws: WebSocket }).ws.binaryType = 'blob';
  });
  expect(await actOnFrame(panel, 1, 'Deliver to page')).toBe('delivered to the page');
  expect(await actOnFrame(panel, 2, 'Deliver to page')).toBe('delivered to the page');
  await page.waitForFunction('window.got.length === 3 && window.got[1].bytes !== null');
  const got = (await page.evaluate('window.got')) as {
    kind: string;
    origin: string;
    text: string | null;
    bytes: number[] | null;
  }[];
  const origin = new URL(server.url).origin.replace('http:', 'ws:');
  expect(got).toEqual([
    { kind: '[object ArrayBuffer]', origin, text: null, bytes: [...CBOR_FRAME] },
    { kind: '[object Blob]', origin, text: null, bytes: [...CBOR_FRAME] },
    { kind: '[object String]', origin, text: 'text frame', bytes: null },
  ]);
  expect(await page.evaluate('[window.seenSends, window.seenDispatches]'), 'the page saw none of it').toEqual([0, 0]);

  // Listed, marked as wirescope's; nothing forged among them.
  state = await waitForRows(read, 2 + 3 + 3);
  expect(state.rows.map((r) => r.direction)).toEqual([
    'sent',
    'sent',
    'sent by wirescope',
    'sent by wirescope',
    'sent by wirescope',
    'delivered to the page by wirescope',
    'delivered to the page by wirescope',
    'delivered to the page by wirescope',
  ]);
  const origins = await panel.$$eval('[data-testid=frame-row]', (rows) =>
    rows.map((r) => r.getAttribute('data-origin')),
  );
  expect(origins.filter((o) => o === 'wirescope')).toHaveLength(6);
  // Screenshots with the editor open on an edit (looked at by hand; the geometry is checked here).
  await panel.locator('[data-testid=frame-row][data-frame-id="1"]').dispatchEvent('mousedown');
  await panel.getByRole('button', { name: 'Edit and send' }).click();
  await panel.getByLabel('Edit the frame (CBOR as EDN)').fill('{_1 "a": 1000, "b": "x"}');
  await waitForEditChange(panel);
  await screenshotEach(panel, shotsOf('page-actions', '1440-light', '900-dark', '900-light'), {
    before: fitsSideways(
      panel,
      '[data-testid=edit-and-send], [data-testid=page-actions]',
      2,
      'nothing in the actions overflows sideways',
    ),
  });
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await panel.setViewportSize({ width: 1400, height: 900 });

  // The list's context menu: the same actions by name.
  await panel.locator('[data-testid=frame-row][data-frame-id="1"]').click({ button: 'right' });
  await panel.getByRole('menuitem', { name: 'Send again' }).click();
  await panel.getByTestId('page-action-outcome').filter({ hasText: 'sent again' }).waitFor();
  await waitUntil('the frame sent again from the context menu', () => server.received.length === 6);
  expect(server.received[5]).toEqual({ bytes: [...CBOR_FRAME], binary: true });

  // The options turn actions off: the background tells the panel, whose buttons go off and say why.
  await ext.worker.evaluate(() =>
    (
      globalThis as unknown as { chrome: { storage: { local: { set(v: object): Promise<void> } } } }
    ).chrome.storage.local.set({ capturePolicy: { mode: 'always', sites: [], actions: false } }),
  );
  expect(await actionsOff(panel, 1)).toMatch(/Act on the page/);
  await ext.worker.evaluate(() =>
    (
      globalThis as unknown as { chrome: { storage: { local: { set(v: object): Promise<void> } } } }
    ).chrome.storage.local.set({ capturePolicy: { mode: 'always', sites: [] } }),
  );
  await panel.locator('[data-testid=page-actions] button:not([disabled])', { hasText: 'Send again' }).waitFor();

  // A closed socket says so, before any click.
  await page.evaluate(() => (window as unknown as { ws: WebSocket }).ws.close());
  expect(await actionsOff(panel, 1)).toMatch(/the socket is closed/);
  expect(server.received, 'nothing more reached the server').toHaveLength(6);

  // A reload: the socket of the document before it is shown closed ("page left"), not offered.
  const before = Math.max(...(await frameIds(panel)));
  await page.reload();
  await waitUntil(
    'the reloaded page sent its two frames',
    async () => (await frameIds(panel)).filter((id) => id > before).length >= 2,
  );
  const reloadedFrame = before + 1;
  await panel.locator(`[data-testid=frame-row][data-frame-id="${reloadedFrame}"]`).dispatchEvent('mousedown');
  await panel.locator('[data-testid=page-actions] button:not([disabled])', { hasText: 'Send again' }).waitFor();
  await page.reload();
  await waitUntil('the page reloaded again sent its frames', async () =>
    (await frameIds(panel)).some((id) => id > before + 2),
  );
  expect(await actionsOff(panel, reloadedFrame)).toMatch(/page was left or reloaded/);
  const statuses = await panel
    .getByTestId('connection-status')
    .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.status} ${e.textContent}`));
  expect(
    statuses.filter((s) => s.startsWith('open')),
    "only the newest document's socket is open",
  ).toHaveLength(1);
  expect(statuses.some((s) => s.includes('closed (page left)'))).toBe(true);
  expect(server.received, 'nothing more reached the server than the pages sent').toHaveLength(10);
  await screenshotEach(panel, shotsOf('page-actions-page-left', '900-light', '1440-dark'), {
    before: async ({ width }) => {
      const overflow = await panel.getByTestId('page-actions').evaluate((e) => e.scrollWidth > e.clientWidth + 1);
      expect(overflow, `the actions and their reason fit at ${width} px`).toBe(false);
    },
  });
  expect(pageErrors).toEqual([]);
}, 120_000);
