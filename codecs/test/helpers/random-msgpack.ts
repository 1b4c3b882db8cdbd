import fc from 'fast-check';
import { concatBytes } from './concat-bytes.js';

/**
 * Random well-formed MessagePack, built format by format so that every width occurs: each
 * integer in every format that holds it (fixint, uint and int 8 to 64), floats 32 and 64
 * from random bits (NaN payloads included), str / bin / ext / array / map lengths in every
 * field wide enough (fix forms, 8, 16, 32 bits), fixext and ext, timestamps, and str bytes
 * that are not UTF-8. Test support for the round-trip properties.
 */
const concat = concatBytes;

const be = (v: bigint, size: number): Uint8Array => {
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
};

const pick = <T>(options: T[]) => fc.nat().map((n) => options[n % options.length]);

function intEncodings(v: bigint): Uint8Array[] {
  const out: Uint8Array[] = [];
  if (v >= 0n && v < 128n) out.push(Uint8Array.of(Number(v)));
  if (v >= -32n && v < 0n) out.push(Uint8Array.of(Number(v) & 0xff));
  [1, 2, 4, 8].forEach((size, i) => {
    if (v >= 0n && v < 1n << BigInt(8 * size)) out.push(concat(Uint8Array.of(0xcc + i), be(v, size)));
    const half = 1n << BigInt(8 * size - 1);
    if (v >= -half && v < half) out.push(concat(Uint8Array.of(0xd0 + i), be(BigInt.asUintN(8 * size, v), size)));
  });
  return out;
}

const integer = fc
  .oneof(
    fc.bigInt({ min: -40n, max: 300n }),
    fc.bigInt({ min: -(1n << 31n), max: 1n << 32n }),
    fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n }),
  )
  .chain((v) => pick(intEncodings(v)));

/** Every length head of `n` for a form: [fix byte or -1 and its limit, then 8-, 16-, 32-bit format bytes]. */
function lengthHeads(n: number, fix: number, fixMax: number, b8: number, b16: number, b32: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  if (fix >= 0 && n <= fixMax) out.push(Uint8Array.of(fix | n));
  if (b8 >= 0 && n < 0x100) out.push(Uint8Array.of(b8, n));
  if (n < 0x10000) out.push(concat(Uint8Array.of(b16), be(BigInt(n), 2)));
  out.push(concat(Uint8Array.of(b32), be(BigInt(n), 4)));
  return out;
}

const strData = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 8 }),
);
const str = strData.chain((d) => pick(lengthHeads(d.length, 0xa0, 31, 0xd9, 0xda, 0xdb)).map((h) => concat(h, d)));
const bin = fc
  .uint8Array({ maxLength: 40 })
  .chain((d) => pick(lengthHeads(d.length, -1, -1, 0xc4, 0xc5, 0xc6)).map((h) => concat(h, d)));

function extHeads(size: number): Uint8Array[] {
  const fixed = [1, 2, 4, 8, 16].indexOf(size);
  return [...(fixed >= 0 ? [Uint8Array.of(0xd4 + fixed)] : []), ...lengthHeads(size, -1, -1, 0xc7, 0xc8, 0xc9)];
}
const ext = fc
  .tuple(fc.integer({ min: -128, max: 127 }), fc.uint8Array({ maxLength: 20 }))
  .chain(([type, d]) => pick(extHeads(d.length)).map((h) => concat(h, Uint8Array.of(type & 0xff), d)));
const timestamp = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }).map((s) => concat(Uint8Array.of(0xd6, 0xff), be(s, 4))),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 999_999_999n }), fc.bigInt({ min: 0n, max: (1n << 34n) - 1n }))
    .map(([ns, s]) => concat(Uint8Array.of(0xd7, 0xff), be((ns << 34n) | s, 8))),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 999_999_999n }), fc.bigInt({ min: -(1n << 40n), max: 1n << 40n }))
    .map(([ns, s]) => concat(Uint8Array.of(0xc7, 12, 0xff), be(ns, 4), be(BigInt.asUintN(64, s), 8))),
);

const float = fc.oneof(
  fc.uint8Array({ minLength: 4, maxLength: 4 }).map((b) => concat(Uint8Array.of(0xca), b)),
  fc.uint8Array({ minLength: 8, maxLength: 8 }).map((b) => concat(Uint8Array.of(0xcb), b)),
  fc
    .constantFrom(
      'ca7fc00000',
      'cb7ff8000000000000',
      'cb8000000000000000',
      'ca80000000',
      'cb7ff0000000000000',
      'ca7f800001',
    )
    .map((h) => Uint8Array.from(Buffer.from(h, 'hex'))),
);

const leaf = fc.oneof(
  integer,
  float,
  str,
  bin,
  ext,
  timestamp,
  fc.constantFrom(0xc0, 0xc2, 0xc3).map((b) => Uint8Array.of(b)),
);

export const wellFormedMsgpack: fc.Arbitrary<Uint8Array> = fc.letrec<{ item: Uint8Array }>((tie) => ({
  item: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .array(tie('item'), { maxLength: 4 })
      .chain((items) => pick(lengthHeads(items.length, 0x90, 15, -1, 0xdc, 0xdd)).map((h) => concat(h, ...items))),
    fc
      .array(fc.tuple(tie('item'), tie('item')), { maxLength: 3 })
      .chain((pairs) =>
        pick(lengthHeads(pairs.length, 0x80, 15, -1, 0xde, 0xdf)).map((h) => concat(h, ...pairs.flat())),
      ),
  ),
})).item;
