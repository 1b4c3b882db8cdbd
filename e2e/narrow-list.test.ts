/**
 * In Chromium: at 900×700 (stacked layout) selecting a frame shrinks the
 * list to make room for the detail; the list went blank (rows drawn for a scroll position
 * it did not have) and the selected row was out of view. And in narrow windows the filter
 * bar cut its selects ("all connecti", "all protocol") and the list beside the detail cut its
 * "event / topic" header: every select, label and column header of the list pane shows its
 * whole text, in the web inspector and the panel. Needs dist/app and /usr/bin/chromium;
 * fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import {
  controlsOutside,
  controlsSeen,
  cutControls,
  overlappingControls,
  buttonsNotWhole,
} from './support/cut-text.js';

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

/** The panel (its in-page test host) with two connections of long URLs and a few frames, one of them Socket.IO. */
async function openPanel(page: Page): Promise<void> {
  await page.goto(new URL('panel.html', server.httpUrl).href);
  await page.waitForFunction(() => 'wirescopeTestHost' in window);
  await page.evaluate(() => {
    const host = (window as unknown as { wirescopeTestHost: { emit(m: unknown): void } }).wirescopeTestHost;
    const paths = ['demo/market-data/level2?symbols=BTC-USD,ETH-USD', 'demo/nested/compressed-streams?session=4f2a9c'];
    for (const [n, path] of paths.entries())
      host.emit({
        type: 'connection-opened',
        connectionId: `c${n + 1}`,
        url: `wss://realtime.example-exchange.test/${path}`,
        protocol: '',
        extensions: '',
        time: Date.now(),
      });
    const frame = (connectionId: string, opcode: 'text' | 'binary', data: Uint8Array) => ({
      connectionId,
      direction: 'received',
      time: Date.now(),
      opcode,
      data,
    });
    host.emit({
      type: 'frames',
      frames: [
        frame('c1', 'binary', new Uint8Array([0xa1, 0x61, 0x61, 0x01])),
        frame('c1', 'text', new TextEncoder().encode('42["chat message",{"text":"hello"}]')),
        frame('c2', 'binary', new Uint8Array([0x82, 0x01, 0x02])),
      ],
    });
  });
  await page.locator('[data-testid=frame-row][data-frame-id="3"]').waitFor();
}

/**
 * The web inspector connected to the demo, paused once rows are in, then the connection
 * closed: no frame arrives while the bars are measured (a paused list still counts new
 * frames on its Resume button, which can wrap the toolbar above the list between two reads).
 */
async function openInspector(page: Page): Promise<void> {
  await page.goto(new URL(`index.html?connect=${encodeURIComponent(server.wsUrl)}`, server.httpUrl).href);
  await page.locator('[data-testid=frame-row][data-frame-id="30"]').waitFor({ timeout: 20_000 });
  await page.getByTestId('pause-button').click();
  await page.getByRole('button', { name: /^Close / }).click();
  await page.getByRole('button', { name: /^Close / }).waitFor({ state: 'detached' });
}

/** What does not show whole in the list pane: cut selects, labels and headers; overlaps; controls outside the pane. */
async function listPaneProblems(page: Page): Promise<{ cut: string[]; overlaps: string[]; outside: string[] }> {
  const bar = '.ws-filter-bar';
  const controls = await controlsSeen(page, `${bar} select, ${bar} button, ${bar} label`);
  const inputs = await controlsSeen(page, `${bar} > input`);
  const headers = await controlsSeen(page, '[data-testid=frame-list-header] > [role=columnheader]');
  const pane = (await page.getByTestId('list-pane').boundingBox())!;
  const all = [...controls, ...inputs];
  return {
    cut: cutControls([...controls, ...headers]),
    overlaps: overlappingControls(all),
    outside: controlsOutside(all, {
      left: pane.x,
      top: pane.y,
      right: pane.x + pane.width,
      bottom: pane.y + pane.height,
    }),
  };
}

describe('in narrow windows the list pane, its column headers and every button show their whole text', () => {
  for (const where of ['index.html', 'panel.html'] as const) {
    for (const [width, height] of [
      [1440, 900],
      [900, 700],
      [700, 600],
    ] as const) {
      it(`${where} at ${width}×${height}, light and dark: a frame open, then the widest choices`, async () => {
        const page = await browser.newPage({ viewport: { width, height }, colorScheme: 'light' });
        await (where === 'panel.html' ? openPanel(page) : openInspector(page));
        // A frame open: beside the list at 1440 (the list narrows to 560 px), under it below 1000 px.
        const row = page.locator('[data-testid=frame-row]').nth(1);
        const id = await row.getAttribute('data-frame-id');
        await row.dispatchEvent('mousedown');
        await page.locator(`[data-testid=frame-detail][data-frame-id="${id}"]`).waitFor();
        await page.waitForTimeout(300);
        const opened = await listPaneProblems(page);
        // The detail's toolbars too: a button keeps its label on one line ("Expand all" broke in two at 700 px), uncut.
        const buttons = await buttonsNotWhole(page, 'button');
        const name = `narrow-filter-bar-${where.replace('.html', '')}-${width}`;
        await page.screenshot({ path: artifactPath(`${name}-light.png`) });
        // The widest text each select can show (a connection's label is its short URL).
        await page.locator('.ws-filter-bar select[aria-label=Direction]').selectOption('received');
        await page.getByTestId('format-filter').selectOption('crdt-model');
        await page.locator('.ws-filter-bar select[aria-label=Connection]').selectOption({ index: 1 });
        await page.getByTestId('protocol-filter').selectOption('subscriptions-transport-ws');
        await page.waitForTimeout(300);
        const widest = await listPaneProblems(page);
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.waitForFunction(
          () => document.querySelector('[data-testid=app]')?.getAttribute('data-theme') === 'dark',
        );
        const dark = await listPaneProblems(page);
        await page.screenshot({ path: artifactPath(`${name}-widest-dark.png`) });
        await page.close();
        expect(buttons, 'buttons not whole').toEqual([]);
        for (const [state, seen] of Object.entries({ opened, widest, dark })) {
          expect(seen.cut, `${state}: cut`).toEqual([]);
          expect(seen.overlaps, `${state}: overlapping`).toEqual([]);
          expect(seen.outside, `${state}: outside the list pane`).toEqual([]);
        }
      }, 60_000);
    }
  }
});
