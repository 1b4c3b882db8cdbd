/**
 * Frames of `n` nested arrays in every format, built byte by byte (encoders recurse, and
 * json-joy's stops well short of 100,000 levels): CBOR `81 81 … 80`, MessagePack
 * `91 91 … 90`, JSON `[[…]]`, and a json-joy server-clock model whose root holds `n`
 * nested `arr` nodes around a `val` of the constant 1 (what `Model.toBinary()` writes for
 * `[[…[1]…]]`, checked against json-joy for small n in deep-nesting-render.test.ts).
 */
export function deepCbor(n: number): Uint8Array {
  const bytes = new Uint8Array(n).fill(0x81);
  bytes[n - 1] = 0x80;
  return bytes;
}

export function deepMsgpack(n: number): Uint8Array {
  const bytes = new Uint8Array(n).fill(0x91);
  bytes[n - 1] = 0x90;
  return bytes;
}

export function deepJson(n: number): Uint8Array {
  return new TextEncoder().encode('['.repeat(n) + ']'.repeat(n));
}

export function deepCrdtModel(n: number): Uint8Array {
  const out: number[] = [0x80, ...vu57(2 * n + 5)];
  for (let k = 1; k <= n; k++) out.push(...vu57(k), 0xc1, ...vu57(2 * n + 4 - k), 0x01);
  out.push(...vu57(n + 1), 0x20, ...vu57(n + 2), 0x00, 0x01);
  return Uint8Array.from(out);
}

/** json-joy's vu57: 7 bits per byte, low first, the 8th byte holding 8 bits. */
export function vu57(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < 7 && n > 127; i++) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
