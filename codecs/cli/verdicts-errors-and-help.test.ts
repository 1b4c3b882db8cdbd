import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { FRAME_FORMATS } from '../index.js';
import { USAGE } from './args.js';
import { msText } from '../compare/format.js';
import { CODECS } from '../compare/codecs.js';
import { runCli, runCliOn } from '../test/helpers/cli.js';
import { repoPath } from '../test/helpers/paths.js';

/** The CLI's empty input, Protobuf's rejection message, compare on uint64 and the --help text. */

const runAsync = runCliOn;

describe('empty input: one verdict, `empty`', () => {
  it('prints one line saying the input is empty, nothing on stderr, exit 0', () => {
    const r = runCli(['inspect', 'e.bin'], { 'e.bin': new Uint8Array(0) });
    expect(r.stdout).toBe('empty, 0 bytes — nothing to inspect: the input is empty\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('--json says verdict "empty"', () => {
    const r = runCli(['inspect', 'e.bin', '--json'], { 'e.bin': new Uint8Array(0) });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ format: null, verdict: 'empty', error: null, root: null });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('a decoded frame says verdict "decoded", a malformed one "malformed"', () => {
    expect(JSON.parse(runCli(['inspect', '-', '--json'], { '-': '82 01 02' }).stdout).verdict).toBe('decoded');
    expect(JSON.parse(runCli(['inspect', '-', '--json'], { '-': '83 01 02' }).stdout).verdict).toBe('malformed');
  });
});

describe('the Protobuf reader names its real error', () => {
  it('83 01 02: "field number 0 is not allowed at byte 2", in offset order (as the README example shows)', () => {
    const r = runCli(['inspect', '-'], { '-': '83 01 02' });
    const lines = r.stderr.split('\n').filter((l) => /^ {2}\S/.test(l));
    expect(lines).toContain('  protobuf (invalid-tag, offset 2): field number 0 is not allowed at byte 2');
    expect(r.stderr).not.toContain('nothing to read');
    const offsets = lines.map((l) => Number(/offset (\d+)/.exec(l)?.[1] ?? -1));
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBeLessThanOrEqual(offsets[i - 1]);
    // Still never the reading shown: CBOR got furthest.
    expect(r.stdout).toContain('shown as cbor');
  });

  it('samples/order-truncated.cbor: the Protobuf line has an error code and an offset', () => {
    const bytes = new Uint8Array(readFileSync(repoPath('samples/order-truncated.cbor')));
    const r = runCli(['inspect', 'f'], { f: bytes });
    const line = r.stderr.split('\n').find((l) => l.startsWith('  protobuf'));
    expect(line).toMatch(/^ {2}protobuf \([a-z-]+, offset \d+\): \S/);
  });

  it('one byte still gets the reader\'s error, not "nothing to read"', () => {
    const r = runCli(['inspect', '-', '--input', 'hex'], { '-': 'c1' });
    expect(r.stderr).toContain('error: no format decodes this input (1 bytes)');
    expect(r.stderr).not.toContain('nothing to read');
    expect(r.stderr).toMatch(/^ {2}protobuf \([a-z-]+, offset \d+\): /m);
  });
});

describe('compare: MessagePack and uint64, timings in µs', () => {
  it('samples/order.cbor (seq = 2^64-1): MessagePack encodes every entry and decodes; the loss named is bigint', async () => {
    const bytes = new Uint8Array(readFileSync(repoPath('samples/order.cbor')));
    const r = await runAsync(['compare', 'f', '--json', '--runs', '1', '--codecs', 'cbor,msgpack'], bytes);
    expect(r.code).toBe(0);
    const row = JSON.parse(r.stdout).rows.find((x: { codec: string }) => x.codec === 'msgpack');
    expect(row.decodeError ?? null).toBeNull();
    // 231 bytes before: seq's value was not written at all; uint 64 is 9 bytes (0xcf + 8).
    expect(row.size).toBe(231 + 9);
    expect(row.lossless).toBe(false);
    expect(row.lost).toEqual(['bigint']);
  });

  it('every int64 / uint64 bigint round-trips through MessagePack at its value (as a double beyond 2^53)', async () => {
    for (const n of [(1n << 64n) - 1n, 1n << 63n, -(1n << 63n), 1n << 53n, 1n << 70n]) {
      const bytes = new CborEncoder().encode({ n });
      const r = await runAsync(['compare', 'f', '--json', '--runs', '1', '--codecs', 'msgpack'], bytes);
      const row = JSON.parse(r.stdout).rows[0];
      expect(row.decodeError ?? null, String(n)).toBeNull();
      expect(row.size, String(n)).toBeGreaterThan(3);
      const codec = CODECS.find((c) => c.name === 'msgpack')!;
      const encoded = codec.encode({ n }) as Uint8Array;
      // 81 a1 6e then the value: uint 64 / int 64; beyond 64 bits, a float 64.
      expect(encoded[3], String(n)).toBe(n > (1n << 64n) - 1n ? 0xcb : n < 0n ? 0xd3 : 0xcf);
      expect((codec.decode(encoded) as { n: number }).n, String(n)).toBe(Number(n));
    }
  });

  it('small timings read in µs, like the browser', () => {
    expect(msText({ medianMs: 0.0021, minMs: 0.0019, maxMs: 0.0042, runs: 5 } as never)).toBe('2.10 µs (1.90–4.20)');
    expect(msText({ medianMs: 0.85, minMs: 0.5, maxMs: 1.2, runs: 5 } as never)).toBe('850 µs (500–1200)');
    expect(msText({ medianMs: 12.34, minMs: 11.9, maxMs: 14, runs: 5 } as never)).toBe('12.3 ms (11.9–14.0)');
    expect(msText({ medianMs: 0.0021, minMs: 0.0021, maxMs: 0.0021, runs: 1 } as never)).toBe('2.10 µs');
  });

  it('every progress line ends with a newline', async () => {
    const bytes = new CborEncoder().encode({ a: 1 });
    const r = await runAsync(['compare', 'f', '--runs', '1', '--codecs', 'json,cbor'], bytes);
    expect(r.stderr).toMatch(/compare: 2\/2 cbor\n$/);
  });
});

describe('--help', () => {
  it('lists every --format the CLI accepts', () => {
    const line = USAGE.split('\n').find((l) => l.trim().startsWith('--format'))!;
    expect(line.trim().split(/\s+/)[1]).toBe(['auto', ...FRAME_FORMATS].join('|'));
  });

  it('the intro is not broken mid-sentence', () => {
    expect(USAGE).not.toMatch(/prints\nwhere/);
    const intro = USAGE.split('\n\n')[1];
    // Every line but the last of the paragraph is filled (no stray short line).
    const lines = intro.split('\n');
    for (const l of lines.slice(0, -1)) expect(l.length, l).toBeGreaterThan(60);
  });
});
