/**
 * Where an inner byte sits in the outer frame. A nested value is read from bytes that are
 * not the frame's own (a string's payload, its base64 or hex decoding, a JSON string after
 * unescaping); an `OffsetMap` takes an offset in those inner bytes to the outer frame's
 * offset, so an inner node's span `[s, e)` is `[at(s), at(e))` in the frame.
 *
 * Every map is monotone and `at(0)` / `at(length)` are the outer string's payload start and
 * end, so the mapped spans of nodes that tile the inner bytes tile the outer payload.
 */
export interface OffsetMap {
  /** Outer offset of inner offset `i` (0 ≤ i ≤ inner length). */
  at(i: number): number;
}

/** Plain bytes: a shift. */
export function shiftMap(base: number): OffsetMap {
  return { at: (i) => base + i };
}

/**
 * Base64 / base64url text at `base` (`textLength` characters, padding included) decoding to
 * `length` bytes. Each character belongs to the byte its first bit lies in, so byte i is the
 * characters [ceil(4i/3), ceil(4(i+1)/3)); the last byte takes the padding too.
 */
export function base64Map(base: number, length: number, textLength: number): OffsetMap {
  return { at: (i) => base + (i >= length ? textLength : Math.ceil((4 * i) / 3)) };
}

/** Hex text at `base`: byte i is characters [2i, 2i + 2). */
export function hexMap(base: number): OffsetMap {
  return { at: (i) => base + 2 * i };
}

/** A table of outer offsets, one per inner byte plus the end (JSON strings through their escapes). */
export function tableMap(outer: Uint32Array): OffsetMap {
  return { at: (i) => outer[Math.max(0, Math.min(i, outer.length - 1))] };
}

/** `inner` maps into the bytes that `outer` maps into the frame. */
export function composeMaps(inner: OffsetMap, outer: OffsetMap): OffsetMap {
  return { at: (i) => outer.at(inner.at(i)) };
}
