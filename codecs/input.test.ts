import { describe, expect, it } from 'vitest';
import { parseInput } from './input.js';

const bytesOf = (r: ReturnType<typeof parseInput>) =>
  r.ok ? Buffer.from(r.bytes).toString('hex') : `error@${r.offset}`;

describe('input parsing', () => {
  it('hex with spaces, 0x prefixes, commas and # comments', () => {
    expect(bytesOf(parseInput('83 01 02 03'))).toBe('83010203');
    expect(bytesOf(parseInput('0x83,0x01, 0x02,\n0x03'))).toBe('83010203');
    expect(bytesOf(parseInput('a1       # map(1)\n   61    # text(1)\n      61 # "a"\n   01    # unsigned(1)\n'))).toBe(
      'a1616101',
    );
    expect(parseInput('83 01')).toMatchObject({ ok: true, encoding: 'hex' });
  });

  it('base64 and base64url', () => {
    expect(parseInput('gwECAw==')).toMatchObject({ ok: true, encoding: 'base64' });
    expect(bytesOf(parseInput('gwECAw=='))).toBe('83010203');
    expect(bytesOf(parseInput('Q_v__g'))).toBe('43fbfffe');
    expect(parseInput('Q_v__g')).toMatchObject({ encoding: 'base64url' });
  });

  it('binary bytes and text that is neither hex nor base64 are raw', () => {
    expect(parseInput(Uint8Array.of(0x83, 0x01, 0x02, 0x03))).toMatchObject({ ok: true, encoding: 'raw' });
    expect(parseInput('{"a": 1}')).toMatchObject({ ok: true, encoding: 'raw' });
  });

  it('a forced encoding that does not fit is an error with an offset', () => {
    expect(parseInput('83 0g', 'hex')).toMatchObject({ ok: false, offset: 4 });
    expect(parseInput('830', 'hex')).toMatchObject({ ok: false });
    expect(parseInput('*', 'base64')).toMatchObject({ ok: false, offset: 0 });
    expect(parseInput(Uint8Array.of(0x83, 0x00), 'hex')).toMatchObject({ ok: false, offset: 0 });
    expect(parseInput('zz', 'raw')).toMatchObject({ ok: true, encoding: 'raw' });
  });
});
