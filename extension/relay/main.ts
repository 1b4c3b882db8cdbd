/**
 * Content script, isolated world, `document_start`, all frames: forwards the hook's batches
 * to the background. Firefox structured-clones runtime messages, so bytes go as Uint8Array;
 * Chrome's messaging is JSON, or a structured clone from Chrome 148 (the manifest asks for
 * it): the relay probes (relay.ts) and sends base64 until it knows. The build's
 * `__TARGET__` decides (extension/build/globals.d.ts); without it, the extension URL's
 * scheme does.
 */
import { startRelay, type RelayPort } from './relay.js';

/** The slice of `chrome.runtime` used here (no @types/chrome needed). */
interface ChromeRuntime {
  connect(connectInfo: { name: string }): RelayPort;
  getURL(path: string): string;
  readonly lastError?: unknown;
}
declare const chrome: { readonly runtime: ChromeRuntime };

const runtime = chrome.runtime;
startRelay({
  win: window,
  runtime: {
    connect(name) {
      const port = runtime.connect({ name });
      // Reading lastError marks it checked (Chrome logs "Unchecked runtime.lastError" otherwise).
      port.onDisconnect.addListener(() => void runtime.lastError);
      return port;
    },
  },
  bytesAs: (
    typeof __TARGET__ !== 'undefined'
      ? __TARGET__ === 'firefox'
      : runtime.getURL('').startsWith('moz-extension:')
  )
    ? 'bytes'
    : 'probe',
  channelSecret: __CHANNEL_SECRET__,
});
