import { describe, expect, it } from 'vitest';
import { constants, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { zlibEngine } from './zlib-engine.js';
import { PermessageDeflateSender } from './permessage-deflate.js';

/** What `ws` does per message: write, flush(Z_SYNC_FLUSH), the bytes written since the last flush. */
async function wsStyle(messages: readonly Uint8Array[], bits: number, resetEach: boolean): Promise<Uint8Array[]> {
  const stream = createDeflateRaw({ windowBits: bits, level: constants.Z_DEFAULT_COMPRESSION, memLevel: 8 });
  let chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const out: Uint8Array[] = [];
  for (const m of messages) {
    stream.write(m);
    await new Promise<void>((resolve) => stream.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    out.push(new Uint8Array(Buffer.concat(chunks)));
    chunks = [];
    if (resetEach) stream.reset();
  }
  stream.close();
  return out;
}

/**
 * A 10,000-frame session's server → client messages (its mk10k.js), far enough to
 * include message 7,533: its sync flush crosses the end of Node's 16 KB output buffer, where
 * the stream writes a second empty stored block (checked below that it occurs), then
 * incompressible messages larger than the output buffer (the write loops), an empty one.
 */
function messages(count = 7_600): Uint8Array[] {
  const utf8 = new TextEncoder();
  const out: Uint8Array[] = [];
  for (let i = 0; out.length < count; i++) {
    if (i % 5 === 0) continue;
    const v = {
      type: 'tick',
      seq: i,
      room: '#r' + (i % 7),
      user: { id: i % 100, name: 'User ' + (i % 100) },
      items: Array.from({ length: 12 }, (_, k) => ({
        sku: 'SKU-' + ((i * 13 + k) % 997),
        qty: k + 1,
        price: ((i + k) % 50) * 1.25,
      })),
      note: 'x'.repeat(i % 40),
    };
    out.push(utf8.encode(JSON.stringify(v)));
  }
  let seed = 7;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (const n of [20_000, 70_000]) out.push(Uint8Array.from({ length: n }, () => Math.floor(rand() * 256)));
  out.push(new Uint8Array(0), utf8.encode('after the big ones'));
  return out;
}

const TWO_TAILS = '0000ffff000000ffff';

describe('zlib engine: messages compressed on this thread', () => {
  it('compress answers synchronously (no thread-pool round trip per message) with the bytes ws writes', async () => {
    for (const bits of [15, 9]) {
      const list = messages(bits === 15 ? 7_600 : 300);
      const expected = await wsStyle(list, bits, false);
      if (bits === 15)
        expect(
          expected.some((b) => Buffer.from(b).toString('hex').endsWith(TWO_TAILS)),
          'the output-buffer boundary case occurs',
        ).toBe(true);
      const deflater = zlibEngine().create(bits);
      for (let i = 0; i < list.length; i++) {
        const out = deflater.compress(list[i]);
        expect(out, `message ${i}: a Uint8Array, not a promise`).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(out as Uint8Array).equals(Buffer.from(expected[i])), `bits ${bits} message ${i}`).toBe(true);
      }
      deflater.close();
    }
  });

  it('a sender sizes each message at once, with and without context takeover, as the stream writes it', async () => {
    const list = messages(400);
    for (const noContext of [false, true]) {
      const expected = (await wsStyle(list, 15, noContext)).map((b) => b.length - 4);
      const sender = new PermessageDeflateSender(zlibEngine(), 15, noContext);
      const sizes = list.map((m) => sender.payloadSize(m));
      for (const s of sizes) expect(typeof s).toBe('number');
      expect(sizes).toEqual(expected);
      sender.close();
    }
  });

  it('freshPayloadSize works detached from the engine (the session calls it so) and equals a new stream per message', () => {
    // CBOR too: a kept stream reset per message differed from a new one on binary messages.
    const cbor = new CborEncoder();
    const list = [
      ...messages(200),
      ...messages(300)
        .slice(0, 300)
        .map((m) => cbor.encode(JSON.parse(new TextDecoder().decode(m)))),
    ];
    const { freshPayloadSize } = zlibEngine();
    const expected = list.map(
      (m) => deflateRawSync(m, { windowBits: 15, finishFlush: constants.Z_SYNC_FLUSH }).length - 4,
    );
    expect(list.map((m) => freshPayloadSize!(15, m))).toEqual(expected);
  });
});
