import { MQTT_TYPES, type MqttType } from './mqtt-walker.js';
import { grouped } from '../core/grouped.js';

/**
 * MQTT over WebSocket is a byte stream: a packet may be split over several WebSocket messages
 * (mqtt.js in Node writes each part of a packet as its own message) and a message may hold
 * several packets. One `MqttReassembler` per connection and direction, fed its binary frames
 * in order, cuts each frame into pieces of packets and hands back every packet that took
 * more than one frame, whole, with where each part came from. Nothing throws: bytes that
 * cannot start a packet (a type of 0, fixed-header flags MQTT forbids, a remaining length
 * longer than 4 bytes) are an error with the frame offset, the packet in progress is dropped,
 * and the next frame is read as starting a packet again.
 */

/** A packet larger than this is not buffered (MQTT allows 256 MB; a frame list holds far less). */
export const MAX_REASSEMBLED_BYTES = 64 * 1024 * 1024;

/** One part of a packet that lies in a frame. */
export interface MqttPiece {
  /** Byte range in the frame. */
  readonly start: number;
  readonly end: number;
  /** The packet's number in this stream (from 0). */
  readonly packet: number;
  readonly type: MqttType;
  /** Which part of its packet (from 0). */
  readonly part: number;
  /** Where the piece starts in its packet. */
  readonly at: number;
  /** The piece holds the packet's last byte. */
  readonly completes: boolean;
}

export interface PacketPart {
  readonly frameId: number;
  /** Byte range in that frame. */
  readonly start: number;
  readonly end: number;
  /** Where the part starts in the packet. */
  readonly at: number;
}

/** A packet put together from the frames it was split over. */
export interface ReassembledPacket {
  readonly packet: number;
  readonly type: MqttType;
  readonly bytes: Uint8Array;
  readonly parts: readonly PacketPart[];
}

export interface StreamError {
  /** Offset in the frame. */
  readonly offset: number;
  readonly message: string;
}

export interface FeedResult {
  readonly pieces: readonly MqttPiece[];
  /** Packets this frame completed that began in an earlier frame. */
  readonly completed: readonly ReassembledPacket[];
  readonly error: StreamError | null;
}

interface Pending {
  readonly packet: number;
  readonly type: MqttType;
  /** The fixed header's bytes so far (type byte and remaining-length varint). */
  readonly head: number[];
  /** The packet's whole size once the remaining length is read. */
  total: number | null;
  size: number;
  readonly chunks: Uint8Array[];
  readonly parts: PacketPart[];
}

/** True when `type` carries these fixed-header flags in every MQTT version. */
function flagsValid(type: number, flags: number): boolean {
  if (type === 3) return ((flags >> 1) & 3) !== 3;
  if (type === 6 || type === 8 || type === 10) return flags === 2;
  return flags === 0;
}

export class MqttReassembler {
  private pending: Pending | null = null;
  private nextPacket = 0;

  /** The packet in progress (its type and parts so far), or null. */
  get inProgress(): { readonly packet: number; readonly type: MqttType; readonly parts: readonly PacketPart[] } | null {
    return this.pending;
  }

  /** Forgets the packet in progress (a frame of the stream was lost). */
  reset(): void {
    this.pending = null;
  }

  feed(frameId: number, bytes: Uint8Array): FeedResult {
    const pieces: MqttPiece[] = [];
    const completed: ReassembledPacket[] = [];
    const len = bytes.length;
    let pos = 0;
    const fail = (offset: number, message: string): FeedResult => {
      this.pending = null;
      return { pieces, completed, error: { offset, message } };
    };
    while (pos < len) {
      if (!this.pending) {
        const typeNo = bytes[pos] >> 4;
        const flags = bytes[pos] & 0x0f;
        if (typeNo === 0) return fail(pos, `byte ${pos} cannot start an MQTT packet: packet type 0 is reserved`);
        if (!flagsValid(typeNo, flags))
          return fail(
            pos,
            `byte ${pos} cannot start an MQTT packet: ${MQTT_TYPES[typeNo]} with fixed-header flags ${flags.toString(2).padStart(4, '0')}`,
          );
        this.pending = {
          packet: this.nextPacket++,
          type: MQTT_TYPES[typeNo],
          head: [],
          total: null,
          size: 0,
          chunks: [],
          parts: [],
        };
      }
      const p = this.pending;
      const start = pos;
      while (p.total === null && pos < len) {
        p.head.push(bytes[pos++]);
        p.size++;
        if (p.head.length < 2) continue;
        if (!(p.head[p.head.length - 1] & 0x80)) {
          let rl = 0;
          for (let i = p.head.length - 1; i >= 1; i--) rl = rl * 128 + (p.head[i] & 0x7f);
          p.total = p.head.length + rl;
          if (p.total > MAX_REASSEMBLED_BYTES)
            return fail(
              start,
              `the ${p.type} packet declares ${grouped(p.total)} bytes, more than the ${grouped(MAX_REASSEMBLED_BYTES)} reassembled`,
            );
        } else if (p.head.length === 5)
          return fail(pos - 1, `the ${p.type} packet's remaining length is longer than 4 bytes`);
      }
      if (p.total !== null) {
        const take = Math.min(p.total - p.size, len - pos);
        pos += take;
        p.size += take;
      }
      const completes = p.total !== null && p.size === p.total;
      const at = p.size - (pos - start);
      pieces.push({ start, end: pos, packet: p.packet, type: p.type, part: p.parts.length, at, completes });
      p.parts.push({ frameId, start, end: pos, at });
      // A packet whole in one frame is not copied: only split ones are put together.
      if (!completes || p.parts.length > 1) p.chunks.push(bytes.slice(start, pos));
      if (completes) {
        if (p.parts.length > 1)
          completed.push({ packet: p.packet, type: p.type, bytes: concat(p.chunks, p.size), parts: p.parts });
        this.pending = null;
      }
    }
    return { pieces, completed, error: null };
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
