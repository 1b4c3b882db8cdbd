/**
 * Payloads inside payloads, streamed on `/demo/nested`: a JSON text frame
 * carrying base64 of CBOR, a CBOR frame whose byte string holds MessagePack, a gzip frame
 * of CBOR, and a zlib stream with its context carried across frames, each message ending in
 * a sync flush (`00 00 ff ff`), as Discord's zlib-stream transport sends. Every frame's
 * `kind` is what it decodes as once unwrapped.
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { gzipSync } from 'fflate';
import { fflateEngine } from '../../codecs/compare/session/permessage-deflate.js';
import { makeRng, type Rng } from '../rng.js';
import type { DemoMessage, DemoTraffic } from '../traffic.js';

export const NESTED_PATH = '/demo/nested';

const cbor = new CborEncoder();
const msgpack = new MsgPackEncoder();
const USERS = ['ann', 'bo', 'cy', 'dee'];
const WORDS = ['deploy', 'review', 'ship it', 'lgtm', 'rollback', 'on call'];

/** `{"type":"sync","payload":"<base64 of CBOR>"}`: a binary value smuggled through JSON. */
export function base64CborInJson(rng: Rng, seq: number, nowMs: number): DemoMessage {
  const inner = cbor.encode({
    user: rng.pick(USERS),
    cursor: seq * 17,
    items: [rng.pick(WORDS), rng.pick(WORDS)],
    at: nowMs,
  });
  const frame = { type: 'sync', seq, payload: Buffer.from(inner).toString('base64') };
  return { opcode: 'text', kind: 'json', data: JSON.stringify(frame), label: 'json with base64 CBOR payload' };
}

/** A CBOR envelope whose `body` byte string is a MessagePack event. */
export function msgpackInCborBytes(rng: Rng, seq: number): DemoMessage {
  const body = msgpack.encode({ event: 'presence', user: rng.pick(USERS), online: rng.bool(), since: seq });
  return {
    opcode: 'binary',
    kind: 'cbor',
    data: cbor.encode({ kind: 'envelope', seq, body }),
    label: 'cbor envelope with msgpack body',
  };
}

/** A gzip frame of a CBOR list (repetitive, so it compresses well). */
export function gzipCborFrame(rng: Rng, seq: number): DemoMessage {
  const rows = Array.from({ length: 40 }, (_, i) => ({
    id: seq * 100 + i,
    user: rng.pick(USERS),
    status: rng.pick(['active', 'idle', 'away']),
    tags: ['demo', 'nested'],
  }));
  return {
    opcode: 'binary',
    kind: 'cbor',
    data: gzipSync(cbor.encode({ type: 'roster', rows })),
    label: 'gzip frame of cbor',
  };
}

/**
 * One connection's zlib stream: each message compressed with the context of the ones before,
 * sync-flushed. The zlib header (`78 9c`, level 6) opens the first message; the body is the
 * raw deflate stream of permessage-deflate's fflate engine, whose sync flush is right
 * (fflate 0.8.3's own `flush(true)` wrote the first message's `00 00 ff ff` as `00 00 00 00`).
 */
export class ZlibStreamWriter {
  private readonly deflater = fflateEngine.create(15);
  private started = false;

  message(value: unknown): Uint8Array {
    const body = this.deflater.compress(new TextEncoder().encode(JSON.stringify(value)));
    // The fflate engine compresses synchronously (only the zlib engine answers with a promise).
    if (!(body instanceof Uint8Array)) throw new TypeError('the fflate engine answered asynchronously');
    if (this.started) return body;
    this.started = true;
    const out = new Uint8Array(2 + body.length);
    out.set(ZLIB_HEADER_LEVEL_6);
    out.set(body, 2);
    return out;
  }
}

const ZLIB_HEADER_LEVEL_6 = [0x78, 0x9c];

/** The `/demo/nested` stream: the four shapes in turn. */
export function createNestedTraffic(options: { seed?: number; now?: () => number } = {}): DemoTraffic {
  const rng = makeRng(options.seed ?? 1);
  const now = options.now ?? (() => Date.UTC(2026, 0, 1));
  const stream = new ZlibStreamWriter();
  let count = 0;
  let streamSeq = 0;
  const produce = (): DemoMessage => {
    switch (count % 4) {
      case 0:
        return base64CborInJson(rng, count, now());
      case 1:
        return msgpackInCborBytes(rng, count);
      case 2:
        return gzipCborFrame(rng, count);
      default: {
        const s = streamSeq++;
        const data = stream.message({
          op: 0,
          s,
          t: 'MESSAGE_CREATE',
          d: { channel: 'general', author: rng.pick(USERS), content: `${rng.pick(WORDS)} ${rng.pick(WORDS)}` },
        });
        return { opcode: 'binary', kind: 'json', data, label: `zlib-stream message ${s}` };
      }
    }
  };
  return {
    next() {
      const message = produce();
      count++;
      return message;
    },
    get count() {
      return count;
    },
  };
}
