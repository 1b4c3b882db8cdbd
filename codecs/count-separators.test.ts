import { describe, expect, it } from 'vitest';
import { decodeFrame } from './index.js';
import { runCli } from './test/helpers/cli.js';

/** One small item, then `n` zero bytes: a value with trailing bytes after it. */
const oneThenZeros = (n: number) => Uint8Array.from([0x01, ...new Uint8Array(n)]);

/**
 * Counts in messages read with thousands separators (`253,069 trailing bytes`), as everywhere
 * else; the offset at the end (`at byte 2007`) stays a bare number, the one tests and tools parse.
 */
describe('counts in error messages have thousands separators; offsets do not', () => {
  it('trailing bytes after a CBOR, MessagePack or JSON value', () => {
    expect(decodeFrame(oneThenZeros(253_069), { format: 'msgpack' }).error?.message).toBe(
      '253,069 trailing bytes after the top-level value at byte 1',
    );
    expect(decodeFrame(oneThenZeros(2_000), { format: 'cbor' }).error?.message).toBe(
      '2,000 trailing bytes after the top-level item at byte 1',
    );
    const json = decodeFrame(new TextEncoder().encode(`1 ${'x'.repeat(1_500)}`), { format: 'json', isText: true });
    expect(json.error?.message).toMatch(/^1,500 trailing bytes after the top-level value/);
  });

  it('a declared length longer than what remains, past byte 1,000', () => {
    // [bytes(2000), bytes(5000) with 1,234 of them]: the second string's head ends at byte 2,007.
    const frame = Uint8Array.from([
      0x82,
      0x59,
      0x07,
      0xd0,
      ...new Uint8Array(2000),
      0x59,
      0x13,
      0x88,
      ...new Uint8Array(1234),
    ]);
    const { error } = decodeFrame(frame, { format: 'cbor' });
    expect(error?.message).toMatch(/declares 5,000 bytes but only 1,234 remain at byte \d+$/);
    expect(error?.message.endsWith(`at byte ${error.offset}`)).toBe(true);
    expect(error!.offset).toBeGreaterThan(999);
  });

  it('the CLI header counts the frame with separators', () => {
    const r = runCli(['inspect', 'f', '--format', 'msgpack'], { f: oneThenZeros(253_069) });
    expect(r.stdout.split('\n')[0]).toMatch(/^msgpack, 253,070 bytes/);
    expect(r.stderr).toContain('253,069 trailing bytes after the top-level value at byte 1');
  });
});
