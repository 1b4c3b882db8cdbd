/** Brotli per message with Node's zlib. Node only: the CLI and benchmarks pass it in. */
import { brotliCompressSync, constants } from 'node:zlib';
import type { BrotliCompressor } from './message-compressors.js';

/**
 * The default quality: 6, what servers compressing on the fly use (nginx's ngx_brotli
 * `brotli_comp_level` default), not the library's 11. Quality 11 is an offline setting:
 * ~1 ms per 580-byte message here, 20–30 times quality 6, and it was 37 s of CPU in a
 * 10,000-frame session (each distinct message of each codec is compressed once).
 * `compare --session --brotli-quality 11` still asks for it.
 */
export const SESSION_BROTLI_QUALITY = 6;

export function nodeBrotli(quality = SESSION_BROTLI_QUALITY): BrotliCompressor {
  return {
    size: (bytes) =>
      brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }).length,
  };
}
