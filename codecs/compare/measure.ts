/**
 * One codec measured on one value (measureCodec) and the joint warm-up of small values
 * (warmTogether): what a comparison lane runs (lane.ts). Apart from compare.ts (which
 * re-exports them) so that a lane's bundle holds the codecs and no frame decoding: compare.ts
 * imports decodeFrame, and with it every walker and protobufjs (~0.6 MB of the lane script
 * that each fresh lane would parse and run at start).
 */
import { encodedBytes, encodedSize, type Codec, type Encoded, type PrepareCache } from './codecs.js';
import type { CompareOptions, Row } from './compare-types.js';
import { CompressedSizer } from './compressed-size.js';
import { lostInRoundTrip } from './diff.js';
import { scanValue, type ValueFeatures } from './features.js';
import { laneSample } from './lane-sample.js';
import { time, type Timing } from './timing.js';

const errorText = (e: unknown): string => {
  if (e instanceof RangeError && /call stack/i.test(e.message))
    return 'nested too deep for a recursive encoder (stack overflow)';
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

/** A small copy of a large value (lane-sample.ts) that its codecs warm up on before they are timed on the value itself. */
export interface WarmSample {
  readonly value: unknown;
  readonly features: ValueFeatures;
}

export const warmSampleOf = (value: unknown): WarmSample => {
  const sample = laneSample(value);
  return { value: sample, features: scanValue(sample) };
};

/** How long each operation warms up on the sample (timing.ts's warm-up under this budget, then one call). */
export const SAMPLE_WARMUP_MS = 10;

/**
 * A large value's first call is slow on a cold JIT (a fresh worker: a 1 MB CBOR decode took
 * 133 ms against ~5 ms warm in Chromium), and a first call over the time budget is kept as
 * the operation's only sample (timing.ts): the row then showed the JIT's warm-up, 7.5 decode
 * ops/s where later comparisons read 211. Warming the codec's encoder and decoder on a sample
 * of the value first makes that call a warm one, for a few ms of sample calls.
 */
function warmOnSample(codec: Codec, sample: WarmSample, options: CompareOptions): void {
  if (codec.represent(sample.value, sample.features)) return;
  const timing = { runs: 1, warmup: 1, budgetMs: SAMPLE_WARMUP_MS, signal: options.signal, clock: options.clock };
  try {
    // Its own prepare cache: a prepared sample must never stand in for the value's.
    const prepared = codec.prepare(sample.value, sample.features, new Map());
    const { result } = time(() => codec.write(prepared), timing);
    time(() => codec.read(result), timing);
  } catch {
    // The value's own measure reports what fails.
  }
}

/** Measures one codec on one value (synchronous). Null when aborted part-way. */
export function measureCodec(
  codec: Codec,
  value: unknown,
  options: CompareOptions & {
    readonly features?: ValueFeatures;
    readonly cache?: PrepareCache;
    readonly sizer?: CompressedSizer;
    readonly warmSample?: WarmSample;
  } = {},
): Row | null {
  const features = options.features ?? scanValue(value);
  const base = { codec: codec.name, label: codec.label, family: codec.family };
  const refusal = codec.represent(value, features);
  if (refusal) return { ...base, notes: [], unsupported: refusal };
  const timingOptions = {
    runs: options.runs ?? 5,
    warmup: options.warmup ?? 1,
    budgetMs: options.budgetMs,
    signal: options.signal,
    clock: options.clock,
  };
  if (options.warmSample && timingOptions.warmup > 0) warmOnSample(codec, options.warmSample, options);
  if (options.signal?.aborted) return null;
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
 * 1 MB budget): 'large', and its codecs then warm up on a sample of it (measureCodec's
 * `warmSample`). 'aborted' when the signal stopped it.
 */
export async function warmTogether(
  codecs: readonly Codec[],
  value: unknown,
  features: ValueFeatures,
  cache: PrepareCache,
  options: CompareOptions,
): Promise<WarmedAs> {
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
      if (ops.length === 0 && now() - t0 >= JOINT_WARMUP_MAX_CALL_MS) return 'large';
      codec.read(encoded);
      if (ops.length === 0 && now() - t0 >= JOINT_WARMUP_MAX_CALL_MS) return 'large';
      ops.push(() => codec.read(codec.write(prepared)));
    } catch {
      // measureCodec reports the failure.
    }
  }
  if (ops.length === 0) return 'small';
  const start = now();
  const perRound = JOINT_WARMUP_MS / 20 / ops.length;
  while (now() - start < JOINT_WARMUP_MS) {
    for (const op of ops) {
      const t0 = now();
      do op();
      while (now() - t0 < perRound);
    }
    if (signal?.aborted) return 'aborted';
    await nextTick();
  }
  return signal?.aborted ? 'aborted' : 'small';
}

/** What warmTogether found: a small value (warmed together), a large one (each codec warms on a sample), or it was stopped. */
export type WarmedAs = 'small' | 'large' | 'aborted';
