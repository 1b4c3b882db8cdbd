/**
 * What a user sees of a bar of controls: for each select, button, label and column header,
 * the room it gives its text and the room that text needs, and where it sits. Measured in
 * the page, by the browser's own layout.
 */
import type { Page } from 'playwright-core';

export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface ControlSeen {
  /** Its accessible name (aria-label) or its text. */
  readonly name: string;
  /** The text it shows: a select's selected option, a button's or header's text. */
  readonly text: string;
  /** Width it gives that text, and width the text needs (px). */
  readonly has: number;
  readonly needs: number;
  readonly box: Box;
}

/**
 * The controls matched by `selector` that are drawn (a hidden one is skipped). A select needs
 * the width the browser gives a copy of it holding only its selected option, at its own width
 * (its padding, its arrow and that text); a column header (`role=columnheader`) needs its
 * text's width inside its padding; a button or label needs its scroll width.
 */
export function controlsSeen(page: Page, selector: string): Promise<ControlSeen[]> {
  return page.evaluate((sel) => {
    const boxOf = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    const out: ControlSeen[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '';
      if (el instanceof HTMLSelectElement) {
        const option = el.selectedOptions[0];
        const alone = el.cloneNode(false) as HTMLSelectElement;
        if (option) alone.append(option.cloneNode(true));
        alone.removeAttribute('id');
        alone.style.cssText =
          'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;flex:none;left:0;top:0';
        el.parentElement!.append(alone);
        const needs = alone.getBoundingClientRect().width;
        alone.remove();
        out.push({ name, text: option?.text ?? '', has: r.width, needs, box: boxOf(r) });
      } else if (el.getAttribute('role') === 'columnheader') {
        const style = getComputedStyle(el);
        const range = document.createRange();
        range.selectNodeContents(el);
        const has = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        out.push({ name, text: el.textContent ?? '', has, needs: range.getBoundingClientRect().width, box: boxOf(r) });
      } else {
        out.push({ name, text: el.textContent ?? '', has: el.clientWidth, needs: el.scrollWidth, box: boxOf(r) });
      }
    }
    return out;
  }, selector);
}

/** The controls whose text does not show whole (half a pixel of rounding allowed). */
export function cutControls(controls: readonly ControlSeen[]): string[] {
  return controls
    .filter((c) => c.needs > c.has + 0.5)
    .map((c) => `${c.name} "${c.text}": ${c.has.toFixed(1)} px of ${c.needs.toFixed(1)}`);
}

/** Pairs of controls whose boxes overlap (by more than half a pixel each way). */
export function overlappingControls(controls: readonly ControlSeen[]): string[] {
  const out: string[] = [];
  controls.forEach((a, i) => {
    for (const b of controls.slice(i + 1)) {
      const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (x > 0.5 && y > 0.5) out.push(`${a.name} / ${b.name}`);
    }
  });
  return out;
}

/** The controls not wholly inside `outer` (half a pixel of rounding allowed). */
export function controlsOutside(controls: readonly ControlSeen[], outer: Box): string[] {
  return controls
    .filter(
      (c) =>
        c.box.left < outer.left - 0.5 ||
        c.box.right > outer.right + 0.5 ||
        c.box.top < outer.top - 0.5 ||
        c.box.bottom > outer.bottom + 0.5,
    )
    .map((c) => c.name);
}

/**
 * The buttons matched by `selector` not seen whole: their text breaks onto a second line (each
 * line a rectangle of its own), an ancestor that clips its overflow cuts their box, or
 * something else is drawn over either end of it.
 */
export function buttonsNotWhole(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLButtonElement>(sel)) {
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      const name = el.textContent?.trim() ?? '';
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(`${name}: on ${tops.size} lines`);
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (getComputedStyle(up).overflowX === 'visible') continue;
        const clip = up.getBoundingClientRect();
        if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5) {
          out.push(`${name}: cut by its ${up.className || up.tagName.toLowerCase()}`);
          break;
        }
      }
      // Drawn over: what the page shows just inside each end of the button is the button.
      const middle = (box.top + box.bottom) / 2;
      for (const x of [box.left + 2, box.right - 2]) {
        const top = document.elementFromPoint(x, middle);
        if (top && !el.contains(top)) out.push(`${name}: covered by ${top.className || top.tagName.toLowerCase()}`);
      }
    }
    return out;
  }, selector);
}
