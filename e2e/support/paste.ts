/** Driving the paste page from inside the page: one vector after another without reloads. */
import type { Page } from 'playwright-core';

export interface PasteOutcome {
  readonly hex: string;
  /** Rendered hex cells, space-separated (the frame the page shows). */
  readonly shown: string;
  /** Root tree row's [start, end), or null when no tree row appeared. */
  readonly root: readonly [number, number] | null;
  readonly treeRows: number;
  /** error-banner's data-offset, or null. */
  readonly errorOffset: number | null;
  readonly ms: number;
  /** False when the view never showed this input within the timeout. */
  readonly settled: boolean;
}

/**
 * Types each input into `paste-input` (value setter + input event, as typing does), clicks
 * `decode-button`, and waits until the hex view shows exactly those bytes and either the
 * root tree row or the error banner is there (in the app remounted for this input, not the
 * previous one). A vector that never settles reports what
 * was on screen after `timeoutMs`.
 */
export function pasteEach(page: Page, inputs: readonly string[], timeoutMs = 5000): Promise<PasteOutcome[]> {
  return page.evaluate(
    async ({ inputs, timeoutMs }) => {
      const q = (s: string) => document.querySelector(s);
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const area = q('[data-testid=paste-input]') as HTMLTextAreaElement;
      const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
      const out: PasteOutcome[] = [];
      for (const hex of inputs) {
        // Each decode remounts the app: what carries the mark is the previous input's view.
        const stale = q('[data-testid=app]');
        stale?.setAttribute('data-e2e-stale', '');
        setValue.call(area, hex);
        area.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 0));
        (q('[data-testid=decode-button]') as HTMLButtonElement).click();
        const t0 = performance.now();
        const read = (): PasteOutcome => {
          const shown = [...document.querySelectorAll('[data-testid=hex-view] .hex-bytes [data-offset]')]
            .filter((e) => !e.classList.contains('hex-end'))
            .map((e) => (e.textContent ?? '').trim())
            .join(' ');
          const rows = document.querySelectorAll('[data-testid=tree-row]');
          const rootEl = q('[data-testid=tree-row][aria-level="1"]');
          const banner = q('[data-testid=error-banner]');
          return {
            hex,
            shown,
            root: rootEl ? [Number(rootEl.getAttribute('data-start')), Number(rootEl.getAttribute('data-end'))] : null,
            treeRows: rows.length,
            errorOffset: banner ? Number(banner.getAttribute('data-offset')) : null,
            ms: performance.now() - t0,
            settled: false,
          };
        };
        const fresh = () => !!q('[data-testid=app]:not([data-e2e-stale])');
        // `0x17` is the byte 17 (written so because `17` alone is JSON text).
        const want = hex.replace(/0x/g, '');
        let now = read();
        while (
          (!fresh() || now.shown !== want || (now.root === null && now.errorOffset === null)) &&
          performance.now() - t0 < timeoutMs
        ) {
          await frame();
          now = read();
        }
        // One more frame: a banner rendered with the tree would be in this commit already,
        // but a late one must not slip through.
        await frame();
        const settled = fresh() && now.shown === want && (now.root !== null || now.errorOffset !== null);
        out.push({ ...read(), ms: now.ms, settled });
      }
      return out;
    },
    { inputs, timeoutMs },
  );
}

/** `a16161` → `a1 61 61` */
export const spaced = (hex: string): string => (hex.match(/../g) ?? []).join(' ');
