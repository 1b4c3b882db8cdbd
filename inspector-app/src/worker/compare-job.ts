import {
  CODECS,
  compareValue,
  formatMarkdown,
  INTERACTIVE_TIMING,
  isMeasured,
  type Row,
} from '../../../codecs/compare/index.js';
import type { SpanIndex } from '../../../codecs/index.js';
import type { CompareRowView } from './api.js';
import { LANE_WARM_MIN_BYTES, warmLanes, type LanePool, type LaneWarmReport } from '../../../codecs/compare/lanes.js';
import { workerLanes } from './compare-lanes.js';
import { NodeValueMemo } from './node-value-memo.js';

/** Per-operation time budget (codecs/compare/lanes.ts INTERACTIVE_TIMING, what bench-1mb.ts measures). */
const BUDGET_MS = INTERACTIVE_TIMING.budgetMs;

/** Why a timing has no ops/s figure (codecs/compare/timing.ts: Infinity under the clock's resolution, NaN with no run). */
function timingWhy(opsPerSec: number): string | undefined {
  if (Number.isFinite(opsPerSec)) return undefined;
  if (opsPerSec === Infinity) return 'faster than the clock can time here: every run took less than its resolution';
  return `not timed: the warm-up run alone used the ${BUDGET_MS} ms budget`;
}

export function rowView(row: Row): CompareRowView {
  if (!isMeasured(row)) {
    return {
      codec: row.label,
      family: row.family,
      size: null,
      gzipSize: null,
      deflateSize: null,
      encodeOpsPerSec: null,
      decodeOpsPerSec: null,
      lossless: '',
      unsupported: row.unsupported,
    };
  }
  return {
    codec: row.label,
    family: row.family,
    size: row.size,
    gzipSize: row.gzip,
    deflateSize: row.deflate,
    encodeOpsPerSec: Number.isFinite(row.encode.opsPerSec) ? row.encode.opsPerSec : null,
    decodeOpsPerSec: row.decode && Number.isFinite(row.decode.opsPerSec) ? row.decode.opsPerSec : null,
    lossless: row.lossless ? 'yes' : `no: ${row.lost.join(', ')}`,
    unsupported: null,
    why: {
      gzip: row.gzip === null ? 'not compressed' : undefined,
      deflate: row.deflate === null ? 'not compressed' : undefined,
      encode: timingWhy(row.encode.opsPerSec),
      decode: row.decode
        ? timingWhy(row.decode.opsPerSec)
        : row.decodeError
          ? `the decoder failed: ${row.decodeError}`
          : 'not decoded',
    },
  };
}

export interface CompareSink {
  row(view: CompareRowView, done: number, total: number): void;
  end(cancelled: boolean, error: string | null, markdown: string): void;
}

/**
 * Runs the re-encode comparison of one node's value (the whole frame by default), a row per
 * codec, yielding to the worker's message loop between codecs so a cancel gets through. A
 * large value is measured on two lanes (workers the page starts: compare-lanes.ts); a cancel
 * terminates them.
 */
export interface NodeCompareJob {
  readonly index: SpanIndex;
  /** The node whose value is compared. */
  readonly nodeId: number;
  readonly signal: AbortSignal;
  readonly sink: CompareSink;
  /** What the Markdown report calls the value (`frame #12`). */
  readonly title: string;
  /** Default: one lane, here (workerLanes() without a host). */
  readonly lanes?: LanePool;
  /** Values built by a warm-up, for the Run that follows it. */
  readonly values?: NodeValueMemo;
}

export async function runCompare(job: NodeCompareJob): Promise<void> {
  const { index, nodeId, signal, sink, title, lanes = workerLanes(), values = new NodeValueMemo() } = job;
  const rows: Row[] = [];
  try {
    if (index.error) throw new Error(`the frame does not decode: ${index.error.message}`);
    // Rows inside a nested value (worker/nested-nodes.ts) are not nodes of this index.
    if (!index.has(nodeId))
      throw new Error(
        'this node lies inside a nested value (tag 24, base64, a byte string of CBOR, …): select the string holding it to compare it',
      );
    const value = values.take(index, nodeId);
    // Rows arrive in codec order; on two lanes later rows may finish first, and the
    // progress counts every finished row (lanes.ts), so it runs ahead of the rows shown.
    let finished = 0;
    const generator = compareValue(value, {
      ...INTERACTIVE_TIMING,
      signal,
      lanes,
      onProgress: (p) => (finished = p.done),
    });
    for await (const row of generator) {
      rows.push(row);
      sink.row(rowView(row), Math.max(rows.length, finished), CODECS.length);
    }
    sink.end(signal.aborted, null, formatMarkdown(rows, title));
  } catch (e) {
    sink.end(signal.aborted, (e as Error).message, formatMarkdown(rows, title));
  }
}

/**
 * The Compare tab is shown on a node: when its bytes are LANE_WARM_MIN_BYTES or more, the
 * lanes start now and warm on a sample of its value (codecs/compare/lanes.ts warmLanes), so
 * the Run that may follow meets them warm instead of paying their start and a cold JIT.
 * A Run during the warm-up stops it and goes first. The value built for the
 * sample is kept in `values` for that Run. Null when nothing starts.
 */
export function warmCompare(
  index: SpanIndex,
  nodeId: number,
  lanes: LanePool = workerLanes(),
  values = new NodeValueMemo(),
): Promise<LaneWarmReport> | null {
  if (index.error || !index.has(nodeId)) return null;
  if (index.store.end[nodeId] - index.store.start[nodeId] < LANE_WARM_MIN_BYTES) return null;
  // Held for the Run that may follow (node-value-memo.ts).
  return warmLanes(lanes, values.keep(index, nodeId));
}
