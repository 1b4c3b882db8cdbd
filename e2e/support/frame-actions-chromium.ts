/**
 * Acting on a frame from the extension's panel in Chromium (playwright-core): opening the
 * frame's detail, pressing one of its page actions and reading what the panel answered, and
 * waiting for an edit to be read as changed bytes.
 */
import type { Page } from 'playwright-core';

/** Selects frame `frameId` in the list (mousedown, as a click does) and waits for its detail. */
export async function openFrame(panel: Page, frameId: number): Promise<void> {
  await panel.locator(`[data-testid=frame-row][data-frame-id="${frameId}"]`).dispatchEvent('mousedown');
  await panel.locator(`[data-testid=frame-detail][data-frame-id="${frameId}"]`).waitFor();
}

/** Opens frame `frameId`, presses `button` (Send again, Deliver to page) and returns the outcome the panel shows. */
export async function actOnFrame(
  panel: Page,
  frameId: number,
  button: 'Send again' | 'Deliver to page',
): Promise<string> {
  await openFrame(panel, frameId);
  // The click clears the last outcome (a discrete event: React renders before click() returns).
  await panel.getByRole('button', { name: button }).click();
  const outcome = panel.getByTestId('page-action-outcome');
  await outcome.waitFor({ timeout: 10_000 });
  return (await outcome.textContent()) ?? '';
}

/** Waits until the open editor reads its text as bytes that differ from the frame's ("… first at offset N"). */
export async function waitForEditChange(panel: Page): Promise<void> {
  await panel
    .getByTestId('edit-change')
    .filter({ hasText: /first at offset \d+/ })
    .waitFor();
}
