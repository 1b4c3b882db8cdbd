import { describe, expect, it } from 'vitest';
import { nodeCost } from '../core/attribution.js';
import { decodeFrame, diagnostic } from '../index.js';

const protobuf = (...bytes: number[]) => decodeFrame(Uint8Array.from(bytes), { format: 'protobuf' }).index!;

describe('Protobuf varints have no header', () => {
  it('150 as field 1 (08 96 01): the value node is two bytes of value, no head', () => {
    const index = protobuf(0x08, 0x96, 0x01);
    const value = index.store.firstChild[0] + 1;
    expect(index.kind(value)).toBe('uint');
    expect(nodeCost(index, value)).toMatchObject({ total: 2, head: 0, key: 1 });
  });
});

describe('EDN of a schema-less Protobuf message', () => {
  it('keys are field numbers; fixed-width fields and groups print as values, never "?"', () => {
    const index = protobuf(
      ...[0x08, 0x96, 0x01], // 1: 150
      ...[0x15, 0x01, 0x00, 0x00, 0x00], // 2: fixed32 1
      ...[0x19, 0x02, 0, 0, 0, 0, 0, 0, 0], // 3: fixed64 2
      ...[0x23, 0x08, 0x01, 0x24], // 4: group { 1: 1 }
      ...[0x2a, 0x02, 0x08, 0x07], // 5: { 1: 7 }
    );
    expect(index.error).toBeNull();
    expect(diagnostic(index)).toBe('{1: 150, 2: 1, 3: 2, 4: {1: 1}, 5: {1: 7}}');
  });
});
