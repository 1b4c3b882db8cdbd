/**
 * Tests only: plays the hook's side of the private channel's handshake (shared/channel.ts)
 * with a port whose messages the test delivers synchronously, one `onmessage` call each, as
 * the browser delivers one port message per task. Call after `startRelay` (or before: it
 * answers the relay's `ready` too).
 */
import { channelNames } from '../../shared/channel.js';

export function hookLine(win: Window & typeof globalThis, secret = ''): (data: unknown) => void {
  const names = channelNames(secret);
  const port = { onmessage: null as ((e: { data: unknown }) => void) | null, close() {} };
  let taken = false;
  const offer = () => {
    if (!taken)
      taken = !win.dispatchEvent(
        new win.MessageEvent(names.offer, { cancelable: true, ports: [port as unknown as MessagePort] }),
      );
  };
  win.addEventListener(names.ready, offer);
  offer();
  return (data) => port.onmessage?.({ data });
}
