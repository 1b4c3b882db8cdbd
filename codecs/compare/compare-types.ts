/** The types of a value comparison: its options, rows and lanes (a leaf: compare.ts, lanes.ts, lane.ts and measure.ts all import it). */
import type { Codec, CodecFamily } from './codecs.js';
import type { ValueFeatures } from './features.js';
import type { Timing } from './timing.js';

export interface RowBase {
  readonly codec: string;
  readonly label: string;
  readonly family: CodecFamily;
  /** Remarks on how the codec wrote this value (e.g. bytes as base64 in JSON). */
  readonly notes: readonly string[];
}

export interface MeasuredRow extends RowBase {
  readonly unsupported: null;
  /** The encoder's output length in bytes (multi-part codecs: the sum of the parts). */
  readonly size: number;
  /**
   * Multi-part codecs (json-joy indexed, sidecar): each part's size; null otherwise. Beyond
   * MAX_LISTED_PARTS parts, the first ones are listed and the rest summed in one entry
   * named `… N more`.
   */
  readonly parts: readonly { readonly name: string; readonly size: number }[] | null;
  /** fflate gzipSync / deflateSync output lengths of the encoding (parts concatenated; counted, not written: compressed-size.ts); null when compression is off. */
  readonly gzip: number | null;
  readonly deflate: number | null;
  readonly encode: Timing;
  /** Null when the decoder threw (see decodeError). */
  readonly decode: Timing | null;
  /** The decoded value equals the input structurally (diff.ts). */
  readonly lossless: boolean;
  /** What the round trip lost ('decode' when the decoder threw). */
  readonly lost: readonly string[];
  readonly decodeError: string | null;
}

export interface UnsupportedRow extends RowBase {
  /** Why this codec cannot carry the value. */
  readonly unsupported: string;
}

export type Row = MeasuredRow | UnsupportedRow;

export interface CompareProgress {
  /** Codecs finished (a row yielded for each). */
  readonly done: number;
  readonly total: number;
  /** The codec just finished. */
  readonly codec: string;
  /**
   * json-pack's codecs (JSON, CBOR, MessagePack, …) come first in the default order and
   * are the fast phase (on screen within 1 s for 1 MB); json-joy's CRDT codecs follow.
   */
  readonly phase: 'json-pack' | 'json-joy';
}

export interface CompareOptions {
  /** Timed runs per operation (default 5). */
  readonly runs?: number;
  /** Untimed runs before them (default 1). */
  readonly warmup?: number;
  /** Codecs by name or as registry entries (default: all of CODECS, in order). */
  readonly codecs?: readonly (string | Codec)[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: CompareProgress) => void;
  /**
   * Time budget per operation (encode, decode) in ms: stop adding timed runs once this much
   * went into them, and when the warm-up alone took this long, use it as the only sample
   * (a 400 ms decode gains nothing from warming up). Default: no budget, every run made.
   */
  readonly budgetMs?: number;
  /** Measure gzip / deflate sizes (default true). */
  readonly compress?: boolean;
  /** The timing clock (timing.ts; default performance.now). */
  readonly clock?: () => number;
  /**
   * Lanes for a large value (lanes.ts): its rows are measured in parallel there. Small
   * values, codecs not from the registry and values a lane cannot receive keep one lane.
   */
  readonly lanes?: LanePool;
}
export interface LanePool {
  readonly open: OpenLane;
  /** How many lanes to run (min(2, available cores) in the callers); fewer than 2 keeps one lane. */
  readonly count: number;
  /** The size that makes a value large (default LANE_MIN_BYTES; tests pass 0 to put small values on lanes). */
  readonly minBytes?: number;
  /**
   * Starts the lanes now, sends them a value to hold and warms them on a sample of it
   * (warmLanes): a pool that keeps lanes (lane-pool.ts) has them warm, the value already
   * there, when its comparison is asked for. Absent: no warming.
   */
  readonly warm?: (value: LaneWarm) => Promise<LaneWarmReport>;
}
/** What a lane measures with (CompareOptions without what cannot cross to a worker). */
export interface LaneSettings {
  readonly runs?: number;
  readonly warmup?: number;
  readonly budgetMs?: number;
  readonly compress?: boolean;
  /**
   * false: the sender's probe already found the value large (its first codec's encode took
   * JOINT_WARMUP_MAX_CALL_MS or more), so the joint warm-up, which would only encode that
   * codec again to find out and stop, is skipped (each operation still warms up in timing.ts).
   */
  readonly jointWarmup?: boolean;
  /**
   * false: no codec warms up on a sample of the value first (the warm-up of idle lanes, whose
   * value is a sample already). Default: a large value's codecs do (measure.ts warmSample).
   */
  readonly sampleWarmup?: boolean;
}

export interface LaneMeasureOptions {
  /** Prepared values (CodecFamily `shares` keys) to keep after these codecs: codecs still queued need them. */
  readonly keep: readonly string[];
}

export interface Lane {
  /** A row per codec (registry names), in the order asked. Rejects when the lane fails or dies. */
  measure(codecs: readonly string[], options: LaneMeasureOptions): AsyncIterable<Row>;
  /** Stops the lane at once (a worker is terminated); no row follows. */
  terminate(): void;
  /** The comparison ended normally: the lane may serve another (lane-pool.ts). Absent: terminate. */
  release?(): void;
}

export interface LaneStart {
  readonly value: unknown;
  readonly features: ValueFeatures;
  readonly settings: LaneSettings;
  /** Every codec of the comparison, in order (the joint warm-up's list). */
  readonly codecs: readonly string[];
}

/** Opens a lane on a value; throws when the value cannot be sent (then the comparison keeps one lane). */
export type OpenLane = (start: LaneStart) => Lane;
/** What lanes are sent ahead: the value (each lane warms on its own sample of it, lane-sample.ts), its features, the codecs to warm (registry names). */
export interface LaneWarm {
  readonly value: unknown;
  readonly features: ValueFeatures;
  readonly codecs: readonly string[];
}

/** How a warm request went: workers started, warm-ups ended whole or stopped by a comparison, wall ms until all answered. */
export interface LaneWarmReport {
  readonly started: number;
  readonly warmed: number;
  readonly interrupted: number;
  readonly ms: number;
}
