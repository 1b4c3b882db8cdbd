/**
 * json-joy's little-endian varints, read one way for every CRDT reader.
 *
 * - vu57: up to seven bytes of 7 bits (low first, high bit = "more"), then an eighth byte
 *   of 8 bits: 57 bits in all.
 * - b1vu56: a flag bit (bit 7 of the first byte), 6 bits with bit 6 as "more", then up to
 *   six bytes of 7 bits and a last byte of 8 bits: 56 bits.
 *
 * The reference is json-joy 17.67.0's own decoder (CrdtReader): it reads a varint that is
 * not in its shortest form (a last byte of 0 after a "more" bit, e.g. `80 00` for 0) like
 * any other, so these readers do too and only say so in `shortest` (json-joy's encoder
 * never writes such a varint: a caller may note it). Values past 2^53 are imprecise, as
 * json-joy's are; callers check against Number.MAX_SAFE_INTEGER.
 */

/** What a read found: `value`, the b1vu56 `flag` (0 for vu57), and whether it was in its shortest form. */
export interface VarintRead {
  value: number;
  flag: number;
  shortest: boolean;
}

/** A reusable result (one per reader: the reads allocate nothing). */
export function varintRead(): VarintRead {
  return { value: 0, flag: 0, shortest: true };
}

/** Reads a vu57 at `pos` (not past `limit`) into `out`; returns its end, or -1 when it is cut off. */
export function readVu57(bytes: Uint8Array, pos: number, limit: number, out: VarintRead): number {
  out.flag = 0;
  return readGroups(bytes, pos, limit, 0, 1, 0, out);
}

/** Reads a b1vu56 at `pos` (not past `limit`) into `out`; returns its end, or -1 when it is cut off. */
export function readB1vu56(bytes: Uint8Array, pos: number, limit: number, out: VarintRead): number {
  if (pos >= limit) return -1;
  const first = bytes[pos];
  out.flag = first >> 7;
  if (first & 0x40) return readGroups(bytes, pos + 1, limit, first & 0x3f, 64, 1, out);
  out.value = first & 0x3f;
  out.shortest = true;
  return pos + 1;
}

/**
 * The 7-bit groups of both varints from byte `i` of 8 (0 for vu57, 1 after b1vu56's first
 * byte): `value` so far, `scale` the weight of the next group; the 8th byte holds 8 bits.
 */
function readGroups(
  bytes: Uint8Array,
  pos: number,
  limit: number,
  value: number,
  scale: number,
  i: number,
  out: VarintRead,
): number {
  let p = pos;
  for (; i < 8; i++) {
    if (p >= limit) return -1;
    const b = bytes[p++];
    if (i === 7) {
      value += b * scale;
      out.shortest = b !== 0;
      break;
    }
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      out.shortest = b !== 0 || i === 0;
      break;
    }
    scale *= 128;
  }
  out.value = value;
  return p;
}
