/**
 * The Compare tab's lanes inside the extension: the panel page starts the decode worker's
 * lane workers (worker/lane-host.ts) from chrome-extension:// (Chromium, dist/chrome) and
 * moz-extension:// (Firefox ESR, dist/firefox-test) under the extension pages' CSP (root
 * manifest.json, `script-src 'self'`), and a frame above the lane threshold gets every
 * codec's row with no lane failure. A local page receives the frame from a local `ws` server
 * before the panel opens. Fails (never skips) without the browsers or the extension builds.
 */
import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { openPanelOf, openTabAt } from './support/ext-env.js';
import { openPanelTab } from './support/ext-firefox.js';
import { chromiumAndServerPerFile, firefoxAndServerPerFile } from './support/ext-with-server.js';
import { startOnePageServer } from './support/one-page-server.js';
import { generateDocument } from '../codecs/bench/generate.js';
import { LANE_MIN_BYTES } from '../codecs/compare/lanes.js';
import { CODECS } from '../codecs/compare/codecs.js';

const frame = new CborEncoder().encode(generateDocument(LANE_MIN_BYTES + 64 * 1024)).slice();

/** A page whose socket receives `frame` as soon as it opens (its length lands in `window.__received`). */
const startLargeFrameServer = () =>
  startOnePageServer(
    `<!doctype html><title>large frame</title><script>
      const ws = new WebSocket('ws://127.0.0.1:' + ${'location.port'} + '/ws');
      ws.binaryType = 'arraybuffer';
      ws.onmessage = (e) => { window.__received = e.data.byteLength; };
    </script>`,
    (socket) => socket.send(frame),
    { path: '/ws' },
  );

describe('Compare lanes in the Chromium extension', () => {
  const run = chromiumAndServerPerFile(startLargeFrameServer, 90_000);
  it('a frame above the lane threshold is compared in lane workers of the panel: every codec gets its row', async () => {
    const { page, tabId } = await openTabAt(run.browser, run.server.url);
    await page.waitForFunction(
      () => (window as unknown as { __received?: number }).__received !== undefined,
      undefined,
      { timeout: 15_000 },
    );
    expect(await page.evaluate(() => (window as unknown as { __received: number }).__received)).toBe(frame.length);

    const errors: string[] = [];
    const laneScripts: string[] = [];
    const csp: string[] = [];
    const panel = await openPanelOf(run.browser, tabId, {
      beforeLoad: (panel) => {
        panel.on('pageerror', (e) => errors.push(e.message));
        panel.on('request', (r) => /compare-lane-worker/.test(r.url()) && laneScripts.push(r.url()));
        panel.on('worker', (w) => /compare-lane-worker/.test(w.url()) && laneScripts.push(w.url()));
        panel.on('console', (m) => /Content Security Policy|Refused/.test(m.text()) && csp.push(m.text()));
      },
    });
    await panel.locator('[data-testid=frame-row]').first().waitFor({ timeout: 15_000 });
    await panel.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await panel.getByTestId('tab-compare').click();
    await panel.getByRole('button', { name: /Run comparison/ }).click();
    await expect
      .poll(() => panel.getByTestId('compare-status').textContent(), { timeout: 120_000, interval: 500 })
      .toMatch(/\d+ codecs compared/);
    expect(await panel.locator('[data-testid=compare-table] [data-testid=compare-row]').count()).toBeGreaterThanOrEqual(
      CODECS.length - 1,
    );
    expect(await panel.getByTestId('compare-table').textContent()).not.toMatch(/lane stopped/);
    expect(laneScripts.length, 'the lane script was loaded').toBeGreaterThan(0);
    expect(csp, 'CSP reports').toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);
});

describe('Compare lanes in the Firefox extension (dist/firefox-test)', () => {
  const run = firefoxAndServerPerFile(startLargeFrameServer, 90_000);
  it('the panel page starts the lane workers under the moz-extension CSP: every codec gets its row', async () => {
    const page = await run.browser.newPage();
    await page.goto(run.server.url);
    await page.waitForFunction(() => (window as unknown as { __received?: number }).__received !== undefined, {
      timeout: 15_000,
    });
    const panel = await openPanelTab(run.browser, page);
    const errors: string[] = [];
    panel.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
    // Two cores or more: the decode worker asks the page for two lanes (compare-lanes.ts), so their script loads here.
    expect(await panel.evaluate(() => navigator.hardwareConcurrency)).toBeGreaterThanOrEqual(2);
    await panel.waitForSelector('[data-testid=frame-row]', { timeout: 15_000 });
    await panel.$eval('[data-testid=frame-row]', (el) =>
      el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })),
    );
    await panel.$eval('[data-testid=tab-compare]', (el) => (el as HTMLElement).click());
    await panel.waitForFunction(
      () => [...document.querySelectorAll('button')].some((b) => /Run comparison/.test(b.textContent ?? '')),
      { timeout: 20_000 },
    );
    await panel.evaluate(() =>
      (
        [...document.querySelectorAll('button')].find((b) =>
          /Run comparison/.test(b.textContent ?? ''),
        ) as HTMLButtonElement
      ).click(),
    );
    // Polled here: waitForFunction with an interval did not return over BiDi (compare-lanes.test.ts).
    const status = async (): Promise<string> =>
      panel.evaluate(() => document.querySelector('[data-testid=compare-status]')?.textContent ?? '');
    for (let deadline = Date.now() + 120_000; !/\d+ codecs compared/.test(await status()); ) {
      if (Date.now() > deadline)
        throw new Error(`the comparison did not finish in the Firefox extension; status: ${await status()}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const rows = await panel.$$eval('[data-testid=compare-table] [data-testid=compare-row]', (els) => els.length);
    expect(rows).toBeGreaterThanOrEqual(CODECS.length - 1);
    expect(await panel.$eval('[data-testid=compare-table]', (el) => el.textContent ?? '')).not.toMatch(
      /lane stopped|lane failed/,
    );
    expect(errors).toEqual([]);
    await panel.close();
    await page.close();
  }, 180_000);
});
