/**
 * What a value would cost in every codec: one row per codec with the encoder's real output
 * size, its gzip and deflate sizes (fflate's, default level, counted without compressing), encode and decode timings, and
 * whether a round trip gives the value back (diff.ts) — or why the codec cannot carry it.
 *
 * `compareValue` is an async generator meant for a Web Worker: it yields a row as soon as
 * it is measured, reports progress, checks the AbortSignal between codecs and between
 * timing batches, and yields to the event loop between codecs (`setTimeout(0)`) so the
 * worker can receive a cancel message. Pure TypeScript: no DOM, no Node APIs.
 */
import { decodeFrame, type FrameFormat } from '../index.js';
import type { SpanIndex } from '../core/span-index.js';
import { CODECS, codecByName, type Codec, type PrepareCache } from './codecs.js';
import { CompressedSizer } from './compressed-size.js';
import { scanValue } from './features.js';
import { releasePrepared } from './prepare-release.js';
import { compareOnLanes, wantsLanes } from './lanes.js';
import { measureCodec, nextTick, warmSampleOf, warmTogether, type WarmSample } from './measure.js';

export const isMeasured = (row: Row): row is MeasuredRow => row.unsupported === null;

export function resolveCodecs(list: CompareOptions['codecs']): Codec[] {
  if (!list) return [...CODECS];
  return list.map((c) => {
    if (typeof c !== 'string') return c;
    const codec = codecByName(c);
    if (!codec) throw new RangeError(`unknown codec ${c}`);
    return codec;
  });
}

/** gzip = raw deflate + 18 bytes (compressed-size.ts; the tests check it against gzipSync and gunzip). */
export { GZIP_FRAMING } from './compressed-size.js';
// The lane's part (lane.ts) lives in measure.ts; compare.ts's callers keep these names here.
export {
  measureCodec,
  warmTogether,
  nextTick,
  MAX_LISTED_PARTS,
  JOINT_WARMUP_MAX_CALL_MS,
  JOINT_WARMUP_MS,
} from './measure.js';
import type { MeasuredRow, Row, CompareOptions } from './compare-types.js';
export type { RowBase, MeasuredRow, UnsupportedRow, Row, CompareProgress, CompareOptions } from './compare-types.js';

/**
 * Yields one row per codec, in the order asked. Stops (returns) when the signal aborts;
 * a codec interrupted part-way yields nothing.
 */
export async function* compareValue(
  value: unknown,
  options: CompareOptions = {},
): AsyncGenerator<Row, void, undefined> {
  const codecs = resolveCodecs(options.codecs);
  const features = scanValue(value);
  const cache: PrepareCache = new Map();
  const sizer = new CompressedSizer();
  const probe =
    options.lanes && !options.signal?.aborted
      ? wantsLanes(value, features, codecs, options.lanes, options.clock ?? ((): number => performance.now()))
      : null;
  if (options.lanes && probe) {
    const onLanes = compareOnLanes(value, features, codecs, options.lanes, options, probe);
    if (onLanes) {
      yield* onLanes;
      return;
    }
  }
  const total = codecs.length;
  let done = 0;
  let warmSample: WarmSample | undefined;
  if ((options.warmup ?? 1) > 0) {
    const warmed = await warmTogether(codecs, value, features, cache, options);
    if (warmed === 'aborted') return;
    if (warmed === 'large') warmSample = warmSampleOf(value);
  }
  for (const [i, codec] of codecs.entries()) {
    if (options.signal?.aborted) return;
    const row = measureCodec(codec, value, { ...options, features, cache, sizer, warmSample });
    if (!row) return;
    releasePrepared(cache, codecs, i);
    done++;
    yield row;
    options.onProgress?.({
      done,
      total,
      codec: codec.name,
      phase: codec.family === 'json-joy' ? 'json-joy' : 'json-pack',
    });
    // Let a worker's message loop run (a cancel arrives as a message); after the last codec the run ends at once.
    if (i + 1 < codecs.length) await nextTick();
  }
}

/** The callback flavour: calls `onRow` per row, resolves with all rows (those before an abort). */
export async function runComparison(
  value: unknown,
  options: CompareOptions & { readonly onRow?: (row: Row) => void } = {},
): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const row of compareValue(value, options)) {
    rows.push(row);
    options.onRow?.(row);
  }
  return rows;
}

export interface FrameValue {
  readonly format: FrameFormat;
  readonly index: SpanIndex;
  readonly value: unknown;
}

/**
 * The value a frame carries (decodeFrame, then `index.value(index.root)`): for json-joy
 * model frames the document's view. Throws a RangeError when the frame does not decode whole.
 */
export function frameValue(
  bytes: Uint8Array,
  options: { readonly format?: 'auto' | FrameFormat; readonly isText?: boolean; readonly subprotocol?: string } = {},
): FrameValue {
  const frame = decodeFrame(bytes, {
    format: options.format,
    isText: options.isText,
    subprotocol: options.subprotocol,
  });
  if (!frame.index || !frame.format || frame.error) {
    const e = frame.error;
    throw new RangeError(e ? `the frame does not decode: ${e.message}` : 'the frame does not decode');
  }
  return { format: frame.format, index: frame.index, value: frame.index.value(frame.index.root) };
}

/** compareValue on a frame's value. */
export function compareFrame(
  bytes: Uint8Array,
  options: CompareOptions & { readonly format?: 'auto' | FrameFormat; readonly isText?: boolean } = {},
): AsyncGenerator<Row, void, undefined> {
  return compareValue(frameValue(bytes, options).value, options);
}
