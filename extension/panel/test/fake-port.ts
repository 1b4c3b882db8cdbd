/** Tests only: the panel's port to the background, played by the test. */
import type { PortLike } from '../port-transport.js';

/** A port that records what the panel posts; `receive` delivers a message from the background, `drop` ends it. */
export function fakePort() {
  const posted: unknown[] = [];
  const listeners: ((m: unknown) => void)[] = [];
  const gone: (() => void)[] = [];
  const port: PortLike & { posted: unknown[]; receive(m: unknown): void; drop(): void } = {
    posted,
    postMessage: (m) => void posted.push(m),
    disconnect() {},
    onMessage: { addListener: (l) => void listeners.push(l) },
    onDisconnect: { addListener: (l) => void gone.push(l as () => void) },
    receive: (m) => {
      for (const l of listeners) l(m);
    },
    drop: () => {
      for (const g of gone) g();
    },
  };
  return port;
}

/** Timers that run a timeout at once and never an interval. */
export const immediate = {
  setTimeout: (fn: () => void) => (fn(), 0),
  clearTimeout() {},
  setInterval: () => 0,
  clearInterval() {},
};
