import { describe, expect, it } from 'vitest';
import { parseInput } from './input.js';
import { parsePasted } from '../inspector-app/src/sources/paste-input.js';
import { runCli } from './test/helpers/cli.js';

/**
 * Raw text that is a whole frame wins over a hex / base64 reading of the same characters:
 * `42` is JSON 42, not the byte 0x42 (MessagePack 66); `null` and `true` are JSON, not
 * base64 for 9e e9 65 / b6 bb 9e.
 */
describe('raw bytes that decode whole win over hex / base64', () => {
  it('parseInput: JSON numbers and literals stay raw, with or without a newline', () => {
    for (const text of ['42', '42\n', ' null ', 'true', 'false\n', '-1', '1e5', '12e4', '0', '-0']) {
      expect(parseInput(text), JSON.stringify(text)).toMatchObject({ ok: true, encoding: 'raw' });
    }
  });

  it('parseInput: hex and base64 that are not JSON are still read as such', () => {
    expect(parseInput('83 01 02')).toMatchObject({ encoding: 'hex' });
    expect(parseInput('a0')).toMatchObject({ encoding: 'hex' });
    expect(parseInput('0042')).toMatchObject({ encoding: 'hex' });
    expect(parseInput('gwECAw==')).toMatchObject({ encoding: 'base64' });
    // Forced: the user said so.
    expect(parseInput('42', 'hex')).toMatchObject({ encoding: 'hex', bytes: Uint8Array.of(0x42) });
    expect(parseInput('null', 'base64')).toMatchObject({ encoding: 'base64' });
    // A binary format forced: the text is no frame of it, so the hex reading stays.
    expect(parseInput('17', 'auto', { format: 'cbor' })).toMatchObject({ encoding: 'hex', bytes: Uint8Array.of(0x17) });
    expect(parseInput('17', 'auto', { format: 'json' })).toMatchObject({ encoding: 'raw' });
  });

  it('the CLI reads a file holding 42, null or true as JSON, --format json or not', () => {
    for (const text of ['42', 'null', 'true']) {
      for (const argv of [
        ['inspect', 'f', '--format', 'json', '--json'],
        ['inspect', 'f', '--json'],
      ]) {
        const r = runCli(argv, { f: text });
        expect(r.code, `${text} ${argv.join(' ')}`).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({
          format: 'json',
          input: { encoding: 'raw', bytes: text.length },
          root: { value: JSON.parse(text) },
        });
      }
    }
  });

  it('`echo 42 | wirescope inspect -` is the JSON number 42', () => {
    const r = runCli(['inspect', '-'], { '-': '42\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^json, 3 bytes/);
    expect(r.stdout).toContain('number 42');
  });

  it('the paste page follows the same rule', () => {
    expect(parsePasted(' 42 \n')).toMatchObject({ ok: true, encoding: 'raw', bytes: new TextEncoder().encode('42') });
    expect(parsePasted('null')).toMatchObject({ ok: true, encoding: 'raw' });
    expect(parsePasted('a0')).toMatchObject({ ok: true, encoding: 'hex' });
  });
});
