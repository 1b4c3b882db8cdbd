/**
 * The DevTools page (manifest `devtools_page`): adds the wirescope panel. The panel page
 * gets DevTools' theme in its URL (panel-host.ts also reads `devtools.panels.themeName`).
 * Paths start at the extension root: Firefox resolves relative ones against this page.
 */
import browser from 'webextension-polyfill';

const theme = browser.devtools.panels.themeName === 'dark' ? 'dark' : 'light';
browser.devtools.panels.create('wirescope', '/icons/icon32.png', `/panel.html?theme=${theme}`).catch((e: unknown) => {
  console.error('wirescope: could not create the DevTools panel', e);
});

// Tells the background that DevTools is open on this tab while this page lives (for the
// capture option "only while DevTools is open"; options/capture-policy.ts). The port carries
// nothing; a stopped service worker drops it, so it is reopened.
const inspectedTab = browser.devtools.inspectedWindow.tabId;
function announce(): void {
  try {
    browser.runtime
      .connect({ name: `wirescope-devtools:${inspectedTab}` })
      .onDisconnect.addListener(() => setTimeout(announce, 100));
  } catch {
    /* the extension was reloaded: this DevTools page is stale */
  }
}
announce();
