/**
 * The Compare tab on a large frame in Chromium (issue 16 §1): the decode worker measures
 * the rows on two nested-worker lanes (inspector-app/src/worker/compare-lanes.ts). The lane
 * script loads from the built app (dist/app/assets) and every codec gets its row, none of
 * them a lane failure. Needs dist/app (npm run build:app) and /usr/bin/chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { startDemoServer, type DemoServer } from '../demo-server/server.js';
import { APP_DIR, checkPrerequisites, launchChromium } from './support/env.js';
import { emitToPanel, waitForRows } from './support/tour-pages.js';
import { generateDocument } from '../codecs/bench/generate.js';
import { LANE_MIN_BYTES } from '../codecs/compare/lanes.js';
import { CODECS } from '../codecs/compare/codecs.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  checkPrerequisites();
  [browser, server] = await Promise.all([launchChromium(), startDemoServer({ port: 0, staticDir: APP_DIR, messagesPerSecond: 30, largeEvery: 0, seed: 3 })]);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Compare on two lanes in Chromium', () => {
  it('a frame above the lane threshold is compared in nested workers: every codec gets its row', async () => {
    const frame = new CborEncoder().encode(generateDocument(LANE_MIN_BYTES + 64 * 1024)).slice();
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const laneScripts: string[] = [];
    page.on('request', (r) => /compare-lane-worker/.test(r.url()) && laneScripts.push(r.url()));
    page.on('worker', (w) => /compare-lane-worker/.test(w.url()) && laneScripts.push(w.url()));
    await page.goto(new URL('panel.html', server.httpUrl).href);
    await emitToPanel(page, [{ hex: Buffer.from(frame).toString('hex') }]);
    await waitForRows(page, 1);
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.getByTestId('tab-compare').click();
    await page.getByRole('button', { name: /Run comparison/ }).click();
    await expect.poll(() => page.getByTestId('compare-status').textContent(), { timeout: 90_000, intervals: [500] }).toMatch(/\d+ codecs compared/);
    expect(await page.locator('[data-testid=compare-table] [data-testid=compare-row]').count()).toBeGreaterThanOrEqual(CODECS.length - 1);
    const text = await page.getByTestId('compare-table').textContent();
    expect(text).not.toMatch(/lane stopped/);
    expect(laneScripts.length, 'the lane script was loaded').toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
