/**
 * The page keeps its frames with the panel open: under a flood the background
 * holds the tab's frames instead of posting them to the panel (extension/background/
 * flood-hold.ts), and the panel's status bar says so; the flood also stays watchable:
 * the panel lists a live tail of the held frames. In Chromium with the production build, a
 * real page receives a flood (5,000 frames/s of ~100 B JSON text, each with its index `seq`)
 * until the test stops it. A spy on the panel's runtime port records what the background posted:
 * - the status showed the hold ("flood: N frames held in the extension") and the rates;
 * - the list showed live tail rows whose `seq` advanced between two looks 500 ms apart, and
 *   one of them opened (tree, hex) while the flood went on;
 * - "Show now" got the held frames out while the flood went on, after which the hold resumed;
 * - after the flood every frame is in the panel exactly once, in order (indexes 0 … N-1),
 *   every relay batch once (no seq twice), nothing reported lost, no live tail row left, the
 *   list's last rows the last frames in order, and the notice is gone.
 */
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { openPanelOf, openTabAt } from './support/ext-env.js';
import { chromiumAndServerPerFile } from './support/ext-with-server.js';
import { startOnePageServer } from './support/one-page-server.js';

const PAGE = `<!doctype html><meta charset="utf-8"><title>flood</title><script>
'use strict';
window.__received = 0;
window.__go = () => new Promise((resolve, reject) => {
  const ws = new WebSocket('ws://' + location.host + '/flood');
  ws.binaryType = 'arraybuffer';
  ws.onmessage = () => { window.__received++; };
  ws.onopen = () => resolve(true);
  ws.onerror = () => reject(new Error('socket failed'));
  window.__stop = () => ws.send('stop');
});
</script>`;

/** Wraps the panel's runtime port (before any script of the panel runs) and records what the background posts on it. */
const PORT_SPY = `(() => {
  const g = globalThis;
  g.__spy = { seqs: [], indexes: [], held: [], pending: 0, batches: 0 };
  // Copied at once: the panel transfers a batch's bytes to its decode worker right after (detached).
  const copyOf = (w) => w.blob ? w.blob : w.bytes ? new Uint8Array(w.bytes) : Uint8Array.from(atob(w.b64), (c) => c.charCodeAt(0));
  const bytesOf = async (copy) => copy instanceof Blob ? new Uint8Array(await copy.arrayBuffer()) : copy;
  const wrap = (runtime) => {
    if (!runtime || !runtime.connect || runtime.__spied) return;
    const connect = runtime.connect.bind(runtime);
    runtime.__spied = true;
    runtime.connect = (...args) => {
      const port = connect(...args);
      let chain = Promise.resolve();
      port.onMessage.addListener((m) => {
        if (m && m.type === 'panel-held') g.__spy.held.push(m.frames);
        if (!m || m.type !== 'panel-batch') return;
        g.__spy.batches++;
        for (const item of m.items) {
          if (item.type !== 'events') continue;
          g.__spy.seqs.push(item.documentId + ':' + item.seq);
          g.__spy.pending++;
          const tableCopy = copyOf(item.frameTable);
          const bytesCopy = copyOf(item.frameBytes);
          chain = chain.then(async () => {
            const rows = new Float64Array((await bytesOf(tableCopy)).slice().buffer);
            const bytes = await bytesOf(bytesCopy);
            let at = 0;
            for (let r = 0; r * 4 + 3 < rows.length; r++) {
              const length = rows[r * 4 + 3];
              // Received frames (flag bit 1) carry the server's index; the page's own 'stop' is sent.
              if (rows[r * 4 + 1] & 1) g.__spy.indexes.push(JSON.parse(new TextDecoder().decode(bytes.subarray(at, at + length))).seq);
              at += length;
            }
            g.__spy.pending--;
          }).catch((e) => { g.__spy.errors = (g.__spy.errors || []).concat(String(e && e.stack || e)); });
        }
      });
      return port;
    };
  };
  wrap(g.chrome && g.chrome.runtime);
  wrap(g.browser && g.browser.runtime);
})()`;

interface Spy {
  seqs: string[];
  indexes: number[];
  held: number[];
  pending: number;
  batches: number;
}

const FRAME_SIZE = 100;
/** Frame `seq`: JSON text of FRAME_SIZE bytes. */
const floodFrame = (seq: number): string => {
  const head = `{"seq":${seq},"pad":"`;
  return `${head}${'x'.repeat(FRAME_SIZE - head.length - 2)}"}`;
};
const PER_TICK = 50; // every 10 ms: 5,000 frames/s

/** Frames the server sent on the flood socket, and whether it is still sending. */
const flood = { sent: 0, sending: false };

/** PER_TICK frames every 10 ms on each socket, until the page says anything or the socket closes. */
function floodSocket(ws: WebSocket): void {
  flood.sending = true;
  const timer = setInterval(() => {
    for (let i = 0; i < PER_TICK; i++) {
      ws.send(floodFrame(flood.sent++));
    }
  }, 10);
  const stop = () => {
    clearInterval(timer);
    flood.sending = false;
  };
  ws.on('message', stop);
  ws.on('close', stop);
}

const run = chromiumAndServerPerFile(() => startOnePageServer(PAGE, floodSocket), 90_000);

describe('flood hold in Chromium (dist/chrome)', () => {
  it('holds a flood in the background, shows a live tail that advances and opens, "Show now" pulls it, and every frame arrives once, in order, after the flood', async () => {
    const { page, tabId } = await openTabAt(run.browser, run.server.url);
    const panel = await openPanelOf(run.browser, tabId, {
      // The narrow window the panel docks into: the status bar must still say everything the flood needs.
      viewport: { width: 900, height: 700 },
      beforeLoad: (panel) => panel.addInitScript(PORT_SPY),
      waitForFrameCount: true,
    });
    const spy = async () =>
      (await panel.evaluate(
        '({ seqs: __spy.seqs, indexes: __spy.indexes.length, held: __spy.held, pending: __spy.pending, batches: __spy.batches })',
      )) as Omit<Spy, 'indexes'> & { indexes: number };
    const heldShown = async () =>
      (await panel.evaluate("document.querySelector('[data-testid=held-notice]')?.textContent ?? ''")) as string;

    await page.evaluate('__go()');
    // The hold shows in the status bar while the flood goes on.
    let notice = '';
    await expect
      .poll(async () => (notice = await heldShown()), { timeout: 15_000, interval: 100 })
      .toMatch(/^flood: [\d,]+ frames held in the extension — shown when it calms/);
    expect(flood.sending).toBe(true);
    await expect
      .poll(async () => (await panel.getByTestId('flood-rates').textContent()) ?? '', { timeout: 5_000 })
      .toMatch(/^[\d,]+\/s arriving · [\d,]+\/s shown · [\d,]+\/s held$/);
    if (process.env.WIRESCOPE_SHOTS) await panel.screenshot({ path: `${process.env.WIRESCOPE_SHOTS}/flood-900.png` });
    // At 900 px the held notice, its "Show now", the rates and the host's name are whole inside the bar.
    const cut = (await panel.evaluate(`(() => {
      const bar = document.querySelector('.ws-status').getBoundingClientRect();
      const whole = (el) => { if (!el) return 'missing'; const r = el.getBoundingClientRect();
        return r.width > 0 && r.left >= bar.left - 0.5 && r.right <= bar.right + 0.5 && el.scrollWidth <= el.clientWidth + 1 ? '' : 'cut'; };
      return {
        notice: whole(document.querySelector('[data-testid=held-notice]')),
        showNow: whole([...document.querySelectorAll('.ws-status button')].find((b) => b.textContent === 'Show now')),
        rates: whole(document.querySelector('[data-testid=flood-rates]')),
        host: whole(document.querySelector('[data-testid=status-host]')),
      };
    })()`)) as Record<string, string>;
    expect(cut).toEqual({ notice: '', showNow: '', rates: '', host: '' });

    // The live tail: sampled rows, whose seq advances between two looks 500 ms apart while the flood goes on.
    const newestSampled = async () =>
      (await panel.evaluate(`Math.max(-1, ...[...document.querySelectorAll('[data-testid=frame-row][data-sample] [data-column=preview]')]
        .map((e) => Number(/seq"?:\\s*(\\d+)/.exec(e.textContent)?.[1] ?? -1)))`)) as number;
    await expect.poll(newestSampled, { timeout: 5_000 }).toBeGreaterThanOrEqual(0);
    const firstLook = await newestSampled();
    await new Promise((r) => setTimeout(r, 500));
    const secondLook = await newestSampled();
    expect(secondLook).toBeGreaterThan(firstLook);
    expect(flood.sending).toBe(true);
    // A sampled row opens like any row: its tree and its hex, while the flood goes on.
    await panel.locator('[data-testid=frame-row][data-sample]').last().dispatchEvent('mousedown');
    await expect.poll(() => panel.getByRole('tree').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect
      .poll(async () => (await panel.getByRole('tree').first().textContent()) ?? '', { timeout: 10_000 })
      .toContain('seq');
    expect(flood.sending).toBe(true);

    // "Show now": the held frames come while the flood goes on, then the hold resumes.
    const before = await spy();
    const heldAtClick = Number(/flood: ([\d,]+) frames/.exec(notice)![1]!.replace(/,/g, ''));
    await panel.getByRole('button', { name: 'Show now' }).click();
    await expect
      .poll(async () => (await spy()).indexes, { timeout: 15_000, interval: 100 })
      .toBeGreaterThanOrEqual(before.indexes + heldAtClick);
    expect(flood.sending).toBe(true);
    await expect.poll(heldShown, { timeout: 15_000, interval: 100 }).toMatch(/^flood: [\d,]+ frames held/);

    // The flood ends: every frame comes, once, in order.
    await page.evaluate('__stop()');
    await expect.poll(() => flood.sending).toBe(false);
    const sent = flood.sent;
    await expect.poll(async () => (await page.evaluate('__received')) as number, { timeout: 30_000 }).toBe(sent);
    // Every frame the server sent, and the page's own 'stop'.
    await expect
      .poll(async () => ((await panel.getByTestId('frame-count').textContent()) ?? '').replace(/,/g, ''), {
        timeout: 30_000,
      })
      .toBe(`${sent + 1} frames`);
    await expect.poll(async () => (await spy()).pending, { timeout: 10_000 }).toBe(0);
    const end = await spy();
    expect(await panel.evaluate('__spy.errors ?? []')).toEqual([]);
    const indexes = (await panel.evaluate('__spy.indexes')) as number[];
    expect(indexes.length).toBe(sent);
    const firstOutOfOrder = indexes.findIndex((v, i) => v !== i);
    expect(firstOutOfOrder, `frame ${firstOutOfOrder} has index ${indexes[firstOutOfOrder]}`).toBe(-1);
    expect(new Set(end.seqs).size).toBe(end.seqs.length);
    // Many batches were held (the background posted statuses that counted up), and the last status cleared the notice.
    expect(end.held.filter((n) => n > 0).length).toBeGreaterThan(1);
    expect(end.held.at(-1)).toBe(0);
    expect(await heldShown()).toBe('');
    expect(await panel.getByTestId('dropped-count').count()).toBe(0);
    // Listed once: no live tail row is left, and the list's last rows are the last frames, in order.
    await expect.poll(() => panel.locator('[data-testid=frame-row][data-sample]').count()).toBe(0);
    await panel.keyboard.press('Escape');
    await panel.getByTestId('frame-list').focus();
    await panel.keyboard.press('End');
    await expect
      .poll(
        async () =>
          (await panel.evaluate(`[...document.querySelectorAll('[data-testid=frame-row]')]
            .sort((a, b) => Number(a.dataset.frameId) - Number(b.dataset.frameId))
            .map((e) => Number(/seq"?:\\s*(\\d+)/.exec(e.querySelector('[data-column=preview]').textContent)?.[1] ?? -1))
            .filter((n) => n >= 0).slice(-5)`)) as number[],
        { timeout: 10_000 },
      )
      .toEqual([sent - 5, sent - 4, sent - 3, sent - 2, sent - 1]);
    await panel.close();
    await page.close();
  }, 120_000);
});
