/**
 * Node's zlib as a permessage-deflate engine: exactly what the `ws` package does per
 * message (`write`, then `flush(Z_SYNC_FLUSH)`, `reset()` for no context takeover) and
 * the library Chromium links, so sizes equal the bytes on the wire. Node only: the CLI
 * and the tests pass it in; the worker uses fflateEngine. Driven on this thread where Node
 * allows (zlib-sync-stream.ts), else through the async stream.
 */
import { constants, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';
import { endsWithTail, type DeflateEngine, type MessageDeflater } from './permessage-deflate.js';
import { nodeSyncDeflate, type SyncDeflate } from './zlib-sync-stream.js';
import { joinBytes } from './join-bytes.js';

export interface ZlibEngineOptions {
  /** zlib level; ws and Chromium use the default (-1, i.e. 6). */
  readonly level?: number;
  /** zlib memLevel; ws and Chromium use 8. */
  readonly memLevel?: number;
}

const EMPTY = new Uint8Array(0);

export function zlibEngine(options: ZlibEngineOptions = {}): DeflateEngine {
  const level = options.level ?? constants.Z_DEFAULT_COMPRESSION;
  const memLevel = options.memLevel ?? 8;
  const makeStream = (bits: number): DeflateRaw => createDeflateRaw({ windowBits: bits, level, memLevel });

  function syncDeflater(stream: DeflateRaw, sync: SyncDeflate): MessageDeflater {
    return {
      // ws's two calls, in order: write (no flush), then flush(Z_SYNC_FLUSH) with no input.
      // One call with both differs where zlib's last flush mode matters: an empty message
      // after a flush writes an empty stored block (`00 00 00 ff ff`) this way, nothing the other.
      compress: (message) =>
        joinBytes([sync.write(message, constants.Z_NO_FLUSH), sync.write(EMPTY, constants.Z_SYNC_FLUSH)]),
      reset: () => stream.reset(),
      close: () => stream.close(),
    };
  }

  function asyncDeflater(stream: DeflateRaw): MessageDeflater {
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
  }

  return {
    name: 'zlib',
    // zlib refuses an 8-bit window for raw deflate (deflateInit2 returns Z_STREAM_ERROR).
    unsupported: (bits) =>
      bits >= 9 && bits <= 15 ? null : `zlib's raw deflate takes windows of 9 to 15 bits, not ${bits}`,
    create(bits): MessageDeflater {
      const stream = makeStream(bits);
      const sync = nodeSyncDeflate(stream);
      return sync ? syncDeflater(stream, sync) : asyncDeflater(stream);
    },
    // A fresh stream given the whole message and a sync flush writes what `write` + `flush`
    // write after a reset (codecs/compare/session/permessage-deflate.test.ts compares them).
    freshPayloadSize(bits, message) {
      // A new stream per message, not a kept one reset: zlib's matcher reads window bytes
      // past the input, which a reset leaves from the previous message and a new stream has
      // zeroed, so a reset stream picks other matches now and then (43 of 3,000 CBOR messages
      // differed by a byte or two).
      const out = deflateRawSync(message, { windowBits: bits, level, memLevel, finishFlush: constants.Z_SYNC_FLUSH });
      return endsWithTail(out) ? out.length - 4 : out.length;
    },
  };
}
