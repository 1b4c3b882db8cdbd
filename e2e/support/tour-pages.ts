/**
 * Bringing each of the three pages to a frame on screen, for the tour and the contrast
 * check: the inspector on demo traffic, the paste page from a link, the panel through its
 * test transport (`window.wirescopeTestHost.emit`).
 */
import type { Page } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { frameSizes, treeRows } from './page.js';

/** Waits for `count` frame rows (or throws with the status bar's words). */
export async function waitForRows(page: Page, count: number, timeout = 15_000): Promise<void> {
  const ok = await page
    .waitForFunction((n) => document.querySelectorAll('[data-testid=frame-row]').length >= n, count, {
      timeout,
      polling: 200,
    })
    .then(
      () => true,
      () => false,
    );
  if (!ok)
    throw new Error(
      `fewer than ${count} frame rows after ${timeout} ms; status bar: ${await page.locator('.ws-status').textContent()}`,
    );
}

/**
 * Waits until the status bar counts `count` frames and the list draws rows: while the list
 * follows the tail it draws only the rows in view (no overscan above them), so at 900×700 the
 * rows in the DOM are fewer than the frames held.
 */
export async function waitForFrames(page: Page, count: number, timeout = 15_000): Promise<void> {
  const ok = await page
    .waitForFunction(
      (n) =>
        Number(
          (
            (document.querySelector('[data-testid=frame-count]')?.textContent ?? '').match(/\d[\d,.\s]*/)?.[0] ?? '0'
          ).replace(/\D/g, ''),
        ) >= n && document.querySelectorAll('[data-testid=frame-row]').length > 0,
      count,
      { timeout, polling: 200 },
    )
    .then(
      () => true,
      () => false,
    );
  if (!ok)
    throw new Error(
      `fewer than ${count} frames after ${timeout} ms; status bar: ${await page.locator('.ws-status').textContent()}`,
    );
}

/** Selects a frame by mousedown and waits for its tree's root row and hex. */
export async function selectFrame(page: Page, frameId: number): Promise<void> {
  await page.locator(`[data-testid=frame-row][data-frame-id="${frameId}"]`).dispatchEvent('mousedown');
  await page.locator(`[data-testid=frame-detail][data-frame-id="${frameId}"]`).waitFor();
  await page.locator('[data-testid=tree-row][aria-level="1"]').waitFor();
}

/**
 * Selects a frame of `format` with 60..1500 bytes: the list is filtered to that format first
 * (it is virtualized, so a short window shows only a few rows), then the filter is reset.
 */
export async function selectFrameOf(page: Page, format: string): Promise<number> {
  await page.getByTestId('format-filter').selectOption(format);
  await page.waitForFunction(
    (f) => {
      const rows = [...document.querySelectorAll('[data-testid=frame-row]')];
      return rows.length > 0 && rows.every((r) => r.getAttribute('data-format') === f);
    },
    format,
    { timeout: 10_000, polling: 100 },
  );
  const sizes = (await frameSizes(page, format))
    .filter((f) => f.bytes >= 60 && f.bytes <= 1500)
    .sort((a, b) => a.bytes - b.bytes);
  if (!sizes.length) throw new Error(`no ${format} frame of 60..1500 B listed`);
  const frameId = sizes[Math.floor(sizes.length / 2)].frameId;
  await selectFrame(page, frameId);
  await page.getByTestId('format-filter').selectOption('all');
  return frameId;
}

/** Selects the first child row of the root (so a selected tree row and hex range show). */
export async function selectChildRow(page: Page): Promise<void> {
  const child = (await treeRows(page)).find((r) => r.level === 2);
  if (!child) return;
  await page.locator(`[data-testid=tree-row][data-node-id="${child.nodeId}"]`).dispatchEvent('mousedown');
  await page.locator(`[data-testid=tree-row][data-node-id="${child.nodeId}"][aria-selected=true]`).waitFor();
}

/** Frames the panel is fed with: CBOR (nested map, array, bytes, floats), MessagePack, JSON text. */
export function panelFrames(): { hex: string }[] {
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  return [
    {
      hex: hex(
        new CborEncoder().encode({
          type: 'chat',
          users: [
            { name: 'ann', id: 1 },
            { name: 'bob', id: 2 },
          ],
          ok: true,
          at: 1.5,
        }),
      ),
    },
    { hex: hex(new CborEncoder().encode([1, 2.5, 'hi', new Uint8Array([1, 2]), null])) },
    { hex: hex(new MsgPackEncoder().encode({ a: [1, 2, 3], b: { c: 'd' } })) },
    { hex: hex(new TextEncoder().encode('{"op":"ping","seq":42}')) },
  ];
}

/** What emitToPanel needs of a page: Playwright's and Puppeteer's (Firefox over BiDi) both have it. */
export interface ScriptablePage {
  waitForFunction(fn: () => boolean): Promise<unknown>;
  evaluate(fn: (hexes: string[]) => void, hexes: string[]): Promise<unknown>;
}

/** Feeds frames to panel.html through its test transport. */

export async function emitToPanel(page: ScriptablePage, frames: readonly { hex: string }[]): Promise<void> {
  await page.waitForFunction(() => 'wirescopeTestHost' in window);
  await page.evaluate(
    (hexes) => {
      const host = (window as unknown as { wirescopeTestHost: { emit(m: unknown): void } }).wirescopeTestHost;
      host.emit({
        type: 'connection-opened',
        connectionId: 'p1',
        url: 'wss://example.test/live',
        protocol: '',
        extensions: '',
        time: Date.now(),
      });
      // No named function in here: run from tsx, esbuild would wrap it in a `__name` helper the page lacks (Playwright supplies one, Puppeteer does not).
      host.emit({
        type: 'frames',
        frames: hexes.map((h, i) => ({
          connectionId: 'p1',
          direction: i % 2 ? 'sent' : 'received',
          time: Date.now(),
          opcode: 'binary',
          data: Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16))),
        })),
      });
    },
    frames.map((f) => f.hex),
  );
}
