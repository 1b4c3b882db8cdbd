/**
 * What happens on a connection, as every live source reports it: the proxy's feed
 * (live-feed.ts) and the app's host protocol (inspector-app/src/protocol/messages.ts) carry
 * these same messages, the host protocol some with more fields. One definition each.
 */
import type { ConnectionInfo, WireFrame } from './types.js';

export interface ConnectionOpening {
  readonly type: 'connection-opening';
  readonly connectionId: string;
  readonly url: string;
  readonly time: number;
}

export type ConnectionOpened = { readonly type: 'connection-opened' } & ConnectionInfo;

export interface ConnectionClosed {
  readonly type: 'connection-closed';
  readonly connectionId: string;
  readonly code: number;
  readonly reason: string;
  readonly wasClean: boolean;
  readonly time: number;
}

export interface ConnectionError {
  readonly type: 'connection-error';
  readonly connectionId: string;
  readonly message: string;
  readonly time: number;
}

/** Frames in arrival order. */
export interface FramesArrived {
  readonly type: 'frames';
  readonly frames: readonly WireFrame[];
}

/** Frames the sender could not pass on (its buffer was full, a restart); never silent. */
export interface FramesDropped {
  readonly type: 'dropped';
  readonly count: number;
  readonly reason: string;
}
