/**
 * New message in Firefox ESR (dist/firefox-test, puppeteer-core over WebDriver BiDi), on the
 * action page of page-actions-chromium.test.ts: a CBOR map written as EDN in the panel's New
 * message reaches the server as the bytes cbor2 gives the same value, and is listed marked as
 * wirescope's; the page sees none of it through its replaced `send`.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { encode as cbor2Encode } from 'cbor2';
import { actionPageReady, startActionServer } from './support/action-page.js';
import { panelReader, waitForRows } from './support/ext-panel.js';
import { clickButton, shownText, textOf, typeInto } from './support/frame-actions-firefox.js';
import { pollUntil } from './support/wait.js';
import { artifactPath } from './support/ext-env.js';
import { openPanelTab } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';

const run = firefoxAndServerPerFile(startActionServer, 60_000);

/** Types into the composer's text box as React hears it. */
const setText = (panel: Page, value: string) =>
  typeInto(panel, '[data-testid=new-message] [data-testid=edit-text]', value);

it('New message: a CBOR map written as EDN reaches the server as cbor2 encodes it, marked as wirescope’s', async () => {
  const { browser, server } = run;
  const page = await browser.newPage();
  await page.goto(server.url);
  await actionPageReady(page, server);

  const panel = await openPanelTab(browser, page);
  const read = panelReader(panel);
  await waitForRows(read, 2);

  await clickButton(panel, 'button', 'New message');
  await panel.waitForSelector('[data-testid=new-message] [data-testid=edit-format]');
  await panel.select('[data-testid=edit-format]', 'edn');
  const value = new Map<string, unknown>([
    ['op', 'move'],
    ['to', [3, -4.25]],
    ['id', 100000],
  ]);
  const expected = [...cbor2Encode(value)];
  const hex = expected.map((b) => b.toString(16).padStart(2, '0')).join(' ');
  await setText(panel, '{"op": "move",\n "to": }');
  expect(await shownText(panel, '[data-testid=edit-error]', 'the error')).toMatch(/^2:8: .* — nothing will be sent$/);
  await setText(panel, '{"op": "move", "to": [3, -4.25], "id": 100000}');
  await pollUntil(
    'the encoded bytes',
    () => textOf(panel, '[data-testid=edit-bytes]'),
    (t) => t === hex,
  );
  await clickButton(panel, '[data-testid=new-message] button', 'Send');
  expect(await shownText(panel, '[data-testid=new-message-outcome]', 'the outcome')).toMatch(/sent$/);
  await pollUntil(
    'the new message at the server',
    async () => server.received.length,
    (n) => n === 3,
  );
  expect(server.received[2]).toEqual({ bytes: expected, binary: true });
  expect(await page.evaluate('window.seenSends'), 'the page saw none of it').toBe(0);

  const state = await waitForRows(read, 3);
  expect(state.rows.map((r) => `${r.direction} ${r.format}`)).toEqual([
    'sent cbor',
    'sent text',
    'sent by wirescope cbor',
  ]);
  await panel.screenshot({ path: artifactPath('new-message-firefox.png') });
  await panel.close();
  await page.close();
}, 90_000);
