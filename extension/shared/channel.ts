/**
 * The names of the events on which the page hook (MAIN world) hands the relay (isolated
 * world) the far port of its private MessageChannel, once, at `document_start`.
 *
 * Both content scripts run before any page script, in an order the browsers do not promise,
 * so the handshake works either way: the hook dispatches `offer` (a MessageEvent carrying
 * the port) when it installs, and again whenever it hears `ready`, which the relay
 * dispatches when it starts; the relay takes the first offer (cancelling the event tells
 * the hook it was taken) and stops listening. Events are dispatched synchronously, so the
 * handshake is over before the page runs. The names carry a secret drawn at build time
 * (`__CHANNEL_SECRET__`), so a page that gets to run in a frame before the content scripts
 * (see extension/README.md) cannot guess them; `probe` is how a second copy of the hook in the
 * same window learns that one is installed.
 */
import { CAPTURE_TAG } from './messages.js';

export interface ChannelNames {
  /** Hook → relay: a MessageEvent whose `ports[0]` is the relay's end of the channel. */
  readonly offer: string;
  /** Relay → hook: "I am here, offer (again)". */
  readonly ready: string;
  /** A hook answers it (by cancelling it) so a second install in the window backs off. */
  readonly probe: string;
  /** Hooks of related same-origin windows find each other (hook/peers.ts). */
  readonly peers: string;
}

export function channelNames(secret: string): ChannelNames {
  return {
    offer: `${CAPTURE_TAG}:offer:${secret}`,
    ready: `${CAPTURE_TAG}:ready:${secret}`,
    probe: `${CAPTURE_TAG}:probe:${secret}`,
    peers: `${CAPTURE_TAG}:peers:${secret}`,
  };
}
