/**
 * Hooks of related same-origin windows (a page and its about:blank / srcdoc iframes) find
 * each other, so that a frame sent on one window's socket through another window's `send`
 * (`iframe.contentWindow.WebSocket.prototype.send.call(ws, x)`: the page reaching for a
 * "pristine" send) is sent and recorded by the hook that owns the socket.
 *
 * A hook joins by dispatching a CustomEvent named by the build's secret (shared/channel.ts)
 * on the highest window it can reach (`top`, else `parent`), with a box in `detail`; a hook
 * there answers by putting its registry (a list of peers, in its realm) in the box. Every
 * hook also answers for its own window with the registry it ended up in, so a whole tree of
 * same-origin windows shares one list. The page cannot listen for or dispatch the event (it
 * does not know the name), nor reach the registry. A peer leaves on its window's `pagehide`.
 *
 * The name's secret ships in hook.js, so a page that reads it can reach the registry all the
 * same. What a peer offers is therefore only what the page can do itself: `send` sends the
 * frame on the socket (the owner's own send: the native, then the record) — there is no way
 * to have a frame recorded that was not sent, so a page in the registry cannot fake a frame
 * in the capture. The hook's channel to the relay is not reachable from the registry.
 */
import type { Natives } from './natives.js';

/** What a hook offers its peers: sending (and recording) a frame on one of its sockets, as its own `send` does. */
export interface Peer {
  /** When `ws` is one of this hook's sockets: `ws.send(...args)` through the hook's send (true); else false, nothing done. */
  send(ws: unknown, args: unknown[]): boolean;
  owns(ws: unknown): boolean;
}

interface Registry {
  readonly list: Peer[];
}

export interface Peers {
  /** True when another hook owns `ws`. */
  owns(ws: unknown): boolean;
  /** Has the hook owning `ws` send (and record) the frame; false when none does (nothing sent). */
  send(ws: unknown, args: unknown[]): boolean;
  leave(): void;
}

const MAX_PEERS = 1024;

export function joinPeers(n: Natives, eventName: string, me: Peer): Peers {
  let registry: Registry = { list: [] };
  const box: { registry: Registry | null } = { registry: null };
  for (const target of n.ancestors()) {
    try {
      n.dispatchDetail(target, eventName, box);
    } catch {
      /* cross-origin: try the next one */
    }
    if (box.registry !== null) break;
  }
  if (box.registry !== null && box.registry.list.length < MAX_PEERS) registry = box.registry;
  const list = registry.list;
  list[list.length] = me; // not push(): Array.prototype is the page's to patch
  // Later windows below this one join the same registry.
  const onJoin = (e: Event): void => {
    const asked = n.detailOf(e) as { registry: Registry | null } | null;
    if (asked && typeof asked === 'object' && asked.registry === null) asked.registry = registry;
  };
  n.listenWindow(eventName, onJoin);
  const others = (fn: (p: Peer) => boolean): boolean => {
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      if (p !== me && p !== undefined && fn(p)) return true;
    }
    return false;
  };
  const leave = (): void => {
    n.unlistenWindow(eventName, onJoin);
    n.unlistenWindow('pagehide', leave);
    for (let i = 0; i < list.length; i++) {
      if (list[i] !== me) continue;
      for (let j = i; j < list.length - 1; j++) list[j] = list[j + 1]!;
      list.length = list.length - 1;
      break;
    }
  };
  n.listenWindow('pagehide', leave);
  return {
    owns: (ws) => list.length > 1 && others((p) => p.owns(ws)),
    send: (ws, args) => others((p) => p.send(ws, args)),
    leave,
  };
}
