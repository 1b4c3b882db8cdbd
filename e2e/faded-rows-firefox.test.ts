/**
 * Keep-alive rows and lost-frame placeholders in the Firefox extension's panel (dist/firefox-test,
 * panel page opened by the test build's hook), light and dark. In the Firefox DevTools toolbox
 * the panel did not paint rows faded with `opacity`: keep-alives (graphql-ws ping / pong, Phoenix
 * heartbeats, Engine.IO ping / pong) and the placeholder of a frame the hook dropped (over its
 * 64 MiB limit) were blank gaps in the frame list (reproduced over Marionette). The toolbox
 * cannot be opened over WebDriver BiDi, so this checks the page in a tab for what the toolbox
 * needs: those rows and their cells fully opaque, dimmed by colour yet legible (2.5:1 on the
 * row's background, selected too), dimmer than a plain row; and no style rule of the app fades
 * anything with opacity below 1 (the hex view's end-of-input mark did).
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { WebSocket } from 'ws';
import type { IncomingMessage } from 'node:http';
import { openPageThenThemedPanel } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';
import { startOnePageServer } from './support/one-page-server.js';
import { contrastRatio } from './support/contrast-ratio.js';

/** Frames: keep-alives of three protocols between plain messages, and one frame over the hook's 64 MiB (a lost row). */
const KEEP_ALIVES = 5;

/** The keep-alive frames: socket.io's on its socket, the others and the oversized frame on the page's own. */
function sendFrames(socket: WebSocket, req: IncomingMessage): void {
  if (req.url?.startsWith('/socket.io')) {
    socket.send('0{"sid":"a","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}');
    socket.send('40{"sid":"b"}');
    socket.send('2');
    socket.send('42["chat",{"text":"hello"}]');
    socket.send('3');
    return;
  }
  // A GraphQL connection (its ping is a keep-alive only after the handshake: a plain {"type":"ping"} is many apps' own).
  socket.send(JSON.stringify({ type: 'connection_ack' }));
  socket.send(JSON.stringify({ type: 'ping' }));
  socket.send(JSON.stringify({ topic: 'room:lobby', event: 'new_msg', payload: { body: 'hi' }, ref: '1' }));
  socket.send(JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '2' }));
  socket.send(JSON.stringify({ type: 'pong' }));
  socket.send(Buffer.alloc(65 << 20, 7));
  socket.send(JSON.stringify({ type: 'hello', items: [1, 2, 3] }));
  socket.send('done');
}

const run = firefoxAndServerPerFile(
  () =>
    startOnePageServer(
      `<!doctype html><title>keep-alives</title><script>
      const sio = new WebSocket('ws://' + location.host + '/socket.io/?EIO=4&transport=websocket');
      const ws = new WebSocket('ws://' + location.host + '/live');
      ws.onmessage = (e) => { if (e.data === 'done') window.__received = true; };
    </script>`,
      sendFrames,
    ),
  60_000,
);

interface CellLook {
  readonly column: string;
  readonly text: string;
  readonly opacity: number;
  readonly color: string;
}

interface RowLook {
  readonly id: string;
  readonly kind: 'quiet' | 'lost' | 'plain';
  readonly selected: boolean;
  readonly opacity: number;
  readonly visibility: string;
  readonly color: string;
  /** The opaque background behind the row's text (its own, or the list's under a stripe gradient). */
  readonly behind: string;
  readonly cells: CellLook[];
}

function readRows(panel: Page): Promise<RowLook[]> {
  return panel.evaluate(() => {
    const opaque = (el: Element | null): string => {
      for (let e = el; e; e = e.parentElement) {
        const bg = getComputedStyle(e).backgroundColor;
        if (bg !== 'transparent' && bg !== 'rgba(0, 0, 0, 0)') return bg;
      }
      return 'rgb(255, 255, 255)';
    };
    return [...document.querySelectorAll<HTMLElement>('[data-testid=frame-row]')].map((row) => {
      const s = getComputedStyle(row);
      return {
        id: row.dataset.frameId ?? '',
        kind: row.classList.contains('ws-quiet') ? 'quiet' : row.classList.contains('ws-frame-lost') ? 'lost' : 'plain',
        selected: row.getAttribute('aria-selected') === 'true',
        opacity: Number(s.opacity),
        visibility: s.visibility,
        color: s.color,
        behind: opaque(row),
        cells: [...row.querySelectorAll<HTMLElement>(':scope > span')]
          .filter((c) => getComputedStyle(c).display !== 'none' && (c.textContent ?? '').trim() !== '')
          .map((c) => ({
            column: c.dataset.column ?? '',
            text: (c.textContent ?? '').slice(0, 30),
            opacity: Number(getComputedStyle(c).opacity),
            color: getComputedStyle(c).color,
          })),
      } as const;
    });
  });
}

async function openPanel(theme: 'light' | 'dark'): Promise<{ page: Page; panel: Page }> {
  const { page, panel } = await openPageThenThemedPanel(run.browser, run.server.url, theme);
  await panel.setViewport({ width: 1440, height: 900 });
  await panel.waitForFunction(
    (n) =>
      document.querySelectorAll('.ws-frame-row.ws-quiet').length >= n &&
      !!document.querySelector('.ws-frame-row.ws-frame-lost'),
    { timeout: 15_000 },
    KEEP_ALIVES,
  );
  return { page, panel };
}

function expectDimmedButLegible(rows: RowLook[], plain: RowLook): void {
  for (const row of rows) {
    const what = JSON.stringify(row);
    expect(row.visibility, what).toBe('visible');
    // The toolbox left anything faded with opacity unpainted: the dimming is in the colours.
    expect(row.opacity, what).toBe(1);
    expect(row.cells.length, what).toBeGreaterThan(3);
    for (const cell of row.cells) {
      expect(cell.opacity, `${cell.column} of ${what}`).toBe(1);
      expect(contrastRatio(cell.color, row.behind), `${cell.column} of ${what}`).toBeGreaterThanOrEqual(2.5);
    }
    // Dimmed: the row's text reads fainter than a plain row's.
    if (row.kind === 'quiet')
      expect(contrastRatio(row.color, row.behind), `${what} vs ${JSON.stringify(plain)}`).toBeLessThan(
        contrastRatio(plain.color, plain.behind),
      );
  }
}

describe('keep-alive and lost rows in the Firefox extension panel (dist/firefox-test)', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: keep-alive and lost rows are dimmed by colour, opaque and legible, selected too`, async () => {
      const { page, panel } = await openPanel(theme);
      const rows = await readRows(panel);
      const plain = rows.find((r) => r.kind === 'plain' && !r.selected)!;
      const faded = rows.filter((r) => r.kind !== 'plain');
      expect(faded.filter((r) => r.kind === 'quiet').length, JSON.stringify(rows)).toBe(KEEP_ALIVES);
      expect(faded.filter((r) => r.kind === 'lost').length, JSON.stringify(rows)).toBe(1);
      expectDimmedButLegible(faded, plain);
      // A selected keep-alive and a selected lost row, on the selection's background.
      for (const kind of ['quiet', 'lost'] as const) {
        await panel.$eval(kind === 'quiet' ? '.ws-frame-row.ws-quiet' : '.ws-frame-row.ws-frame-lost', (el) =>
          el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })),
        );
        await panel.waitForFunction(
          (k) => !!document.querySelector(`.ws-frame-row.${k}[aria-selected=true]`),
          {},
          kind === 'quiet' ? 'ws-quiet' : 'ws-frame-lost',
        );
        const selected = (await readRows(panel)).filter((r) => r.selected);
        expect(selected.length).toBe(1);
        expectDimmedButLegible(selected, plain);
      }
      await panel.close();
      await page.close();
    }, 60_000);
  }

  it('no style rule of the app fades with opacity below 1', async () => {
    const { page, panel } = await openPanel('light');
    const faded = await panel.evaluate(() => {
      const out: string[] = [];
      const walk = (rules: CSSRuleList) => {
        for (const rule of rules) {
          if (rule instanceof CSSStyleRule && /\.(ws-|hex-)/.test(rule.selectorText)) {
            const o = rule.style.getPropertyValue('opacity');
            if (o !== '' && Number(o) < 1 && Number(o) > 0) out.push(`${rule.selectorText} { opacity: ${o} }`);
          }
          if ('cssRules' in rule && (rule as CSSGroupingRule).cssRules) walk((rule as CSSGroupingRule).cssRules);
        }
      };
      for (const sheet of document.styleSheets) walk(sheet.cssRules);
      return out;
    });
    expect(faded).toEqual([]);
    await panel.close();
    await page.close();
  }, 60_000);
});
