/**
 * At 900×700 with two connections listed, the status bar ran out
 * of room and cut the host's name ("web inspector" read "web"). Connection URLs now give way
 * (an ellipsis, the whole URL in their tooltip). They are also shortened (host and the path's
 * last segment; the host not said again for the next label of the same host): at 900 px both long URLs read whole, none cut; narrower, a cut one has the
 * whole URL in its title. Needs dist/app and /usr/bin/chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { DemoServer } from '../demo-server/server.js';
import { artifactPath } from './support/env.js';
import { closeDemoAndChromium, startDemoAndChromium } from './support/demo-chromium.js';

let browser: Browser;
let server: DemoServer;

beforeAll(async () => {
  ({ browser, server } = await startDemoAndChromium({ messagesPerSecond: 1, largeEvery: 0, seed: 5 }));
}, 30_000);

afterAll(() => closeDemoAndChromium(browser, server));

describe('the status bar in a narrow window', () => {
  for (const width of [900, 700]) {
    it(`${width} px wide, two long connection URLs: the host's name is whole and inside the bar`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 700 } });
      await page.goto(new URL('panel.html', server.httpUrl).href);
      await page.waitForFunction(() => 'wirescopeTestHost' in window);
      await page.evaluate(() => {
        const host = (window as unknown as { wirescopeTestHost: { emit(m: unknown): void } }).wirescopeTestHost;
        for (const [id, path] of [
          ['c1', 'demo/market-data/level2?symbols=BTC-USD,ETH-USD'],
          ['c2', 'demo/nested/compressed-streams?session=4f2a9c'],
        ]) {
          host.emit({
            type: 'connection-opened',
            connectionId: id,
            url: `wss://realtime.example-exchange.test/${path}`,
            protocol: '',
            extensions: '',
            time: Date.now(),
          });
        }
      });
      await expect.poll(() => page.getByTestId('connection-status').count()).toBe(2);
      const fit = await page.evaluate(() => {
        const bar = document.querySelector('.ws-status')!.getBoundingClientRect();
        const host = document.querySelector<HTMLElement>('[data-testid=status-host]')!;
        const b = host.getBoundingClientRect();
        return {
          barRight: bar.right,
          hostRight: b.right,
          hostLeft: b.left,
          clipped: host.scrollWidth > host.clientWidth + 1,
          text: host.textContent,
          titles: [...document.querySelectorAll<HTMLElement>('[data-testid=connection-status]')].map((c) => c.title),
          labels: [...document.querySelectorAll<HTMLElement>('[data-testid=connection-status]')].map((c) => ({
            text: c.textContent,
            cut: c.scrollWidth > c.clientWidth,
            title: c.title,
          })),
        };
      });
      await page.screenshot({ path: artifactPath(`status-bar-${width}.png`) });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(
        () => document.querySelector('[data-testid=app]')?.getAttribute('data-theme') === 'dark',
      );
      await page.screenshot({ path: artifactPath(`status-bar-${width}-dark.png`) });
      expect(fit.clipped).toBe(false);
      expect(fit.hostRight).toBeLessThanOrEqual(fit.barRight + 0.5);
      expect(fit.hostLeft).toBeLessThan(fit.barRight - 10);
      // A cut URL is whole in its tooltip.
      expect(fit.titles.every((t) => t.startsWith('wss://realtime.example-exchange.test/'))).toBe(true);
      // Shortened to the host and the path's last segment: whole at 900 px; any cut label has its URL in its title.
      expect(fit.labels.map((l) => l.text)).toEqual([
        'realtime.example-exchange.test/…/level2: open',
        '…/compressed-streams: open',
      ]);
      for (const l of fit.labels) {
        if (width >= 900) expect(l.cut, `${width}: ${l.text} cut`).toBe(false);
        else if (l.cut) expect(l.title).toMatch(/^wss:\/\/realtime\.example-exchange\.test\/demo\//);
      }
      await page.close();
    }, 60_000);
  }
});
