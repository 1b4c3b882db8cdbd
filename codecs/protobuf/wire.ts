/**
 * Protobuf wire-format primitives shared by the walker and its views: varints and a shallow
 * scan that says whether a byte range is a whole message. No allocation; bounds-checked.
 */
export const WireType = { varint: 0, i64: 1, len: 2, startGroup: 3, endGroup: 4, i32: 5 } as const;
export const WIRE_TYPE_NAMES = ['VARINT', 'I64', 'LEN', 'SGROUP', 'EGROUP', 'I32', 'wire type 6', 'wire type 7'];
export const MAX_FIELD_NUMBER = 0x1fffffff;

/** The value of the last varint read by `readVarint` (exact up to 2^53; re-read as bigint beyond). */
export let varintValue = 0;

/** A varint ran out of bytes. */
export const VARINT_TRUNCATED = -1;
/** A varint longer than 10 bytes, or whose 10th byte overflows 64 bits. */
export const VARINT_TOO_LONG = -2;

/** Reads a varint at `pos` (not past `end`): the position after it, or a negative code. */
export function readVarint(bytes: Uint8Array, pos: number, end: number): number {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= end) return VARINT_TRUNCATED;
    const b = bytes[pos + i];
    if (i === 9 && b > 1) return VARINT_TOO_LONG;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      varintValue = value;
      return pos + i + 1;
    }
    scale *= 128;
  }
  return VARINT_TOO_LONG;
}

/** The varint at `pos` as a bigint (for values beyond 2^53). */
export function varintBigInt(bytes: Uint8Array, pos: number): bigint {
  let v = 0n;
  for (let i = 0; i < 10; i++) {
    const b = bytes[pos + i];
    v |= BigInt(b & 0x7f) << BigInt(7 * i);
    if (b < 0x80) break;
  }
  return v;
}

/**
 * How many fields [start, end) holds if it is a whole message (groups balanced, field
 * numbers valid, every length inside the range), else -1. Nested length-delimited payloads
 * are not looked into: any bytes are valid there.
 */
export function scanMessage(bytes: Uint8Array, start: number, end: number, groups: number[] = []): number {
  let pos = start;
  let fields = 0;
  if (groups.length) groups.length = 0;
  while (pos < end) {
    // One-byte varints (tags of fields 1-15, short lengths, small values) without the call,
    // and the tag split in integer arithmetic: the walker scans every short payload.
    let tag = bytes[pos++];
    if (tag >= 0x80) {
      pos = readVarint(bytes, pos - 1, end);
      if (pos < 0) return -1;
      tag = varintValue;
    }
    const field = tag < 0x80000000 ? tag >>> 3 : Math.floor(tag / 8);
    if (field === 0 || field > MAX_FIELD_NUMBER) return -1;
    switch (tag & 7) {
      case WireType.varint:
        if (pos < end && bytes[pos] < 0x80) pos++;
        else if ((pos = readVarint(bytes, pos, end)) < 0) return -1;
        break;
      case WireType.i64:
        if (end - pos < 8) return -1;
        pos += 8;
        break;
      case WireType.i32:
        if (end - pos < 4) return -1;
        pos += 4;
        break;
      case WireType.len: {
        let length = bytes[pos];
        if (pos < end && length < 0x80) pos++;
        else {
          if ((pos = readVarint(bytes, pos, end)) < 0) return -1;
          length = varintValue;
        }
        if (length > end - pos) return -1;
        pos += length;
        break;
      }
      case WireType.startGroup:
        groups.push(field);
        break;
      case WireType.endGroup:
        if (groups.pop() !== field) return -1;
        break;
      default:
        return -1;
    }
    if (groups.length === 0) fields++;
  }
  return groups.length === 0 ? fields : -1;
}

/**
 * How many varints bytes[start, end) holds if it is a run of whole ones (a packed repeated
 * scalar field; 0 when empty), else -1. Byte by byte without decoding (a varint ends at each
 * byte below 0x80; `readVarint` per item was nine tenths of indexing a 64 KB packed batch),
 * with readVarint's limits: at most ten bytes, the tenth 0 or 1.
 */
export function countPackedVarints(bytes: Uint8Array, start: number, end: number): number {
  // A run must end a varint: half of all random payloads fail here without a loop.
  if (end > start && bytes[end - 1] >= 0x80) return -1;
  let n = 0;
  let run = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b < 0x80) {
      if (run === 9 && b > 1) return -1;
      n++;
      run = 0;
    } else if (++run >= 10) return -1;
  }
  return run === 0 ? n : -1;
}
