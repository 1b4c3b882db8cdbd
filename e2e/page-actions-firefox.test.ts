/**
 * Send again and Deliver to page in Firefox ESR (dist/firefox-test, puppeteer-core over
 * WebDriver BiDi), on the page of page-actions-chromium.test.ts (it replaces `send`,
 * `dispatchEvent`, `MessageEvent` and `Blob` after load): Send again reaches the server
 * byte-exact; Deliver to page reaches the page's listener as an ArrayBuffer, then a Blob,
 * then a string; the page sees none of it through its replacements; the rows are marked.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { expect, it } from 'vitest';
import { actionPageReady, CBOR_FRAME, startActionServer } from './support/action-page.js';
import { panelReader, waitForRows } from './support/ext-panel.js';
import { actOnFrame } from './support/frame-actions-firefox.js';
import { pollUntil } from './support/wait.js';
import { artifactPath } from './support/ext-env.js';
import { openPanelTab } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';

const run = firefoxAndServerPerFile(startActionServer, 60_000);

it('Send again and Deliver to page (ArrayBuffer, Blob, text), on a page that replaced send, dispatchEvent, MessageEvent and Blob', async () => {
  const { browser, server } = run;
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(server.url);
  await actionPageReady(page, server);

  const panel = await openPanelTab(browser, page);
  const read = panelReader(panel);
  await waitForRows(read, 2);

  expect(await actOnFrame(panel, 1, 'Send again')).toBe('sent again');
  await pollUntil(
    'the frame sent again at the server',
    async () => server.received.length,
    (n) => n === 3,
  );
  expect(server.received[2]).toEqual({ bytes: [...CBOR_FRAME], binary: true });

  expect(await actOnFrame(panel, 1, 'Deliver to page')).toBe('delivered to the page');
  await page.evaluate('window.ws.binaryType = "blob"');
  expect(await actOnFrame(panel, 1, 'Deliver to page')).toBe('delivered to the page');
  expect(await actOnFrame(panel, 2, 'Deliver to page')).toBe('delivered to the page');
  const got = await pollUntil(
    'three deliveries with their bytes',
    () => page.evaluate('window.got') as Promise<{ kind: string; text: string | null; bytes: number[] | null }[]>,
    (g) => g.length === 3 && g[1]!.bytes !== null,
  );
  expect(got.map(({ kind, text, bytes }) => ({ kind, text, bytes }))).toEqual([
    { kind: '[object ArrayBuffer]', text: null, bytes: [...CBOR_FRAME] },
    { kind: '[object Blob]', text: null, bytes: [...CBOR_FRAME] },
    { kind: '[object String]', text: 'text frame', bytes: null },
  ]);
  expect(await page.evaluate('[window.seenSends, window.seenDispatches]'), 'the page saw none of it').toEqual([0, 0]);

  const state = await waitForRows(read, 6);
  expect(state.rows.map((r) => r.direction)).toEqual([
    'sent',
    'sent',
    'sent by wirescope',
    'delivered to the page by wirescope',
    'delivered to the page by wirescope',
    'delivered to the page by wirescope',
  ]);
  await panel.screenshot({ path: artifactPath('page-actions-firefox.png') });
  expect(server.received).toHaveLength(3);
  expect(pageErrors).toEqual([]);
  await panel.close();
  await page.close();
}, 90_000);
