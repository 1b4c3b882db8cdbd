/**
 * The Compare tab on a large frame in Chromium: the decode worker measures
 * the rows on two lanes, module workers the page starts for it and hands a port each
 * (inspector-app/src/worker/compare-lanes.ts, lane-host.ts). The lane script loads from the
 * built app (dist/app/assets) and every codec gets its row, none of them a lane failure;
 * the same in Firefox. Needs dist/app (npm run build:app), /usr/bin/chromium and Firefox ESR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import { launchFirefox } from './support/ext-firefox.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { startDemoServer, type DemoServer } from '../demo-server/server.js';
import { APP_DIR, checkPrerequisites, launchChromium } from './support/env.js';
import { emitToPanel, waitForRows } from './support/tour-pages.js';
import { generateDocument } from '../codecs/bench/generate.js';
import { LANE_MIN_BYTES } from '../codecs/compare/lanes.js';
import { CODECS } from '../codecs/compare/codecs.js';

let browser: Browser;
let firefox: FirefoxBrowser;
let server: DemoServer;

beforeAll(async () => {
  checkPrerequisites();
  [browser, firefox, server] = await Promise.all([
    launchChromium(),
    launchFirefox(),
    startDemoServer({ port: 0, staticDir: APP_DIR, messagesPerSecond: 30, largeEvery: 0, seed: 3 }),
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await firefox?.close();
  await server?.close();
});

const largeFrameHex = (): string =>
  Buffer.from(new CborEncoder().encode(generateDocument(LANE_MIN_BYTES + 64 * 1024))).toString('hex');

describe('Compare on two lanes in the browsers', () => {
  it('a frame above the lane threshold is compared in lane workers: every codec gets its row', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const laneScripts: string[] = [];
    page.on('request', (r) => /compare-lane-worker/.test(r.url()) && laneScripts.push(r.url()));
    page.on('worker', (w) => /compare-lane-worker/.test(w.url()) && laneScripts.push(w.url()));
    await page.goto(new URL('panel.html', server.httpUrl).href);
    await emitToPanel(page, [{ hex: largeFrameHex() }]);
    await waitForRows(page, 1);
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.getByTestId('tab-compare').click();
    await page.getByRole('button', { name: /Run comparison/ }).click();
    await expect
      .poll(() => page.getByTestId('compare-status').textContent(), { timeout: 90_000, interval: 500 })
      .toMatch(/\d+ codecs compared/);
    expect(await page.locator('[data-testid=compare-table] [data-testid=compare-row]').count()).toBeGreaterThanOrEqual(
      CODECS.length - 1,
    );
    const text = await page.getByTestId('compare-table').textContent();
    expect(text).not.toMatch(/lane stopped/);
    expect(laneScripts.length, 'the lane script was loaded').toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('the Compare tab shown on a large frame starts and warms the lanes before Run; Run then takes those lanes', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const lanes: string[] = [];
    page.on('request', (r) => /compare-lane-worker/.test(r.url()) && lanes.push(r.url()));
    await page.goto(new URL('panel.html', server.httpUrl).href);
    await emitToPanel(page, [{ hex: largeFrameHex() }]);
    await waitForRows(page, 1);
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.waitForTimeout(500);
    expect(lanes, 'no lane before the Compare tab is shown').toEqual([]);
    await page.getByTestId('tab-compare').click();
    await expect.poll(() => lanes.length, { timeout: 20_000 }).toBe(2);
    await page.getByRole('button', { name: /Run comparison/ }).click();
    await expect
      .poll(() => page.getByTestId('compare-status').textContent(), { timeout: 90_000, interval: 500 })
      .toMatch(/\d+ codecs compared/);
    expect(lanes, 'Run took the warmed lanes: no new lane worker').toHaveLength(2);
    expect(await page.getByTestId('compare-table').textContent()).not.toMatch(/lane stopped/);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('in Firefox too: the lane workers run and every codec gets its row', async () => {
    const page = await firefox.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
    await page.goto(new URL('panel.html', server.httpUrl).href);
    await emitToPanel(page, [{ hex: largeFrameHex() }]);
    await page.waitForSelector('[data-testid=frame-row]', { timeout: 20_000 });
    await page.$eval('[data-testid=frame-row]', (el) =>
      el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })),
    );
    await page.click('[data-testid=tab-compare]');
    await page.waitForFunction(
      () => [...document.querySelectorAll('button')].some((b) => /Run comparison/.test(b.textContent ?? '')),
      { timeout: 20_000 },
    );
    await page.evaluate(() =>
      (
        [...document.querySelectorAll('button')].find((b) =>
          /Run comparison/.test(b.textContent ?? ''),
        ) as HTMLButtonElement
      ).click(),
    );
    // Polled here: waitForFunction with an interval did not return over BiDi.
    const status = async (): Promise<string> =>
      page.evaluate(() => document.querySelector('[data-testid=compare-status]')?.textContent ?? '');
    for (let deadline = Date.now() + 120_000; !/\d+ codecs compared/.test(await status()); ) {
      if (Date.now() > deadline) throw new Error(`the comparison did not finish in Firefox; status: ${await status()}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const text = await page.$eval('[data-testid=compare-table]', (el) => el.textContent ?? '');
    const rows = await page.$$eval('[data-testid=compare-table] [data-testid=compare-row]', (els) => els.length);
    expect(rows).toBeGreaterThanOrEqual(CODECS.length - 1);
    expect(text).not.toMatch(/lane stopped/);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
