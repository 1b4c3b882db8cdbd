/**
 * In Chromium: with the demo's envelope.proto and trade.proto loaded through the
 * Schemas dialog, the session comparison of the live `/demo/protobuf` stream has the CLI's
 * loaded-schema row, measured in the worker: every Envelope held, written back byte for byte
 * (its size is the captured size), the schema's text apart.
 * Needs dist/app (npm run build:app) and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { ENVELOPE_TYPE, PROTOBUF_PATH } from '../demo-server/streams/protobuf-schema.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { demoProtoFiles } from './support/demo-proto.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

describe('the loaded-.proto session row in the browser', () => {
  it('holds every live Envelope at the captured size, the schema apart', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const wsUrl = server.wsUrl.replace(/\/demo$/, PROTOBUF_PATH);
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(wsUrl)}`, server.httpUrl).href);
    await page.locator('[data-testid=frame-row]').first().waitFor({ timeout: 10_000 });
    await page.getByTestId('schemas-button').click();
    const files = demoProtoFiles();
    await page.getByTestId('schema-file-input').setInputFiles(files);
    await page
      .getByLabel(/Message type for/)
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid=frame-row]').count(), { timeout: 10_000 }).toBeGreaterThan(20);
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('compare-mode-session').check();
    await page.getByTestId('session-run').click();
    await expect
      .poll(
        async () => {
          const s = (await page.getByTestId('session-status').textContent()) ?? '';
          if (s.startsWith('The comparison stopped on an error'))
            throw new Error(
              `the session comparison failed in the worker: ${await page.locator('.ws-session .ws-error').textContent()}`,
            );
          return s;
        },
        { timeout: 30_000 },
      )
      .toMatch(/^Compared \d+ messages/);
    const compared = Number(
      /^Compared ([\d,]+) messages/
        .exec((await page.getByTestId('session-status').textContent()) ?? '')![1]
        .replace(/,/g, ''),
    );
    const totals = page.getByTestId('session-totals');
    const head = await totals.locator('thead th').allTextContents();
    const loaded = totals.locator('tr[data-codec=protobuf-loaded]');
    expect(await loaded.locator('th').textContent()).toBe(`Protobuf (.proto ${ENVELOPE_TYPE})`);
    const cells = await loaded.locator('td').allTextContents();
    const captured = await totals.locator('tr[data-codec=captured] td').allTextContents();
    console.log(
      `columns: ${head.join(' | ')}\nloaded .proto: ${cells.join(' | ')}\nas captured: ${captured.join(' | ')}\n${await page.getByTestId('session-status').textContent()}`,
    );
    expect(cells[0]).toBe(String(compared)); // every message held, none left out
    expect(cells[1]).toBe(captured[1]); // written back byte for byte
    expect(cells.some((c) => /^[\d,.]+ (B|KiB) \([\d.]+ B\/message\)$/.test(c))).toBe(true); // the schema, sent once
    await totals.screenshot({ path: artifactPath('session-loaded-proto-totals.png') });
    await page.close();
    expect(errors).toEqual([]);
  }, 120_000);
});
