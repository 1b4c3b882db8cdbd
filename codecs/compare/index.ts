/**
 * The re-encode comparison: what a decoded value would cost in every codec.
 * Pure TypeScript for Node, Web Workers and pages; no `new Function` / `eval` anywhere
 * (codecs.ts lists the json-pack / json-joy classes checked).
 *
 * - codecs.ts   the codec registry (encode, decode, represent)
 * - features.ts one scan of a value: what it holds beyond JSON
 * - convert.ts  our value model → what each encoder family takes
 * - diff.ts     what a round trip lost
 * - timing.ts   median / min / max / ops/s of N runs after warm-up
 * - compare.ts  rows, the async-generator API, frames
 * - lanes.ts    a large value on two lanes (lane.ts the seam, lane-protocol.ts the messages,
 *               lane-value.ts the value sent exactly, lane-pool.ts lanes kept between
 *               comparisons; Node worker threads in node-lane.ts, not exported here)
 * - keys.ts     key overhead and a schema-encoding estimate on a frame's own encoding
 * - format.ts   text, Markdown and JSON output
 */
export {
  CODECS,
  CODEC_NAMES,
  CRDT_SID,
  MAX_DEPTH,
  codecByName,
  encodedBytes,
  encodedSize,
  type Codec,
  type CodecFamily,
  type Encoded,
  type EncodedParts,
  type PrepareCache,
} from './codecs.js';
export { scanValue, isPlainJson, type ValueFeatures } from './features.js';
export { toTarget, type Target } from './convert.js';
export { lostInRoundTrip, type Loss } from './diff.js';
export { summarize, time, type Timing, type TimingOptions } from './timing.js';
export {
  GZIP_FRAMING,
  MAX_LISTED_PARTS,
  compareFrame,
  compareValue,
  frameValue,
  isMeasured,
  measureCodec,
  runComparison,
  type CompareOptions,
  type CompareProgress,
  type FrameValue,
  type MeasuredRow,
  type Row,
  type UnsupportedRow,
} from './compare.js';
export { INTERACTIVE_TIMING, LANE_MIN_BYTES, LANE_MIN_ENCODE_MS, laneCount, type LanePool } from './lanes.js';
export { inProcessLane, type Lane, type OpenLane } from './lane.js';
export { keyOverhead, type KeyOverhead, type KeyOverheadOptions, type KeyUse, type SchemaEstimate } from './keys.js';
export {
  dashReasons,
  formatText,
  formatMarkdown,
  formatJson,
  formatKeyOverhead,
  losslessText,
  msText,
  opsText,
} from './format.js';
