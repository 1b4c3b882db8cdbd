import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { WorkerHandlers } from './handlers.js';
import type { IngestFrame } from './api.js';
import { hex } from '../../../codecs/test/helpers/hex.js';

const cbor = (v: unknown) => new CborEncoder().encode(v);

let nextId = 1;
function withFrame(data: Uint8Array, extra: Partial<IngestFrame> = {}): { h: WorkerHandlers; frameId: number } {
  const h = new WorkerHandlers();
  const frameId = nextId++;
  h.store.add({ frameId, connectionId: 'c1', direction: 'received', time: 0, opcode: 'binary', data, ...extra });
  return { h, frameId };
}

function users(n: number) {
  return {
    type: 'users.page',
    users: Array.from({ length: n }, (_, i) => ({ id: i, name: `user ${i}`, avatarHash: 'x'.repeat(40) })),
  };
}

describe('the Bytes view report (worker)', () => {
  it('splits the frame into parts that add up, with keys, schema estimate and cost by field', () => {
    const data = cbor(users(50));
    const { h, frameId } = withFrame(data);
    const r = h.methods.bytesReport({ frameId, format: 'auto' })!;
    expect(r.frameBytes).toBe(data.length);
    expect(r.whole).toBe(true);
    const b = r.breakdown;
    expect(
      b.headerBytes + b.keyBytes + b.stringPayloadBytes + b.scalarPayloadBytes + b.unindexedBytes + b.otherBytes,
    ).toBe(data.length);
    expect(r.keys!.maps).toBe(51);
    expect(r.keys!.keyBytes + r.keys!.valueBytes + r.keys!.mapOverheadBytes).toBe(data.length);
    expect(r.keys!.topKeys[0].key).toBe('avatarHash');
    expect(r.keys!.schema.bytes).toBeLessThan(data.length);
    const hash = r.fields.find((f) => f.pattern === '$.users[*].avatarHash')!;
    expect(hash.count).toBe(50);
    expect(hash.share).toBeGreaterThan(0.4);
  });

  it('keeps the figures of the part before a decode error, and the error', () => {
    const { h, frameId } = withFrame(hex('82 a1 61 61 01 a1 61 61'));
    const r = h.methods.bytesReport({ frameId, format: 'cbor' })!;
    expect(r.error?.offset).toBe(8);
    expect(r.fields.some((f) => f.pattern === '$[*].a')).toBe(true);
  });

  it('says null for a frame that is gone', () => {
    expect(new WorkerHandlers().methods.bytesReport({ frameId: 999, format: 'auto' })).toBeNull();
  });
});

describe('largest fields', () => {
  it('ranks fields by path pattern, never thousands of tiny records at 0.0 %', () => {
    // 20,000 user records: each is ~0.005 % of the frame; the list used to be full of them.
    const { h, frameId } = withFrame(cbor(users(20_000)));
    const largest = h.methods.largest({ frameId, format: 'auto', count: 12 });
    expect(largest.map((f) => f.path)).toContain('$.users[*].avatarHash');
    // Nothing that would read "0.0 %": the repeated fields are the Bytes view's cost by field.
    expect(largest.filter((f) => f.share < 0.0005)).toEqual([]);
    expect(largest.filter((f) => /users\[\d+\]$/.test(f.path))).toEqual([]);
  });
});
