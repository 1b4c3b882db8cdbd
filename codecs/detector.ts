/** What format detection takes and gives: the types detect.ts and every protocol detector share (a leaf: detectors import it, not detect.ts). */
import type { DecodeError } from './core/errors.js';
import type { SpanIndex } from './core/span-index.js';

/**
 * Format detection from the bytes alone (plus whether the frame was text or binary). A
 * candidate is accepted only if it decodes the whole buffer without error; accepted ones
 * are ranked by a confidence from cheap plausibility signals on the top levels. Detectors
 * are a list so the json-joy CRDT formats can join it.
 */
export interface DetectContext {
  /** The frame arrived as a WebSocket text frame. */
  readonly isText?: boolean;
  /**
   * The format the connection's other frames decoded as: evidence that breaks ties on tiny
   * frames (`2a` is CBOR -11 and MessagePack 42; on a MessagePack connection it is 42).
   */
  readonly preferFormat?: string | null;
  /**
   * The connection's negotiated subprotocol (`mqtt`, `v12.stomp`, `wamp.2.msgpack`, …): its
   * format is expected (as the connection's evidence would be) and ranked first when it reads
   * the frame whole; never forced (codecs/subprotocol.ts).
   */
  readonly subprotocol?: string | null;
}

export interface Candidate {
  readonly format: string;
  /** 0..1 */
  readonly confidence: number;
  readonly reason: string;
  /** What put it first besides the bytes: `subprotocol mqtt`. */
  readonly chosenBy?: string;
  /** The validated index (depth 1), reused by `indexFrame` so the frame is walked once. */
  readonly index?: SpanIndex;
}

export interface Rejection {
  readonly format: string;
  readonly error: DecodeError;
  /** The index up to the error: the partial tree of this reading of the bytes. */
  readonly index?: SpanIndex;
}

export interface Detection {
  /** Accepted candidates, most likely first. */
  readonly candidates: readonly Candidate[];
  /** Formats that failed, with the error; the one that got furthest first. */
  readonly rejected: readonly Rejection[];
}

export interface Detector {
  readonly format: string;
  /** False for binary formats: never tried on a WebSocket text frame (default true). */
  readonly textFrames?: boolean;
  /** A candidate, a rejection, or null when the bytes cannot even start this format. */
  detect(bytes: Uint8Array, context: DetectContext): Candidate | Rejection | null;
}
