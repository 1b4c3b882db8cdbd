/**
 * What a capture file holds: connections and the frames on them. Declared here, in codecs/,
 * so the CLI (`compare --session`) reads capture files without the app; the app's host
 * protocol (inspector-app/src/protocol/messages.ts) carries these same types.
 */
export type Direction = 'sent' | 'received';
export type Opcode = 'text' | 'binary';

/** One WebSocket frame as a host captured it. Text frames carry their UTF-8 bytes. */
export interface WireFrame {
  readonly connectionId: string;
  readonly direction: Direction;
  /** Wall-clock time in ms since the epoch (fractional allowed). */
  readonly time: number;
  readonly opcode: Opcode;
  readonly data: Uint8Array;
  /** 'wirescope': wirescope itself sent it on the socket or delivered it to the page (absent: the page's own traffic). */
  readonly origin?: 'wirescope';
  /** The extension panel's intercept rules held the frame (Forward / Drop act on it) or dropped it (absent: neither). */
  readonly intercepted?: 'held' | 'dropped';
  /**
   * Through `wirescope proxy`: the bytes this message took on each leg's socket (frame heads
   * and payload as sent, compressed where that leg's permessage-deflate compressed it); null
   * for a leg it did not cross (not forwarded: that side had closed).
   */
  readonly legBytes?: LegBytes;
}

export interface LegBytes {
  /** Between the client and the proxy. */
  readonly client: number | null;
  /** Between the proxy and the upstream server. */
  readonly upstream: number | null;
}

export interface ConnectionInfo {
  readonly connectionId: string;
  readonly url: string;
  /** The negotiated subprotocol ('' when none). */
  readonly protocol: string;
  /** The negotiated Sec-WebSocket-Extensions ('' when none, or when not recorded: see extensionsRecorded). */
  readonly extensions: string;
  /** With `extensions` '': true when the capture recorded that none was negotiated; absent, '' means not recorded. */
  readonly extensionsRecorded?: boolean;
  /** Through a proxy: the Sec-WebSocket-Extensions the proxy's upstream leg negotiated (`extensions` is the client's leg). */
  readonly upstreamExtensions?: string;
  readonly time: number;
}
