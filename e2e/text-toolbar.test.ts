/**
 * The Text tab's code view once covered its "Copy shown JSON" button. At
 * 900×700 the button spanned y 512–532 and the code view started at y 519, so a click on the
 * button hit `.code-line-no`; less so at 1440×900. The toolbars and the code view must never
 * overlap, and a click on the button copies. Both text views: Monaco (a small frame) and the
 * big-text view (a ~1 MB frame, over 400,000 characters). Needs dist/app and /usr/bin/chromium;
 * fails, never skips, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
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

/** Frame 1: a small CBOR map (Monaco); frame 2: the screenshots' ~1 MB export (big-text view). */
function captureFile(): Uint8Array {
  const cbor = new CborEncoder();
  const small = cbor.encode({ hello: 'world', n: 1, bytes: new Uint8Array([1, 2, 3]) });
  const users = Array.from({ length: 10_000 }, (_, i) => ({
    id: i,
    name: `User Name ${i}`,
    email: `user${i}@example.com`,
    active: i % 2 === 0,
    score: i % 100,
  }));
  const big = cbor.encode({ type: 'users.export', users });
  const connections: ConnectionInfo[] = [
    { connectionId: 'c', url: 'wss://big.test/feed', protocol: '', extensions: '', time: 1 },
  ];
  const frames: WireFrame[] = [small, big].map((data, i) => ({
    connectionId: 'c',
    direction: 'received',
    time: 10 + i,
    opcode: 'binary',
    data,
  }));
  return serializeCapture(connections, frames);
}

interface Layout {
  readonly buttonBottom: number;
  readonly viewTop: number;
  readonly hit: string;
  readonly x: number;
  readonly y: number;
}

/** The Copy button's box against the code view's, and what a click at the button's centre hits. */
async function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const button = [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) =>
      b.textContent?.startsWith('Copy shown'),
    )!;
    const view = document.querySelector<HTMLElement>('[data-testid=text-view]')!;
    const b = button.getBoundingClientRect();
    const x = b.left + b.width / 2;
    const y = b.top + b.height / 2;
    const at = document.elementFromPoint(x, y);
    return {
      buttonBottom: b.bottom,
      viewTop: view.getBoundingClientRect().top,
      hit: at === button || button.contains(at) ? 'button' : `${at?.tagName}.${at?.className}`,
      x,
      y,
    };
  });
}

describe('the Text tab: its toolbar and the code view do not overlap', () => {
  for (const [width, height] of [
    [900, 700],
    [1440, 900],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${width}×${height} ${theme}: Copy shown JSON is clickable above the view`, async () => {
        const context = await browser.newContext({
          viewport: { width, height },
          colorScheme: theme,
          permissions: ['clipboard-read', 'clipboard-write'],
        });
        const page = await context.newPage();
        await page.goto(new URL('index.html', server.httpUrl).href);
        await page
          .getByTestId('import-input')
          .setInputFiles({ name: 'text.wirescope', mimeType: 'application/json', buffer: Buffer.from(captureFile()) });
        await expect.poll(() => page.getByTestId('frame-count').textContent(), { timeout: 30_000 }).toBe('2 frames');
        const results: { frame: number; editor: string | null; layout: Layout; copied: string }[] = [];
        for (const frame of [1, 2]) {
          await page.locator(`[data-testid=frame-row][data-frame-id="${frame}"]`).dispatchEvent('mousedown');
          await page.locator(`[data-testid=frame-detail][data-frame-id="${frame}"]`).waitFor();
          await page.getByTestId('tab-text').click();
          await page.getByTestId('text-view').waitFor({ timeout: 20_000 });
          await page.getByTestId('json-mapping-note').waitFor();
          await page.waitForTimeout(400);
          const at = await layout(page);
          await page.screenshot({ path: artifactPath(`text-toolbar-${width}-${theme}-frame${frame}.png`) });
          // A real click where the user clicks: at the button's centre, whatever lies on top.
          await page.evaluate(() => navigator.clipboard.writeText(''));
          await page.mouse.click(at.x, at.y);
          await page.waitForTimeout(300);
          const copied = await page.evaluate(() => navigator.clipboard.readText());
          results.push({
            frame,
            editor: await page.getByTestId('text-view').getAttribute('data-editor'),
            layout: at,
            copied: copied.slice(0, 20),
          });
        }
        await context.close();
        expect(results.map((r) => r.editor)).toEqual([expect.any(String), 'big']);
        for (const r of results) {
          expect
            .soft(r.layout.hit, `frame ${r.frame}: the click at the button's centre hit ${r.layout.hit}`)
            .toBe('button');
          expect
            .soft(
              r.layout.buttonBottom,
              `frame ${r.frame}: the button ends at y ${r.layout.buttonBottom}, the code view starts at y ${r.layout.viewTop}`,
            )
            .toBeLessThanOrEqual(r.layout.viewTop);
          expect.soft(r.copied, `frame ${r.frame}: what the click copied`).toMatch(/^\{\n/);
        }
      }, 90_000);
    }
  }
});
