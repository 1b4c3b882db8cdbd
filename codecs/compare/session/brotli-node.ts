/** Brotli per message with Node's zlib (default quality 11, like `zlib.brotliCompressSync`). Node only: the CLI and benchmarks pass it in. */
import { brotliCompressSync, constants } from 'node:zlib';
import type { BrotliCompressor } from './message-compressors.js';

export function nodeBrotli(quality = constants.BROTLI_DEFAULT_QUALITY): BrotliCompressor {
  return { size: (bytes) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length };
}
