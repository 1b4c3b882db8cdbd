/**
 * The Session view in Chromium: at 900×700 the totals table stays reachable
 * (its wrapper scrolls sideways when the columns do not fit, the page does not overflow) and
 * the view's text does not sit flush against the splitter; on a live connection
 * paused, it compares the frames the list shows, not those waiting for Resume.
 * Needs dist/app (npm run build:app) and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { serializeCapture } from '../codecs/capture/capture-file.js';
import type { WireFrame } from '../codecs/capture/types.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 3 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

const enc = new TextEncoder();

describe('session view in Chromium: layout, picker and notes', () => {
  it('the totals table scrolls inside its wrapper and the text has left padding', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 700 }, colorScheme: 'light' });
    await page.goto(new URL('index.html', server.httpUrl).href);
    const frames: WireFrame[] = Array.from({ length: 40 }, (_, i) => ({
      connectionId: 'c',
      direction: 'received',
      time: 10 + i,
      opcode: 'text',
      data: enc.encode(
        JSON.stringify({ type: 'tick', seq: i, price: 100 + i / 4, tags: ['a', 'b'], note: 'x'.repeat(i) }),
      ),
    }));
    const bytes = serializeCapture(
      [{ connectionId: 'c', url: 'wss://layout.test/feed', protocol: '', extensions: 'permessage-deflate', time: 1 }],
      frames,
    );
    await page
      .getByTestId('import-input')
      .setInputFiles({ name: 'layout.wirescope', mimeType: 'application/json', buffer: Buffer.from(bytes) });
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe('40 frames');
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('compare-mode-session').check();
    await page.getByTestId('session-run').click();
    await expect
      .poll(() => page.getByTestId('session-status').textContent(), { timeout: 60_000 })
      .toMatch(/^Compared 40 messages/);
    const totals = page.getByTestId('session-totals');
    const geometry = await totals.evaluate((table) => {
      // The nearest ancestor that clips or scrolls sideways.
      let box: HTMLElement | null = table.parentElement;
      while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
      const status = document.querySelector('[data-testid=session-status]')!.getBoundingClientRect();
      const view = document.querySelector('[data-testid=session-compare]')!.parentElement!.getBoundingClientRect();
      return {
        tableRight: table.getBoundingClientRect().right,
        scroller: box
          ? {
              right: box.getBoundingClientRect().right,
              scrollWidth: box.scrollWidth,
              clientWidth: box.clientWidth,
              isTableWrapper: box.contains(table) && box.children.length === 1,
            }
          : null,
        statusLeftGap: status.left - view.left,
      };
    });
    await page.screenshot({ path: artifactPath('session-layout-900x700.png') });
    // Either the table fits, or its own wrapper scrolls it sideways within the viewport.
    if (geometry.tableRight > 900) {
      expect(geometry.scroller?.isTableWrapper).toBe(true);
      expect(geometry.scroller!.right).toBeLessThanOrEqual(900);
      const before = await totals.evaluate((t) => t.getBoundingClientRect().left);
      await totals.evaluate((t) => (t.parentElement!.scrollLeft = 10_000));
      expect(await totals.evaluate((t) => t.getBoundingClientRect().right)).toBeLessThanOrEqual(900);
      expect(await totals.evaluate((t) => t.getBoundingClientRect().left)).toBeLessThan(before);
    }
    expect(geometry.statusLeftGap).toBeGreaterThanOrEqual(6);
    await page.close();
  }, 120_000);

  it('paused live connection: compares the frames shown, with the count the list and the picker show', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
    await expect
      .poll(async () => Number.parseInt((await page.getByTestId('frame-count').textContent()) ?? '0', 10), {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);
    await page.getByTestId('pause-button').click();
    // Frames keep arriving while paused: wait until some wait for Resume.
    await expect
      .poll(() => page.getByTestId('pause-button').textContent(), { timeout: 20_000 })
      .toMatch(/Resume \(\d+ new\)/);
    const shown = Number.parseInt((await page.getByTestId('frame-count').textContent())!, 10);
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('compare-mode-session').check();
    const options = await page.getByTestId('session-scope').locator('option').allTextContents();
    expect(options.find((o) => o.startsWith('Connection #1'))).toContain(`(${shown} frames)`);
    await page.getByTestId('session-run').click();
    await expect
      .poll(() => page.getByTestId('session-status').textContent(), { timeout: 60_000 })
      .toMatch(/^Compared /);
    expect(await page.getByTestId('session-status').textContent()).toMatch(
      new RegExp(`^Compared ${shown.toLocaleString('en-US')} messages of connection #1`),
    );
    await page.close();
  }, 120_000);
});
