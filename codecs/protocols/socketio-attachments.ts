import type { ProtocolInfo } from './protocol-info.js';

/**
 * Socket.IO's binary attachments, as frames arrive: a BINARY_EVENT / BINARY_ACK announcing N
 * placeholders is followed, in the same direction, by N binary frames holding them. Their
 * bytes alone cannot say whose they are (nor what they are: an upload's bytes are anything).
 */
export interface Attachment {
  readonly eventFrame: number;
  readonly event: string | undefined;
  /** Which attachment (from 0) of how many. */
  readonly num: number;
  readonly total: number;
}

export class SocketIoAttachments {
  /** Attachments still expected, by `connection direction`. */
  private readonly pending = new Map<
    string,
    { eventFrame: number; event: string | undefined; total: number; next: number }
  >();

  /** Forgets the attachments still expected (a cleared list). */
  clear(): void {
    this.pending.clear();
  }

  /** Sees a frame of `stream` (one connection and direction); returns whose attachment it is, or null. */
  observe(
    stream: string,
    frameId: number,
    opcode: 'text' | 'binary',
    protocol: ProtocolInfo | null,
  ): Attachment | null {
    const waiting = this.pending.get(stream);
    if (waiting && opcode === 'binary') {
      const num = waiting.next++;
      if (waiting.next >= waiting.total) this.pending.delete(stream);
      return { eventFrame: waiting.eventFrame, event: waiting.event, num, total: waiting.total };
    }
    // A text frame in that direction before all attachments came: the rest never will.
    if (waiting) this.pending.delete(stream);
    if (protocol?.protocol === 'socket.io' && protocol.attachments)
      this.pending.set(stream, { eventFrame: frameId, event: protocol.event, total: protocol.attachments, next: 0 });
    return null;
  }
}
