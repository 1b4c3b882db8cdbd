/**
 * The value as it reaches a comparison lane (codecs/compare/lane-value.ts): after a
 * structured clone (what postMessage does) and unpacking it is the value the sender had,
 * classes included — a bare clone turns TaggedValue, SimpleValue, ExtValue and EntriesMap
 * into plain objects.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { packValue, unpackValue } from './lane-value.js';
import { scanValue } from './features.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue, setOwn } from '../core/values.js';
import { decodeFrame } from '../index.js';
import path from 'node:path';
import { sharedDir } from '../test/helpers/paths.js';

const sent = (value: unknown): unknown => unpackValue(structuredClone(packValue(value, scanValue(value))));

describe('a value sent to a lane', () => {
  it('keeps every class of the value model, nested and as Map keys, and the root itself', () => {
    const proto: Record<string, unknown> = {};
    setOwn(proto, '__proto__', new TaggedValue(7, [new SimpleValue(1)]));
    const values: unknown[] = [
      new TaggedValue(1, 1_700_000_000),
      new TaggedValue(2n ** 70n, new TaggedValue(3, { a: new ExtValue(4, Uint8Array.of(1)) })),
      [new SimpleValue(16), undefined, -0, NaN, 1n << 80n, Uint8Array.of(9, 8)],
      new Map<unknown, unknown>([
        [new TaggedValue(37, Uint8Array.of(1, 2)), new Map([[new SimpleValue(20), 'x']])],
        [
          'plain',
          new EntriesMap([
            [1, new TaggedValue(5, 'v')],
            [1, 2],
          ]),
        ],
      ]),
      new EntriesMap([
        [
          new ExtValue(-1, Uint8Array.of(0, 0, 0, 1), { seconds: 1, nanoseconds: 0, date: new Date(1000) }),
          [new TaggedValue(0, 'd')],
        ],
      ]),
      proto,
    ];
    for (const value of values) {
      const bare = structuredClone(value);
      if (
        scanValue(value).tags + scanValue(value).simples + scanValue(value).exts + scanValue(value).duplicateKeyMaps >
        0
      )
        expect(bare).not.toStrictEqual(value);
      expect(sent(value)).toStrictEqual(value);
    }
    expect(Object.getPrototypeOf(sent(proto))).toBe(Object.prototype);
    expect(Object.keys(sent(proto) as object)).toEqual(['__proto__']);
  });

  it('equals the decoded value of every RFC 8949 Appendix A vector and seed payload (as CBOR and MessagePack)', () => {
    const frames: Uint8Array[] = [];
    const vectors = JSON.parse(readFileSync(path.join(sharedDir, 'test-vectors/cbor-appendix-a.json'), 'utf8')) as {
      cbor: string;
    }[];
    for (const v of vectors) frames.push(Uint8Array.from(Buffer.from(v.cbor, 'base64')));
    const seeds = JSON.parse(readFileSync(path.join(sharedDir, 'payloads/seed-payloads.json'), 'utf8')) as {
      data: unknown;
    }[];
    for (const seed of seeds)
      frames.push(new CborEncoder().encode(seed.data).slice(), new MsgPackEncoder().encode(seed.data).slice());
    let checked = 0;
    for (const bytes of frames) {
      const frame = decodeFrame(bytes);
      if (!frame.index || frame.error) continue;
      const value = frame.index.value(frame.index.root);
      expect(sent(value)).toStrictEqual(value);
      checked++;
    }
    expect(checked).toBeGreaterThan(70);
  });

  it('a value without classes is sent as it is (no walk, nothing listed)', () => {
    const value = { a: [1, 2, { b: Uint8Array.of(1) }], c: 1n << 70n };
    expect(packValue(value, scanValue(value)).classes).toEqual([]);
  });
});
