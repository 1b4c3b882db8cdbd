/**
 * panel.html, the extension's DevTools panel. Inside the extension, the panel host (extension/panel/panel-host.ts) hands
 * it an extension-port transport through `window.wirescopePanelHost` before this script
 * runs. Opened in a plain tab (tests, a detached window without the extension), it uses an
 * in-page test transport: `window.wirescopeTestHost.emit(message)` delivers host messages.
 */
import { MemoryTransport, type HostCapabilities, type Transport } from '../protocol/transport.js';
import { startDecodeWorker } from '../worker/client.js';
import { mount } from './mount.js';

interface PanelHost {
  readonly transport: Transport;
  /** 'auto': the system's, followed when it changes (a panel opened in a plain tab). */
  readonly theme: 'light' | 'dark' | 'auto';
  /** The extension can capture workers' sockets through the debugger (Chrome). */
  readonly debuggerCapture?: boolean;
}

const win = window as unknown as { wirescopePanelHost?: PanelHost; wirescopeTestHost?: MemoryTransport };
const params = new URLSearchParams(location.search);
let host = win.wirescopePanelHost;
if (!host) {
  const test = new MemoryTransport();
  win.wirescopeTestHost = test;
  const forced = params.get('theme');
  host = { transport: test, theme: forced === 'dark' || forced === 'light' ? forced : 'auto' };
}
// Inside the extension there is no paste page to link to; in a plain tab it sits beside panel.html.
const pastePageUrl = win.wirescopePanelHost ? undefined : new URL('paste.html', location.href).href;
const capabilities: HostCapabilities = {
  connect: false,
  sendFrames: false,
  files: true,
  theme: host.theme,
  keepOnNavigate: true,
  hostName: 'panel',
  pastePageUrl,
  debuggerCapture: host.debuggerCapture === true,
  // Inside the extension: Send again and Deliver to page (the background checks every request).
  ...(win.wirescopePanelHost ? { frameActions: ['send', 'deliver'] as const, intercept: true } : {}),
};
mount({ transport: host.transport, worker: startDecodeWorker(), capabilities });
