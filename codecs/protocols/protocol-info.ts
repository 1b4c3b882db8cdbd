/** What protocol recognition says of a frame (a leaf: recognize.ts and the protocol readers both import it). */
/**
 * The framing protocol a decoded frame belongs to, from its shape (and the connection's
 * subprotocol when known): what the list's protocol and event/topic columns show. Reads the
 * top two levels only, so it stays cheap on a large frame.
 */
export interface ProtocolInfo {
  /** `socket.io`, `engine.io`, `phoenix`, `graphql-ws`, `subscriptions-transport-ws`, `centrifugo`, `wamp`, `mqtt`, `stomp`, `signalr`, `sockjs`, `pusher`, `actioncable`, `nostr`. */
  readonly protocol: string;
  /** The message type in the protocol's own words (`EVENT`, `subscribe`, `phx_reply`, `PUBLISH`). */
  readonly message: string;
  /** Event name, topic or channel. */
  readonly event?: string;
  /** Operation / ack / ref id linking requests to replies. */
  readonly id?: string;
  /** Keep-alives (ping/pong, heartbeats): shown quietly, filterable. */
  readonly quiet?: boolean;
  /** Socket.IO BINARY_EVENT / BINARY_ACK: how many binary frames follow it as its attachments. */
  readonly attachments?: number;
}
