/**
 * Node's zlib as a permessage-deflate engine: exactly what the `ws` package does per
 * message (`write`, then `flush(Z_SYNC_FLUSH)`, `reset()` for no context takeover) and
 * the library Chromium links, so sizes equal the bytes on the wire. Node only: the CLI
 * and the tests pass it in; the worker uses fflateEngine.
 */
import { constants, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';
import { endsWithTail, type DeflateEngine, type MessageDeflater } from './permessage-deflate.js';

export interface ZlibEngineOptions {
  /** zlib level; ws and Chromium use the default (-1, i.e. 6). */
  readonly level?: number;
  /** zlib memLevel; ws and Chromium use 8. */
  readonly memLevel?: number;
}

export function zlibEngine(options: ZlibEngineOptions = {}): DeflateEngine {
  return {
    name: 'zlib',
    // zlib refuses an 8-bit window for raw deflate (deflateInit2 returns Z_STREAM_ERROR).
    unsupported: (bits) => (bits >= 9 && bits <= 15 ? null : `zlib's raw deflate takes windows of 9 to 15 bits, not ${bits}`),
    create(bits): MessageDeflater {
      const stream: DeflateRaw = createDeflateRaw({ windowBits: bits, level: options.level ?? constants.Z_DEFAULT_COMPRESSION, memLevel: options.memLevel ?? 8 });
      let chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      return {
        compress: (message) =>
          new Promise<Uint8Array>((resolve, reject) => {
            stream.once('error', reject);
            stream.write(message);
            stream.flush(constants.Z_SYNC_FLUSH, () => {
              stream.off('error', reject);
              const out = Buffer.concat(chunks);
              chunks = [];
              resolve(new Uint8Array(out.buffer, out.byteOffset, out.length));
            });
          }),
        reset: () => stream.reset(),
        close: () => stream.close(),
      };
    },
    // A fresh stream given the whole message and a sync flush writes what `write` + `flush`
    // write after a reset (codecs/test/session-permessage-deflate.test.ts compares them).
    freshPayloadSize(bits, message) {
      const out = deflateRawSync(message, { windowBits: bits, level: options.level ?? constants.Z_DEFAULT_COMPRESSION, memLevel: options.memLevel ?? 8, finishFlush: constants.Z_SYNC_FLUSH });
      return endsWithTail(out) ? out.length - 4 : out.length;
    },
  };
}
