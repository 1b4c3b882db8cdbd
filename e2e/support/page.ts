/** Reading the inspector's DOM through its test ids (see e2e/README.md for the ids used). */
import type { Locator, Page } from 'playwright-core';

export interface TreeRowInfo {
  readonly nodeId: number;
  readonly start: number;
  /** Exclusive. */
  readonly end: number;
  readonly keyStart: number;
  readonly keyEnd: number;
  readonly headerLength: number;
  readonly path: string;
  readonly selected: boolean;
  /** null for leaves. */
  readonly expanded: boolean | null;
  readonly level: number;
  /** The row's type column: `map(3)`, `array(2)`, `text(5)`, ... */
  readonly head: string;
}

/** The rendered tree rows (the tree is virtualized: rows far off screen are absent), in order. */
export function treeRows(page: Page): Promise<TreeRowInfo[]> {
  return page.locator('[data-testid=tree-row]').evaluateAll((els) =>
    els
      .map((e) => {
        const n = (name: string) => Number(e.getAttribute(name));
        const expanded = e.getAttribute('aria-expanded');
        return {
          nodeId: n('data-node-id'),
          start: n('data-start'),
          end: n('data-end'),
          keyStart: n('data-key-start'),
          keyEnd: n('data-key-end'),
          headerLength: n('data-header-length'),
          path: e.getAttribute('data-path') ?? '',
          selected: e.getAttribute('aria-selected') === 'true',
          expanded: expanded === null ? null : expanded === 'true',
          level: n('aria-level'),
          head: e.querySelector('.ws-tree-head')?.textContent ?? '',
          top: e.getBoundingClientRect().top,
        };
      })
      .sort((a, b) => a.top - b.top)
      .map(({ top: _top, ...row }) => row),
  );
}

export const treeRow = (page: Page, nodeId: number): Locator =>
  page.locator(`[data-testid=tree-row][data-node-id="${nodeId}"]`);

/** Offsets of the hex cells marked selected (hex column only; the ASCII column mirrors it). */
export function selectedHexOffsets(page: Page): Promise<number[]> {
  return page
    .locator('[data-testid=hex-byte-selected]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-offset'))).sort((a, b) => a - b));
}

/** Offsets of every hex cell in the DOM (the hex view renders only rows near the viewport). */
export function renderedHexOffsets(page: Page): Promise<number[]> {
  return page
    .locator('[data-testid=hex-view] .hex-bytes [data-offset]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-offset'))).sort((a, b) => a - b));
}

/** The hex column's text, two digits per rendered byte, space-separated, in offset order. */
export function renderedHex(page: Page): Promise<string> {
  return page.locator('[data-testid=hex-view] .hex-bytes [data-offset]').evaluateAll((els) =>
    els
      .map((e) => [Number(e.getAttribute('data-offset')), (e.textContent ?? '').trim()] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, t]) => t)
      .join(' '),
  );
}

/** [lo, hi) as a list. */
export const range = (lo: number, hi: number): number[] =>
  Array.from({ length: Math.max(0, hi - lo) }, (_, i) => lo + i);

/** The bytes a row highlights: its key item (if any) and its value. */
export function fieldOffsets(row: Pick<TreeRowInfo, 'start' | 'end' | 'keyStart' | 'keyEnd'>): number[] {
  const set = new Set([...range(row.start, row.end), ...(row.keyStart >= 0 ? range(row.keyStart, row.keyEnd) : [])]);
  return [...set].sort((a, b) => a - b);
}

/** Size column of the frame list ("621 B", "2.4 KB") in bytes, by frame id. */
export function frameSizes(page: Page, format: string): Promise<{ frameId: number; bytes: number }[]> {
  return page.locator(`[data-testid=frame-row][data-format="${format}"]`).evaluateAll((els) =>
    els.map((e) => {
      const text = e.querySelector('[data-column=size]')?.textContent ?? '';
      const m = /([\d.,]+)\s*(B|KB|MB)/.exec(text);
      const unit = m?.[2] === 'MB' ? 1 << 20 : m?.[2] === 'KB' ? 1024 : 1;
      return {
        frameId: Number(e.getAttribute('data-frame-id')),
        bytes: m ? Number(m[1].replace(/,/g, '')) * unit : NaN,
      };
    }),
  );
}

/** Fails with the page's own words when the app shows an error where a test expects none. */
export async function pageProblems(page: Page): Promise<string> {
  return page.evaluate(() => [...document.querySelectorAll('[role=alert]')].map((e) => e.textContent).join(' | '));
}
