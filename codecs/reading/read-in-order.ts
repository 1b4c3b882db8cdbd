/**
 * How a capture's frames are read, one connection's frames in arrival order: a message of
 * the connection's compressed stream is inflated with the stream's context and read from
 * that; a frame nothing reads may start a raw deflate stream or belong to one whose earlier
 * frame was lost (it then says so); detection uses the connection's evidence (its
 * subprotocol, the format its frames decoded as). One implementation for the inspector's
 * worker (its list rows, its session comparison) and the CLI's `compare --session`, so the
 * two read the same capture the same way (the CLI read each frame
 * alone and left a zlib stream's messages out).
 */
import { decodeFrame, decodeInflated, readsAsData, type DecodedFrame } from '../index.js';
import { ConnectionFormats } from './connection-formats.js';
import { CompressedStreams, type InflatedMessage, type OrderedFrame } from './compressed-streams.js';

/** A reader's per-connection state: detection evidence and compressed streams. */
export interface ConnectionReadState {
  readonly formats: ConnectionFormats;
  readonly streams: CompressedStreams;
}

export const newReadState = (): ConnectionReadState => ({
  formats: new ConnectionFormats(),
  streams: new CompressedStreams(),
});

/** The frame read with its connection's evidence: through what it inflated to when it is a stream message. */
export function decodeWithEvidence(
  frame: OrderedFrame,
  state: ConnectionReadState,
  inflated: InflatedMessage | undefined,
  depth: number,
): DecodedFrame {
  const options = {
    depth,
    isText: frame.opcode === 'text',
    preferFormat: state.formats.preferred(frame.connectionId),
    subprotocol: state.formats.subprotocol(frame.connectionId),
  };
  return inflated
    ? decodeInflated(frame.data.byteLength, inflated.method, inflated, options)
    : decodeFrame(frame.data, options);
}

/**
 * The next frame in arrival order (it feeds the streams; the caller records the evidence,
 * `state.formats.record`, once it settles how the frame reads). `inflated`: what the
 * frame is known to have inflated to already. Returns the reading and what the frame
 * inflated to now, which the caller keeps for reading it again.
 */
export function readInOrder(
  frame: OrderedFrame,
  state: ConnectionReadState,
  depth: number,
  inflated?: InflatedMessage,
): { decoded: DecodedFrame; inflated: InflatedMessage | null } {
  const first = state.streams.start(frame);
  const decoded = decodeWithEvidence(frame, state, first ?? inflated, depth);
  // Deflate data read by chance as Protobuf (no magic number) is no reading either.
  if (!first && (decoded.verdict !== 'decoded' || decoded.format === 'protobuf')) {
    const options = {
      depth,
      preferFormat: state.formats.preferred(frame.connectionId),
      subprotocol: state.formats.subprotocol(frame.connectionId),
    };
    const message = state.streams.undecodable(frame, (output) =>
      readsAsData(decodeFrame(output, { ...options, noDecompress: true })),
    );
    if (message) return { decoded: decodeWithEvidence(frame, state, message, depth), inflated: message };
  }
  return { decoded, inflated: first };
}

/** A reading's value, or why there is none: the reasons codecs/compare's `frameValue` gives. */
export function valueOf(read: {
  readonly index: DecodedFrame['index'];
  readonly error: DecodedFrame['error'];
}): unknown {
  const { index, error } = read;
  if (!index || error || index.root < 0)
    throw new RangeError(error ? `the frame does not decode: ${error.message}` : 'the frame does not decode');
  return index.value(index.root);
}
