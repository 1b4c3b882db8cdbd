/**
 * IEEE 754 bit patterns of the three float widths CBOR and MessagePack carry, for encoders
 * that must write a value at a given width only when that width holds it exactly.
 * Widths are named as CBOR's encoding indicators name them: 1 = binary16, 2 = binary32,
 * 3 = binary64.
 */
export type FloatWidth = 1 | 2 | 3;

export const FLOAT_BYTES: Readonly<Record<FloatWidth, number>> = { 1: 2, 2: 4, 3: 8 };
const MANTISSA: Readonly<Record<FloatWidth, bigint>> = { 1: 10n, 2: 23n, 3: 52n };
const EXPONENT: Readonly<Record<FloatWidth, bigint>> = { 1: 5n, 2: 8n, 3: 11n };

/** The binary16 bits of `v`, or null when binary16 cannot hold it exactly (NaN: the quiet NaN 7e00). */
export function float16Bits(v: number): number | null {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  if (a > 65504) return null;
  if (a < 2 ** -14) {
    const m = a / 2 ** -24;
    return Number.isInteger(m) ? sign | m : null;
  }
  let e = Math.floor(Math.log2(a));
  while (2 ** e > a) e--;
  while (2 ** (e + 1) <= a) e++;
  const m = (a / 2 ** e - 1) * 1024;
  return Number.isInteger(m) ? sign | ((e + 15) << 10) | m : null;
}

/** The binary32 bits of `v`, or null when binary32 cannot hold it exactly (NaN: 7fc00000). */
export function float32Bits(v: number): number | null {
  if (Number.isNaN(v)) return 0x7fc00000;
  if (Math.fround(v) !== v) return null;
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, v);
  return view.getUint32(0);
}

export function float64Bits(v: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  return view.getBigUint64(0);
}

/** `v`'s bits at `width`, or null when that width does not hold it exactly. */
export function floatBits(v: number, width: FloatWidth): bigint | null {
  if (width === 3) return float64Bits(v);
  const bits = width === 1 ? float16Bits(v) : float32Bits(v);
  return bits === null ? null : BigInt(bits);
}

/** The narrowest width that holds `v` exactly (a NaN: binary16, as its canonical form is). */
export function preferredFloatWidth(v: number): FloatWidth {
  if (float16Bits(v) !== null) return 1;
  return float32Bits(v) !== null ? 2 : 3;
}

/** Whether `bits` at `width` is a NaN (all exponent bits set, mantissa not zero). */
export function isNanBits(bits: bigint, width: FloatWidth): boolean {
  const m = MANTISSA[width];
  const e = EXPONENT[width];
  return ((bits >> m) & ((1n << e) - 1n)) === (1n << e) - 1n && (bits & ((1n << m) - 1n)) !== 0n;
}

/**
 * A NaN's bits carried to a wider float: same sign, exponent all ones, the payload (quiet
 * bit included) kept in the top bits of the wider mantissa, as hardware widening does.
 */
export function widenNanBits(bits: bigint, from: FloatWidth, to: FloatWidth): bigint {
  const sign = bits >> (MANTISSA[from] + EXPONENT[from]);
  const mantissa = (bits & ((1n << MANTISSA[from]) - 1n)) << (MANTISSA[to] - MANTISSA[from]);
  return (sign << (MANTISSA[to] + EXPONENT[to])) | (((1n << EXPONENT[to]) - 1n) << MANTISSA[to]) | mantissa;
}
