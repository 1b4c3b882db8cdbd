/**
 * A client library's page and the panel of its tab, for the real-client tests
 * (capture-clients*.test.ts, protocol-clients.test.ts): the panel's rows and the server's
 * record of the wire reduced to the same lines (text/binary and size, per direction, in order),
 * and the Chromium run of a page followed by a read of its panel.
 */
import type { ClientServer, WireRecord } from './client-servers.js';
import type { ChromiumWithExtension } from './ext-env.js';
import { openPanelOf, openTabAt } from './ext-env.js';
import { sizeText } from './ext-fixtures.js';
import { panelReader, waitForRows, type PanelState } from './ext-panel.js';

export const frameLine = (r: { opcode: string; size: string }) => `${r.opcode} ${r.size}`;

/** Rows as `text 12 B` lines, per direction. */
export const perDirection = (rows: readonly { direction: string; opcode: string; size: string }[]) => ({
  sent: rows.filter((r) => r.direction === 'sent').map(frameLine),
  received: rows.filter((r) => r.direction === 'received').map(frameLine),
});

/** The server's record of the wire as the panel would list it. */
export const fromWire = (frames: readonly WireRecord[]) =>
  perDirection(frames.map((f) => ({ direction: f.direction, opcode: f.opcode, size: sizeText(f.size) })));

export interface PanelRun {
  /** What the page's `window.__done` resolved to. */
  readonly result: unknown;
  /** The panel once it holds as many rows as the server recorded frames (or its wait ran out). */
  readonly state: PanelState;
  /** Uncaught errors of the page and the panel. */
  readonly errors: string[];
}

/**
 * Opens `server`'s page.html in a new tab, waits for its `window.__done`, then opens that tab's
 * panel (panel.html?tabId=…) and reads its rows; both pages are closed before it returns.
 */
export async function runPageThenReadPanel(ext: ChromiumWithExtension, server: ClientServer): Promise<PanelRun> {
  const errors: string[] = [];
  const { page, tabId } = await openTabAt(ext, `${server.httpUrl}page.html`, {
    beforeLoad: (p) => p.on('pageerror', (e) => errors.push(e.message)),
  });
  try {
    const result = await page.evaluate('window.__done');
    await new Promise((r) => setTimeout(r, 200)); // the closing frames, if any
    const panel = await openPanelOf(ext, tabId, {
      beforeLoad: (p) => p.on('pageerror', (e) => errors.push(`panel: ${e.message}`)),
    });
    try {
      const state = await waitForRows(panelReader(panel), server.frames.length);
      return { result, state, errors };
    } finally {
      await panel.close();
    }
  } finally {
    await page.close();
  }
}
