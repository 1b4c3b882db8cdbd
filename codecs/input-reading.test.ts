import { describe, expect, it } from 'vitest';
import { isHexNotation, readInputFrame } from './input-reading.js';
import { runCli } from './test/helpers/cli.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

/**
 * Plain words are often valid hex (`cafe`) or base64 (`ping`): the text itself is the frame
 * unless the hex / base64 reading decodes cleanly, and real hex / base64 pastes keep their bytes.
 */
describe('printable text against its hex / base64 reading', () => {
  it('words whose hex / base64 reading is broken, unknown or a weak guess are read as text', () => {
    for (const text of ['ping', 'pong', 'PING', 'cafe', 'hello world', 'this is not hex zz', 'deadbeef', '0042']) {
      expect(readInputFrame(text), text).toMatchObject({
        ok: true,
        encoding: 'raw',
        bytes: utf8(text),
        textFrame: true,
      });
    }
  });

  it('hex and base64 that decode cleanly keep their bytes', () => {
    expect(readInputFrame('gwECAw==')).toMatchObject({ encoding: 'base64', bytes: Uint8Array.of(0x83, 1, 2, 3) });
    expect(readInputFrame('oWFhAQ==')).toMatchObject({ encoding: 'base64' });
    expect(readInputFrame('gqF0pGNoYXSiaWTNBNI=')).toMatchObject({ encoding: 'base64' });
    expect(readInputFrame('a16161 01')).toMatchObject({ encoding: 'hex' });
    expect(readInputFrame('a0')).toMatchObject({ encoding: 'hex', bytes: Uint8Array.of(0xa0) });
    expect(readInputFrame('2a')).toMatchObject({ encoding: 'hex', bytes: Uint8Array.of(0x2a) });
    // Protobuf without a schema that reads as written data (a string field, a varint): bytes, not text.
    expect(readInputFrame('0a046e6577731005')).toMatchObject({ encoding: 'hex' });
    expect(readInputFrame('CgRuZXdzEAU=')).toMatchObject({ encoding: 'base64' });
  });

  it('hex written as hex stays hex, even when its bytes are malformed', () => {
    expect(readInputFrame('83 01 02')).toMatchObject({ encoding: 'hex', bytes: Uint8Array.of(0x83, 1, 2) });
    expect(readInputFrame('0xca 0xfe')).toMatchObject({ encoding: 'hex' });
    expect(readInputFrame('0xcafe')).toMatchObject({ encoding: 'hex' });
    expect(readInputFrame('cafe # a broken float')).toMatchObject({ encoding: 'hex' });
    expect(isHexNotation('cafe')).toBe(false);
    expect(isHexNotation('hello world')).toBe(false);
  });

  it('a text frame is never read as base64', () => {
    for (const text of ['hello world', 'gwECAw==', 'ping'])
      expect(readInputFrame(text, 'auto', { isText: true }), text).toMatchObject({
        encoding: 'raw',
        bytes: utf8(text),
      });
    // Hex written as hex is still hex: a text frame's bytes dumped as hex.
    expect(readInputFrame('7b 7d', 'auto', { isText: true })).toMatchObject({ encoding: 'hex' });
  });

  it('a forced input mode or a binary format the text is no frame of keeps the hex / base64 reading', () => {
    expect(readInputFrame('ping', 'base64')).toMatchObject({ encoding: 'base64' });
    expect(readInputFrame('cafe', 'hex')).toMatchObject({ encoding: 'hex' });
    expect(readInputFrame('17', 'auto', { format: 'cbor' })).toMatchObject({ encoding: 'hex' });
    expect(readInputFrame('ping', 'auto', { format: 'cbor' })).toMatchObject({ encoding: 'base64' });
    expect(readInputFrame('ping', 'auto', { format: 'text' })).toMatchObject({ encoding: 'raw' });
  });
});

describe('wirescope inspect on plain text', () => {
  const first = (text: string, ...args: string[]) =>
    runCli(['inspect', '-', ...args], { '-': text }).stdout.split('\n')[0];

  it('reads ping, pong, cafe and hello world as text, not as malformed base64 / hex', () => {
    for (const text of ['ping', 'pong', 'PING', 'cafe']) {
      const r = runCli(['inspect', '-'], { '-': text });
      expect(r.code, text).toBe(0);
      expect(r.stdout.split('\n')[0], text).toBe('text, 4 bytes — detected: text frame, confidence 0.5');
    }
    expect(first('hello world')).toBe('text, 11 bytes — detected: text frame, confidence 0.5');
    expect(first('hello world', '--text')).toBe('text, 11 bytes — detected: text frame, confidence 0.5');
  });

  it('still reads base64 and hex pastes of CBOR as their bytes', () => {
    expect(first('gwECAw==')).toMatch(/^cbor, 4 bytes \(from base64 input\) — detected: root is array/);
    expect(first('83 01 02')).toMatch(/^cbor, 3 bytes \(from hex input\) — malformed/);
  });

  it('--json names the raw input', () => {
    const r = runCli(['inspect', '-', '--json'], { '-': 'ping' });
    expect(JSON.parse(r.stdout)).toMatchObject({
      input: { encoding: 'raw', bytes: 4 },
      format: 'text',
      verdict: 'decoded',
    });
  });
});
