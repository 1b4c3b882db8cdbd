import type { DecodeError } from '../core/errors.js';

/**
 * What a compressed frame was: how it was compressed, its sizes, and why inflation stopped
 * (offsets in the compressed input). The frame's index reads the decompressed bytes, so
 * every node offset is an offset in the decompressed stream.
 */
export type CompressionKind = 'gzip' | 'zlib' | 'deflate' | 'zlib-stream' | 'deflate-stream';

export interface CompressionInfo {
  readonly method: CompressionKind;
  readonly compressedBytes: number;
  readonly decompressedBytes: number;
  /** Null when the frame inflated whole. */
  readonly error: DecodeError | null;
}

/** `gzip → cbor, 1,234 → 5,678 bytes (4.6x)`. */
export function compressionSummary(info: CompressionInfo, format: string | null): string {
  const ratio = info.compressedBytes > 0 ? info.decompressedBytes / info.compressedBytes : 0;
  const n = (x: number) => x.toLocaleString('en-US');
  const method = info.method.replace('-stream', ' stream');
  return `${method} → ${format ?? 'unknown'}, ${n(info.compressedBytes)} → ${n(info.decompressedBytes)} bytes (${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1)}x)`;
}
