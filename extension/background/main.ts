/**
 * The background (Chrome: MV3 service worker; Firefox: event page): relays connect on
 * `RELAY_PORT` and post `RelayBatch`es; TabBuffers keeps them per tab; panels connect on
 * `PANEL_PORT_PREFIX + tabId`, subscribe, get the backlog and then every new item live, or,
 * while their tab floods, a `panel-held` status until the held items go out (flood-hold.ts).
 * The DevTools page connects `DEVTOOLS_PORT_PREFIX + tabId` while DevTools is open on a tab.
 * The capture options (options/capture-policy.ts, in `storage.local`) decide which batches
 * are kept; the others are only counted. Listeners are registered synchronously at the top
 * level, so a stopped service worker is woken by the next relay or panel connection (with
 * empty buffers; TabBuffers reports that).
 */
import browser, { type Runtime } from 'webextension-polyfill';
import { DEVTOOLS_PORT_PREFIX, RELAY_PORT, type PanelBatch, type PanelMessage } from '../shared/messages.js';
import {
  allowsActions,
  allowsCapture,
  DEFAULT_POLICY,
  notCapturedReason,
  parsePolicy,
  POLICY_KEY,
  type CapturePolicy,
} from '../options/capture-policy.js';
import { ActionRouter, parsePanelAction } from './frame-actions.js';
import { FloodHold, type PanelSink } from './flood-hold.js';
import { InterceptRouter, parsePanelHold, parsePanelRules } from './intercept-router.js';
import { TabBuffers } from './tab-buffers.js';
import { installTestHooks } from './test-hooks.js';
import { isPanelRequest, isRelayBatch, panelPortTab, relayConfigFor } from './validate.js';

const buffers = new TabBuffers();
/** Subscribed panels, and what each is sent live or held while its tab floods. */
const hold = new FloodHold(buffers, () => performance.now());
/** The hold's calm check (one timer for all tabs, only while some tab floods). */
let holdTimer: ReturnType<typeof setTimeout> | null = null;
/** DevTools pages and panels open per tab (ports), for the "only while DevTools is open" option. */
const inspectors = new Map<number, Set<Runtime.Port>>();
const extensionOrigin = browser.runtime.getURL('');

let policy: CapturePolicy = DEFAULT_POLICY;
/** Batches wait for the stored options (a woken service worker reads them first), so none is kept against them. */
const policyLoaded: Promise<void> = browser.storage.local.get(POLICY_KEY).then(
  (stored) => void (policy = parsePolicy(stored[POLICY_KEY])),
  () => undefined,
);
/** Open panel ports: each is told when the options turn its actions on or off. */
const panelPorts = new Set<Runtime.Port>();
const panelOptions = (): PanelMessage => ({ type: 'panel-options', actions: allowsActions(policy) });
browser.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local' || !(POLICY_KEY in changes)) return;
  const acted = allowsActions(policy);
  policy = parsePolicy(changes[POLICY_KEY]!.newValue);
  if (allowsActions(policy) !== acted) for (const port of panelPorts) post(port, panelOptions());
});

/** The panel's actions on the page (Send again, Deliver to page): who may, and where each goes. */
const actions = new ActionRouter({
  allowed: () => allowsActions(policy),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
});

/** Intercept rules per tab (only while the panel that set them is open) and hold actions. */
const intercepts = new InterceptRouter(actions, () => allowsActions(policy));

/** The relay's answer to an action, or null. */
function relayActionResult(m: unknown): { requestId: number; ok: boolean; error?: string } | null {
  if (typeof m !== 'object' || m === null) return null;
  const o = m as Record<string, unknown>;
  if (o.type !== 'relay-action-result' || typeof o.requestId !== 'number' || typeof o.ok !== 'boolean') return null;
  return typeof o.error === 'string'
    ? { requestId: o.requestId, ok: o.ok, error: o.error.slice(0, 500) }
    : { requestId: o.requestId, ok: o.ok };
}

function post(port: Runtime.Port, message: PanelMessage): boolean {
  try {
    port.postMessage(message);
    return true;
  } catch {
    return false; // disconnected meanwhile; onDisconnect removes it
  }
}

function forward(tabId: number, batch: PanelBatch | null): void {
  if (batch) hold.forward(tabId, batch);
  scheduleCalmCheck();
}

/** While a tab floods, checks for calm when it may have come (tick says when). */
function scheduleCalmCheck(): void {
  if (holdTimer !== null) return;
  const due = hold.tick();
  if (due === null) return;
  holdTimer = setTimeout(() => {
    holdTimer = null;
    scheduleCalmCheck();
  }, due);
}

const fromExtension = (port: Runtime.Port): boolean => {
  const sender = port.sender;
  return sender?.id === browser.runtime.id && (sender.url === undefined || sender.url.startsWith(extensionOrigin));
};

/** Acting on a page takes more: the sender is one of the extension's own pages, by its URL. */
const fromExtensionPage = (port: Runtime.Port): boolean => {
  const sender = port.sender;
  return sender?.id === browser.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(extensionOrigin);
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
    const answer = relayActionResult(message);
    if (answer) return actions.answered(port, answer.requestId, answer.ok, answer.error);
    if (!isRelayBatch(message)) {
      console.warn('wirescope: refused a malformed relay message from tab', tabId);
      return;
    }
    if (actions.documentSeen(message.documentId, tabId, port)) intercepts.documentSeen(message.documentId, tabId, port);
    void policyLoaded.then(() => {
      if (allowsCapture(policy, { url: frameUrl ?? message.documentUrl, devtoolsOpen: inspectors.has(tabId) })) {
        hold.ingest(tabId, message);
        scheduleCalmCheck();
      } else buffers.refuse(tabId, message, notCapturedReason(policy));
    });
  });
  port.onDisconnect.addListener(() => actions.relayGone(port));
}

function onPanel(port: Runtime.Port, tabId: number): void {
  // Only the extension's own pages may read a tab's capture.
  if (!fromExtension(port)) {
    port.disconnect();
    return;
  }
  track(inspectors, tabId, port);
  panelPorts.add(port);
  const sink: PanelSink = { post: (message) => post(port, message) };
  port.onMessage.addListener((message: unknown) => {
    const action = parsePanelAction(message);
    if (action) {
      if (fromExtensionPage(port)) void policyLoaded.then(() => actions.request(port, tabId, action));
      return;
    }
    const rules = parsePanelRules(message);
    if (rules) {
      if (fromExtensionPage(port)) void policyLoaded.then(() => intercepts.setRules(port, tabId, rules.rules));
      return;
    }
    const held = parsePanelHold(message);
    if (held) {
      if (fromExtensionPage(port)) void policyLoaded.then(() => intercepts.hold(port, tabId, held));
      return;
    }
    if (!isPanelRequest(message)) return;
    if (message.type === 'panel-release') return hold.release(tabId, sink);
    if (message.type !== 'panel-subscribe') return;
    void policyLoaded.then(() => post(port, panelOptions()));
    forward(tabId, buffers.flushRefused(tabId)); // to panels already live; this one gets it in the backlog
    hold.unsubscribe(tabId, sink); // a second subscribe on one port starts over from its `since`
    hold.subscribe(tabId, sink, message.since);
  });
  port.onDisconnect.addListener(() => {
    panelPorts.delete(port);
    actions.panelGone(port);
    intercepts.panelGone(port, tabId);
    hold.unsubscribe(tabId, sink);
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
  hold.removeTab(tabId);
  intercepts.removeTab(tabId);
});

if (__TEST_HOOKS__) {
  installTestHooks(browser);
  // For e2e tests and benches on test builds: why held items went out.
  (globalThis as unknown as { wirescopeHold: FloodHold }).wirescopeHold = hold;
}
