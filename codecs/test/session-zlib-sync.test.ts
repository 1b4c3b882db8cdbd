import { describe, expect, it } from 'vitest';
import { constants, createDeflateRaw } from 'node:zlib';
import { zlibEngine } from '../compare/session/zlib-engine.js';
import { PermessageDeflateSender } from '../compare/session/permessage-deflate.js';

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

function messages(): Uint8Array[] {
  const utf8 = new TextEncoder();
  const out: Uint8Array[] = [];
  let seed = 7;
  const rand = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let i = 0; i < 60; i++) out.push(utf8.encode(JSON.stringify({ i, price: rand() * 1000, side: rand() < 0.5 ? 'buy' : 'sell', note: 'x'.repeat(i % 7) })));
  // Incompressible messages larger than the 16 KB output chunk: the write loops.
  for (const n of [20_000, 70_000]) out.push(Uint8Array.from({ length: n }, () => Math.floor(rand() * 256)));
  out.push(new Uint8Array(0), utf8.encode('after the big ones'));
  return out;
}

describe('zlib engine: messages compressed on this thread', () => {
  it('compress answers synchronously (no thread-pool round trip per message) with the bytes ws writes', async () => {
    const list = messages();
    for (const bits of [15, 9]) {
      const expected = await wsStyle(list, bits, false);
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
    const list = messages();
    for (const noContext of [false, true]) {
      const expected = (await wsStyle(list, 15, noContext)).map((b) => b.length - 4);
      const sender = new PermessageDeflateSender(zlibEngine(), 15, noContext);
      const sizes = list.map((m) => sender.payloadSize(m));
      for (const s of sizes) expect(typeof s).toBe('number');
      expect(sizes).toEqual(expected);
      sender.close();
    }
  });
});
