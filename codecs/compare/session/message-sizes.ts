/**
 * What a message costs on its own — deflated alone (gzip adds a fixed 18 bytes), Snappy,
 * brotli, and its permessage-deflate payload from a fresh fflate stream (no context
 * takeover) — depends on its bytes only. A session repeats frames (heartbeats, identical
 * updates) and two codecs may write the same bytes, so each distinct byte string is sized
 * once per comparison: a cheap hash, then a byte compare.
 *
 * Per-message deflate is fflate at level 6 with a 2^15-entry hash table (`deflateSync(bytes,
 * { mem: 3 })`), the table zlib's default memLevel 8 uses and the wire simulation's streams
 * use, so one pass gives both it and the no-context-takeover payload (deflate-size.ts,
 * `StreamSizer.fresh`). fflate's own default sizes the table by the input (2^12 entries for
 * ~1 KB); the two differ on rare messages by a byte or two (2 of 862 mixed test messages,
 * none of the bench's 10,000 records or their CBOR re-encodings).
 */
import { DeflateAloneSizer, StreamSizer, STREAM_HASH_BITS } from './deflate-size.js';
import type { BrotliCompressor } from './message-compressors.js';
import { snappyCompressedSize } from './snappy-size.js';

export interface MessageSizes {
  /** Raw deflate of the message alone. */
  readonly deflate: number;
  /** fflate's permessage-deflate payload of the message from a fresh stream (32 KB window). */
  readonly freshPayload: number;
  /** Null when not asked for. */
  readonly snappy: number | null;
  readonly brotli: number | null;
}

export interface MessageSizeOptions {
  readonly snappy: boolean;
  readonly brotli: BrotliCompressor | null;
}

interface Entry {
  readonly bytes: Uint8Array;
  readonly sizes: MessageSizes;
}

/** FNV-1a over the bytes, the length mixed in: equal strings hash equal, most unequal ones apart. */
function hashOf(bytes: Uint8Array): number {
  let h = 0x811c9dc5 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class MessageSizeCache {
  private readonly entries = new Map<number, Entry[]>();
  private readonly stream = new StreamSizer(STREAM_HASH_BITS);
  private readonly alone = new DeflateAloneSizer(STREAM_HASH_BITS);
  /** Messages sized / answered from an earlier identical one (for the bench's report). */
  computed = 0;
  reused = 0;

  constructor(private readonly options: MessageSizeOptions) {}

  sizes(bytes: Uint8Array): MessageSizes {
    const h = hashOf(bytes);
    const list = this.entries.get(h);
    if (list) {
      for (const e of list) {
        if (sameBytes(e.bytes, bytes)) {
          this.reused++;
          return e.sizes;
        }
      }
    }
    this.computed++;
    const { payload, deflate } = this.stream.fresh(bytes, this.alone);
    const sizes: MessageSizes = {
      deflate,
      freshPayload: payload,
      snappy: this.options.snappy ? snappyCompressedSize(bytes) : null,
      brotli: this.options.brotli ? this.options.brotli.size(bytes) : null,
    };
    if (list) list.push({ bytes, sizes });
    else this.entries.set(h, [{ bytes, sizes }]);
    return sizes;
  }
}
