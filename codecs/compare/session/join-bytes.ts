/** The bytes of `parts` one after another (a part alone is returned as it is; empty parts are skipped). */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const nonEmpty = parts.filter((p) => p.length);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? new Uint8Array(0);
  let length = 0;
  for (const p of nonEmpty) length += p.length;
  const joined = new Uint8Array(length);
  let at = 0;
  for (const p of nonEmpty) {
    joined.set(p, at);
    at += p.length;
  }
  return joined;
}
