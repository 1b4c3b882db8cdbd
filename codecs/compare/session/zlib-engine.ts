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
      const sync = syncWriter(stream);
      if (sync) {
        // ws's two calls, in order: write (no flush), then flush(Z_SYNC_FLUSH) with no input. One
        // call with both differs where zlib's last flush mode matters: an empty message after a
        // flush writes an empty stored block (`00 00 00 ff ff`) this way, nothing the other.
        const empty = new Uint8Array(0);
        return { compress: (message) => joined(sync(message, constants.Z_NO_FLUSH), sync(empty, constants.Z_SYNC_FLUSH)), reset: () => stream.reset(), close: () => stream.close() };
      }
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

/** What a zlib stream keeps inside (Node's lib/zlib.js): its native handle and the counts a write leaves. */
interface ZlibInternals {
  readonly _handle?: { writeSync?: (flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number) => void };
  readonly _writeState?: Uint32Array;
}

const OUT_CHUNK = 16 * 1024;

/**
 * Writes a message through the stream on this thread and returns what it wrote, or null when
 * this Node lacks the means (then the async stream is used). Why: the async path waited for a
 * libuv thread-pool round trip per message and stream — on a 10,000-frame session ~20 s of
 * the CLI's wall time, the main thread idle. Node's zlib streams have no public synchronous
 * write, and `_processChunk` without a callback (what `deflateRawSync` runs) closes the stream
 * after one chunk; so this calls what it calls per step, the native handle's `writeSync`, which
 * leaves [output room left, input left] in `_writeState` — the same zlib state as the async
 * write, so the same bytes (session-zlib-sync test compares them).
 */
function syncWriter(stream: DeflateRaw): ((chunk: Uint8Array, flushFlag: number) => Uint8Array) | null {
  const { _handle: handle, _writeState: state } = stream as unknown as ZlibInternals;
  if (!handle || typeof handle.writeSync !== 'function' || !(state instanceof Uint32Array) || state.length < 2) return null;
  const writeSync = handle.writeSync.bind(handle);
  const out = new Uint8Array(OUT_CHUNK);
  return (chunk, flushFlag) => {
    const parts: Uint8Array[] = [];
    let inOff = 0;
    let inLen = chunk.length;
    for (;;) {
      writeSync(flushFlag, chunk, inOff, inLen, out, 0, out.length);
      if (stream.errored) throw stream.errored;
      const [outLeft, inLeft] = state;
      if (out.length > outLeft) parts.push(out.slice(0, out.length - outLeft));
      inOff += inLen - inLeft;
      inLen = inLeft;
      // A full output buffer means zlib has more to write for this flush.
      if (outLeft !== 0) break;
    }
    return parts.length === 1 ? parts[0] : joined(...parts);
  };
}

function joined(...parts: Uint8Array[]): Uint8Array {
  const nonEmpty = parts.filter((p) => p.length);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? new Uint8Array(0);
  return new Uint8Array(Buffer.concat(nonEmpty));
}
