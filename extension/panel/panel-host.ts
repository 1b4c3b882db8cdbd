/**
 * panel-host.js: a classic script that panel.html runs before the app's module script (the
 * build injects it). It defines `window.wirescopePanelHost = { transport, theme }`
 * synchronously; the app (inspector-app/src/pages/panel-main.tsx) mounts on it.
 *
 * - tab: `devtools.inspectedWindow.tabId` inside DevTools, else `?tabId=N` (the same page in
 *   a normal tab: a detached window, tests);
 * - theme: `?theme=dark|light`, else DevTools' `devtools.panels.themeName`, else the OS's
 *   ('auto': the app follows it when it changes);
 * - outside an extension (no `runtime.id`, e.g. dist/app/panel.html served over http) it does
 *   nothing, so the app falls back to its in-page test transport.
 * The polyfill is required lazily: it throws when loaded outside an extension.
 */
import type { Browser } from 'webextension-polyfill';
import { PANEL_PORT_PREFIX } from '../shared/messages.js';
import type { Transport } from '../../inspector-app/src/protocol/transport.js';
import { openChromeDebugger, withDebuggerCapture } from '../debugger/with-debugger.js';
import { PortTransport } from './port-transport.js';

type Theme = 'light' | 'dark' | 'auto';
interface ExtensionGlobals {
  chrome?: { runtime?: { id?: string } };
  browser?: { runtime?: { id?: string } };
  wirescopePanelHost?: { transport: Transport; theme: Theme; debuggerCapture: boolean };
}

function extensionApi(): Browser | null {
  const g = globalThis as unknown as ExtensionGlobals;
  if (!g.browser?.runtime?.id && !g.chrome?.runtime?.id) return null;
  return require('webextension-polyfill') as Browser;
}

function pickTabId(api: Browser, params: URLSearchParams): number | null {
  const inspected = api.devtools?.inspectedWindow?.tabId;
  if (typeof inspected === 'number' && inspected >= 0) return inspected;
  const fromUrl = params.get('tabId');
  return fromUrl !== null && /^\d{1,15}$/.test(fromUrl) ? Number(fromUrl) : null;
}

function pickTheme(api: Browser, params: URLSearchParams): Theme {
  const forced = params.get('theme');
  if (forced === 'dark' || forced === 'light') return forced;
  const devtools = api.devtools?.panels?.themeName;
  if (devtools) return devtools === 'dark' ? 'dark' : 'light';
  return 'auto';
}

function install(): void {
  const api = extensionApi();
  if (!api) return;
  const params = new URLSearchParams(location.search);
  const tabId = pickTabId(api, params);
  if (tabId === null) {
    console.warn('wirescope: panel.html needs DevTools or ?tabId=N; showing the test transport');
    return;
  }
  const transport = new PortTransport({
    connect: () => {
      const port = api.runtime.connect({ name: PANEL_PORT_PREFIX + tabId });
      // Reading lastError marks it checked (Chrome logs "Unchecked runtime.lastError" otherwise).
      port.onDisconnect.addListener(() => void api.runtime.lastError);
      return port;
    },
    log: (m) => console.warn(m),
  });
  // Chrome: debugger capture mode (extension/debugger/), for the sockets of workers.
  const debuggerCapture = typeof __TARGET__ !== 'undefined' && __TARGET__ === 'chrome';
  const hosted = debuggerCapture
    ? withDebuggerCapture(transport, { tabId, openDebugger: openChromeDebugger, now: () => Date.now() })
    : transport;
  (globalThis as unknown as ExtensionGlobals).wirescopePanelHost = {
    transport: hosted,
    theme: pickTheme(api, params),
    debuggerCapture,
  };
}

install();
