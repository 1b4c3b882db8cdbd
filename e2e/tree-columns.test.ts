/**
 * The tree's columns in Chromium at 1440×900, default splitters: the kind column
 * cut `patch (1 ops)` to `patch (…`, a json-joy `id` row put `11019.60` in the kind column with
 * the value column empty, and `/demo/nested`'s key `decoded as cbor` read `decoded as cb…`.
 * Keys and kinds must show whole; the value column takes what is left. Needs dist/app and
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
  ({ browser, server } = await startDemoAndChromium({
    messagesPerSecond: 20,
    largeEvery: 0,
    malformedChance: 0,
    seed: 5,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

interface Cells {
  readonly key: string;
  readonly kind: string;
  readonly value: string;
  readonly keyCut: boolean;
  readonly kindCut: boolean;
  /** Px of the key shown, and px its first 15 characters need. */
  readonly keyShown: number;
  readonly keyNeeded15: number;
}

async function openFrame(page: Page, path: string, rowText: string): Promise<void> {
  await page.goto(
    new URL(`index.html?connect=${encodeURIComponent(server.wsUrl.replace(/\/demo$/, path))}`, server.httpUrl).href,
  );
  const row = page.locator('[data-testid=frame-row]', { hasText: rowText }).first();
  await row.waitFor({ timeout: 20_000 });
  await page.getByTestId('pause-button').click();
  const id = await row.getAttribute('data-frame-id');
  await row.dispatchEvent('mousedown');
  await page.locator(`[data-testid=frame-detail][data-frame-id="${id}"]`).waitFor();
  await page.getByRole('button', { name: 'Expand all' }).click();
  await page.waitForTimeout(400);
}

function cells(page: Page): Promise<Cells[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid=tree-row]')].map((row) => {
      const main = row.querySelector<HTMLElement>('.ws-tree-main')!;
      const head = row.querySelector<HTMLElement>('.ws-tree-head')!;
      const value = row.querySelector<HTMLElement>('.ws-tree-value')!;
      const keyEl = row.querySelector<HTMLElement>('.ws-tree-key')!;
      const range = document.createRange();
      const text = keyEl.firstChild?.firstChild ?? keyEl.firstChild;
      let keyNeeded15 = 0;
      if (text && text.nodeType === Node.TEXT_NODE) {
        range.setStart(text, 0);
        range.setEnd(text, Math.min(15, text.textContent!.length));
        keyNeeded15 = Math.round(range.getBoundingClientRect().right - keyEl.getBoundingClientRect().left);
      }
      return {
        keyShown: Math.round(main.getBoundingClientRect().right - keyEl.getBoundingClientRect().left),
        keyNeeded15,
        key: keyEl.textContent!,
        kind: head.textContent!,
        value: value.textContent!,
        keyCut: main.scrollWidth > main.clientWidth,
        kindCut: head.scrollWidth > head.clientWidth,
      };
    }),
  );
}

async function noOverflow(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const tree = document.querySelector<HTMLElement>('[data-testid=tree-view]')!;
    return tree.scrollWidth <= tree.clientWidth;
  });
}

describe('tree columns at 1440×900', () => {
  it('/demo crdt-patch: kinds whole, the id in the value column', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await openFrame(page, '/demo', 'patch (');
    const rows = await cells(page);
    const fits = await noOverflow(page);
    await page.screenshot({ path: artifactPath('tree-columns-crdt.png') });
    await page.close();
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.filter((r) => r.kindCut || r.keyCut)).toEqual([]);
    const id = rows.find((r) => r.key === 'id')!;
    expect(id.kind).not.toMatch(/\d/);
    expect(id.value).toMatch(/^\d+\.\d+$/);
    expect(fits).toBe(true);
  }, 60_000);

  it('/demo/nested: the key "decoded as cbor" whole', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await openFrame(page, '/demo/nested', '"sync"');
    const rows = await cells(page);
    const fits = await noOverflow(page);
    await page.screenshot({ path: artifactPath('tree-columns-nested.png') });
    await page.close();
    // `decoded as cbor (from base64)`: longer than the pane can give a key beside 16-byte hex
    // rows; it may end in an ellipsis (the row's tooltip has it), but `decoded as cbor` reads whole.
    const decoded = rows.find((r) => r.key.startsWith('decoded as cbor'))!;
    expect(decoded.keyShown).toBeGreaterThanOrEqual(decoded.keyNeeded15);
    expect(rows.filter((r) => r !== decoded && (r.kindCut || r.keyCut))).toEqual([]);
    expect(fits).toBe(true);
  }, 60_000);
});
