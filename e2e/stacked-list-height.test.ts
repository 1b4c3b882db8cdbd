/**
 * The stacked layout in Chromium at 900×700: with a frame selected the
 * list was ~130 px of 700 (about 6 rows), and its `conn` / `type` columns read `co…` / `bin…`.
 * Those columns read whole. The detail is what is being read: it takes over 60 % of the window
 * (e2e/room-for-tree.test.ts); the filter bar keeps to one line and the list shows six rows. Needs dist/app
 * and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({
    messagesPerSecond: 40,
    largeEvery: 0,
    malformedChance: 0,
    seed: 5,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

describe('the stacked list at 900×700 with a frame selected', () => {
  it('shows at least 6 rows, conn and type whole', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
    await page.locator('[data-testid=main-layout][data-layout=stacked]').waitFor();
    await page.locator('[data-testid=frame-row][data-frame-id="30"]').waitFor({ timeout: 20_000 });
    await page.getByTestId('pause-button').click();
    // A row the list draws (it draws only the rows in view): the first one. Rows are keyed by
    // slot, so its frame is read from the selection once clicked, not before.
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    const id = await page.locator('[data-testid=frame-row][aria-selected=true]').getAttribute('data-frame-id');
    await page.locator(`[data-testid=frame-detail][data-frame-id="${id}"]`).waitFor();
    await page.waitForTimeout(400);
    const seen = await page.evaluate(() => {
      const list = document.querySelector<HTMLElement>('[data-testid=frame-list]')!;
      const r = list.getBoundingClientRect();
      const header = list.querySelector('.ws-frame-header')!.getBoundingClientRect();
      const view = { top: header.bottom, bottom: r.top + list.clientHeight };
      const rows = [...list.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].filter((el) => {
        const b = el.getBoundingClientRect();
        return b.top >= view.top - 1 && b.bottom <= view.bottom + 1;
      });
      const cut = [
        ...list.querySelectorAll<HTMLElement>(
          '.ws-frame-header > [data-column=connection], .ws-frame-header > [data-column=opcode], [data-testid=frame-row] > [data-column=connection], [data-testid=frame-row] > [data-column=opcode]',
        ),
      ]
        .filter((el) => el.scrollWidth > el.clientWidth)
        .map((el) => el.textContent);
      // The filter bar's controls, by the line they sit on.
      const filterLines = new Set(
        [
          ...document.querySelectorAll<HTMLElement>(
            '.ws-filter-bar > input, .ws-filter-bar > select, .ws-filter-bar > label',
          ),
        ].map((el) => Math.round(el.getBoundingClientRect().top / 8)),
      ).size;
      return { rows: rows.length, cut: [...new Set(cut)], filterLines };
    });
    await page.screenshot({ path: artifactPath('stacked-list-height.png') });
    await page.close();
    expect(seen.cut).toEqual([]);
    expect(seen.filterLines, 'lines of the filter bar').toBe(1);
    // At 900×700 the detail gets 60 % of the window and more (the tree shows 12 rows and more);
    // the filter bar keeps to one line (its keep-alive toggle a 24 px target): six rows are left.
    expect(seen.rows).toBeGreaterThanOrEqual(6);
  }, 60_000);
});
