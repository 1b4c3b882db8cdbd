/**
 * Content script of test builds only (see test-hooks.ts): forwards the page's
 * `{ wirescopeTest: 'open-panel-tab' }` to the background and posts the answer back.
 */
import browser from 'webextension-polyfill';
import { OPEN_PANEL_TAB } from './test-hooks.js';

window.addEventListener('message', (event: MessageEvent) => {
  const data = event.data as { wirescopeTest?: unknown } | null;
  if (event.source !== window || data?.wirescopeTest !== 'open-panel-tab') return;
  browser.runtime.sendMessage({ type: OPEN_PANEL_TAB }).then(
    (answer: unknown) => window.postMessage({ wirescopeTest: 'panel-tab-opened', ...(answer as object) }, '*'),
    (e: unknown) => window.postMessage({ wirescopeTest: 'panel-tab-failed', error: String(e) }, '*'),
  );
});
