/** The rows and sizes a session comparison gives (a leaf: session.ts and the modules that group, format and chart its rows import it). */
import type { LegBytes } from '../../capture/types.js';
import type { Direction } from './framing.js';

export interface SessionMessage {
  readonly direction: Direction;
  /** 1 text, 2 binary; other opcodes (control frames) are counted in `skipped` and left out. */
  readonly opcode: number;
  readonly data: Uint8Array;
  readonly connectionId: string;
  /** The connection's negotiated subprotocol: its frames are decoded with it as evidence (codecs/subprotocol.ts). */
  readonly subprotocol?: string;
  /**
   * The message's value as its host reads it (throws when it does not decode). The inspector
   * passes its list row's reading — a loaded Protobuf schema first — so the session compares
   * what the user sees; without it, the bytes are read by detection (`frameValue`).
   */
  readonly read?: () => unknown;
  /**
   * What the host calls this message, for the left-out list: the inspector's frame number
   * (the list's `#`), the CLI's position in the capture file. Without it, its 1-based
   * position among the messages compared — which, for one connection or a filter's frames,
   * matched no number the user could find.
   */
  readonly number?: number;
  /** Through `wirescope proxy`: the bytes it took on each leg (measured-legs.ts). */
  readonly legBytes?: LegBytes;
  /** 'wirescope': wirescope itself sent it or delivered it to the page (capture files say so). */
  readonly origin?: 'wirescope';
}

/** A message a codec could not carry: its number (SessionMessage `number`, else its 1-based position) and why. */
export interface SessionMismatch {
  readonly message: number;
  readonly reason: string;
}

export interface SchemaSize {
  /** The schema's own bytes (the `.proto` text, the Avro JSON schema), sent once. */
  readonly bytes: number;
  readonly text: string;
  /** Messages the schema is spread over: those it encoded (the ones left out do not count). */
  readonly messages: number;
  /** bytes / messages. */
  readonly perMessage: number;
}

export type WireVariant = 'contextTakeover' | 'noContextTakeover' | 'negotiated';

export type WireSize =
  | { readonly payload: number; readonly headers: number; readonly total: number }
  | { readonly unsupported: string };

export interface SessionRow {
  readonly codec: string;
  readonly label: string;
  /** Null on a codec's total row. */
  readonly connectionId: string | null;
  readonly direction: Direction | null;
  /** Messages counted in the sums below. */
  readonly messages: number;
  readonly size: number;
  /** Sum of each message gzipped / deflated alone (fflate level 6, 2^15-entry hash table: message-sizes.ts). */
  readonly gzip: number;
  readonly deflate: number;
  /** Uncompressed frames: payloads plus frame headers. */
  readonly plainWire: { readonly payload: number; readonly headers: number; readonly total: number };
  /** permessage-deflate; `negotiated` is null when the connection's extension header is not known. */
  readonly wire: Readonly<Record<WireVariant, WireSize | null>>;
  /** Messages this codec cannot carry (or frames that do not decode), with the first reason. */
  readonly left: number;
  readonly leftReason: string | null;
  /** Sum of each message compressed alone with Snappy (snappyjs); null when not measured. */
  readonly snappy?: number | null;
  /** Sum of each message brotli-compressed alone, or why there is none (browsers have no compressor). */
  readonly brotli?: number | { readonly unsupported: string } | null;
  /** Schema codecs: the schema's own size, amortized over the messages it encoded; null for the others. */
  readonly schema?: SchemaSize | null;
  /** The messages left out (`left`), each with its reason (the first MAX_LISTED_MISMATCHES). */
  readonly mismatches?: readonly SessionMismatch[];
  /** Every left-out message counted by reason (up to MAX_LEFT_REASONS distinct ones): what left-out.ts groups for every view. */
  readonly leftReasons?: readonly LeftOutGroup[];
}

export interface CodecSizes {
  readonly codec: string;
  readonly label: string;
  readonly sizes: Int32Array;
}
export interface LeftOutGroup {
  readonly reason: string;
  /** Messages left out for this reason. */
  readonly count: number;
  /** The first of them (1-based position in the session). */
  readonly first: number;
}
