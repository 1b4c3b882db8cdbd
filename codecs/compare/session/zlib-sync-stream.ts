/**
 * A Node zlib deflate stream driven on this thread, writing exactly what the stream writes
 * when driven asynchronously (`write`, `flush`) — what `ws` does per message.
 *
 * Why: the async stream waits for a libuv thread-pool round trip per call; a session
 * comparison sizes every message of every codec on a context-takeover stream, and on a
 * 10,000-frame session that wait was ~20 s of the CLI's wall time, the main thread idle.
 * Node offers no public synchronous stream write, and `_processChunk` without a callback (what
 * `deflateRawSync` runs) closes the stream after one chunk; so this calls what both paths
 * call per step, the native handle's `writeSync`, which leaves [output room left, input left]
 * in the stream's `_writeState`. Feature-checked: `nodeSyncDeflate` is null without them.
 *
 * The output buffer is managed as lib/zlib.js `processCallback` does, because the bytes
 * depend on it: Node hands zlib the rest of one 16 KB buffer across writes, and when a sync
 * flush's output fills it exactly, zlib (asked again with more room) writes a second empty
 * stored block — 5 bytes ws really sends (message 7,533 of a 10,000-frame HAR).
 */
import type { DeflateRaw } from 'node:zlib';
import { joinBytes } from './join-bytes.js';

interface ZlibInternals {
  readonly _handle?: {
    writeSync?: (
      flush: number,
      input: Uint8Array,
      inOff: number,
      inLen: number,
      out: Uint8Array,
      outOff: number,
      outLen: number,
    ) => void;
  };
  readonly _writeState?: Uint32Array;
  readonly _chunkSize?: number;
}

export interface SyncDeflate {
  /** One call of the stream with this flush mode: the bytes it wrote. */
  write(chunk: Uint8Array, flushFlag: number): Uint8Array;
}

export function nodeSyncDeflate(stream: DeflateRaw): SyncDeflate | null {
  const { _handle: handle, _writeState: state, _chunkSize: chunkSize } = stream as unknown as ZlibInternals;
  if (
    !handle ||
    typeof handle.writeSync !== 'function' ||
    !(state instanceof Uint32Array) ||
    state.length < 2 ||
    typeof chunkSize !== 'number' ||
    chunkSize <= 0
  )
    return null;
  const writeSync = handle.writeSync.bind(handle);
  // One buffer is enough: what zlib writes is copied out before the buffer is used again.
  const out = new Uint8Array(chunkSize);
  let offset = 0;
  return {
    write(chunk, flushFlag) {
      const parts: Uint8Array[] = [];
      let inOff = 0;
      let inLen = chunk.length;
      let room = chunkSize - offset;
      for (;;) {
        writeSync(flushFlag, chunk, inOff, inLen, out, offset, room);
        if (stream.errored) throw stream.errored;
        const outLeft = state[0];
        const inLeft = state[1];
        const wrote = room - outLeft;
        if (wrote > 0) parts.push(out.slice(offset, offset + wrote));
        offset += wrote;
        // Exhausted the output buffer: a new one, as processCallback allocates.
        if (outLeft === 0 || offset >= chunkSize) {
          offset = 0;
          room = chunkSize;
        }
        if (outLeft !== 0) break;
        // zlib has more to write for this call: call again with the input it left.
        inOff += inLen - inLeft;
        inLen = inLeft;
      }
      return joinBytes(parts);
    },
  };
}
