/**
 * Screenshots of a Chromium page at the sizes and colour schemes a UI test looks at
 * (1440×900 and 900×700, light and dark), each with the checks that go with it, and the
 * check that parts of the page do not overflow sideways.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { artifactPath } from './env.js';

export interface Viewport {
  readonly width: number;
  readonly height: number;
}

/** The two sizes the UI tests look at. */
export const VIEWPORT_1440: Viewport = { width: 1440, height: 900 };
export const VIEWPORT_900: Viewport = { width: 900, height: 700 };

/** One screenshot: its file name in e2e/artifacts/, the page's size, its colour scheme. */
export type Shot = readonly [name: string, viewport: Viewport, scheme: 'light' | 'dark'];

/** A size and scheme, as the screenshots' file names end: `1440-light` is 1440×900 in the light scheme. */
export type ShotKind = '1440-light' | '1440-dark' | '900-light' | '900-dark';

/** The shots `<prefix>-<kind>.png`, at the size and in the scheme each kind names, in the order given. */
export const shotsOf = (prefix: string, ...kinds: readonly ShotKind[]): Shot[] =>
  kinds.map((kind) => {
    const [width, scheme] = kind.split('-') as ['1440' | '900', 'light' | 'dark'];
    return [`${prefix}-${kind}.png`, width === '1440' ? VIEWPORT_1440 : VIEWPORT_900, scheme];
  });

export interface ShotChecks {
  /** Run at the shot's size and scheme, before its screenshot is written. */
  readonly before?: (viewport: Viewport, name: string) => Promise<void>;
  /** Run once its screenshot is written. */
  readonly after?: (viewport: Viewport, name: string) => Promise<void>;
}

/** For each shot in order: `page` resized and switched to its scheme, `checks.before`, the screenshot, `checks.after`. */
export async function screenshotEach(page: Page, shots: readonly Shot[], checks: ShotChecks = {}): Promise<void> {
  for (const [name, viewport, scheme] of shots) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await checks.before?.(viewport, name);
    await page.screenshot({ path: artifactPath(name) });
    await checks.after?.(viewport, name);
  }
}

/** For each element `selector` matches, in document order: whether its content is wider than its box (by over a pixel). */
const overflowSideways = (page: Page, selector: string): Promise<boolean[]> =>
  page.$$eval(selector, (els) => els.map((e) => e.scrollWidth > e.clientWidth + 1));

/**
 * A check for screenshotEach: `selector` matches `count` elements and none is wider inside than
 * its box; a failure reads "<what> at <width> px".
 */
export const fitsSideways =
  (page: Page, selector: string, count: number, what: string) =>
  async ({ width }: Viewport): Promise<void> => {
    expect(await overflowSideways(page, selector), `${what} at ${width} px`).toEqual(Array(count).fill(false));
  };
