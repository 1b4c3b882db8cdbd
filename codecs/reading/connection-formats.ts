/**
 * Per-connection evidence for format detection: which format each connection's frames
 * decoded as. A 1-byte frame reads as CBOR and as MessagePack (`2a` is -11 or 42); on a
 * connection whose other frames are MessagePack it is MessagePack. Only frames long enough
 * to be unambiguous count as evidence. Shared by the inspector's worker and the CLI's
 * session comparison (read-in-order.ts): the same evidence picks the same reading.
 */
const EVIDENCE_MIN_BYTES = 8;

export class ConnectionFormats {
  private readonly counts = new Map<string, Map<string, number>>();
  /** Each connection's negotiated subprotocol (kept through `clear`: the connections outlive their frames). */
  private readonly subprotocols = new Map<string, string>();
  /** The format a connection's URL names (kept through `clear`, as the subprotocols). */
  private readonly urlFormats = new Map<string, string>();
  /** The handshake each connection's frames showed (`graphql`; kept through `clear`: it says what the connection speaks). */
  private readonly handshakes = new Map<string, string>();

  /** The subprotocol a connection negotiated ('' or absent: none). */
  setSubprotocol(connectionId: string, subprotocol: string): void {
    if (subprotocol) this.subprotocols.set(connectionId, subprotocol);
    else this.subprotocols.delete(connectionId);
  }

  subprotocol(connectionId: string): string | undefined {
    return this.subprotocols.get(connectionId);
  }

  /** The connection's URL: some name their protocol (SockJS' `/<server>/<session>/websocket`). */
  setUrl(connectionId: string, url: string): void {
    const format = urlFormat(url);
    if (format) this.urlFormats.set(connectionId, format);
  }

  /** Notes a handshake a frame of the connection was (recognize.ts `handshakeOf`); undefined: none. */
  noteHandshake(connectionId: string, handshake: string | undefined): void {
    if (handshake) this.handshakes.set(connectionId, handshake);
  }

  /** The handshake the connection's frames showed, if any. */
  handshake(connectionId: string): string | undefined {
    return this.handshakes.get(connectionId);
  }

  /** Notes that a frame of `size` bytes on `connectionId` decoded whole as `format`. */
  record(connectionId: string, format: string | null, size: number): void {
    if (!format || size < EVIDENCE_MIN_BYTES) return;
    let byFormat = this.counts.get(connectionId);
    if (!byFormat) this.counts.set(connectionId, (byFormat = new Map()));
    byFormat.set(format, (byFormat.get(format) ?? 0) + 1);
  }

  /** The format the connection's URL names, else the one most of its frames decoded as, or null with no evidence. */
  preferred(connectionId: string): string | null {
    // The URL's word, like a subprotocol's, outweighs the counts (a SockJS client's frames are plain JSON).
    const named = this.urlFormats.get(connectionId);
    if (named) return named;
    const byFormat = this.counts.get(connectionId);
    if (!byFormat) return null;
    let best: string | null = null;
    let bestCount = 0;
    for (const [format, n] of byFormat) if (n > bestCount) [best, bestCount] = [format, n];
    return best;
  }

  clear(): void {
    this.counts.clear();
  }
}

/** SockJS' WebSocket transport: `…/<server id, 3 digits>/<session id>/websocket`. */
const SOCKJS_URL = /\/\d{3}\/[^/.?#]+\/websocket(?:[?#].*)?$/;

/** The format a connection's URL names, or null. */
export function urlFormat(url: string): string | null {
  return SOCKJS_URL.test(url) ? 'sockjs' : null;
}
