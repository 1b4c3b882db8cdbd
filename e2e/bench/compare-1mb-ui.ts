/**
 * `npx tsx e2e/bench/compare-1mb-ui.ts [--runs N] [--waits 0,300,1000,2000] [--rows]` (after
 * `npm run build:app`): the Compare tab on a ~1 MB frame in Chromium, as a user meets it —
 * the line "json-pack / JSON rows on screen in ≤ 1 s". A benchmark: prints figures, never
 * fails on time.
 *
 * Every trial is a fresh page (a fresh decode worker, no lane started yet): the frame (the
 * benches' ~1 MB document, codecs/bench/generate.ts, as CBOR) arrives, its row is selected,
 * the Compare tab is opened (which starts and warms the lanes on a sample of the value:
 * codecs/compare/lanes.ts warmLanes), and Run is clicked `wait` ms later. Measured in the
 * page (performance.now, a MutationObserver on the table): click → the ninth row on screen
 * (rows come in codec order, the nine json-pack / JSON codecs first) and → the sixteenth,
 * and the longest main-thread task from the tab's opening to the last row (`--rows`: when each
 * row appeared).
 */
import type { Page } from 'playwright-core';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { startDemoServer } from '../../demo-server/server.js';
import { APP_DIR, launchChromium } from '../support/env.js';
import { emitToPanel, waitForRows } from '../support/tour-pages.js';
import { generateDocument } from '../../codecs/bench/generate.js';
import { CODECS } from '../../codecs/compare/codecs.js';
import { installProbes, readProbes } from './page-probes.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string =>
  argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback;
const RUNS = Number(option('--runs', '3'));
const WAITS = option('--waits', '0,300,1000,2000').split(',').map(Number);
const JSON_PACK_ROWS = CODECS.filter((c) => c.family !== 'json-joy').length;

interface Trial {
  readonly wait: number;
  readonly toJsonPack: number;
  readonly toAll: number;
  readonly longestTask: number;
  /** ms after the click at which each row (1st, 2nd, …) was on screen. */
  readonly rows: readonly number[];
}

/** In the page: resolves with performance.now() when the comparison table holds `n` rows (checked on every mutation). */
function rowsAt(page: Page, counts: readonly number[]): Promise<number[]> {
  return page.evaluate(
    (wanted) =>
      new Promise<number[]>((resolve) => {
        const times: number[] = [];
        const check = (): void => {
          const n = document.querySelectorAll('[data-testid=compare-table] [data-testid=compare-row]').length;
          while (times.length < wanted.length && n >= wanted[times.length]) times.push(performance.now());
          if (times.length === wanted.length) {
            observer.disconnect();
            resolve(times);
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { childList: true, subtree: true });
        check();
      }),
    counts,
  );
}

async function trial(page: Page, hex: string, wait: number): Promise<Trial> {
  await emitToPanel(page, [{ hex }]);
  await waitForRows(page, 1);
  await page.locator('[data-testid=frame-row]').first().dispatchEvent('mousedown');
  await page.getByTestId('tab-compare').waitFor();
  const tabAt = await page.evaluate(() => performance.now());
  await page.getByTestId('tab-compare').click();
  const run = page.getByRole('button', { name: /Run comparison/ });
  await run.waitFor();
  if (wait > 0) await page.waitForTimeout(wait);
  const rows = rowsAt(
    page,
    CODECS.map((_, i) => i + 1),
  );
  // The click's own time, taken in the page as it happens.
  const clickAt = await page.evaluate(() => {
    const button = [...document.querySelectorAll('button')].find((b) =>
      /Run comparison/.test(b.textContent ?? ''),
    ) as HTMLButtonElement;
    const t = performance.now();
    button.click();
    return t;
  });
  const times = (await rows).map((t) => t - clickAt);
  const probes = await readProbes(page);
  const longestTask = Math.max(0, ...probes.longtasks.filter((t) => t.start >= tabAt).map((t) => t.duration));
  return { wait, toJsonPack: times[JSON_PACK_ROWS - 1], toAll: times[times.length - 1], longestTask, rows: times };
}

const hex = Buffer.from(new CborEncoder().encode(generateDocument(1 << 20))).toString('hex');
const [browser, server] = await Promise.all([
  launchChromium(),
  startDemoServer({ port: 0, staticDir: APP_DIR, messagesPerSecond: 1, largeEvery: 0, seed: 3 }),
]);
const trials: Trial[] = [];
try {
  for (let r = 0; r < RUNS; r++) {
    // Interleaved: every wait once per round, so load drifts over all of them alike.
    for (const wait of WAITS) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      // tsx (esbuild keepNames) wraps functions in __name(); functions sent to the page need it too.
      await page.addInitScript('globalThis.__name = (f) => f;');
      await page.addInitScript(installProbes);
      await page.goto(new URL('panel.html', server.httpUrl).href);
      const t = await trial(page, hex, wait);
      trials.push(t);
      console.log(
        `round ${r + 1}, Run ${String(wait).padStart(4)} ms after the tab opened: ${JSON_PACK_ROWS} json-pack rows on screen ${t.toJsonPack.toFixed(0).padStart(5)} ms after the click, all ${CODECS.length} ${t.toAll.toFixed(0).padStart(5)} ms; longest main-thread task ${t.longestTask.toFixed(0)} ms`,
      );
      if (argv.includes('--rows')) console.log(`  rows on screen at ${t.rows.map((x) => x.toFixed(0)).join(', ')} ms`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log('');
console.log(
  `frame: ${(hex.length / 2).toLocaleString('en-US')} bytes of CBOR; ${RUNS} rounds; the line: the ${JSON_PACK_ROWS} json-pack / JSON rows on screen ≤ 1,000 ms after Run`,
);
for (const wait of WAITS) {
  const mine = trials
    .filter((t) => t.wait === wait)
    .map((t) => t.toJsonPack)
    .sort((a, b) => a - b);
  console.log(
    `  Run ${String(wait).padStart(4)} ms after the tab: json-pack rows ${mine.map((m) => m.toFixed(0)).join(', ')} ms (median ${mine[mine.length >> 1].toFixed(0)})`,
  );
}
