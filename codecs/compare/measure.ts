/**
 * One codec measured on one value (measureCodec) and the joint warm-up of small values
 * (warmTogether): what a comparison lane runs (lane.ts). Apart from compare.ts (which
 * re-exports them) so that a lane's bundle holds the codecs and no frame decoding: compare.ts
 * imports decodeFrame, and with it every walker and protobufjs (~0.6 MB of the lane script
 * that each fresh lane would parse and run at start).
 */
import { encodedBytes, encodedSize, type Codec, type Encoded, type PrepareCache } from './codecs.js';
import type { CompareOptions, Row } from './compare.js';
import { CompressedSizer } from './compressed-size.js';
import { lostInRoundTrip } from './diff.js';
import { scanValue, type ValueFeatures } from './features.js';
import { time, type Timing } from './timing.js';

const errorText = (e: unknown): string => {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return 'nested too deep for a recursive encoder (stack overflow)';
  return e instanceof Error ? e.message : String(e);
};

export const nextTick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export const MAX_LISTED_PARTS = 8;

function partSizes(parts: ReadonlyArray<readonly [string, Uint8Array]>): { name: string; size: number }[] {
  const out = parts.slice(0, MAX_LISTED_PARTS).map(([name, bytes]) => ({ name, size: bytes.length }));
  if (parts.length > MAX_LISTED_PARTS) {
    let size = 0;
    for (let i = MAX_LISTED_PARTS; i < parts.length; i++) size += parts[i][1].length;
    out.push({ name: `… ${parts.length - MAX_LISTED_PARTS} more`, size });
  }
  return out;
}

/** Measures one codec on one value (synchronous). Null when aborted part-way. */
export function measureCodec(
  codec: Codec,
  value: unknown,
  options: CompareOptions & { readonly features?: ValueFeatures; readonly cache?: PrepareCache; readonly sizer?: CompressedSizer } = {},
): Row | null {
  const features = options.features ?? scanValue(value);
  const base = { codec: codec.name, label: codec.label, family: codec.family };
  const refusal = codec.represent(value, features);
  if (refusal) return { ...base, notes: [], unsupported: refusal };
  const timingOptions = { runs: options.runs ?? 5, warmup: options.warmup ?? 1, budgetMs: options.budgetMs, signal: options.signal, clock: options.clock };
  let encoded: Encoded;
  let encodeTiming: Timing;
  try {
    const prepared = codec.prepare(value, features, options.cache ?? new Map());
    const r = time(() => codec.write(prepared), timingOptions);
    encoded = r.result;
    encodeTiming = r.timing;
  } catch (e) {
    return { ...base, notes: [], unsupported: `the encoder failed: ${errorText(e)}` };
  }
  if (options.signal?.aborted) return null;
  const size = encodedSize(encoded);
  const parts = encoded instanceof Uint8Array ? null : partSizes(encoded.parts);
  let gzip: number | null = null;
  let deflate: number | null = null;
  if (options.compress ?? true) {
    // Counted, not compressed: fflate's exact lengths without its output (compressed-size.ts).
    ({ deflate, gzip } = (options.sizer ?? new CompressedSizer()).sizes(encodedBytes(encoded)));
  }
  if (options.signal?.aborted) return null;
  let decodeTiming: Timing | null = null;
  let lost: string[];
  let decodeError: string | null = null;
  try {
    const r = time(() => codec.read(encoded), timingOptions);
    decodeTiming = r.timing;
    lost = lostInRoundTrip(value, codec.view(r.result));
  } catch (e) {
    decodeError = errorText(e);
    lost = ['decode'];
  }
  if (options.signal?.aborted) return null;
  return {
    ...base,
    notes: codec.notes(features),
    unsupported: null,
    size,
    parts,
    gzip,
    deflate,
    encode: encodeTiming,
    decode: decodeTiming,
    lossless: lost.length === 0,
    lost,
    decodeError,
  };
}

/** A whole encode + decode at or above this is its own warm-up (a large value). */
export const JOINT_WARMUP_MAX_CALL_MS = 2;
/** Round-robin warm-up of every codec of a comparison before any of them is timed. */
export const JOINT_WARMUP_MS = 250;

/**
 * Warms the codecs of a comparison together, in rounds, before timing the first one. On
 * its own, each codec's warm-up leaves the first codec timed against a JIT that is still
 * tiering up (an identical twin measured second read 2–4x faster on a busy 2-core
 * machine: V8's optimizing compiler runs on a background thread) — the first codec was
 * penalized. Rounds give every codec the same warm time. Only for small values: when one
 * encode + decode takes JOINT_WARMUP_MAX_CALL_MS or more (checked on the first codec),
 * each codec's own warm-up call is enough and a joint phase would only add time (the
 * 1 MB budget). False when aborted.
 */
export async function warmTogether(codecs: readonly Codec[], value: unknown, features: ValueFeatures, cache: PrepareCache, options: CompareOptions): Promise<boolean> {
  const { signal } = options;
  const now = options.clock ?? ((): number => performance.now());
  const ops: (() => unknown)[] = [];
  for (const codec of codecs) {
    if (codec.represent(value, features)) continue;
    try {
      const prepared = codec.prepare(value, features, cache);
      const t0 = now();
      const encoded = codec.write(prepared);
      // A large value shows itself in the encode alone: no decode spent on the probe.
      if (ops.length === 0 && now() - t0 >= JOINT_WARMUP_MAX_CALL_MS) return true;
      codec.read(encoded);
      if (ops.length === 0 && now() - t0 >= JOINT_WARMUP_MAX_CALL_MS) return true;
      ops.push(() => codec.read(codec.write(prepared)));
    } catch {
      // measureCodec reports the failure.
    }
  }
  if (ops.length === 0) return true;
  const start = now();
  const perRound = JOINT_WARMUP_MS / 20 / ops.length;
  while (now() - start < JOINT_WARMUP_MS) {
    for (const op of ops) {
      const t0 = now();
      do op();
      while (now() - t0 < perRound);
    }
    if (signal?.aborted) return false;
    await nextTick();
  }
  return !signal?.aborted;
}

