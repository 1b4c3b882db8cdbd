/**
 * `wirescope inspect --session capture.(har|wirescope)`: every frame of a capture read with its
 * connection's context, as the inspector's list reads it (read-in-order.ts: the connection's
 * subprotocol, the evidence of its earlier frames — a SignalR handshake, an MQTT connection's
 * packets — and its compressed streams). An MQTT connection's binary frames are put back
 * together per direction as the app does (aedes writes a packet a part per frame): a part is
 * "MQTT, part of a packet", the frame that completes one reads as that packet. One line per
 * frame; with --json one JSON object per line.
 */
import { directionMark } from '../capture/direction-mark.js';
import { readCaptureSession } from '../compare/session/capture-input.js';
import { decodeFrame, isPartOfMessage, subprotocolHint, type DecodedFrame } from '../index.js';
import { mqttPartLabel, readsAsParts } from '../protocols/mqtt-parts.js';
import { MqttReassembler, type ReassembledPacket } from '../protocols/mqtt-stream.js';
import { SocketIoAttachments, type Attachment } from '../protocols/socketio-attachments.js';
import { handshakeOf, recognizeProtocol } from '../protocols/recognize.js';
import { newReadState, readInOrder } from '../reading/read-in-order.js';
import type { InspectArgs } from './args.js';

export interface SessionInspection {
  readonly stdout: string;
  readonly stderr: string;
  /** Some frame is malformed (a part of a packet is not). */
  readonly malformed: boolean;
  readonly usageError?: string;
}

export function inspectSession(raw: Uint8Array, args: Pick<InspectArgs, 'json'>): SessionInspection {
  const session = readCaptureSession(raw);
  if ('error' in session) return { stdout: '', stderr: '', malformed: false, usageError: session.error };
  const state = newReadState();
  for (const c of session.connections) {
    if (c.subprotocol) state.formats.setSubprotocol(c.connectionId, c.subprotocol);
    if (c.url) state.formats.setUrl(c.connectionId, c.url);
  }
  // Connections numbered 1, 2, … in the order they appear, as the inspector's list numbers them (#1, #2).
  const connectionLabels = new Map(session.connections.map((c, i) => [c.connectionId, String(i + 1)]));
  const lines: string[] = [];
  let malformed = false;
  const reassemblers = new Map<string, MqttReassembler>();
  const attachments = new SocketIoAttachments();
  const isMqtt = (id: string) =>
    subprotocolHint(state.formats.subprotocol(id))?.protocol === 'mqtt' || state.formats.preferred(id) === 'mqtt';
  for (const [at, m] of session.messages.entries()) {
    const number = m.number ?? at + 1;
    const frame = {
      connectionId: m.connectionId,
      direction: m.direction,
      opcode: m.opcode === 1 ? 'text' : 'binary',
      data: m.data,
    };
    const own = readInOrder(frame, state, 1).decoded;
    // MQTT packets split over frames: this frame's pieces, and the packet it completes.
    let packet: ReassembledPacket | undefined;
    let partLabel: string | null = null;
    if (frame.opcode === 'binary' && isMqtt(m.connectionId)) {
      const key = `${m.connectionId}\u0000${m.direction}`;
      let r = reassemblers.get(key);
      if (!r) reassemblers.set(key, (r = new MqttReassembler()));
      const fed = r.feed(number, m.data);
      packet = fed.completed.at(-1);
      // Parts of split packets; a frame that only starts one and reads whole as something else keeps that reading.
      if (!packet && !fed.error && readsAsParts(fed.pieces, own)) partLabel = mqttPartLabel(fed.pieces);
    }
    const read: DecodedFrame = packet ? decodeFrame(packet.bytes, { format: 'mqtt', depth: 1 }) : own;
    if (own.verdict === 'decoded') state.formats.record(m.connectionId, own.format, m.data.byteLength);
    const ownProtocol = recognizeProtocol(read.index, read.format, {
      subprotocol: state.formats.subprotocol(m.connectionId),
      connectionFormat: state.formats.preferred(m.connectionId),
      handshake: state.formats.handshake(m.connectionId),
    });
    state.formats.noteHandshake(m.connectionId, handshakeOf(ownProtocol));
    const attachment = attachments.observe(
      `${m.connectionId}\u0000${m.direction}`,
      number,
      frame.opcode as 'text' | 'binary',
      ownProtocol,
    );
    const decoded = attachment ? attachmentReading(read) : read;
    const protocol = attachment
      ? { protocol: 'socket.io', message: 'attachment', ...(attachment.event ? { event: attachment.event } : {}) }
      : ownProtocol;
    const part = partLabel !== null || (!packet && isPartOfMessage(own));
    const what = partLabel ?? (part ? 'MQTT, part of a packet' : null);
    if (decoded.verdict === 'malformed' && !part) malformed = true;
    const sent = m.direction === 'client-to-server';
    if (args.json) {
      lines.push(
        JSON.stringify({
          frame: number,
          connection: m.connectionId,
          direction: sent ? 'sent' : 'received',
          ...(m.origin ? { origin: m.origin } : {}),
          opcode: frame.opcode,
          bytes: m.data.byteLength,
          format: part ? 'mqtt' : decoded.format,
          verdict: part ? 'decoded' : decoded.verdict,
          ...(decoded.chosenBy ? { chosenBy: decoded.chosenBy } : {}),
          confidence: part ? null : (decoded.detection?.candidates[0]?.confidence ?? null),
          protocol: protocol ? { ...protocol, quiet: protocol.quiet ?? false } : null,
          ...(part ? { partOfPacket: what } : {}),
          ...(attachment ? { attachmentOf: attachmentJson(attachment) } : {}),
          ...(packet ? { reassembledFrom: packet.parts.map((p) => p.frameId) } : {}),
          error:
            decoded.error && !part
              ? { offset: decoded.error.offset, message: decoded.error.message, code: decoded.error.code }
              : null,
          ...(decoded.compression ? { compression: decoded.compression } : {}),
        }),
      );
      continue;
    }
    // A frame no format reads is its verdict alone (`unknown`, `empty`), an attachment `binary`.
    const format =
      decoded.format === null
        ? attachment
          ? 'binary'
          : decoded.verdict
        : `${decoded.format}${decoded.verdict === 'decoded' ? '' : ` ${decoded.verdict}`}`;
    const proto = attachment
      ? ` · socket.io attachment ${attachment.num} of frame #${attachment.eventFrame}${attachment.event ? ` (${attachment.event})` : ''}`
      : protocol
        ? ` · ${protocol.protocol} ${[protocol.message, protocol.event, protocol.id !== undefined ? `id ${protocol.id}` : undefined].filter(Boolean).join(' · ')}`
        : '';
    const error = decoded.error && !part ? ` — ${decoded.error.message}` : '';
    const from = packet ? ` (reassembled from frames ${packet.parts.map((p) => `#${p.frameId}`).join(', ')})` : '';
    lines.push(
      `#${number} ${connectionLabels.get(m.connectionId)} ${directionMark(sent ? 'sent' : 'received', m.origin === 'wirescope')} ${frame.opcode} ${m.data.byteLength} B  ${what ?? format}${proto}${from}${error}`,
    );
  }
  const stderr = session.errors.map((e) => `warning: ${e}\n`).join('');
  return { stdout: lines.length ? `${lines.join('\n')}\n` : '', stderr, malformed };
}

/**
 * A Socket.IO attachment's bytes are whatever was uploaded: a format only when one reads them
 * whole, else plain binary (unknown, no error), never a malformed guess.
 */
function attachmentReading(own: DecodedFrame): DecodedFrame {
  if (own.verdict === 'decoded' || own.verdict === 'empty') return own;
  return { ...own, format: null, index: null, error: null, verdict: 'unknown' };
}

function attachmentJson(a: Attachment) {
  return { frame: a.eventFrame, num: a.num, total: a.total, ...(a.event !== undefined ? { event: a.event } : {}) };
}
