/**
 * The frame list's size column once cut "1.01 MB" to "1.01 …" at the
 * default list width, at 1440×900 (list 400 px beside the detail) and 900×700 (stacked, the
 * wide column set), light and dark. Every size formatBytes prints, up to "999.9 MiB", must fit
 * its column. Needs dist/app and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';
import { serializeCapture } from '../codecs/capture/capture-file.js';
import type { ConnectionInfo, WireFrame } from '../codecs/capture/types.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

/** A CBOR byte string of `size` bytes in all: quick to read whatever its size. */
function cborBytes(size: number): Uint8Array {
  const out = new Uint8Array(size);
  out[0] = 0x5a; // byte string, 4-byte length
  new DataView(out.buffer).setUint32(1, size - 5);
  return out;
}

// 1023 B, 1023 KiB, 1.01 MiB (the frame in the screenshots), 9.99 MiB: the widest texts of each unit.
const SIZES = [1023, 1023 * 1024, 1_057_436, 10_475_000];
const EXPECTED = ['1023 B', '1023 KiB', '1.01 MiB', '9.99 MiB'];
const FILLER = 60;

function captureFile(): Uint8Array {
  const connections: ConnectionInfo[] = [
    { connectionId: 'c', url: 'wss://big.test/feed', protocol: '', extensions: '', time: 1 },
  ];
  // Small frames before them give the list a vertical scrollbar, which takes its width too;
  // the list follows the tail, so the large ones are drawn.
  const sizes = [...Array.from({ length: FILLER }, () => 10), ...SIZES];
  const frames: WireFrame[] = sizes.map((size, i) => ({
    connectionId: 'c',
    direction: 'received',
    time: 10 + i,
    opcode: 'binary',
    data: cborBytes(size),
  }));
  return serializeCapture(connections, frames);
}

interface SizeCell {
  readonly text: string;
  readonly cut: boolean;
}

async function sizeCells(page: Page): Promise<{
  cells: SizeCell[];
  widestCut: boolean;
  width: number;
  needs: number;
  listWidth: number;
  overflow: number;
}> {
  return page.evaluate(() => {
    const cells = [...document.querySelectorAll<HTMLElement>('[data-testid=frame-row] [data-column=size]')];
    const cut = (el: HTMLElement) => el.scrollWidth > el.clientWidth;
    const shown = cells.map((el) => ({ text: el.textContent!, cut: cut(el) }));
    // No frame of 999.9 MiB fits the memory cap: the widest text is put in a real cell, measured, put back.
    const probe = cells[cells.length - 1]!;
    const before = probe.textContent;
    probe.textContent = '999.9 MiB';
    const widestCut = cut(probe);
    const needs = probe.scrollWidth;
    probe.textContent = before;
    const list = document.querySelector<HTMLElement>('[data-testid=frame-list]')!;
    return {
      cells: shown.slice(-4),
      widestCut,
      width: probe.clientWidth,
      needs,
      listWidth: list.clientWidth,
      overflow: list.scrollWidth - list.clientWidth,
    };
  });
}

describe('the frame list size column at the default list width', () => {
  it('1440×900 and 900×700, light and dark: sizes show whole', async () => {
    // One page: the viewport and the colour scheme change under it (the list's widths follow both).
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    await page.goto(new URL('index.html', server.httpUrl).href);
    await page
      .getByTestId('import-input')
      .setInputFiles({ name: 'big.wirescope', mimeType: 'application/json', buffer: Buffer.from(captureFile()) });
    await expect
      .poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 })
      .toBe(`${SIZES.length + FILLER} frames`);
    // A frame selected: the list takes its default width beside (or above) the detail.
    await page.locator(`[data-testid=frame-row][data-frame-id="${FILLER + 3}"]`).dispatchEvent('mousedown');
    await page.locator(`[data-testid=frame-detail][data-frame-id="${FILLER + 3}"]`).waitFor();
    for (const [width, height] of [
      [1440, 900],
      [900, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.waitForFunction(
          (t) => document.querySelector('[data-testid=app]')?.getAttribute('data-theme') === t,
          theme,
        );
        await page.waitForTimeout(300);
        const at = `${width}×${height} ${theme}`;
        const { cells, widestCut, width: columnWidth, needs, listWidth, overflow } = await sizeCells(page);
        await page.screenshot({ path: artifactPath(`list-size-${width}-${theme}.png`) });
        expect(
          cells.map((c) => c.text),
          at,
        ).toEqual(EXPECTED);
        expect(
          cells.filter((c) => c.cut).map((c) => c.text),
          at,
        ).toEqual([]);
        expect(
          widestCut,
          `${at}: "999.9 MiB" needs ${needs} px, its column is ${columnWidth} px (list ${listWidth} px)`,
        ).toBe(false);
        // The wider size column does not push the row past the list (no sideways scroll).
        expect(overflow, at).toBe(0);
      }
    }
    await page.close();
  }, 60_000);
});
