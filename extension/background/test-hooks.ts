/**
 * Test builds only (`build-ext.ts --test-build`, dist/*-test): lets an end-to-end test open
 * the extension's own panel.html in a tab. Firefox's WebDriver BiDi refuses to navigate to
 * moz-extension:// URLs, so the page asks instead: it posts
 * `{ wirescopeTest: 'open-panel-tab' }` to itself, test-content.ts (a content script present
 * only in test builds) forwards it here, and the reply comes back to the page as
 * `{ wirescopeTest: 'panel-tab-opened', url, tabId, panelTabId }`.
 * Production bundles never import this module (asserted by extension/build/bundle.test.ts).
 */
import type { Browser, Runtime } from 'webextension-polyfill';

export const OPEN_PANEL_TAB = 'wirescope-test/open-panel-tab';

export function installTestHooks(api: Browser): void {
  api.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
    const m = message as { type?: unknown } | null;
    if (m?.type !== OPEN_PANEL_TAB || sender.id !== api.runtime.id) return undefined;
    const tabId = sender.tab?.id;
    if (tabId === undefined) return undefined;
    const url = api.runtime.getURL(`panel.html?tabId=${tabId}`);
    return api.tabs.create({ url, active: true }).then((tab) => ({ url, tabId, panelTabId: tab.id ?? -1 }));
  });
}
