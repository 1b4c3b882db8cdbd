/**
 * Acting on the extension's panel in Firefox (puppeteer-core over WebDriver BiDi), from inside
 * the panel page: reading a text, clicking a button by its name, typing as React hears it,
 * opening a frame's detail and pressing one of its page actions.
 */
import type { Page } from 'puppeteer-core';
import { pollUntil } from './wait.js';

/** The text of the first element `selector` matches ('' when there is none). */
export const textOf = (panel: Page, selector: string) =>
  panel.evaluate(`document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`) as Promise<string>;

/** Polls until the first element `selector` matches has a text, and returns it; `what` names it in a timeout. */
export const shownText = (panel: Page, selector: string, what: string) =>
  pollUntil(
    what,
    () => textOf(panel, selector),
    (t) => t !== '',
  );

/** Clicks the first element `buttons` matches whose text is `name`. */
export const clickButton = (panel: Page, buttons: string, name: string) =>
  panel.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(buttons)})].find((b) => b.textContent === ${JSON.stringify(name)}).click()`,
  );

/** Sets the text box or field `selector` to `value` as React hears it (the native value setter, then an input event). */
export const typeInto = (panel: Page, selector: string, value: string) =>
  panel.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, ${JSON.stringify(value)});
    el.dispatchEvent(new Event('input', { bubbles: true }));
  })()`);

/** Selects frame `frameId` in the list (mousedown, as a click does) and waits for its detail and page actions. */
export async function openFrame(panel: Page, frameId: number): Promise<void> {
  await panel.evaluate(
    `document.querySelector('[data-testid=frame-row][data-frame-id="${frameId}"]').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))`,
  );
  await panel.waitForSelector(`[data-testid=frame-detail][data-frame-id="${frameId}"]`);
  await panel.waitForSelector('[data-testid=page-actions]');
}

/** Opens frame `frameId`, presses `button` among its page actions and returns what the panel answered. */
export async function actOnFrame(panel: Page, frameId: number, button: string): Promise<string> {
  await openFrame(panel, frameId);
  await clickButton(panel, '[data-testid=page-actions] button', button);
  return shownText(panel, '[data-testid=page-action-outcome]', `the outcome of ${button}`);
}
