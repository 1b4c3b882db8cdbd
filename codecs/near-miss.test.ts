import { describe, expect, it } from 'vitest';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { decodeFrame } from './index.js';
import { makeRng } from './core/rng.js';
import { hex } from './test/helpers/hex.js';

describe('a failed reading is "malformed X" only when it looks like X', () => {
  it('random bytes de ad be ef … are unknown, with the readings that came nearest', () => {
    for (const bytes of ['de ad be ef', 'de ad be ef ca fe ba be', 'de ad be ef de ad be ef de ad be ef de ad be ef']) {
      const frame = decodeFrame(hex(bytes));
      expect(frame, bytes).toMatchObject({ verdict: 'unknown', format: null, index: null });
      expect(frame.error?.message).toMatch(/msgpack stops at byte \d/);
    }
  });

  it('short random frames after de ad be ef are unknown (almost always)', () => {
    const rng = makeRng(11);
    let unknown = 0;
    const runs = 500;
    for (let i = 0; i < runs; i++) {
      const bytes = new Uint8Array(5 + Math.floor(rng() * 60));
      bytes.set([0xde, 0xad, 0xbe, 0xef]);
      for (let j = 4; j < bytes.length; j++) bytes[j] = Math.floor(rng() * 256);
      if (decodeFrame(bytes).verdict === 'unknown') unknown++;
    }
    expect(unknown / runs).toBeGreaterThanOrEqual(0.99);
  });

  it('one text key is enough to read like data: {"a": a string cut short} is malformed CBOR', () => {
    const frame = decodeFrame(hex('a1 61 61 78 10 41 42'));
    expect(frame).toMatchObject({ format: 'cbor', verdict: 'malformed' });
    expect(frame.error).toMatchObject({ code: 'length-exceeds-input', offset: 3 });
  });

  it('a MessagePack map with text keys that was cut short is still malformed MessagePack', () => {
    const full = new MsgPackEncoder().encode({ type: 'order.updated', orderId: 'ORD-123456', status: 'shipped' });
    for (const cut of [2, 5, 9]) {
      const frame = decodeFrame(full.subarray(0, full.length - cut));
      expect(frame).toMatchObject({ format: 'msgpack', verdict: 'malformed' });
      expect(frame.error!.offset).toBeGreaterThan(0);
    }
  });
});
