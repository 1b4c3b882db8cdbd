/**
 * Intercept in Firefox ESR (dist/firefox-test, puppeteer-core over WebDriver BiDi), on the page
 * and server of intercept-chromium.test.ts: a Pause rule holds a sent frame (the server gets
 * nothing) until Forward, which sends it byte-exact; closing the panel mid-hold forwards every
 * held frame, both directions, in order.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { startInterceptServer, type InterceptServer } from './support/intercept-page.js';
import { ensureExtensionBuild, requireBrowser } from './support/ext-env.js';
import { findPageByLocation, launchFirefox, OPEN_PANEL_TAB, type PanelTabOpened } from './support/ext-firefox.js';

let browser: Browser;
let server: InterceptServer;

beforeAll(async () => {
  requireBrowser('firefox');
  const dir = await ensureExtensionBuild('firefox-test');
  [browser, server] = await Promise.all([launchFirefox({ extension: dir }), startInterceptServer()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const poll = async <T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`e2e: timed out waiting for ${what} (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const settle = () => new Promise((r) => setTimeout(r, 800));
const click = (panel: Page, selector: string, text: string) =>
  panel.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].find((b) => b.textContent === ${JSON.stringify(text)}).click()`,
  );

async function openPageAndPanel(): Promise<{ page: Page; panel: Page }> {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.waitForFunction('window.opened === true');
  const opened = (await page.evaluate(OPEN_PANEL_TAB)) as PanelTabOpened;
  expect(opened.wirescopeTest, JSON.stringify(opened)).toBe('panel-tab-opened');
  const panel = await findPageByLocation(browser, opened.url);
  await panel.waitForSelector('[data-testid=intercept-button]');
  return { page, panel };
}

async function pauseRule(panel: Page, direction: 'sent' | 'both'): Promise<void> {
  await panel.click('[data-testid=intercept-button]');
  await click(panel, '[data-testid=intercept-dialog] button', 'Add rule');
  await panel.waitForSelector('[data-testid=intercept-rule]');
  await panel.select('[aria-label="Rule 1 direction"]', direction);
  await panel.click('[data-testid=intercept-button]');
}

const got = (page: Page) => page.evaluate('window.got') as Promise<(string | number[])[]>;

it('a Pause rule holds a sent frame until Forward sends it byte-exact', async () => {
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
  await click(panel, '[data-testid=held-frames] button', 'Forward');
  await poll(
    'the forwarded frame at the server',
    async () => server.received.length,
    (n) => n === 1,
  );
  expect(server.received).toEqual([[0xa1, 0x61, 0x61, 0x01]]);
  await panel.close();
  await page.close();
}, 60_000);

it('closing the panel mid-hold forwards every held frame in order, both directions', async () => {
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
  await poll(
    'the held sent frames at the server',
    async () => server.received.length,
    (n) => n === 3,
  );
  expect(server.received).toEqual(['s1', 's2', 's3']);
  await poll(
    'the held received frames at the page',
    () => got(page),
    (g) => g.length === 3,
  );
  expect(await got(page)).toEqual(['r1', 'r2', 'r3']);
  await page.close();
}, 60_000);
