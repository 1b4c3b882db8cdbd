/**
 * In Chromium: the session comparison's Avro row is measured in the worker (it
 * ran in the CLI only while it was avsc's, which compiles code with `new Function`). A
 * capture file of 40 JSON frames is opened, compared as a session, and the Avro row must
 * show a message size, its schema's size, and every message held.
 * Needs dist/app (npm run build:app) and /usr/bin/chromium; fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
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

const enc = new TextEncoder();

function captureFile(): Uint8Array {
  const connections: ConnectionInfo[] = [
    { connectionId: 'feed', url: 'wss://feed.test/trades', protocol: '', extensions: '', time: 1 },
  ];
  const frames: WireFrame[] = Array.from({ length: 40 }, (_, i) => ({
    connectionId: 'feed',
    direction: i % 5 === 0 ? 'sent' : 'received',
    time: 10 + i,
    opcode: 'text',
    data: enc.encode(
      JSON.stringify({
        type: 'trade',
        id: i,
        price: 100 + i / 8,
        side: i % 2 ? 'buy' : 'sell',
        tags: ['a', 'b'].slice(0, i % 3),
        ...(i % 4 ? {} : { note: `n${i}` }),
      }),
    ),
  }));
  return serializeCapture(connections, frames);
}

describe('the Avro row in the browser', () => {
  it('is measured in the worker: a size, the schema apart, every message held', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL('index.html', server.httpUrl).href);
    await page
      .getByTestId('import-input')
      .setInputFiles({ name: 'trades.wscap.json', mimeType: 'application/json', buffer: Buffer.from(captureFile()) });
    await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe('40 frames');
    await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('compare-mode-session').check();
    await expect.poll(() => page.getByTestId('session-scope').inputValue()).toBe('connection:feed');
    await page.getByTestId('session-run').click();
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
      .toMatch(/^Compared 40 messages/);
    const avro = page.getByTestId('session-totals').locator('tr[data-codec=avro]');
    const cells = await avro.locator('td').allTextContents();
    const json = await page.getByTestId('session-totals').locator('tr[data-codec=json] td').allTextContents();
    console.log(`Avro row: ${cells.join(' | ')}\nJSON row: ${json.join(' | ')}`);
    expect(cells[0]).toBe('40'); // every message held, none left out
    expect(cells[1]).toMatch(/^[\d,.]+ (B|KiB)$/); // the messages' size
    // The one dash is brotli's ("not in this browser", as on every row).
    const dashes = await avro
      .locator('[data-testid=session-dash]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
    expect(
      dashes.every((t) => /not in this browser/.test(t)),
      dashes.join('; '),
    ).toBe(true);
    expect(cells.some((c) => /^[\d,.]+ (B|KiB) \([\d.]+ B\/message\)$/.test(c))).toBe(true); // the schema, sent once
    await page.getByTestId('session-totals').screenshot({ path: artifactPath('session-avro-totals.png') });
    await page.close();
    expect(errors).toEqual([]);
  }, 120_000);
});
