/**
 * Disabled buttons in the Firefox extension's panel (dist/firefox-test, panel page opened by
 * the test build's hook), light and dark. In the Firefox DevTools toolbox the panel page did
 * not paint elements faded with `opacity`: the Compare tab's disabled "Copy comparison as
 * Markdown" (before a run) and "Run comparison…" (while running) were blank gaps, while the
 * same page in a tab, and Chromium, showed them faded. The toolbox cannot be opened over
 * WebDriver BiDi, so this checks the page in a tab for what the toolbox needs: a disabled
 * button is greyed with its own colours, fully opaque, and stands apart from the panel.
 * Fails (never skips) without /usr/bin/firefox-esr or a buildable extension.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { openPageThenThemedPanel } from './support/ext-firefox.js';
import { firefoxAndServerPerFile } from './support/ext-with-server.js';
import { startOnePageServer } from './support/one-page-server.js';
import { contrastRatio } from './support/contrast-ratio.js';

/** A page whose socket gets one JSON frame as soon as it opens (`window.__received` then). */
const run = firefoxAndServerPerFile(
  () =>
    startOnePageServer(
      `<!doctype html><title>one frame</title><script>
      const ws = new WebSocket('ws://' + location.host + '/ws');
      ws.onmessage = () => { window.__received = true; };
    </script>`,
      (socket) => socket.send(JSON.stringify({ type: 'hello', items: [1, 2, 3] })),
      { path: '/ws' },
    ),
  60_000,
);

interface ButtonLook {
  readonly label: string;
  readonly disabled: boolean;
  readonly opacity: number;
  readonly visibility: string;
  readonly width: number;
  readonly color: string;
  readonly background: string;
  readonly border: string;
  /** The Compare toolbar's background, what the button sits on. */
  readonly behind: string;
}

/** The computed look of the Compare tab's buttons (the Run button optionally forced disabled, as while running). */
function readButtons(panel: Page, disableRun: boolean): Promise<ButtonLook[]> {
  return panel.evaluate((disableRun) => {
    const opaque = (el: Element | null): string => {
      for (let e = el; e; e = e.parentElement) {
        const bg = getComputedStyle(e).backgroundColor;
        if (bg !== 'transparent' && bg !== 'rgba(0, 0, 0, 0)') return bg;
      }
      return 'rgb(255, 255, 255)';
    };
    const buttons = [...document.querySelectorAll<HTMLButtonElement>('button.ws-button')];
    if (disableRun)
      buttons
        .filter((b) => /Run comparison/.test(b.textContent ?? ''))
        .forEach((b) => {
          b.disabled = true;
        });
    return buttons.map((b) => {
      const s = getComputedStyle(b);
      return {
        label: b.textContent ?? '',
        disabled: b.disabled,
        opacity: Number(s.opacity),
        visibility: s.visibility,
        width: b.getBoundingClientRect().width,
        color: s.color,
        background: s.backgroundColor,
        border: s.borderTopColor,
        behind: opaque(b.parentElement),
      };
    });
  }, disableRun);
}

async function openCompare(theme: 'light' | 'dark'): Promise<{ page: Page; panel: Page }> {
  const { page, panel } = await openPageThenThemedPanel(run.browser, run.server.url, theme);
  await panel.waitForSelector('[data-testid=frame-row]', { timeout: 15_000 });
  await panel.$eval('[data-testid=frame-row]', (el) =>
    el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })),
  );
  await panel.$eval('[data-testid=tab-compare]', (el) => (el as HTMLElement).click());
  await panel.waitForFunction(
    () => [...document.querySelectorAll('button')].some((b) => /Copy comparison as Markdown/.test(b.textContent ?? '')),
    { timeout: 15_000 },
  );
  return { page, panel };
}

describe('disabled buttons in the Firefox extension panel (dist/firefox-test)', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: the Compare tab's disabled buttons are greyed by colour, opaque, and stand apart from the panel`, async () => {
      const { page, panel } = await openCompare(theme);
      const enabledRun = (await readButtons(panel, false)).find((b) => /Run comparison/.test(b.label));
      expect(enabledRun?.disabled).toBe(false);
      const looks = await readButtons(panel, true);
      const copy = looks.find((b) => /Copy comparison as Markdown/.test(b.label));
      const run = looks.find((b) => /Run comparison/.test(b.label));
      expect(copy?.disabled, JSON.stringify(looks)).toBe(true);
      expect(run?.disabled, JSON.stringify(looks)).toBe(true);
      for (const b of [copy!, run!]) {
        const what = `${b.label}: ${JSON.stringify(b)}`;
        expect(b.visibility, what).toBe('visible');
        expect(b.width, what).toBeGreaterThan(20);
        // The toolbox left anything faded with opacity unpainted: the greying is in the colours.
        expect(b.opacity, what).toBe(1);
        // Greyed but legible: the label reads against the button (2.5:1), and the button's box
        // (fill or border) differs from what it sits on.
        expect(contrastRatio(b.color, b.background), what).toBeGreaterThanOrEqual(2.5);
        expect(b.background !== b.behind || b.border !== b.behind, what).toBe(true);
      }
      // Greyed: the disabled labels read dimmer than the enabled Run button's.
      for (const b of [copy!, run!])
        expect(contrastRatio(b.color, b.background)).toBeLessThan(
          contrastRatio(enabledRun!.color, enabledRun!.background),
        );
      await panel.close();
      await page.close();
    }, 60_000);
  }
});
