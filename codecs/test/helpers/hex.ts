/** `"83 01 02"` -> bytes (whitespace and commas ignored). Always a plain Uint8Array, never a Buffer. */
export function hex(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s.replace(/[\s,]/g, ''), 'hex'));
}
