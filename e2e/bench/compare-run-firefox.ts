/**
 * `npx tsx e2e/bench/compare-run-firefox.ts [--trials N] [--load N] [--limit-ms MS]` (after
 * `npm run build:app`): how often a Compare run on a large frame never finishes in Firefox
 * ESR. Each trial opens panel.html on a fresh tab, emits a ~320 KB CBOR frame (above the lane
 * threshold), opens the Compare tab and clicks Run 150–450 ms later (while the lanes are
 * being started and warmed), then waits up to `--limit-ms` (15,000) for "N codecs
 * compared". `--load N` runs N busy loops meanwhile (3 by default: the CI machine runs test
 * files side by side). Prints each stuck trial and the count; never fails.
 *
 * Why it exists: when the decode worker started its lanes itself (nested workers), Firefox
 * blocked it on the main thread inside `new Worker` and sometimes never woke it (2026-11-28,
 * ddbbc6f: 7 of 80 and 2 of 30 trials stuck at "0 / 16 codecs"); once the page started the
 * lanes (worker/compare-lanes.ts, lane-host.ts), 0 of 80 and 0 of 40.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { startDemoServer } from '../../demo-server/server.js';
import { APP_DIR } from '../support/env.js';
import { launchFirefox } from '../support/ext-firefox.js';
import { emitToPanel } from '../support/tour-pages.js';
import { generateDocument } from '../../codecs/bench/generate.js';
import { LANE_MIN_BYTES } from '../../codecs/compare/lanes.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): number =>
  Number(argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const TRIALS = option('--trials', '40');
const LOAD = option('--load', '3');
const LIMIT_MS = option('--limit-ms', '15000');

const busy: ChildProcess[] = Array.from({ length: LOAD }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const firefox = await launchFirefox();
const server = await startDemoServer({ port: 0, staticDir: APP_DIR, messagesPerSecond: 30, largeEvery: 0, seed: 3 });
const hex = Buffer.from(new CborEncoder().encode(generateDocument(LANE_MIN_BYTES + 64 * 1024))).toString('hex');
let stuck = 0;
try {
  for (let trial = 1; trial <= TRIALS; trial++) {
    const delay = 150 + ((trial * 53) % 300);
    const page = await firefox.newPage();
    await page.goto(new URL('panel.html', server.httpUrl).href);
    await emitToPanel(page, [{ hex }]);
    await page.waitForSelector('[data-testid=frame-row]', { timeout: 20_000 });
    await page.$eval('[data-testid=frame-row]', (el) =>
      el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })),
    );
    await page.click('[data-testid=tab-compare]');
    await page.waitForFunction(
      () => [...document.querySelectorAll('button')].some((b) => /Run comparison/.test(b.textContent ?? '')),
      { timeout: 20_000 },
    );
    await new Promise((r) => setTimeout(r, delay));
    const t0 = Date.now();
    await page.evaluate(() =>
      (
        [...document.querySelectorAll('button')].find((b) =>
          /Run comparison/.test(b.textContent ?? ''),
        ) as HTMLButtonElement
      ).click(),
    );
    // Polled: waitForFunction with an interval did not return over BiDi.
    const status = async (): Promise<string> =>
      page.evaluate(() =>
        `${document.querySelector('[data-testid=compare-status]')?.textContent ?? ''} ${document.querySelector('[data-testid=compare-progress]')?.textContent ?? ''}`.trim(),
      );
    let text = await status();
    while (!/\d+ codecs compared/.test(text) && Date.now() - t0 < LIMIT_MS) {
      await new Promise((r) => setTimeout(r, 250));
      text = await status();
    }
    if (!/\d+ codecs compared/.test(text)) {
      stuck++;
      console.log(`trial ${trial}: Run ${delay} ms after the tab: still "${text}" after ${Date.now() - t0} ms`);
    }
    await page.close();
  }
} finally {
  for (const b of busy) b.kill();
  await firefox.close();
  await server.close();
}
console.log(`${stuck} of ${TRIALS} runs did not finish within ${LIMIT_MS} ms (${LOAD} busy loops beside Firefox)`);
