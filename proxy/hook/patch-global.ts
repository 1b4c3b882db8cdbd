/**
 * Captures Node's global `WebSocket` (undici's; Node 22+, or 20 with
 * `--experimental-websocket`): the global is replaced by a subclass whose constructor adds
 * its own listeners and whose `send` records before sending. Instances are still
 * `instanceof` the original, with the same statics and events. Received Blobs (the default
 * `binaryType`) are read in arrival order.
 */
import type { Tap } from './tap.js';
import { bytesOf } from './tap.js';

interface DomSocket {
  readonly url: string;
  readonly protocol: string;
  readonly extensions: string;
  readonly readyState: number;
  addEventListener(
    type: string,
    listener: (event: { data?: unknown; code?: number; reason?: string; wasClean?: boolean }) => void,
  ): void;
  send(data: unknown): void;
}

export function hookGlobalWebSocket(tap: Tap): boolean {
  const Original = (globalThis as { WebSocket?: new (url: string | URL, protocols?: string | string[]) => DomSocket })
    .WebSocket;
  if (typeof Original !== 'function') return false;
  const ids = new WeakMap<object, string>();
  class WebSocket extends Original {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      try {
        const id = tap.newId();
        ids.set(this, id);
        // Blobs are read asynchronously; what arrives while one is read waits behind it.
        let order: Promise<void> = Promise.resolve();
        let reading = 0;
        const inOrder = (record: () => void | Promise<void>): void => {
          if (reading === 0) {
            void record();
            return;
          }
          order = order.then(record);
        };
        this.addEventListener('open', () => tap.opened(id, this.url, this.protocol, this.extensions));
        this.addEventListener('message', (event) => {
          const data = event.data;
          if (data instanceof Blob) {
            reading++;
            order = order.then(async () => {
              tap.message(id, 'received', 'binary', new Uint8Array(await data.arrayBuffer()));
              reading--;
            });
            return;
          }
          const view = bytesOf(data);
          // Waiting behind a Blob, the bytes are copied (the app may change its buffer meanwhile).
          const bytes = view && reading > 0 ? Buffer.from(view) : view;
          if (bytes) inOrder(() => tap.message(id, 'received', typeof data === 'string' ? 'text' : 'binary', bytes));
        });
        this.addEventListener('close', (event) => {
          inOrder(() => tap.closed(id, event.code ?? 1005, event.reason ?? '', event.wasClean ?? false));
        });
      } catch {
        // recording never breaks the app
      }
    }
    send(data: unknown): void {
      try {
        const id = ids.get(this);
        if (id && this.readyState === 1) {
          if (typeof data === 'string') tap.message(id, 'sent', 'text', bytesOf(data)!);
          else if (data instanceof Blob) {
            // The bytes come later; the message is recorded when they do.
            void data.arrayBuffer().then((b) => tap.message(id, 'sent', 'binary', new Uint8Array(b)));
          } else {
            const bytes = bytesOf(data);
            if (bytes) tap.message(id, 'sent', 'binary', bytes);
          }
        }
      } catch {
        // recording never breaks the app
      }
      super.send(data);
    }
  }
  Object.defineProperty(globalThis, 'WebSocket', {
    value: WebSocket,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return true;
}
