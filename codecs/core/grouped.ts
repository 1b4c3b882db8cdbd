/** One number formatter for counts and offsets (`toLocaleString` builds a new one per call, ~10 µs). */
const EN_US = new Intl.NumberFormat('en-US');

/** A count or offset as people read it: `1,888` (tag and simple numbers are names, not counts: never grouped). */
export function grouped(n: number): string {
  return EN_US.format(n);
}
