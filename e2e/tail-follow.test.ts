/**
 * In Chromium, the panel under a flood follows the tail without forcing the
 * browser to lay the list out inside its scripts (the redraw's script wrote scrollTop right
 * after React changed the rows, a synchronous layout in the panel's longest tasks). A flood
 * of 10,000 frames/s goes through panel.html's test transport; a trace of the panel's main
 * thread counts layouts run inside a script. Then, as a user: the list shows the newest
 * frame at the bottom, a scroll up stops following, End goes back to the tail and follows
 * again. Needs dist/app and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

/** Sends `rate` small CBOR frames/s for `ms` through the test transport, in 10 ms batches of one buffer each (as the extension does). */
async function flood(page: Page, rate: number, ms: number, firstSeq = 0): Promise<number> {
  return page.evaluate(
    async ({ rate, ms, firstSeq }) => {
      const host = (window as unknown as { wirescopeTestHost: { emit(m: unknown): void } }).wirescopeTestHost;
      // {"seq": n} as CBOR: a1 63 's' 'e' 'q' 1a <u32>
      const frame = (n: number) =>
        Uint8Array.of(0xa1, 0x63, 0x73, 0x65, 0x71, 0x1a, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
      const start = performance.now();
      let sent = 0;
      await new Promise<void>((resolve) => {
        const tick = () => {
          const due = Math.min(
            Math.round((rate * ms) / 1000),
            Math.floor(((performance.now() - start) / 1000) * rate) + rate / 100,
          );
          if (due > sent) {
            const bytes = new Uint8Array((due - sent) * 10);
            const frames = [];
            for (let i = 0; i < due - sent; i++) {
              bytes.set(frame(firstSeq + sent + i), i * 10);
              frames.push({
                connectionId: 'c1',
                direction: 'received',
                time: Date.now(),
                opcode: 'binary',
                data: bytes.subarray(i * 10, i * 10 + 10),
              });
            }
            host.emit({ type: 'frames', frames });
            sent = due;
          }
          if (sent >= Math.round((rate * ms) / 1000)) resolve();
          else setTimeout(tick, 10);
        };
        tick();
      });
      return sent;
    },
    { rate, ms, firstSeq },
  );
}

/** Layouts the panel's main thread ran inside a script (forced), and all its layouts, from a trace. */
async function traceLayouts(cdp: CDPSession, run: () => Promise<unknown>): Promise<{ forced: number; all: number }> {
  const events: { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number }[] = [];
  cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as typeof events)));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['devtools.timeline'] },
    transferMode: 'ReportEvents',
  });
  await run();
  await cdp.send('Tracing.end');
  await complete;
  const layouts = events.filter((e) => e.ph === 'X' && e.name === 'Layout');
  const scripts = events.filter(
    (e) => e.ph === 'X' && (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.callFunction'),
  );
  const inScript = (l: (typeof layouts)[number]) =>
    scripts.some((s) => s.pid === l.pid && s.tid === l.tid && s.ts <= l.ts && l.ts < s.ts + (s.dur ?? 0));
  return { forced: layouts.filter(inScript).length, all: layouts.length };
}

/** The list's scroll state and the frames it paints inside its viewport. */
async function listState(page: Page): Promise<{ atBottom: boolean; painted: number[] }> {
  return page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('[data-testid=frame-list]')!;
    const r = list.getBoundingClientRect();
    const header = list.querySelector('.ws-frame-header')!.getBoundingClientRect();
    const painted = [...list.querySelectorAll<HTMLElement>('[data-testid=frame-row]')]
      .filter((el) => {
        const b = el.getBoundingClientRect();
        return b.top >= header.bottom - 1 && b.bottom <= r.top + list.clientHeight + 1;
      })
      .map((el) => Number(el.dataset.frameId))
      .sort((a, b) => a - b);
    return { atBottom: list.scrollTop + list.clientHeight >= list.scrollHeight - 2, painted };
  });
}

const shownFrames = async (page: Page) =>
  Number(((await page.getByTestId('frame-count').textContent()) ?? '').replace(/\D/g, ''));

describe("the panel follows a flood's tail (Chromium)", () => {
  it('with no layout forced inside a script; the newest frame at the bottom; a scroll up stops following, End follows again', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(new URL('panel.html', server.httpUrl).href);
    await page.getByTestId('frame-count').waitFor();
    const cdp = await page.context().newCDPSession(page);
    // A first frame draws the list (the empty state goes), outside the traced part.
    await flood(page, 100, 20);
    await page.locator('[data-testid=frame-row]').first().waitFor();
    const layouts = await traceLayouts(cdp, () => flood(page, 10_000, 2000, 2));
    await expect.poll(() => shownFrames(page), { timeout: 20_000 }).toBe(20_002);
    await page.waitForTimeout(600);
    const tail = await listState(page);
    await page.screenshot({ path: artifactPath('tail-follow.png') });
    // The list redrew while it followed (several layouts), none of them forced by a script.
    expect(layouts.all).toBeGreaterThan(3);
    expect(layouts.forced).toBe(0);
    expect(tail.atBottom).toBe(true);
    expect(tail.painted.at(-1)).toBe(20_002);
    expect(tail.painted.length).toBeGreaterThan(30);

    // Scrolled up: more frames come, the rows in view stay.
    const list = page.getByTestId('frame-list');
    await list.hover();
    await page.mouse.wheel(0, -4000);
    await page.waitForTimeout(300);
    const up = await listState(page);
    expect(up.atBottom).toBe(false);
    await flood(page, 2000, 500, 30_000);
    await expect.poll(() => shownFrames(page), { timeout: 20_000 }).toBe(21_002);
    await page.waitForTimeout(600);
    expect((await listState(page)).painted).toEqual(up.painted);

    // A row selected up there, then End: back to the tail, following the next frames.
    await page.locator(`[data-testid=frame-row][data-frame-id="${up.painted[3]}"]`).click();
    await page.locator(`[data-testid=frame-detail][data-frame-id="${up.painted[3]}"]`).waitFor();
    await list.focus();
    await page.keyboard.press('End');
    await flood(page, 2000, 500, 40_000);
    await expect.poll(() => shownFrames(page), { timeout: 20_000 }).toBe(22_002);
    await page.waitForTimeout(600);
    const back = await listState(page);
    await page.close();
    expect(back.atBottom).toBe(true);
    expect(back.painted.at(-1)).toBe(22_002);
  }, 90_000);
});
