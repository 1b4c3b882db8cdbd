import { describe, expect, it } from 'vitest';
import type { HostMessage } from '../../inspector-app/src/protocol/messages.js';
import { isHostMessage } from '../../inspector-app/src/protocol/messages.js';
import { PortTransport, type PortLike, type Timers } from './port-transport.js';

/** The background's side of a panel port: what it posts reaches the transport's listener. */
class FakePort implements PortLike {
  private readonly listeners: ((m: unknown) => void)[] = [];
  readonly onMessage = { addListener: (l: (m: unknown) => void) => void this.listeners.push(l) };
  readonly onDisconnect = { addListener: () => {} };
  postMessage(): void {}
  disconnect(): void {}
  receive(m: unknown): void {
    for (const l of this.listeners) l(m);
  }
}

const timers: Timers = {
  setTimeout: () => 0,
  clearTimeout: () => {},
  setInterval: () => 0,
  clearInterval: () => {},
};

describe('the "Act on the page" option reaches the app', () => {
  it('turns panel-options into page-actions host messages, as the option changes, and ignores a bad shape', () => {
    const port = new FakePort();
    const transport = new PortTransport({ connect: () => port, timers, pingMs: 0 });
    const got: HostMessage[] = [];
    transport.listen((m) => got.push(m));
    port.receive({ type: 'panel-options', actions: false });
    port.receive({ type: 'panel-options', actions: 'no' });
    port.receive({ type: 'panel-options', actions: true });
    const options = got.filter((m) => m.type === 'page-actions');
    expect(options).toEqual([
      { type: 'page-actions', allowed: false },
      { type: 'page-actions', allowed: true },
    ]);
    for (const m of options) expect(isHostMessage(m)).toBe(true);
    expect(isHostMessage({ type: 'page-actions', allowed: 1 })).toBe(false);
  });
});
