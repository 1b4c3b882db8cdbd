/**
 * The background (Chrome: MV3 service worker; Firefox: event page): relays connect on
 * `RELAY_PORT` and post `RelayBatch`es; TabBuffers keeps them per tab; panels connect on
 * `PANEL_PORT_PREFIX + tabId`, subscribe, get the backlog and then every new item live.
 * The DevTools page connects `DEVTOOLS_PORT_PREFIX + tabId` while DevTools is open on a tab.
 * The capture options (options/capture-policy.ts, in `storage.local`) decide which batches
 * are kept; the others are only counted. Listeners are registered synchronously at the top
 * level, so a stopped service worker is woken by the next relay or panel connection (with
 * empty buffers; TabBuffers reports that).
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { DEVTOOLS_PORT_PREFIX, RELAY_PORT, type PanelBatch } from '../shared/messages.js';
import { allowsCapture, DEFAULT_POLICY, notCapturedReason, parsePolicy, POLICY_KEY, type CapturePolicy } from '../options/capture-policy.js';
import { TabBuffers } from './tab-buffers.js';
import { installTestHooks } from './test-hooks.js';
import { isPanelRequest, isRelayBatch, panelPortTab, relayConfigFor } from './validate.js';

const buffers = new TabBuffers();
/** Live panel ports per inspected tab (subscribed ones only). */
const panels = new Map<number, Set<Runtime.Port>>();
/** DevTools pages and panels open per tab (ports), for the "only while DevTools is open" option. */
const inspectors = new Map<number, Set<Runtime.Port>>();
const extensionOrigin = browser.runtime.getURL('');

let policy: CapturePolicy = DEFAULT_POLICY;
/** Batches wait for the stored options (a woken service worker reads them first), so none is kept against them. */
const policyLoaded: Promise<void> = browser.storage.local.get(POLICY_KEY).then(
  (stored) => void (policy = parsePolicy(stored[POLICY_KEY])),
  () => undefined,
);
browser.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && POLICY_KEY in changes) policy = parsePolicy(changes[POLICY_KEY]!.newValue);
});

function post(port: Runtime.Port, batch: PanelBatch): boolean {
  try {
    port.postMessage(batch);
    return true;
  } catch {
    return false; // disconnected meanwhile; onDisconnect removes it
  }
}

function forward(tabId: number, batch: PanelBatch | null): void {
  if (batch) for (const panel of panels.get(tabId) ?? []) post(panel, batch);
}

const fromExtension = (port: Runtime.Port): boolean => {
  const sender = port.sender;
  return sender?.id === browser.runtime.id && (sender.url === undefined || sender.url.startsWith(extensionOrigin));
};

function track(map: Map<number, Set<Runtime.Port>>, tabId: number, port: Runtime.Port): void {
  let set = map.get(tabId);
  if (!set) map.set(tabId, (set = new Set()));
  set.add(port);
}

/** Removes `port`; true when it was the tab's last. */
function untrack(map: Map<number, Set<Runtime.Port>>, tabId: number, port: Runtime.Port): boolean {
  const set = map.get(tabId);
  if (!set?.delete(port) || set.size) return false;
  map.delete(tabId);
  return true;
}

function onRelay(port: Runtime.Port): void {
  const tabId = port.sender?.tab?.id;
  if (tabId === undefined || tabId < 0) {
    port.disconnect();
    return;
  }
  // The frame's URL as the browser knows it (the batch's own URL is what the page's process says).
  const frameUrl = port.sender?.url;
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
    void policyLoaded.then(() => {
      if (allowsCapture(policy, { url: frameUrl ?? message.documentUrl, devtoolsOpen: inspectors.has(tabId) })) forward(tabId, buffers.ingest(tabId, message));
      else buffers.refuse(tabId, message, notCapturedReason(policy));
    });
  });
}

function onPanel(port: Runtime.Port, tabId: number): void {
  // Only the extension's own pages may read a tab's capture.
  if (!fromExtension(port)) {
    port.disconnect();
    return;
  }
  track(inspectors, tabId, port);
  port.onMessage.addListener((message: unknown) => {
    if (!isPanelRequest(message) || message.type !== 'panel-subscribe') return;
    forward(tabId, buffers.flushRefused(tabId)); // to panels already live; this one gets it in the backlog
    for (const batch of buffers.backlog(tabId, message.since)) if (!post(port, batch)) return;
    track(panels, tabId, port);
  });
  port.onDisconnect.addListener(() => {
    untrack(panels, tabId, port);
    if (untrack(inspectors, tabId, port)) inspectorsGone(tabId);
  });
}

function onDevtools(port: Runtime.Port, tabId: number): void {
  if (!fromExtension(port)) {
    port.disconnect();
    return;
  }
  track(inspectors, tabId, port);
  port.onDisconnect.addListener(() => {
    if (untrack(inspectors, tabId, port)) inspectorsGone(tabId);
  });
}

/** The last DevTools window or panel on a tab closed: with "only while DevTools is open", nothing is kept for it. */
function inspectorsGone(tabId: number): void {
  if (policy.mode === 'devtools') buffers.clearTab(tabId);
}

browser.runtime.onConnect.addListener((port) => {
  if (port.name === RELAY_PORT) return onRelay(port);
  const tabId = panelPortTab(port.name);
  if (tabId !== null) return onPanel(port, tabId);
  const inspected = panelPortTab(port.name, DEVTOOLS_PORT_PREFIX);
  if (inspected !== null) return onDevtools(port, inspected);
});

browser.tabs.onRemoved.addListener((tabId) => {
  buffers.removeTab(tabId);
});

if (__TEST_HOOKS__) installTestHooks(browser);
