/**
 * Workers in Chromium: a dedicated and a shared worker each talk on their own
 * WebSocket, out of the page hook's reach.
 * - dist/chrome (hook only): the panel says so — "2 workers: sockets not captured", naming
 *   their scripts — and shows the page's own socket; never silence.
 * - dist/chrome-test (the `debugger` permission granted up front: a test cannot answer the
 *   prompt): with debugger capture turned on from the panel, the workers' frames arrive,
 *   byte-sized and labelled by worker, and the page's own socket appears once (the hook's;
 *   the debugger never reports the page's sockets). The dedicated worker is captured from its
 *   first frame (attached paused); the shared worker from when the hook reported it (its
 *   next round of frames).
 * Fails (never skips) without /usr/bin/chromium or a buildable extension.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CAPTURE_PAGES, startPagesServer } from './support/capture-pages.js';
import { panelReader, waitForRows, type PanelRow } from './support/ext-panel.js';
import { artifactPath, openPanelOf, openTabAt, type ChromiumWithExtension } from './support/ext-env.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';

const row = (r: PanelRow) => `${r.direction} ${r.opcode} ${r.size}`;

/** The capture pages' server and a Chromium with `build`, for the tests of the describe block it is called in. */
const pagesWith = (build: 'chrome' | 'chrome-test') =>
  chromiumAndServerPerFile(() => startPagesServer(CAPTURE_PAGES), 60_000, build);

/** workers.html in a new tab and that tab's panel, with the uncaught errors of both. */
async function session(
  ext: ChromiumWithExtension,
  httpUrl: string,
): Promise<{ page: Page; panel: Page; errors: string[] }> {
  const errors: string[] = [];
  const { page, tabId } = await openTabAt(ext, `${httpUrl}workers.html`, {
    beforeLoad: (p) => p.on('pageerror', (e) => errors.push(`page: ${e.message}`)),
  });
  const panel = await openPanelOf(ext, tabId, {
    beforeLoad: (p) => p.on('pageerror', (e) => errors.push(`panel: ${e.message}`)),
    waitForFrameCount: true,
  });
  return { page, panel, errors };
}

describe('worker sockets in Chromium', () => {
  // One block per extension build: each launches its own Chromium, one after the other.
  describe('with dist/chrome', () => {
    const run = pagesWith('chrome');
    it('hook only (dist/chrome): the panel announces both workers as not captured, and shows the page socket', async () => {
      const server = run.server;
      const { page, panel, errors } = await session(run.browser, server.httpUrl);
      expect(await page.evaluate('window.__start()')).toEqual([1, 2, 2]);
      const state = await waitForRows(panelReader(panel), 2);
      expect(state.rows.map(row)).toEqual(['sent text 9 B', 'received text 9 B']);
      const notice = panel.getByTestId('uncaptured-notice');
      await notice.waitFor({ timeout: 10_000 });
      expect(await notice.textContent()).toBe('2 workers: sockets not captured');
      const title = (await notice.getAttribute('title')) ?? '';
      expect(title).toContain(
        `dedicated-worker ${server.httpUrl}dedicated.js (started by ${server.httpUrl}workers.html)`,
      );
      expect(title).toContain(`shared-worker ${server.httpUrl}shared.js`);
      expect(title).toMatch(/not captured/);
      expect(await panel.getByTestId('debugger-toggle').count(), 'Chrome offers debugger capture').toBe(1);
      await panel.screenshot({ path: artifactPath('capture-workers-announced.png') });
      expect(errors).toEqual([]);
    }, 60_000);
  });

  describe('with dist/chrome-test', () => {
    const run = pagesWith('chrome-test');
    it("debugger capture (dist/chrome-test): both workers' frames arrive, the page socket once", async () => {
      const { browser: ext, server } = run;
      const { page, panel, errors } = await session(ext, server.httpUrl);
      await panel.getByTestId('debugger-toggle').click();
      const status = panel.getByTestId('debugger-status');
      await status.waitFor({ timeout: 10_000 });
      await panel.waitForFunction(
        () => document.querySelector('[data-testid=debugger-status]')?.getAttribute('data-state') !== 'starting',
        undefined,
        { timeout: 10_000 },
      );
      expect(await status.getAttribute('data-state'), (await status.textContent()) ?? '').toBe('on');
      expect(await status.textContent()).toContain('started debugging this browser');

      expect(await page.evaluate('window.__start()')).toEqual([1, 2, 2]);
      // The dedicated worker is the tab's child: attached paused, so captured from its first frame.
      // The shared worker is found when the hook reports it: captured from then on.
      const sharedAttached = async () =>
        ext.worker.evaluate(async (url) => {
          const targets = await (
            globalThis as unknown as {
              chrome: { debugger: { getTargets(): Promise<{ url: string; attached: boolean }[]> } };
            }
          ).chrome.debugger.getTargets();
          return targets.some((t) => t.url === url && t.attached);
        }, `${server.httpUrl}shared.js`);
      const deadline = Date.now() + 10_000;
      while (!(await sharedAttached()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await sharedAttached(), 'the debugger attached to the shared worker').toBe(true);
      expect(await page.evaluate('window.__again()')).toEqual([2, 2]);
      const state = await waitForRows(panelReader(panel), 14);
      const byConnection = new Map<string, string[]>();
      for (const r of state.rows) byConnection.set(r.connection, [...(byConnection.get(r.connection) ?? []), row(r)]);
      const perSocket = [...byConnection.values()].map((rows) => rows.sort().join(', ')).sort();
      const described = state.rows.map((r) => `${r.connection} ${row(r)} ${r.preview}`).join('\n');
      const dedicated = [
        'received binary 3 B',
        'received binary 3 B',
        'received text 14 B',
        'received text 15 B',
        'sent binary 3 B',
        'sent binary 3 B',
        'sent text 14 B',
        'sent text 15 B',
      ].join(', ');
      const page1 = ['received text 9 B', 'sent text 9 B'].join(', ');
      const sharedAgain = ['received binary 3 B', 'received text 12 B', 'sent binary 3 B', 'sent text 12 B'];
      expect(perSocket.length, described).toBe(3);
      expect(perSocket, described).toContain(dedicated);
      expect(perSocket, described).toContain(page1);
      const shared = perSocket.find((p) => p !== dedicated && p !== page1)!.split(', ');
      for (const r of sharedAgain) expect(shared, described).toContain(r);
      const statuses = await panel
        .getByTestId('connection-status')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-document') ?? ''));
      expect(statuses).toEqual(
        expect.arrayContaining([
          `worker ${server.httpUrl}dedicated.js`,
          `shared or service worker ${server.httpUrl}shared.js`,
        ]),
      );
      expect(state.dropped).toBeNull();
      await panel.screenshot({ path: artifactPath('capture-workers-debugger.png') });

      await panel.getByTestId('debugger-toggle').click();
      await panel.waitForFunction(
        () => document.querySelector('[data-testid=debugger-toggle]')?.getAttribute('aria-pressed') === 'false',
        undefined,
        { timeout: 10_000 },
      );
      expect(errors).toEqual([]);
    }, 60_000);
  });
});
