/** Printable ASCII runs of 4+ bytes (like `strings`), the first clues in an unknown frame. */
export function stringsIn(bytes: Uint8Array, max = 20, minLength = 4): string[] {
  const found: string[] = [];
  let start = -1;
  for (let i = 0; i <= bytes.length && found.length < max; i++) {
    const c = i < bytes.length ? bytes[i] : 0;
    const printable = c >= 0x20 && c < 0x7f;
    if (printable && start < 0) start = i;
    else if (!printable && start >= 0) {
      if (i - start >= minLength) found.push(String.fromCharCode(...bytes.subarray(start, Math.min(i, start + 80))));
      start = -1;
    }
  }
  return found;
}
