/**
 * Bytes → base64 for Chrome's JSON-only runtime messaging: the native
 * `Uint8Array.prototype.toBase64` where the browser has it, else the one base64 encoder of
 * the tree (codecs/core/base64.ts: a loop over the bytes into an ASCII buffer decoded by one
 * TextDecoder call; no per-character concatenation, no argument-count limits, any size).
 */
import { encodeBase64 } from '../../codecs/core/base64.js';

const nativeToBase64 = (Uint8Array.prototype as { toBase64?: (this: Uint8Array) => string }).toBase64;

export function toBase64(bytes: Uint8Array, allowNative = true): string {
  if (allowNative && typeof nativeToBase64 === 'function') return nativeToBase64.call(bytes);
  return encodeBase64(bytes);
}
