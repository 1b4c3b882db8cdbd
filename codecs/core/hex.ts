/** Two lowercase hex digits of a byte, as error messages and the diagnostic notation write it. */
export function hex2(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

/** The bytes [from, to) as lowercase hex with no separators. */
export function hexOf(bytes: Uint8Array, from = 0, to = bytes.length): string {
  let text = '';
  for (let i = from; i < to; i++) text += hex2(bytes[i]);
  return text;
}
