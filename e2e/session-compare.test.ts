/**
 * The whole-session comparison in Chromium: a capture file opened through
 * the toolbar's file input, the Compare tab's Session view for one connection — totals, the
 * recorded Sec-WebSocket-Extensions, the chart, progress and cancel — and a 10,000-frame
 * session of ~1 KB frames compared in the worker while a PerformanceObserver records the
 * page's long tasks. Prints the worker's time and the longest main-thread task.
 * Needs dist/app (npm run build:app) and /usr/bin/chromium; fails, never skips, without them.
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
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 3 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

const EXT = 'permessage-deflate; client_max_window_bits=15; server_no_context_takeover';
const BIG = 10_000;
const enc = new TextEncoder();

/** A ticker's JSON message of about 1 KB; names and numbers vary so compression has work to do. */
function tick(i: number): Uint8Array {
  const rows = Array.from({ length: 17 }, (_, k) => ({
    sym: `SYM${(i * 7 + k) % 97}`,
    bid: 100 + ((i * 13 + k) % 500) / 8,
    ask: 100.5 + ((i * 11 + k) % 500) / 8,
    vol: (i * 31 + k * 17) % 10_000,
  }));
  return enc.encode(
    JSON.stringify({
      type: 'book',
      seq: i,
      ts: 1_760_000_000_000 + i * 20,
      venue: i % 3 ? 'XNAS' : 'XNYS',
      rows,
      note: i % 50 === 0 ? 'snapshot' : 'delta',
    }),
  );
}

function captureFile(): Uint8Array {
  const connections: ConnectionInfo[] = [
    { connectionId: 'small', url: 'wss://small.test/feed', protocol: '', extensions: EXT, time: 1 },
    { connectionId: 'big', url: 'wss://big.test/book', protocol: '', extensions: '', time: 2 },
  ];
  const frames: WireFrame[] = [];
  for (let i = 0; i < 120; i++)
    frames.push({
      connectionId: 'small',
      direction: i % 4 === 0 ? 'sent' : 'received',
      time: 10 + i,
      opcode: 'text',
      data: tick(i),
    });
  for (let i = 0; i < BIG; i++)
    frames.push({
      connectionId: 'big',
      direction: i % 10 === 0 ? 'sent' : 'received',
      time: 1000 + i,
      opcode: 'text',
      data: tick(i),
    });
  return serializeCapture(connections, frames);
}

/** Long tasks (> 50 ms) the page has run since the last call, in ms. */
async function takeLongTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    const out = w.__longTasks.slice();
    w.__longTasks.length = 0;
    return out;
  });
}

describe('session comparison in Chromium', () => {
  it('compares a connection and a 10,000-frame session in the worker: totals, chart, progress, cancel, a responsive page', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 700 }, colorScheme: 'light' });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(new URL('index.html', server.httpUrl).href);
    const bytes = captureFile();
    await page
      .getByTestId('import-input')
      .setInputFiles({ name: 'session.wscap.json', mimeType: 'application/json', buffer: Buffer.from(bytes) });
    await expect
      .poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 })
      .toBe(`${(BIG + 120).toLocaleString('en-US')} frames`);

    // Any frame: the view starts on its connection; pick "small".
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('compare-mode-session').check();
    await expect.poll(() => page.getByTestId('session-scope').inputValue()).toMatch(/^connection:(small|big)$/);
    await page.getByTestId('session-scope').selectOption('connection:small');
    await page.getByTestId('session-run').click();
    // An error ends the wait at once, with the worker's reason.
    await expect
      .poll(
        async () => {
          const status = await page.getByTestId('session-status').textContent();
          if (status?.startsWith('The comparison stopped on an error'))
            throw new Error(
              `the session comparison failed in the worker: ${await page.locator('.ws-session .ws-error').textContent()}`,
            );
          return status;
        },
        { timeout: 30_000 },
      )
      .toMatch(/^Compared 120 messages/);
    expect(await page.getByTestId('session-negotiated').textContent()).toContain(
      `negotiated "${EXT}" (recorded in the capture)`,
    );
    const totals = page.getByTestId('session-totals');
    expect(await totals.locator('tbody tr').count()).toBeGreaterThanOrEqual(4);
    expect(await totals.locator('thead').textContent()).toContain('wire, as negotiated');
    // The negotiated figure is there (a number, not a dash) for the captured frames.
    const captured = await totals.locator('tr[data-codec=captured] td').allTextContents();
    expect(captured.at(-1)).toMatch(/^[\d,]+ B$/);
    const chart = page.getByTestId('session-chart');
    expect(await chart.locator('polyline').count()).toBeGreaterThanOrEqual(4);
    expect(await chart.locator('svg[role=img]').getAttribute('aria-label')).toMatch(
      /^Cumulative message bytes over 120 messages: As captured ends at/,
    );
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifactPath('session-compare-900x700.png') });
    // The chart in the dark theme (the app follows the system's): lines and text stay legible.
    await page.emulateMedia({ colorScheme: 'dark' });
    await chart.screenshot({ path: artifactPath('session-chart-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // The big connection: progress shows, Cancel stops it.
    await page.getByTestId('session-scope').selectOption('connection:big');
    await page.getByTestId('session-run').click();
    await page.getByTestId('session-progress').waitFor({ timeout: 10_000 });
    await expect
      .poll(() => page.getByTestId('session-progress').textContent(), { timeout: 20_000 })
      .toMatch(/[1-9][\d,]* \/ [\d,]+/);
    await page.getByTestId('session-cancel').click();
    await expect
      .poll(() => page.getByTestId('session-status').textContent(), { timeout: 20_000 })
      .toMatch(/^Cancelled/);

    // The whole run, with the long tasks recorded while it goes.
    await takeLongTasks(page);
    await page.getByTestId('session-run').click();
    await expect
      .poll(() => page.getByTestId('session-status').textContent(), { timeout: 180_000, interval: 500 })
      .toMatch(/^Compared 10,000 messages/);
    const status = (await page.getByTestId('session-status').textContent())!;
    const workerSeconds = Number(/in ([\d.]+) s \(worker\)/.exec(status)![1]);
    const longTasks = await takeLongTasks(page);
    const longest = longTasks.length ? Math.max(...longTasks) : 0;
    const over100 = longTasks.filter((d) => d > 100).length;
    const frameBytes = Array.from({ length: BIG }, (_, i) => tick(i).length).reduce((a, n) => a + n, 0) / BIG;
    console.log(
      `session-compare e2e: ${BIG} frames of ${frameBytes.toFixed(0)} B on average: worker ${workerSeconds.toFixed(2)} s; long tasks during the run: ${longTasks.length}, longest ${longest.toFixed(0)} ms, over 100 ms: ${over100}`,
    );
    expect(await page.getByTestId('session-chart').locator('svg[role=img]').getAttribute('aria-label')).toMatch(
      /over 10,000 messages/,
    );
    // The main thread only draws a codec's rows at a time and the progress. On the shared
    // 2-core machine (load average 14-16) two runs had no task over 50 ms and one had two of
    // 110-152 ms, so "none over 100 ms" is not stable there: the bound is a small count, and
    // no task anywhere near the comparison's own length. That bound is 2% of the worker's
    // time but never under 250 ms: with the worker under 5 s, 2% (< 100 ms) is below the
    // 110-180 ms tasks a loaded machine gives the page whatever the worker does.
    expect(over100).toBeLessThanOrEqual(3);
    expect(longest).toBeLessThan(Math.max(workerSeconds * 1000 * 0.02, 250));
    await page.screenshot({ path: artifactPath('session-compare-10k-900x700.png') });

    await page.close();
    expect(errors).toEqual([]);
  }, 300_000);
});
