import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder';
import { decodeFrame, type FrameFormat } from '../index.js';
import { frameAttribution, nodeCost } from './attribution.js';
import { treeNode } from '../../inspector-app/src/worker/tree-nodes.js';
import { hex } from '../test/helpers/cbor.js';
import { runCli } from '../test/helpers/cli.js';

/**
 * Head = the initial byte plus a length / count argument (or JSON's opening token); a
 * scalar's value bytes are value, in every format. A CBOR float64 reported a 9-byte head
 * and a uint32 a 5-byte one while MessagePack said 1, and a 190,000-float CBOR array read
 * as all header.
 */
const indexOf = (bytes: Uint8Array, format: FrameFormat) => decodeFrame(bytes, { format }).index!;

describe('header bytes mean the same in every format', () => {
  it.each([
    ['cbor float64', 'fb 3ff8000000000000', 'cbor', 1],
    ['msgpack float64', 'cb 3ff8000000000000', 'msgpack', 1],
    ['cbor float32', 'fa 3fc00000', 'cbor', 1],
    ['cbor float16', 'f9 3e00', 'cbor', 1],
    ['cbor uint32', '1a 00010000', 'cbor', 1],
    ['msgpack uint32', 'ce 00010000', 'msgpack', 1],
    ['cbor uint8', '18 64', 'cbor', 1],
    ['msgpack uint8', 'cc 64', 'msgpack', 1],
    ['cbor nint16', '39 03e7', 'cbor', 1],
    ['cbor immediate', '05', 'cbor', 1],
    ['msgpack fixint', '05', 'msgpack', 1],
    ['cbor simple(32)', 'f8 20', 'cbor', 1],
    ['cbor text(3)', '63 616263', 'cbor', 1],
    ['cbor text(24)', '78 18' + '61'.repeat(24), 'cbor', 2],
    ['msgpack str8', 'd9 03 616263', 'msgpack', 2],
    ['cbor array(2)', '82 01 02', 'cbor', 1],
    ['cbor tag 1', 'c1 1a 514b67b0', 'cbor', 1],
  ] as const)('%s: head %i… in the index, --json, nodeCost and the UI tree', (_name, h, format, head) => {
    const index = indexOf(hex(h), format);
    expect(index.headerLength(0)).toBe(head);
    expect(nodeCost(index, 0).head).toBe(head);
    expect(treeNode(index, 0, 0).headerLength).toBe(head);
    expect(JSON.parse(runCli(['inspect', 'f', '--json', '--format', format], { f: hex(h) }).stdout).root.head).toBe(
      head,
    );
  });

  it('JSON numbers and literals have no head: all value', () => {
    const index = indexOf(new TextEncoder().encode('[1.5, true]'), 'json');
    const [a, b] = index.children(0);
    expect([index.headerLength(0), index.headerLength(a), index.headerLength(b)]).toEqual([1, 0, 0]);
  });

  it('a 190,000-float array: headers are the array head and one type byte per float, in CBOR and MessagePack alike', () => {
    const floats = Array.from({ length: 190_000 }, (_, i) => i + 0.1);
    for (const [bytes, format] of [
      [new CborEncoder().encode(floats), 'cbor'],
      [new MsgPackEncoder().encode(floats), 'msgpack'],
    ] as const) {
      const a = frameAttribution(indexOf(bytes, format));
      expect(a.bytes, format).toBe(5 + 9 * 190_000);
      expect(a.headerBytes, format).toBe(5 + 190_000);
      expect(a.scalarPayloadBytes, format).toBe(8 * 190_000);
    }
  });
});
