/**
 * The gzip and deflate sizes a comparison row shows, without compressing: rows show only
 * the sizes, and on a 1 MB value nine fflate `deflateSync` calls (each allocating a ~1 MB
 * output, a 98 KB window and up to 2 MB of hash heads, then writing every bit) were the
 * largest step of the json-pack phase. The session comparison's bit-counting
 * port of fflate's deflate (session/deflate-size.ts) gives the same lengths: the same
 * matches, blocks and Huffman trees, counted instead of written. Its buffers are kept for
 * the comparison's life (one sizer per comparison, so a worker keeps no 2 MB table after).
 *
 * gzip = the same raw deflate stream + GZIP_FRAMING (fflate's gzipSync runs the very same
 * deflate and adds a 10-byte header and an 8-byte trailer). codecs/compare/compressed-size.test.ts
 * checks both against fflate's real output on generated values and the 1 MB document.
 */
import { DeflateAloneSizer } from './session/deflate-size.js';

/**
 * fflate's gzipSync runs the very same DEFLATE as deflateSync (same level, same code path:
 * `dopt(data, opts, 10, 8)`) and adds a 10-byte header (no file name unless asked) and an
 * 8-byte trailer (CRC-32, length), so its output is always exactly 18 bytes longer.
 */
export const GZIP_FRAMING = 18;

export interface CompressedSizes {
  /** fflate `deflateSync(bytes).length` (raw DEFLATE, default level). */
  readonly deflate: number;
  /** fflate `gzipSync(bytes).length`. */
  readonly gzip: number;
}

export class CompressedSizer {
  private readonly deflateSizer = new DeflateAloneSizer();

  sizes(bytes: Uint8Array): CompressedSizes {
    const deflate = this.deflateSizer.size(bytes);
    return { deflate, gzip: deflate + GZIP_FRAMING };
  }
}
