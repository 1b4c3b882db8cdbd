/**
 * Intercept in Firefox ESR (dist/firefox-test, puppeteer-core over WebDriver BiDi), on the page
 * and server of intercept-chromium.test.ts: a Pause rule holds a sent frame (the server gets
 * nothing) until Forward, which sends it byte-exact; Edit and forward sends the edited value
 * as cbor2 encodes it; a Drop rule keeps received frames from the page; closing the panel
 * mid-hold forwards every held frame, both directions, in order.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { encode as cbor2Encode } from 'cbor2';
import { startInterceptServer } from './support/intercept-page.js';
import { pollUntil } from './support/wait.js';
import { openPanelTab } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';
import { clickButton, textOf, typeInto } from './support/frame-actions-firefox.js';

const run = firefoxAndServerPerFile(startInterceptServer, 60_000);

const settle = () => new Promise((r) => setTimeout(r, 800));

async function openPageAndPanel(): Promise<{ page: Page; panel: Page }> {
  const page = await run.browser.newPage();
  await page.goto(run.server.url);
  await page.waitForFunction('window.opened === true');
  const panel = await openPanelTab(run.browser, page);
  await panel.waitForSelector('[data-testid=intercept-button]');
  return { page, panel };
}

async function pauseRule(
  panel: Page,
  direction: 'sent' | 'received' | 'both',
  action: 'pause' | 'drop' = 'pause',
  contains = '',
): Promise<void> {
  await panel.click('[data-testid=intercept-button]');
  if ((await panel.$('[data-testid=intercept-rule]')) === null) {
    await clickButton(panel, '[data-testid=intercept-dialog] button', 'Add rule');
    await panel.waitForSelector('[data-testid=intercept-rule]');
  }
  await panel.select('[aria-label="Rule 1 direction"]', direction);
  await panel.select('[aria-label="Rule 1 action"]', action);
  await typeInto(panel, '[aria-label="Rule 1 contains"]', contains);
  await panel.click('[data-testid=intercept-button]');
}

const got = (page: Page) => page.evaluate('window.got') as Promise<(string | number[])[]>;

it('a Pause rule holds a sent frame until Forward sends it byte-exact', async () => {
  const { server } = run;
  const { page, panel } = await openPageAndPanel();
  await pauseRule(panel, 'sent');
  await settle();
  await page.evaluate('window.sendBytes([0xa1, 0x61, 0x61, 0x01])');
  await settle();
  expect(server.received).toEqual([]);
  expect(await page.evaluate('window.ws.bufferedAmount')).toBe(4);
  await panel.waitForSelector('[data-testid=frame-row][data-held]');
  await panel.evaluate(
    "document.querySelector('[data-testid=frame-row][data-held]').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))",
  );
  await panel.waitForSelector('[data-testid=held-count]');
  expect(await panel.evaluate("document.querySelector('[data-testid=held-count]').textContent")).toMatch(
    /^1 held \(sent/,
  );
  await clickButton(panel, '[data-testid=held-frames] button', 'Forward');
  await pollUntil(
    'the forwarded frame at the server',
    async () => server.received.length,
    (n) => n === 1,
  );
  expect(server.received).toEqual([[0xa1, 0x61, 0x61, 0x01]]);
  await panel.close();
  await page.close();
}, 60_000);

it('Pause → Edit and forward sends the edited value as cbor2 encodes it; a Drop rule keeps received frames from the page', async () => {
  const { server } = run;
  server.received.length = 0;
  const { page, panel } = await openPageAndPanel();
  await pauseRule(panel, 'sent');
  await settle();
  await page.evaluate(`window.sendBytes(${JSON.stringify([...cbor2Encode({ a: 1, b: 'x' })])})`);
  await panel.waitForSelector('[data-testid=frame-row][data-held]');
  await panel.evaluate(
    "document.querySelector('[data-testid=frame-row][data-held]').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))",
  );
  await panel.waitForSelector('[data-testid=held-count]');
  await clickButton(panel, '[data-testid=held-frames] button', 'Edit and forward');
  await panel.waitForSelector('[data-testid=edit-and-send] [data-testid=edit-text]');
  await typeInto(panel, '[data-testid=edit-and-send] [data-testid=edit-text]', '{"a": 2, "b": "y"}');
  await pollUntil(
    'the edit encoded',
    () => textOf(panel, '[data-testid=edit-change]'),
    (t) => /first at offset \d+/.test(t),
  );
  expect(server.received, 'nothing went out while the frame was held').toEqual([]);
  await clickButton(panel, '[data-testid=edit-and-send] button', 'Forward the edit');
  await pollUntil(
    'the edited frame at the server',
    async () => server.received.length,
    (n) => n === 1,
  );
  expect(server.received[0]).toEqual([...cbor2Encode({ a: 2, b: 'y' })]);

  // A Drop rule on received frames containing "secret": the page's listener never gets them.
  await pauseRule(panel, 'received', 'drop', 'secret');
  await settle();
  server.push(['hello', 'a secret', 'bye']);
  await pollUntil(
    'the page’s frames',
    () => got(page),
    (g) => g.length >= 2,
  );
  await settle();
  expect(await got(page)).toEqual(['hello', 'bye']);
  await pollUntil(
    'the dropped row',
    () =>
      panel.evaluate("document.querySelectorAll('[data-testid=frame-row][data-dropped]').length") as Promise<number>,
    (n) => n === 1,
  );
  await panel.close();
  await page.close();
}, 60_000);

it('closing the panel mid-hold forwards every held frame in order, both directions', async () => {
  const { server } = run;
  server.received.length = 0;
  const { page, panel } = await openPageAndPanel();
  await pauseRule(panel, 'both');
  await settle();
  await page.evaluate("for (const t of ['s1', 's2', 's3']) window.sendText(t)");
  server.push(['r1', 'r2', 'r3']);
  await settle();
  expect(server.received).toEqual([]);
  expect(await got(page)).toEqual([]);
  await panel.close();
  await pollUntil(
    'the held sent frames at the server',
    async () => server.received.length,
    (n) => n === 3,
  );
  expect(server.received).toEqual(['s1', 's2', 's3']);
  await pollUntil(
    'the held received frames at the page',
    () => got(page),
    (g) => g.length === 3,
  );
  expect(await got(page)).toEqual(['r1', 'r2', 'r3']);
  await page.close();
}, 60_000);
