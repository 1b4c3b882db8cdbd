/**
 * What the hook keeps per observed socket, shared by the recorder (its order queue) and the
 * intercept (its held frames): types only, so neither module imports the other.
 */
import type { Direction, InterceptRule, SocketEvent } from '../shared/messages.js';

export interface Slot {
  ev: SocketEvent | null;
  flags: number;
  time: number;
  /** The frame's own copy (null for events, unread Blobs and unreadable ones). */
  data: ArrayBuffer | null;
  bytes: number;
  ready: boolean;
}

export interface SocketState {
  readonly id: number;
  queue: (Slot | undefined)[];
  head: number;
  /** Set while an intercept rule applies to the socket or its frames wait (intercept.ts); else null. */
  intercept: SocketIntercept | null;
}

/** A rule ready to match: its URL glob cut at the '*'s, its needle as text and as UTF-8 bytes. */
export interface Compiled {
  readonly rule: InterceptRule;
  readonly glob: string[];
  readonly needle: string;
  readonly needleBytes: Uint8Array;
}

export interface Held {
  readonly seq: number;
  /** Received: what the event carried (string, ArrayBuffer or Blob). Sent: the hook's own copy (string, ArrayBuffer or Blob). */
  data: unknown;
  readonly bytes: number;
  readonly kind: number;
  readonly due: number;
}

export interface Lane {
  readonly direction: Direction;
  rules: Compiled[];
  items: (Held | undefined)[];
  head: number;
  heldBytes: number;
  nextSeq: number;
  forwarded: number;
  dropped: number;
  lost: number;
  timer: unknown;
}

/** One observed socket's intercept state (SocketState.intercept while a rule applies or frames wait). */
export interface SocketIntercept {
  readonly ws: WebSocket;
  readonly state: SocketState;
  readonly sent: Lane;
  readonly received: Lane;
}
