/**
 * What an edit changed, for the panel to show before anything is sent: the new size, the
 * first offset where the bytes differ, and the changed ranges. Equal-length byte strings
 * are compared byte by byte (each run of differing bytes is a range); otherwise the common
 * prefix and suffix are set aside and what lies between is one range (an insertion or
 * deletion shifts everything after it, so a byte-by-byte comparison would say little).
 */
export interface ChangedRange {
  /** [start, end) in the original bytes. */
  readonly originalStart: number;
  readonly originalEnd: number;
  /** [start, end) in the new bytes. */
  readonly start: number;
  readonly end: number;
}

export interface ByteChangeSummary {
  readonly size: number;
  readonly originalSize: number;
  /** size - originalSize. */
  readonly sizeDelta: number;
  readonly identical: boolean;
  /** The first offset where the two differ (in both), or null when identical. */
  readonly firstDifference: number | null;
  readonly changedRanges: readonly ChangedRange[];
  /** Bytes of the new frame inside changed ranges. */
  readonly changedBytes: number;
}

export function byteChangeSummary(original: Uint8Array, next: Uint8Array): ByteChangeSummary {
  const ranges: ChangedRange[] = [];
  if (original.length === next.length) {
    for (let i = 0; i < next.length; i++) {
      if (original[i] === next[i]) continue;
      const start = i;
      while (i < next.length && original[i] !== next[i]) i++;
      ranges.push({ originalStart: start, originalEnd: i, start, end: i });
    }
  } else {
    let prefix = 0;
    const shorter = Math.min(original.length, next.length);
    while (prefix < shorter && original[prefix] === next[prefix]) prefix++;
    let suffix = 0;
    while (suffix < shorter - prefix && original[original.length - 1 - suffix] === next[next.length - 1 - suffix])
      suffix++;
    ranges.push({
      originalStart: prefix,
      originalEnd: original.length - suffix,
      start: prefix,
      end: next.length - suffix,
    });
  }
  return {
    size: next.length,
    originalSize: original.length,
    sizeDelta: next.length - original.length,
    identical: ranges.length === 0,
    firstDifference: ranges.length ? ranges[0].start : null,
    changedRanges: ranges,
    changedBytes: ranges.reduce((s, r) => s + r.end - r.start, 0),
  };
}
