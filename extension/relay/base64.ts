/**
 * Bytes → base64 for Chrome's JSON-only runtime messaging. Uses the native
 * `Uint8Array.prototype.toBase64` where the browser has it; otherwise json-joy's table
 * encoder writes ASCII into a byte buffer that one TextDecoder call turns into a string
 * (no per-character string concatenation, no argument-count limits, any size).
 */
import { createToBase64BinUint8 } from '@jsonjoy.com/base64/lib/createToBase64BinUint8.js';

const encodeInto = createToBase64BinUint8();
const ascii = new TextDecoder('latin1');
const nativeToBase64 = (Uint8Array.prototype as { toBase64?: (this: Uint8Array) => string }).toBase64;

export function toBase64(bytes: Uint8Array, allowNative = true): string {
  if (allowNative && typeof nativeToBase64 === 'function') return nativeToBase64.call(bytes);
  const length = bytes.length;
  const out = new Uint8Array(Math.ceil(length / 3) * 4);
  encodeInto(bytes, 0, length, out, 0); // indexes the view itself: any byteOffset is fine
  return ascii.decode(out);
}
