import fc from 'fast-check';
import { concatBytes } from './concat-bytes.js';

/**
 * Random well-formed CBOR, built head by head so that every encoding choice occurs: each
 * argument in the initial byte or in 1, 2, 4 or 8 bytes (whenever it fits), indefinite
 * lengths (arrays, maps, chunked byte and text strings, empty ones too), tags, floats of all
 * three widths from random bits (NaN payloads, subnormals, -0.0), simple values.
 * Test support for the round-trip properties.
 */
const concat = concatBytes;

/** Every head encoding of `arg` for `major`: immediate when < 24, then each width it fits. */
function heads(major: number, arg: bigint): Uint8Array[] {
  const out: Uint8Array[] = [];
  if (arg < 24n) out.push(Uint8Array.of((major << 5) | Number(arg)));
  for (const [size, ai] of [
    [1, 24],
    [2, 25],
    [4, 26],
    [8, 27],
  ] as const) {
    if (arg >> BigInt(8 * size) !== 0n) continue;
    const h = new Uint8Array(1 + size);
    h[0] = (major << 5) | ai;
    let v = arg;
    for (let i = size; i >= 1; i--) {
      h[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    out.push(h);
  }
  return out;
}

const head = (major: number, arg: bigint) =>
  fc.nat().map((n) => {
    const all = heads(major, arg);
    return all[n % all.length];
  });

const argument = fc.oneof(
  fc.bigInt({ min: 0n, max: 30n }),
  fc.bigInt({ min: 0n, max: 0xffffn }),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
);

const integer = fc.tuple(fc.constantFrom(0, 1), argument).chain(([major, arg]) => head(major, arg));

const definiteString = (major: 2 | 3) =>
  (major === 2
    ? fc.uint8Array({ maxLength: 40 })
    : fc.string({ unit: 'binary', maxLength: 30 }).map((s) => new TextEncoder().encode(s))
  ).chain((data) => head(major, BigInt(data.length)).map((h) => concat(h, data)));

const chunkedString = (major: 2 | 3) =>
  fc
    .array(definiteString(major), { maxLength: 4 })
    .map((chunks) => concat(Uint8Array.of((major << 5) | 31), ...chunks, Uint8Array.of(0xff)));

const float = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((b) => Uint8Array.of(0xf9, b >> 8, b & 255)),
  fc.uint8Array({ minLength: 4, maxLength: 4 }).map((b) => concat(Uint8Array.of(0xfa), b)),
  fc.uint8Array({ minLength: 8, maxLength: 8 }).map((b) => concat(Uint8Array.of(0xfb), b)),
  // Special values at every width, so they occur every run.
  fc
    .constantFrom(
      'f97e00',
      'f97e01',
      'f9fe00',
      'f98000',
      'f97c00',
      'faffc00001',
      'fa7f800000',
      'fb7ff8000000000001',
      'fb8000000000000000',
      'f90001',
      'fa00000001',
    )
    .map((h) => Uint8Array.from(Buffer.from(h, 'hex'))),
);

const simple = fc.oneof(
  fc.integer({ min: 0, max: 23 }).map((n) => Uint8Array.of(0xe0 | n)),
  fc.integer({ min: 32, max: 255 }).map((n) => Uint8Array.of(0xf8, n)),
);

const leaf = fc.oneof(integer, definiteString(2), definiteString(3), chunkedString(2), chunkedString(3), float, simple);

export const wellFormedCbor: fc.Arbitrary<Uint8Array> = fc.letrec<{ item: Uint8Array }>((tie) => ({
  item: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .tuple(fc.array(tie('item'), { maxLength: 4 }), fc.boolean())
      .chain(([items, indefinite]) =>
        indefinite
          ? fc.constant(concat(Uint8Array.of(0x9f), ...items, Uint8Array.of(0xff)))
          : head(4, BigInt(items.length)).map((h) => concat(h, ...items)),
      ),
    fc
      .tuple(fc.array(fc.tuple(tie('item'), tie('item')), { maxLength: 3 }), fc.boolean())
      .chain(([pairs, indefinite]) => {
        const body = pairs.flat();
        return indefinite
          ? fc.constant(concat(Uint8Array.of(0xbf), ...body, Uint8Array.of(0xff)))
          : head(5, BigInt(pairs.length)).map((h) => concat(h, ...body));
      }),
    fc
      .tuple(fc.oneof(fc.bigInt({ min: 0n, max: 300n }), argument), tie('item'))
      .chain(([tag, content]) => head(6, tag).map((h) => concat(h, content))),
  ),
})).item;
