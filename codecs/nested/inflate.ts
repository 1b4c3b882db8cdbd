import { Gunzip, Inflate, Unzlib } from 'fflate';
import type { DecodeError } from '../core/errors.js';
import { grouped } from '../core/grouped.js';

/**
 * Bounded inflation of a compressed frame (gzip, zlib, raw deflate; fflate runs in the worker
 * and in Node). The input is pushed a few KB at a time and the output counted after each
 * push, so a zip bomb stops at the cap having allocated at most the cap plus what one chunk
 * inflates to (deflate's best ratio is about 1032:1): the error names the input offset
 * reached, and what was inflated before it is kept.
 */

export type CompressionMethod = 'gzip' | 'zlib' | 'deflate';

export interface InflateLimits {
  /** Decompressed bytes allowed per frame. */
  readonly maxBytes?: number;
  /** Decompressed / compressed ratio allowed once the output passes `ratioFloor` bytes. */
  readonly maxRatio?: number;
  readonly ratioFloor?: number;
}

/** 64 MiB per frame. */
export const MAX_DECOMPRESSED_BYTES = 64 * 1024 * 1024;
/** Real traffic rarely compresses 100:1; a bomb of zeros reaches ~1000:1. */
export const MAX_COMPRESSION_RATIO = 500;
/** The ratio cap applies past 1 MiB of output (a small frame of repeated bytes is no bomb). */
export const RATIO_FLOOR_BYTES = 1024 * 1024;
/** Input pushed per step: at most ~4 MiB of output between two checks. */
const CHUNK = 4096;

export interface Inflated {
  /** What inflated (all of it, or the part before the error). */
  readonly output: Uint8Array;
  /** Null when the whole input inflated; else why it stopped, at an offset in the compressed input. */
  readonly error: DecodeError | null;
}

/** A fflate stream of one method; `ondata` is set by the caller. */
export type FlateStream = Gunzip | Unzlib | Inflate;

export function flateStream(method: CompressionMethod): FlateStream {
  const noop = () => {};
  return method === 'gzip' ? new Gunzip(noop) : method === 'zlib' ? new Unzlib(noop) : new Inflate(noop);
}

/** A deflate message cut at a sync flush (an empty stored block): complete, though no final block follows. */
export function endsWithSyncFlush(bytes: Uint8Array): boolean {
  const n = bytes.length;
  return n >= 4 && bytes[n - 4] === 0x00 && bytes[n - 3] === 0x00 && bytes[n - 2] === 0xff && bytes[n - 1] === 0xff;
}

/**
 * Pushes `bytes` through `stream` in chunks, stopping at the caps. `final`: the input must
 * end the stream (a frame of its own); false for a message of a stream carried on.
 */
export function pushBounded(
  stream: FlateStream,
  bytes: Uint8Array,
  final: boolean,
  limits: InflateLimits = {},
  what = 'compressed data',
): Inflated {
  const maxBytes = limits.maxBytes ?? MAX_DECOMPRESSED_BYTES;
  const maxRatio = limits.maxRatio ?? MAX_COMPRESSION_RATIO;
  const ratioFloor = limits.ratioFloor ?? RATIO_FLOOR_BYTES;
  const chunks: Uint8Array[] = [];
  let total = 0;
  stream.ondata = (data) => {
    if (data.length) {
      chunks.push(data);
      total += data.length;
    }
  };
  let error: DecodeError | null = null;
  let offset = 0;
  try {
    while (offset < bytes.length) {
      const end = Math.min(bytes.length, offset + CHUNK);
      stream.push(bytes.subarray(offset, end), final && end === bytes.length);
      offset = end;
      if (total > maxBytes) {
        error = {
          code: 'decompressed-too-large',
          offset,
          message: `decompressed size exceeds ${sizeText(maxBytes)} at input offset ${offset}`,
        };
        break;
      }
      if (total > ratioFloor && total > maxRatio * offset) {
        error = {
          code: 'decompressed-too-large',
          offset,
          message: `compression ratio exceeds ${maxRatio}:1 (${total.toLocaleString('en-US')} bytes from ${offset.toLocaleString('en-US')}) at input offset ${offset}`,
        };
        break;
      }
    }
    if (!error && final && bytes.length === 0) stream.push(bytes, true);
    if (!error && final && !streamEnded(stream)) {
      error = {
        code: 'invalid-compressed-data',
        offset: bytes.length,
        message: `${what} ends before its last block (truncated?) at input offset ${bytes.length}`,
      };
    }
  } catch (e) {
    const message = (e as Error)?.message ?? String(e);
    error = {
      code: 'invalid-compressed-data',
      offset,
      message: `${what} does not inflate (${message}) at input offset ${offset}`,
    };
  }
  return { output: concat(chunks, Math.min(total, maxBytes)), error };
}

/** Inflates one whole compressed frame. A raw deflate or zlib message ending in a sync flush counts as whole. */
export function inflateFrame(bytes: Uint8Array, method: CompressionMethod, limits: InflateLimits = {}): Inflated {
  const final = !(method !== 'gzip' && endsWithSyncFlush(bytes));
  const what = method === 'deflate' ? 'raw deflate data' : `${method} data`;
  const r = pushBounded(flateStream(method), bytes, final, limits, what);
  // gzip's trailer ends with the uncompressed size (mod 2^32): a frame cut short does not match it.
  if (method === 'gzip' && !r.error && bytes.length >= 18) {
    const n = bytes.length;
    const isize = (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0;
    if (isize !== r.output.length >>> 0)
      return {
        output: r.output,
        error: {
          code: 'invalid-compressed-data',
          offset: n,
          message: `${what} is cut short or corrupt (its trailer says ${isize.toLocaleString('en-US')} bytes, ${r.output.length.toLocaleString('en-US')} inflated) at input offset ${n}`,
        },
      };
  }
  return r;
}

/**
 * fflate does not throw when the final input ends inside a block (a truncated frame): its
 * stream state says whether the last block was read (`s.f`) and finished (`s.l` cleared).
 * fflate is pinned; compressed-frames.test.ts checks a truncated frame is reported.
 */
function streamEnded(stream: FlateStream): boolean {
  // Gunzip starts over after a member (multi-member files): inflateFrame checks gzip's trailer instead.
  if (stream instanceof Gunzip) return true;
  const state = (stream as unknown as { s?: { f?: number; l?: unknown } }).s;
  return !state || (!!state.f && !state.l);
}

function concat(chunks: Uint8Array[], limit: number): Uint8Array {
  if (chunks.length === 1 && chunks[0].length <= limit) return chunks[0];
  const out = new Uint8Array(limit);
  let o = 0;
  for (const c of chunks) {
    if (o >= limit) break;
    const n = Math.min(c.length, limit - o);
    out.set(n === c.length ? c : c.subarray(0, n), o);
    o += n;
  }
  return out;
}

function sizeText(bytes: number): string {
  return bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${grouped(bytes)} bytes`;
}

/** The method a frame's header names: gzip (1f 8b 08) or zlib (CMF/FLG check, deflate, no preset dictionary); else null. */
export function compressionHeader(bytes: Uint8Array): 'gzip' | 'zlib' | null {
  if (bytes.length >= 18 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08) return 'gzip';
  if (bytes.length >= 6) {
    const cmf = bytes[0];
    const flg = bytes[1];
    if ((cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0 && !(flg & 0x20)) return 'zlib';
  }
  return null;
}
