/**
 * The frame list's columns in Chromium at 1440×900 with the default 400 px list: formats read
 * `msgp…`, `crdt-p…`, `proto…`; MQTT / STOMP rows said `mqtt mqtt` / `stomp stomp` in format
 * and protocol while their topics were cut (`sensors/g…`, `/topic/pri…`). Formats must show
 * whole, a protocol that only repeats the format is not shown twice, and the topic gets
 * that room. Needs dist/app and /usr/bin/chromium; fails, never skips, without them.
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
    messagesPerSecond: 40,
    largeEvery: 0,
    malformedChance: 0,
    seed: 5,
  }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

interface Row {
  readonly format: string;
  readonly formatCut: boolean;
  readonly protocolShown: string | null;
  readonly event: string;
  readonly eventCut: boolean;
}

async function rowsOf(page: Page, path: string, count: number, shot: string): Promise<Row[]> {
  await page.goto(
    new URL(`index.html?connect=${encodeURIComponent(server.wsUrl.replace(/\/demo$/, path))}`, server.httpUrl).href,
  );
  await page.locator(`[data-testid=frame-row][data-frame-id="${count}"]`).waitFor({ timeout: 20_000 });
  await page.getByTestId('pause-button').click();
  // A frame selected: the list is its default 400 px beside the detail. Any row in view: frames
  // that came before Pause took effect may have scrolled the early ones out of the DOM.
  const first = page.locator('[data-testid=frame-row]').first();
  const id = await first.getAttribute('data-frame-id');
  await first.dispatchEvent('mousedown');
  await page.locator(`[data-testid=frame-detail][data-frame-id="${id}"]`).waitFor();
  await page.waitForTimeout(300);
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((row) => {
      const cell = (c: string) => row.querySelector<HTMLElement>(`[data-column=${c}]`)!;
      const shown = (el: HTMLElement) => getComputedStyle(el).display !== 'none';
      const cut = (el: HTMLElement) => shown(el) && el.scrollWidth > el.clientWidth;
      return {
        format: cell('format').textContent!,
        formatCut: cut(cell('format')),
        protocolShown: shown(cell('protocol')) ? cell('protocol').textContent : null,
        event: cell('event').textContent!,
        eventCut: cut(cell('event')),
      };
    }),
  );
  await page.screenshot({ path: artifactPath(shot) });
  return rows;
}

describe('frame list columns at 1440×900, default list width', () => {
  it('/demo: formats whole (crdt-patch, msgpack, protobuf)', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const rows = await rowsOf(page, '/demo', 30, 'list-columns-demo.png');
    await page.close();
    expect(rows.map((r) => r.format)).toEqual(expect.arrayContaining(['crdt-patch', 'msgpack', 'cbor', 'json']));
    expect(rows.filter((r) => r.formatCut).map((r) => r.format)).toEqual([]);
  }, 60_000);

  for (const [path, word] of [
    ['/demo/mqtt', 'mqtt'],
    ['/demo/stomp', 'stomp'],
  ] as const) {
    it(`${path}: "${word}" once, topics whole`, async () => {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
      const rows = await rowsOf(page, path, 20, `list-columns-${word}.png`);
      await page.close();
      expect(rows.length).toBeGreaterThan(10);
      expect(rows.filter((r) => r.format === word && r.protocolShown === word)).toEqual([]);
      expect(rows.filter((r) => r.formatCut || r.eventCut)).toEqual([]);
      expect(rows.some((r) => r.event.includes('/'))).toBe(true);
    }, 60_000);
  }
});
