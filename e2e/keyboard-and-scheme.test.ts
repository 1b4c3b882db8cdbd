/**
 * The keyboard and the colour scheme in Chromium: the frame list's focus ring is drawn whole
 * (the rows' zebra and selection backgrounds painted over the list's own outline, leaving
 * broken stripes); after Escape, ↓ opens the frame after the one just closed (it went to #1);
 * skip keys reach the tree and the `?` overlay; panel.html opened in a plain tab follows a
 * colour-scheme change after load. Needs dist/app and /usr/bin/chromium; fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { emitToPanel, panelFrames, waitForRows } from './support/tour-pages.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 20, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

async function pausedInspector(theme: 'light' | 'dark'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(
    new URL(`index.html?theme=${theme}&connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href,
  );
  await waitForRows(page, 12, 20_000);
  await page.getByTestId('pause-button').click();
  return page;
}

/** Tabs until the frame list has the focus (a keyboard focus, so :focus-visible applies). */
async function tabToList(page: Page): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'frame-list')) return;
  }
  throw new Error('Tab never reached the frame list');
}

/** RGB of the pixels at `points` (page coordinates) in a screenshot, decoded on a blank page's canvas. */
async function pixels(page: Page, points: readonly (readonly [number, number])[]): Promise<number[][]> {
  const png = (await page.screenshot()).toString('base64');
  const blank = await browser.newPage();
  const out = await blank.evaluate(
    async ({ png, points }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return points.map(([x, y]) => [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)]);
    },
    { png, points: points.map((p) => [...p]) },
  );
  await blank.close();
  return out;
}

describe('keyboard', () => {
  for (const [theme, ring] of [
    ['light', [0x1a, 0x73, 0xe8]],
    ['dark', [0x8a, 0xb4, 0xf8]],
  ] as const) {
    it(`the list's focus ring is whole on all four sides (${theme}), over striped and selected rows`, async () => {
      const page = await pausedInspector(theme);
      const ids = await page
        .locator('[data-testid=frame-row]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-frame-id')));
      await page.locator(`[data-testid=frame-row][data-frame-id="${ids[ids.length - 3]}"]`).dispatchEvent('mousedown');
      await page.locator('[data-testid=frame-detail]').waitFor();
      await tabToList(page);
      const box = (await page.getByTestId('frame-list').boundingBox())!;
      const points: [number, number][] = [];
      const l = Math.ceil(box.x);
      const t = Math.ceil(box.y);
      const r = Math.floor(box.x + box.width) - 1;
      const b = Math.floor(box.y + box.height) - 1;
      for (let y = t + 4; y < b - 4; y += 7) points.push([l, y], [r, y]);
      for (let x = l + 4; x < r - 4; x += 7) points.push([x, t], [x, b]);
      const seen = await pixels(page, points);
      await page.screenshot({ path: artifactPath(`focus-ring-${theme}.png`) });
      await page.close();
      const off = points.filter((_, i) => seen[i].some((c, k) => Math.abs(c - ring[k]) > 24));
      expect(off.length, `edge pixels not in the ring colour: ${JSON.stringify(off.slice(0, 8))}`).toBe(0);
    }, 60_000);
  }

  it('after Escape, ↓ opens the frame after the one just closed', async () => {
    const page = await pausedInspector('light');
    const ids = await page
      .locator('[data-testid=frame-row]')
      .evaluateAll((els) =>
        els
          .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
          .map((e) => e.getAttribute('data-frame-id')),
      );
    const at = ids.length - 4;
    await page.locator(`[data-testid=frame-row][data-frame-id="${ids[at]}"]`).dispatchEvent('mousedown');
    await page.locator(`[data-testid=frame-detail][data-frame-id="${ids[at]}"]`).waitFor();
    await page.getByTestId('frame-list').focus();
    await page.keyboard.press('Escape');
    await page.getByTestId('frame-detail').waitFor({ state: 'detached' });
    await page.keyboard.press('ArrowDown');
    await page.getByTestId('frame-detail').waitFor();
    const opened = await page.getByTestId('frame-detail').getAttribute('data-frame-id');
    await page.close();
    expect(opened).toBe(ids[at + 1]);
  }, 60_000);

  it('t puts the keyboard in the tree; ? opens the list of keys, Esc closes it', async () => {
    const page = await pausedInspector('dark');
    await page.locator('[data-testid=frame-row]').last().dispatchEvent('mousedown');
    await page.locator('[data-testid=tree-row]').first().waitFor();
    await page.getByTestId('frame-list').focus();
    await page.keyboard.press('t');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'tree-view');
    await page.keyboard.press('?');
    const overlay = page.getByTestId('help-overlay');
    await overlay.waitFor();
    const box = (await overlay.boundingBox())!;
    await page.screenshot({ path: artifactPath('help-overlay-dark.png') });
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    const detailOpen = await page.getByTestId('frame-detail').count();
    await page.close();
    expect(box.width).toBeGreaterThan(200);
    expect(box.x + box.width).toBeLessThanOrEqual(1440);
    expect(detailOpen).toBe(1);
  }, 60_000);
});

describe('colour scheme', () => {
  it('panel.html in a plain tab follows a colour-scheme change after load', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 700 }, colorScheme: 'light' });
    await page.goto(new URL('panel.html', server.httpUrl).href);
    await emitToPanel(page, panelFrames());
    await waitForRows(page, panelFrames().length);
    const theme = () => page.getByTestId('app').getAttribute('data-theme');
    const before = await theme();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page
      .waitForFunction(() => document.querySelector('[data-testid=app]')?.getAttribute('data-theme') === 'dark', null, {
        timeout: 3000,
      })
      .catch(() => undefined);
    const after = await theme();
    const background = await page.evaluate(
      () => getComputedStyle(document.querySelector('[data-testid=app]')!).backgroundColor,
    );
    await page.close();
    expect(before).toBe('light');
    expect(after).toBe('dark');
    expect(background).toBe('rgb(32, 33, 36)');
  }, 60_000);
});
