/**
 * How the session comparison reads a frame's value: exactly as its list row does. A
 * binary frame the loaded Protobuf schema reads is its schema reading (field
 * names, enums by name, well-known types); any other frame is read by detection with its
 * connection's evidence (subprotocol, preferred format) and, for a message of a compressed
 * stream, from what it inflated to. Reading the raw bytes instead compared numbered fields
 * ("duplicate map keys") with what the user saw as an Envelope.
 *
 * Not through `FrameStore.decoded`: its index cache holds the few frames the user looks at,
 * and a session of thousands of frames would push them all out.
 */
import type { FrameStore } from './frame-store.js';
import type { IngestFrame } from './api.js';
import { valueOf } from '../../../codecs/reading/read-in-order.js';

export type FrameReader = (frame: IngestFrame) => unknown;

export function listReading(store: FrameStore): FrameReader {
  return (frame) => {
    const withSchema = store.schemas.active ? store.schemas.decode(frame) : null;
    // decodeAuto: the reading the CLI's session comparison gives the same frame (codecs/reading).
    return valueOf(
      withSchema ? { index: withSchema.index, error: withSchema.index.error } : store.decodeAuto(frame, 1),
    );
  };
}
