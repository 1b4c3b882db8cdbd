/**
 * The hook's private line to the relay (see shared/channel.ts for the handshake): a
 * MessageChannel whose near port the hook keeps and whose far port it hands over once, by a
 * synchronous event on the window. Batches posted on the near port before the relay took the
 * far one wait in that port's queue, so nothing is lost to the order the content scripts run
 * in. The page never sees a batch: nothing goes through `window.postMessage` any more.
 */
import type { ChannelNames } from '../shared/channel.js';
import type { Natives } from './natives.js';

/**
 * Bytes that may wait in the port's queue while no relay took the far port (a frame where the
 * relay never runs): beyond it a post throws, and the batcher counts its frames as dropped,
 * instead of the queue growing for the document's lifetime.
 */
export const MAX_UNCLAIMED_BYTES = 4 << 20;

export interface HookChannel {
  /** Posts `message` to the relay, transferring `transfer`; throws as `postMessage` would. */
  post(message: unknown, transfer: ArrayBuffer[]): void;
  /** Calls `fn` with each message the relay posts back (the extension's actions). */
  listen(fn: (data: unknown) => void): void;
  /** True once the relay took the far port. */
  readonly handed: boolean;
  close(): void;
}

/** Opens the channel and offers its far port (now, and whenever the relay says it is ready); null without MessageChannel. */
export function openChannel(n: Natives, names: ChannelNames): HookChannel | null {
  const channel = n.newChannel();
  if (channel === null) return null;
  const near = channel.port1;
  const far = channel.port2;
  let handed = false;
  const offer = (): void => {
    if (handed) return;
    handed = !n.offerPort(names.offer, far);
    if (handed) n.unlistenWindow(names.ready, onReady);
  };
  const onReady = (e: Event): void => {
    if (handed) return;
    n.cancel(e);
    offer();
  };
  n.listenWindow(names.ready, onReady);
  offer();
  let unclaimed = 0;
  return {
    post(message, transfer) {
      if (!handed) {
        for (let i = 0; i < transfer.length; i++) unclaimed += n.abLength(transfer[i]!);
        if (unclaimed > MAX_UNCLAIMED_BYTES) throw new RangeError('no relay took the capture channel');
      }
      n.portPost(near, message, transfer);
    },
    listen(fn) {
      n.portOnMessage(near, (e) => {
        try {
          fn(n.portMessageData(e));
        } catch {
          /* never throw into the port's dispatch */
        }
      });
    },
    get handed() {
      return handed;
    },
    close(): void {
      n.unlistenWindow(names.ready, onReady);
      n.portClose(near);
    },
  };
}
