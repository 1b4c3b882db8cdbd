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
