/**
 * In Chromium: at 900×700 (stacked layout) selecting a frame shrinks the
 * list to make room for the detail; the list went blank (rows drawn for a scroll position
 * it did not have) and the selected row was out of view. Needs dist/app and
 * /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

interface Box {
  readonly top: number;
  readonly bottom: number;
}

/** The list's viewport below its sticky header, and the rows whose boxes fall inside it. */
async function paintedRows(
  page: Page,
): Promise<{ view: Box; rows: { id: string; top: number; bottom: number; selected: boolean }[] }> {
  return page.evaluate(() => {
    const list = document.querySelector('[data-testid=frame-list]')!;
    const r = list.getBoundingClientRect();
    const header = list.querySelector('.ws-frame-header')!.getBoundingClientRect();
    const view = { top: header.bottom, bottom: r.top + list.clientHeight };
    const rows = [...list.querySelectorAll<HTMLElement>('[data-testid=frame-row]')]
      .map((el) => ({ el, b: el.getBoundingClientRect() }))
      .filter(({ b }) => b.top >= view.top - 1 && b.bottom <= view.bottom + 1 && b.height > 0)
      .map(({ el, b }) => ({
        id: el.dataset.frameId!,
        top: b.top,
        bottom: b.bottom,
        selected: el.getAttribute('aria-selected') === 'true',
      }));
    return { view, rows };
  });
}

describe('the frame list in the narrow layout (900×700)', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: selecting a frame keeps rows painted and the selected row in view`, async () => {
      const page = await browser.newPage({ viewport: { width: 900, height: 700 }, colorScheme: theme });
      await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
      await page.locator('[data-testid=main-layout][data-layout=stacked]').waitFor();
      await page.locator('[data-testid=frame-row][data-frame-id="45"]').waitFor({ timeout: 20_000 });
      await page.getByTestId('pause-button').click();
      await page.waitForTimeout(300);
      const before = await paintedRows(page);
      expect(before.rows.length).toBeGreaterThan(10);
      // A row near the top of the full-height list: the list shrinks below it once the detail opens.
      const target = before.rows[2]!;
      await page.mouse.click(450, (target.top + target.bottom) / 2);
      await page.locator(`[data-testid=frame-detail][data-frame-id="${target.id}"]`).waitFor();
      await page.waitForTimeout(500);
      const after = await paintedRows(page);
      await page.screenshot({ path: artifactPath(`narrow-list-${theme}.png`) });
      await page.close();
      expect(after.view.bottom - after.view.top).toBeLessThan(before.view.bottom - before.view.top);
      expect(after.rows.length).toBeGreaterThan(2);
      expect(after.rows.filter((r) => r.selected).map((r) => r.id)).toEqual([target.id]);
    }, 60_000);
  }
});
