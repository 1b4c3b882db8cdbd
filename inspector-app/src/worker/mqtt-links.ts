/**
 * MQTT packets split across frames (mqtt.js in Node writes each part of a packet as its own
 * WebSocket message; any client may batch several packets in one): per connection and
 * direction a `MqttReassembler` (codecs) cuts each binary frame into pieces of packets as
 * frames arrive. The frame that completes a split packet lists as that packet (type, topic,
 * id, its decoded preview) and its detail names every part's frame; each part's row and
 * detail say which packet it belongs to and where that packet completes.
 *
 * A connection is MQTT when its subprotocol says so (`mqtt`, `mqttv3.1`) or once one of its
 * frames reads as an MQTT packet; from then on all its binary frames go through the stream.
 */
import {
  mqttWalker,
  previewValue,
  recognizeProtocol,
  SpanIndex,
  type DecodedFrame,
  type ProtocolInfo,
} from '../../../codecs/index.js';
import { MqttReassembler, type MqttPiece, type ReassembledPacket } from '../../../codecs/protocols/mqtt-stream.js';
import { holdsSplitPart, mqttPartsIndex, readsAsParts } from '../../../codecs/protocols/mqtt-parts.js';
import type { FrameSummary, IngestFrame } from './api.js';
import { framePreview } from './tree-nodes.js';

/** A packet that took more than one frame. */
interface SplitPacket {
  readonly type: string;
  /** Its parts' frames, in order. */
  readonly frames: number[];
  /** Each part's byte range in its frame (the packet is not kept: the frames hold its bytes). */
  readonly ranges: [number, number][];
  completedAt: number | null;
  info: ProtocolInfo | null;
  /** A one-line reading of the whole packet, once complete. */
  preview: string | null;
}

export interface LinkLine {
  readonly text: string;
  readonly frameIds: readonly number[];
}

const isMqttSubprotocol = (sub: string | undefined): boolean => sub !== undefined && /^mqtt/i.test(sub);

export class MqttLinks {
  private readonly streams = new Map<string, MqttReassembler>();
  private readonly mqttConnections = new Set<string>();
  /** Split packets by `connection direction packet`. */
  private readonly packets = new Map<string, SplitPacket>();
  /** The split packets each frame holds a part of, in the frame's order. */
  private readonly packetsOf = new Map<number, SplitPacket[]>();
  /** Frames whose list row came from the stream (a reassembled packet, a part): their bytes alone cannot say it. */
  private readonly rowFromStream = new Set<number>();
  /** The pieces of packets each frame holding a part of a split packet was cut into. */
  private readonly piecesOf = new Map<number, readonly MqttPiece[]>();

  constructor(private readonly subprotocolOf: (connectionId: string) => string | undefined) {}

  /** Sees a frame as it arrives; returns its row's protocol and preview when they come from the stream. */
  observe(frame: IngestFrame, protocol: ProtocolInfo | null): Pick<FrameSummary, 'protocol' | 'preview'> | null {
    const key = `${frame.connectionId} ${frame.direction}`;
    if (frame.lost) {
      // The packet in progress lost a part: it can never complete.
      this.streams.get(key)?.reset();
      return null;
    }
    if (frame.opcode !== 'binary') return null;
    if (!this.mqttConnections.has(frame.connectionId)) {
      if (!isMqttSubprotocol(this.subprotocolOf(frame.connectionId)) && protocol?.protocol !== 'mqtt') return null;
      this.mqttConnections.add(frame.connectionId);
    }
    let stream = this.streams.get(key);
    if (!stream) this.streams.set(key, (stream = new MqttReassembler()));
    const result = stream.feed(frame.frameId, frame.data);
    const mine: SplitPacket[] = [];
    for (const piece of result.pieces) {
      if (piece.part === 0 && piece.completes) continue;
      const id = `${key} ${piece.packet}`;
      let packet = this.packets.get(id);
      if (!packet)
        this.packets.set(
          id,
          (packet = { type: piece.type, frames: [], ranges: [], completedAt: null, info: null, preview: null }),
        );
      packet.frames.push(frame.frameId);
      packet.ranges.push([piece.start, piece.end]);
      mine.push(packet);
      if (piece.completes) {
        this.packets.delete(id);
        complete(packet, frame.frameId, result.completed.find((c) => c.packet === piece.packet)!);
      }
    }
    if (!mine.length) return null;
    this.packetsOf.set(frame.frameId, mine);
    if (!result.error && holdsSplitPart(result.pieces)) this.piecesOf.set(frame.frameId, result.pieces);
    const done = mine.filter((p) => p.completedAt === frame.frameId);
    const whole = result.pieces.filter((p) => p.part === 0 && p.completes).length;
    if (done.length) {
      this.rowFromStream.add(frame.frameId);
      const first = done[0];
      const more = done.length - 1 + whole;
      const info = first.info ?? { protocol: 'mqtt', message: first.type };
      const preview = first.preview ?? first.type;
      return {
        protocol: {
          name: 'mqtt',
          message: more ? `${info.message} +${more}` : info.message,
          event: info.event,
          id: info.id,
          quiet: info.quiet,
        },
        preview: `${preview} · reassembled from frames ${first.frames[0]}–${first.frames[first.frames.length - 1]}`,
      };
    }
    // Only parts of packets completed elsewhere (and perhaps whole ones the bytes already show).
    if (whole) return null;
    this.rowFromStream.add(frame.frameId);
    const part = mine[0];
    const which = part.frames.length;
    return {
      protocol: { name: 'mqtt', message: `${part.type} (part ${which})` },
      preview: `MQTT, part of ${part.type} packet (part ${which}, split across frames)`,
    };
  }

  /** Whether the frame's list row came from the stream (so reading its bytes again would lose it). */
  ownsRow(frameId: number): boolean {
    return this.rowFromStream.has(frameId);
  }

  /**
   * A frame holding parts of split packets read as those parts (format mqtt, each part a node
   * spanning its bytes), or null (also when it only starts a packet and reads whole and
   * plausibly as something else: codecs' `readsAsParts`). `readOwn`: the bytes read alone.
   */
  partsIndex(
    frame: { readonly frameId: number; readonly data: Uint8Array },
    readOwn: () => DecodedFrame,
  ): SpanIndex | null {
    const pieces = this.piecesOf.get(frame.frameId);
    return pieces && readsAsParts(pieces, readOwn()) ? mqttPartsIndex(frame.data, pieces) : null;
  }

  linesFor(frameId: number): LinkLine[] {
    const lines: LinkLine[] = [];
    for (const p of this.packetsOf.get(frameId) ?? []) {
      const name = `${p.type}${p.info?.event ? ` ${p.info.event}` : ''}`;
      if (p.completedAt === frameId) {
        lines.push({
          text: `${name} reassembled from ${p.frames.length} frames: ${p.frames.map((f, i) => `part ${i + 1} frame ${f}`).join(', ')}`,
          frameIds: p.frames,
        });
      } else {
        const i = p.frames.indexOf(frameId);
        lines.push(
          p.completedAt !== null
            ? {
                text: `part ${i + 1} of ${p.frames.length} of the ${name} completed at frame ${p.completedAt}`,
                frameIds: [p.completedAt],
              }
            : {
                text: `part ${i + 1} of a ${name} not completed (yet)`,
                frameIds: p.frames.filter((f) => f !== frameId),
              },
        );
      }
    }
    return lines;
  }

  /**
   * The whole packet a frame completes (its first, when several), put together again from its
   * parts' frames (`bytesOf`: the frame store), or null (not a completing frame, a part evicted).
   */
  reassembled(frameId: number, bytesOf: (frameId: number) => Uint8Array | undefined): Uint8Array | null {
    const p = this.packetsOf.get(frameId)?.find((x) => x.completedAt === frameId);
    if (!p) return null;
    const parts: Uint8Array[] = [];
    for (let i = 0; i < p.frames.length; i++) {
      const bytes = bytesOf(p.frames[i]);
      if (!bytes) return null;
      parts.push(bytes.subarray(p.ranges[i][0], p.ranges[i][1]));
    }
    const out = new Uint8Array(parts.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of parts) {
      out.set(b, at);
      at += b.length;
    }
    return out;
  }

  clear(): void {
    this.streams.clear();
    this.mqttConnections.clear();
    this.packets.clear();
    this.packetsOf.clear();
    this.rowFromStream.clear();
    this.piecesOf.clear();
  }
}

/** A PUBLISH as `topic payload`, other packets as their parts. */
function packetPreview(bytes: Uint8Array, info: ProtocolInfo): string {
  const index = new SpanIndex(bytes, mqttWalker, { depth: 1 });
  const payload =
    index.root >= 0 ? index.children(index.root).find((c) => index.value(index.keyOf(c)) === 'payload') : undefined;
  if (payload === undefined) return framePreview(index);
  const value = index.value(payload);
  let text: string;
  try {
    text =
      value instanceof Uint8Array
        ? `bytes(${value.length})`
        : (JSON.stringify(value, (_k, v) =>
            typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? `bytes(${v.length})` : v,
          ) ?? String(value));
  } catch {
    text = previewValue(index, payload, 100);
  }
  return `${info.event ?? ''} ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`.trim();
}

function complete(packet: SplitPacket, frameId: number, done: ReassembledPacket): void {
  packet.completedAt = frameId;
  const index = new SpanIndex(done.bytes, mqttWalker, { depth: 1 });
  packet.info = recognizeProtocol(index, 'mqtt');
  packet.preview = packetPreview(done.bytes, packet.info ?? { protocol: 'mqtt', message: packet.type });
}
