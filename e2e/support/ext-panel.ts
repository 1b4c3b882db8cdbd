/**
 * Reading the panel (panel.html in a tab) through its test ids. Expressions are strings, so
 * Playwright (Chromium) and Puppeteer (Firefox) evaluate the same code in the page.
 */
import type { ExpectedRow } from './ext-fixtures.js';

export interface PanelRow {
  readonly frameId: number;
  readonly direction: string;
  readonly connection: string;
  readonly opcode: string;
  readonly size: string;
  readonly format: string;
  /** The format cell as shown (`✕ msgpack` when malformed, `cbor+gz`, `unknown`). */
  readonly formatText: string;
  /** The event / topic cell. */
  readonly event: string;
  /** The protocol cell (`socket.io`, `signalr`, … or '' for none). */
  readonly protocol: string;
  readonly preview: string;
}

export interface PanelState {
  readonly rows: PanelRow[];
  /** `frame-count` status text ("17 frames"). */
  readonly frameCount: string;
  /** `dropped-count` text, or null when nothing was lost. */
  readonly dropped: string | null;
  /** Texts of role=alert elements (notices, error banners). */
  readonly alerts: string[];
}

/** Frame rows in frame-id order (the list is virtualized: the tests keep all rows on screen). */
export const READ_PANEL = `(() => {
  // Cells by their column name (columns.ts), not position: the list gains columns.
  const cell = (e, name) => e.querySelector('[data-column="' + name + '"]');
  const rows = [...document.querySelectorAll('[data-testid=frame-row]')].map((e) => ({
    frameId: Number(e.getAttribute('data-frame-id')),
    direction: cell(e, 'direction') ? cell(e, 'direction').getAttribute('aria-label') : '',
    connection: cell(e, 'connection') ? cell(e, 'connection').textContent : '',
    opcode: cell(e, 'opcode') ? cell(e, 'opcode').textContent : '',
    size: cell(e, 'size') ? cell(e, 'size').textContent : '',
    format: e.getAttribute('data-format'),
    formatText: cell(e, 'format') ? cell(e, 'format').textContent : '',
    event: cell(e, 'event') ? cell(e, 'event').textContent : '',
    protocol: cell(e, 'protocol') ? cell(e, 'protocol').textContent : '',
    preview: cell(e, 'preview') ? cell(e, 'preview').textContent : '',
  })).sort((a, b) => a.frameId - b.frameId);
  const count = document.querySelector('[data-testid=frame-count]');
  const dropped = document.querySelector('[data-testid=dropped-count]');
  return {
    rows,
    frameCount: count ? count.textContent : '',
    dropped: dropped ? dropped.textContent : null,
    alerts: [...document.querySelectorAll('[role=alert]')].map((e) => e.textContent),
  };
})()`;

/** A reader of `panel` (a Playwright or a Puppeteer page) through READ_PANEL, for waitForRows. */
export const panelReader =
  (panel: { evaluate(expression: string): Promise<unknown> }): (() => Promise<PanelState>) =>
  () =>
    panel.evaluate(READ_PANEL) as Promise<PanelState>;

/** The part of a row that the fixture predicts (frame ids are the panel's own). */
export const comparable = (r: PanelRow | ExpectedRow) => ({
  direction: r.direction,
  opcode: r.opcode,
  size: r.size,
  format: r.format,
  connection: r.connection,
});

/**
 * Polls `read` until the panel holds at least `count` rows (or `timeoutMs` passes), then a
 * little longer to catch extra rows, and returns the last state.
 */
export async function waitForRows(
  read: () => Promise<PanelState>,
  count: number,
  timeoutMs = 15_000,
): Promise<PanelState> {
  const deadline = Date.now() + timeoutMs;
  let state = await read();
  while (state.rows.length < count && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    state = await read();
  }
  await new Promise((r) => setTimeout(r, 300));
  return read();
}

/** A readable diff for failure messages: expected vs shown, one line per row. */
export function describeRows(expected: readonly ExpectedRow[], state: PanelState): string {
  const line = (r: ReturnType<typeof comparable>) =>
    `${r.direction.padEnd(8)} ${r.connection.padEnd(3)} ${r.opcode.padEnd(6)} ${r.size.padStart(6)} ${r.format}`;
  const n = Math.max(expected.length, state.rows.length);
  const out = [
    `panel: ${state.frameCount}; dropped: ${state.dropped ?? 'none'}; alerts: ${state.alerts.join(' | ') || 'none'}`,
  ];
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const s = state.rows[i];
    out.push(
      `${String(i + 1).padStart(2)} expected ${e ? `${line(comparable(e))} (${e.label})` : '-'.padEnd(30)}\n   shown    ${s ? `${line(comparable(s))} #${s.frameId} ${s.preview.slice(0, 50)}` : '-'}`,
    );
  }
  return out.join('\n');
}
