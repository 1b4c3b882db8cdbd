/**
 * Per-message compressors beside gzip / deflate: Snappy (snappyjs's length,
 * computed by snappy-size.ts, everywhere) and brotli where the runtime has a compressor.
 * Browsers decode brotli (Content-Encoding: br) but give scripts no brotli compressor — CompressionStream offers
 * gzip, deflate and deflate-raw only — so without one passed in, brotli is "not in this
 * browser" with that reason. The CLI passes Node's zlib (brotli-node.ts).
 */
export interface BrotliCompressor {
  /** Compressed size of one message. */
  size(bytes: Uint8Array): number;
}

export const BROTLI_NOT_IN_BROWSER =
  'not in this browser: browsers decode brotli but offer scripts no brotli compressor (CompressionStream has gzip, deflate and deflate-raw only)';
