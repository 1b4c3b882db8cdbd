import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HASH_BYTES_LIMIT, bytesFromHash, hashFromBytes, parsePasted } from './paste-input.js';

const hex = (r: ReturnType<typeof parsePasted>) =>
  r.ok ? `${r.encoding}:${Buffer.from(r.bytes).toString('hex')}` : `error@${r.offset}: ${r.error}`;

describe('parsePasted', () => {
  it('hex with # comments, 0x prefixes and commas', () => {
    expect(hex(parsePasted('a1       # map(1)\n   61    # text(1)\n      61 # "a"\n   01    # unsigned(1)\n'))).toBe(
      'hex:a1616101',
    );
    expect(hex(parsePasted('0x83, 0x01,0x02,\n0x03'))).toBe('hex:83010203');
    expect(hex(parsePasted('\n\n  83 01 02 03  \n'))).toBe('hex:83010203');
  });

  it('base64 and base64url', () => {
    expect(hex(parsePasted('gwECAw==\n'))).toBe('base64:83010203');
    expect(hex(parsePasted('Q_v__g'))).toBe('base64url:43fbfffe');
  });

  it('text that is neither is the frame itself (trimmed)', () => {
    expect(parsePasted('  {"a": 1}\n')).toMatchObject({
      ok: true,
      encoding: 'raw',
      bytes: new TextEncoder().encode('{"a": 1}'),
    });
    expect(parsePasted('hello, world!')).toMatchObject({ ok: true, encoding: 'raw' });
    // codecs/input.ts's own rule, kept: 'helloworld' spells valid base64.
    expect(parsePasted('hello world')).toMatchObject({ ok: true, encoding: 'base64' });
  });

  it('empty or blank input is an error, not an empty frame', () => {
    expect(parsePasted('')).toMatchObject({ ok: false, offset: 0, error: expect.stringContaining('empty') });
    expect(parsePasted(' \n\t ')).toMatchObject({ ok: false, offset: 0 });
  });

  it("typo'd hex is a hex error at its offset in the pasted text, not base64 or raw bytes", () => {
    // "83 01 0g" is also valid base64; "a1 61 61 0" would otherwise be raw text.
    expect(parsePasted('  83 01 0g')).toMatchObject({ ok: false, offset: 9, error: 'not a hex digit: "g"' });
    expect(parsePasted('a1 61 61 0')).toMatchObject({ ok: false, offset: 9, error: 'odd number of hex digits' });
    expect(parsePasted('0x83 0x01 0xzz')).toMatchObject({ ok: false, offset: 11, error: 'not a hex digit: "x"' });
  });
});

describe('URL hash', () => {
  it('round trips any frame up to the limit', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 500 }), (bytes) => {
        const hash = hashFromBytes(bytes);
        expect(typeof hash).toBe('string');
        expect(hash as string).toMatch(/^#b64=[A-Za-z0-9_-]*$/);
        expect(bytesFromHash(hash as string)).toEqual({ ok: true, bytes });
      }),
      { numRuns: 300 },
    );
    const atLimit = new Uint8Array(HASH_BYTES_LIMIT).fill(7);
    expect(bytesFromHash(hashFromBytes(atLimit) as string)).toEqual({ ok: true, bytes: atLimit });
  });

  it('says a frame is too large rather than making a huge link', () => {
    expect(hashFromBytes(new Uint8Array(HASH_BYTES_LIMIT + 1))).toEqual({ tooLarge: true, limit: HASH_BYTES_LIMIT });
    expect(hashFromBytes(new Uint8Array(11), 10)).toEqual({ tooLarge: true, limit: 10 });
  });

  it('reads #hex= (percent-encoded too), other parameters, and no frame at all', () => {
    expect(bytesFromHash('#hex=83010203')).toEqual({ ok: true, bytes: Uint8Array.of(0x83, 1, 2, 3) });
    expect(bytesFromHash('#hex=83%2001%20%2302')).toEqual({ ok: true, bytes: Uint8Array.of(0x83, 1) });
    expect(bytesFromHash('format=cbor&b64=gwECAw')).toEqual({ ok: true, bytes: Uint8Array.of(0x83, 1, 2, 3) });
    expect(bytesFromHash('#b64=gwECAw%3D%3D')).toEqual({ ok: true, bytes: Uint8Array.of(0x83, 1, 2, 3) });
    expect(bytesFromHash('')).toBeNull();
    expect(bytesFromHash('#')).toBeNull();
    expect(bytesFromHash('#tab=tree')).toBeNull();
  });

  it('malformed frames in a hash are errors', () => {
    expect(bytesFromHash('#hex=83 0')).toMatchObject({
      ok: false,
      error: expect.stringContaining('odd number of hex digits'),
    });
    expect(bytesFromHash('#b64=gw*C')).toMatchObject({ ok: false, error: expect.stringContaining('base64') });
    expect(bytesFromHash('#b64=%E0%A4%A')).toMatchObject({
      ok: false,
      error: expect.stringContaining('percent-encoding'),
    });
  });
});
