import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { assemble, bytesModuleSource, BYTES_MODULE_PATH, WAT_PATH } from './utf8-wasm/assemble.js';
import { UTF8_VALIDATE_WASM } from './utf8-wasm/utf8-validate-bytes.js';

/**
 * Nothing opaque: the WebAssembly bytes every bundle inlines are what wabt makes of the
 * committed .wat (edit the .wat, then `npx tsx codecs/core/utf8-wasm/assemble.ts`).
 */
describe('the SIMD UTF-8 validator module', () => {
  it('is the assembly of utf8-validate.wat, byte for byte', async () => {
    const assembled = await assemble(readFileSync(WAT_PATH, 'utf8'));
    expect(Array.from(UTF8_VALIDATE_WASM)).toEqual(Array.from(assembled));
    expect(readFileSync(BYTES_MODULE_PATH, 'utf8')).toBe(bytesModuleSource(assembled));
  });

  it('compiles here, with SIMD, and is small enough to compile synchronously on a browser main thread (< 4 KB)', () => {
    expect(WebAssembly.validate(UTF8_VALIDATE_WASM)).toBe(true);
    expect(UTF8_VALIDATE_WASM.length).toBeLessThan(4096);
  });
});
