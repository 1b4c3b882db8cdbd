/**
 * The background (Chrome: MV3 service worker; Firefox: event page): relays connect on
 * `RELAY_PORT` and post `RelayBatch`es; TabBuffers keeps them per tab; panels connect on
 * `PANEL_PORT_PREFIX + tabId`, subscribe, get the backlog and then every new item live.
 * Listeners are registered synchronously at the top level, so a stopped service worker is
 * woken by the next relay or panel connection (with empty buffers; TabBuffers reports that).
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { RELAY_PORT, type PanelBatch } from '../shared/messages.js';
import { TabBuffers } from './tab-buffers.js';
import { installTestHooks } from './test-hooks.js';
import { isPanelRequest, isRelayBatch, panelPortTab, relayConfigFor } from './validate.js';

const buffers = new TabBuffers();
/** Live panel ports per inspected tab (subscribed ones only). */
const panels = new Map<number, Set<Runtime.Port>>();
const extensionOrigin = browser.runtime.getURL('');

function post(port: Runtime.Port, batch: PanelBatch): boolean {
  try {
    port.postMessage(batch);
    return true;
  } catch {
    return false; // disconnected meanwhile; onDisconnect removes it
  }
}

function onRelay(port: Runtime.Port): void {
  const tabId = port.sender?.tab?.id;
  if (tabId === undefined || tabId < 0) {
    port.disconnect();
    return;
  }
  port.onMessage.addListener((message: unknown) => {
    const config = relayConfigFor(message);
    if (config) {
      try {
        port.postMessage(config);
      } catch {
        /* gone: the relay keeps base64 */
      }
      return;
    }
    if (!isRelayBatch(message)) {
      console.warn('wirescope: refused a malformed relay message from tab', tabId);
      return;
    }
    const batch = buffers.ingest(tabId, message);
    if (!batch) return;
    for (const panel of panels.get(tabId) ?? []) post(panel, batch);
  });
}

function onPanel(port: Runtime.Port, tabId: number): void {
  // Only the extension's own pages may read a tab's capture.
  const sender = port.sender;
  if (sender?.id !== browser.runtime.id || (sender.url !== undefined && !sender.url.startsWith(extensionOrigin))) {
    port.disconnect();
    return;
  }
  port.onMessage.addListener((message: unknown) => {
    if (!isPanelRequest(message) || message.type !== 'panel-subscribe') return;
    for (const batch of buffers.backlog(tabId, message.since)) if (!post(port, batch)) return;
    let live = panels.get(tabId);
    if (!live) panels.set(tabId, (live = new Set()));
    live.add(port);
  });
  port.onDisconnect.addListener(() => {
    const live = panels.get(tabId);
    live?.delete(port);
    if (live?.size === 0) panels.delete(tabId);
  });
}

browser.runtime.onConnect.addListener((port) => {
  if (port.name === RELAY_PORT) return onRelay(port);
  const tabId = panelPortTab(port.name);
  if (tabId !== null) return onPanel(port, tabId);
});

browser.tabs.onRemoved.addListener((tabId) => {
  buffers.removeTab(tabId);
});

if (__TEST_HOOKS__) installTestHooks(browser);
