/**
 * Every frame of a stream of frames listed with the label a user sees in the list: format,
 * verdict and protocol (with its message). Frames are read as the worker reads them at
 * ingest (read-in-order.ts: compressed streams, the connection's evidence and subprotocol),
 * so a change in detection shows here as a changed label.
 */
import { handshakeOf, recognizeProtocol } from '../protocols/recognize.js';
import type { OrderedFrame } from './compressed-streams.js';
import { newReadState, readInOrder } from './read-in-order.js';

export interface LabelledFrame extends OrderedFrame {
  /** The connection's negotiated subprotocol, if any. */
  readonly subprotocol?: string;
}

/** `format verdict [protocol message]`: `msgpack decoded`, `json decoded socket.io EVENT`, `- unknown`. */
export function frameLabels(frames: readonly LabelledFrame[]): string[] {
  const state = newReadState();
  for (const f of frames) if (f.subprotocol) state.formats.setSubprotocol(f.connectionId, f.subprotocol);
  return frames.map((frame) => {
    const { decoded } = readInOrder(frame, state, 1);
    if (decoded.verdict === 'decoded') state.formats.record(frame.connectionId, decoded.format, frame.data.byteLength);
    const protocol = recognizeProtocol(decoded.index, decoded.format, {
      subprotocol: state.formats.subprotocol(frame.connectionId),
      connectionFormat: state.formats.preferred(frame.connectionId),
      handshake: state.formats.handshake(frame.connectionId),
    });
    state.formats.noteHandshake(frame.connectionId, handshakeOf(protocol));
    const parts = [decoded.format ?? '-', decoded.verdict];
    if (protocol) parts.push(protocol.protocol, protocol.message);
    return parts.join(' ');
  });
}
