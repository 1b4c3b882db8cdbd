/**
 * permessage-deflate (RFC 7692) as browsers and servers run it: one raw-deflate stream
 * per direction, each message pushed and sync-flushed (Z_SYNC_FLUSH), the `00 00 ff ff`
 * the flush ends with removed (§7.2.1), and — unless the sender negotiated
 * `*_no_context_takeover` — the LZ77 window carried into the next message, so a message
 * that repeats an earlier one costs a few back-references.
 *
 * The deflater is passed in (`DeflateEngine`): `fflateEngine` here runs everywhere (the
 * worker, the extension); `zlibEngine` (zlib-engine.ts, Node only) is Node's zlib, the
 * library the `ws` package and Chromium use, and gives their exact bytes. fflate and zlib
 * both write valid deflate but choose matches differently, so their sizes differ by a few
 * percent (docs/BENCHMARKS.md, "Session comparison").
 */
import { Deflate } from 'fflate';
import type { DeflateParams } from './extension-header.js';
import { StreamSizer } from './deflate-size.js';
import type { Direction } from './framing.js';
import { joinBytes } from './join-bytes.js';

/** One sender's compressor. */
export interface MessageDeflater {
  /** One message, compressed and sync-flushed: the output still ends in `00 00 ff ff`. */
  compress(message: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Forgets the LZ77 window (no context takeover). */
  reset(): void | Promise<void>;
  close(): void;
}

export interface DeflateEngine {
  readonly name: string;
  /** Null when the engine can compress with a window of 2^bits bytes, else why not. */
  unsupported(windowBits: number): string | null;
  create(windowBits: number): MessageDeflater;
  /**
   * Payload sizes without writing the bytes (fflate: deflate-size.ts), equal to what
   * `create`'s deflater writes less the tail; absent, sizes are the written bytes' lengths.
   */
  readonly sizer?: (windowBits: number) => PayloadSizer;
  /**
   * The payload size of one message from a fresh stream (no context takeover), synchronously:
   * what `create`'s deflater writes for it right after a reset, less the tail (zlib: one
   * `deflateRawSync` with a sync flush instead of a stream round trip per message).
   */
  readonly freshPayloadSize?: (windowBits: number, message: Uint8Array) => number;
}

/** One sender's payload sizes, synchronously. */
export interface PayloadSizer {
  /** The next message's permessage-deflate payload size (sync-flush tail removed). */
  payloadSize(message: Uint8Array): number;
  /** Forgets the LZ77 window (no context takeover). */
  reset(): void;
}

/** The empty stored block a sync flush writes (RFC 7692 §7.2.1 removes it per message). */
export const SYNC_FLUSH_TAIL = Uint8Array.of(0x00, 0x00, 0xff, 0xff);

/**
 * A 2^15-entry hash table, as zlib's memLevel 8 (hash bits = memLevel + 7) that ws and
 * Chromium use. fflate's streaming default is 2^20 entries (4 MB allocated per stream),
 * which made a fresh stream per message (no context takeover) cost milliseconds.
 */
const FFLATE_MEM = 3;

/**
 * fflate's streaming Deflate (level 6, zlib's default), `push(chunk, false)` then a sync
 * flush (syncFlushBlock: fflate's own `flush(true)` is broken in 0.8.3). fflate has no window-size option: it always keeps 32 KB (15 bits), so
 * smaller `*_max_window_bits` are reported as unsupported rather than simulated wrongly.
 */
export const fflateEngine: DeflateEngine = {
  name: 'fflate',
  unsupported: (bits) =>
    bits === 15
      ? null
      : `fflate always uses a 32 KB window; ${bits}-bit windows (max_window_bits=${bits}) cannot be simulated with it`,
  create(bits) {
    const why = fflateEngine.unsupported(bits);
    if (why) throw new RangeError(why);
    let chunks: Uint8Array[] = [];
    const make = (): Deflate => {
      const d = new Deflate({ level: 6, mem: FFLATE_MEM });
      // fflate reuses no output buffers across calls, so the chunks can be kept as they are.
      d.ondata = (chunk) => chunks.push(chunk);
      return d;
    };
    let deflate = make();
    return {
      compress(message) {
        chunks = [];
        deflate.push(message, false);
        deflate.flush(false);
        chunks.push(syncFlushBlock(deflate));
        return joinBytes(chunks);
      },
      reset() {
        deflate = make();
      },
      close() {},
    };
  },
  sizer(bits) {
    const why = fflateEngine.unsupported(bits);
    if (why) throw new RangeError(why);
    return new StreamSizer(12 + FFLATE_MEM);
  },
};

/** fflate's private stream state: `r` = bits written into the last, unfinished byte (low 3 bits) | that byte << 3. */
interface FflateDeflateState {
  r?: number;
}

/**
 * The end of a sync flush: the unfinished byte, an empty non-final stored block
 * (3 header bits, then up to the byte boundary) and `00 00 ff ff`.
 *
 * fflate 0.8.3's own `flush(true)` passes the packed state (`r`, byte included) as a bit
 * position, so whenever the last byte is unfinished it writes a broken block (the
 * session test inflating a continued stream catches it); `flush(false)` writes every
 * finished byte and keeps the unfinished one here, which this block completes.
 */
function syncFlushBlock(deflate: Deflate): Uint8Array {
  const state = (deflate as unknown as { s?: FflateDeflateState }).s;
  // A newer fflate that renamed its state must fail loudly, not produce wrong sizes.
  if (typeof state !== 'object' || state === null || (state.r !== undefined && typeof state.r !== 'number'))
    throw new Error(
      'fflate Deflate internals changed (no numeric state.r): the permessage-deflate sync flush needs updating',
    );
  const packed = state.r ?? 0;
  const bit = packed & 7;
  // BFINAL=0 and BTYPE=00 are zero bits at `bit`..`bit+2`; LEN starts at the next byte boundary.
  const lenAt = (bit + 3 + 7) >> 3;
  const out = new Uint8Array(lenAt + 4);
  out[0] = bit ? packed >> 3 : 0;
  out.set(SYNC_FLUSH_TAIL, lenAt);
  state.r = 0;
  return out;
}

/**
 * One direction's sender: compresses each message with the engine, returns the
 * permessage-deflate payload (sync-flush tail removed), resets after each message when
 * the sender may not take its context over.
 */
export class PermessageDeflateSender {
  private deflaterMade: MessageDeflater | null = null;
  private sizer: PayloadSizer | null = null;

  constructor(
    private readonly engine: DeflateEngine,
    readonly windowBits: number,
    readonly noContextTakeover: boolean,
  ) {
    const why = engine.unsupported(windowBits);
    if (why) throw new RangeError(why);
  }

  /** Made on first use: a sender that only sizes never allocates the engine's stream. */
  private get deflater(): MessageDeflater {
    return (this.deflaterMade ??= this.engine.create(this.windowBits));
  }

  /**
   * The size of the next message's compressed payload: from the engine's sizer when it has
   * one (synchronous, nothing written), else the written payload's length. Use either this
   * or `payload` on one sender, not both (each has its own stream).
   */
  payloadSize(message: Uint8Array): number | Promise<number> {
    if (this.engine.sizer) {
      this.sizer ??= this.engine.sizer(this.windowBits);
      const n = this.sizer.payloadSize(message);
      if (this.noContextTakeover) this.sizer.reset();
      return n;
    }
    // An engine that compresses on this thread (zlib-engine.ts) answers at once: no promise
    // and no event-loop turn per message.
    const out = this.deflater.compress(message);
    if (out instanceof Uint8Array) {
      const reset = this.noContextTakeover ? this.deflater.reset() : undefined;
      if (!reset) return payloadLength(out);
      return reset.then(() => payloadLength(out));
    }
    return this.finish(out).then((p) => p.length);
  }

  /** The compressed payload of the next message. */
  async payload(message: Uint8Array): Promise<Uint8Array> {
    return this.finish(this.deflater.compress(message));
  }

  private async finish(compressed: Uint8Array | Promise<Uint8Array>): Promise<Uint8Array> {
    const out = await compressed;
    if (this.noContextTakeover) await this.deflater.reset();
    return endsWithTail(out) ? out.subarray(0, out.length - 4) : out;
  }

  close(): void {
    this.deflaterMade?.close();
  }
}

const payloadLength = (out: Uint8Array): number => (endsWithTail(out) ? out.length - 4 : out.length);

export function endsWithTail(bytes: Uint8Array): boolean {
  const n = bytes.length;
  return n >= 4 && bytes[n - 4] === 0 && bytes[n - 3] === 0 && bytes[n - 2] === 0xff && bytes[n - 1] === 0xff;
}

/** The window bits and context takeover a direction's sender uses under these parameters. */
export function senderSettings(
  params: DeflateParams,
  direction: Direction,
): { windowBits: number; noContextTakeover: boolean } {
  return direction === 'client-to-server'
    ? { windowBits: params.clientMaxWindowBits, noContextTakeover: params.clientNoContextTakeover }
    : { windowBits: params.serverMaxWindowBits, noContextTakeover: params.serverNoContextTakeover };
}

export type SenderOrReason =
  | { readonly sender: PermessageDeflateSender; readonly unsupported: null }
  | { readonly sender: null; readonly unsupported: string };

/** A sender for one direction, or why the engine cannot simulate it. */
export function createSender(engine: DeflateEngine, params: DeflateParams, direction: Direction): SenderOrReason {
  const { windowBits, noContextTakeover } = senderSettings(params, direction);
  const why = engine.unsupported(windowBits);
  if (why) return { sender: null, unsupported: why };
  return { sender: new PermessageDeflateSender(engine, windowBits, noContextTakeover), unsupported: null };
}

/**
 * The permessage-deflate payload size of every message of one sequence (both directions
 * interleaved; each direction has its own stream). A direction the engine cannot
 * simulate gets null sizes and its reason.
 */
export async function permessageDeflateSizes(
  messages: readonly { readonly direction: Direction; readonly data: Uint8Array }[],
  params: DeflateParams,
  engine: DeflateEngine = fflateEngine,
): Promise<{ sizes: (number | null)[]; unsupported: Partial<Record<Direction, string>> }> {
  const senders = {
    'client-to-server': createSender(engine, params, 'client-to-server'),
    'server-to-client': createSender(engine, params, 'server-to-client'),
  };
  const sizes: (number | null)[] = [];
  for (const m of messages) {
    const s = senders[m.direction].sender;
    sizes.push(s ? (await s.payload(m.data)).length : null);
  }
  const unsupported: Partial<Record<Direction, string>> = {};
  for (const d of ['client-to-server', 'server-to-client'] as const) {
    const s = senders[d];
    if (s.sender) s.sender.close();
    else unsupported[d] = s.unsupported;
  }
  return { sizes, unsupported };
}
