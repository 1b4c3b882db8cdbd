import zlib from 'node:zlib';
import { encode as cborEncode } from 'cbor-x';
import { pack as msgpackEncode } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test/helpers/cli.js';

/** `wirescope inspect` shows nested values and compressed frames. */
describe('inspect: nested values and compressed frames', () => {
  const inner = new Uint8Array(cborEncode({ a: 1, b: ['x', 'y'] }));
  const json = JSON.stringify({ id: 7, payload: Buffer.from(inner).toString('base64') });

  it('the tree shows "decoded as cbor (from base64)" and the inner value at the frame offsets of its characters', () => {
    const { code, stdout } = runCli(['inspect', 'f.json', '--text'], { 'f.json': json });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    const at = lines.findIndex((l) => l.endsWith('decoded as cbor (from base64)'));
    expect(at).toBeGreaterThan(0);
    // The string's characters start after `"payload":"` at offset 19; the inner map covers all of them.
    const chars = Buffer.from(inner).toString('base64').length;
    expect(lines[at]).toMatch(new RegExp(`^\\s+19\\s+${chars}\\s+decoded as cbor \\(from base64\\)$`));
    expect(lines[at + 1]).toMatch(new RegExp(`^\\s+19\\s+${chars}\\s+map\\(2\\) \\{2 entries\\}$`));
    expect(lines[at + 2]).toMatch(/"a": unsigned 1$/);
  });

  it('--json puts the nested tree on the string node, with frame offsets', () => {
    const { stdout } = runCli(['inspect', 'f.json', '--text', '--json'], { 'f.json': json });
    const out = JSON.parse(stdout);
    const payload = out.root.children[1];
    expect(payload.nested).toMatchObject({
      format: 'cbor',
      via: 'base64',
      label: 'decoded as cbor (from base64)',
      root: { kind: 'map', start: 19, end: 19 + Buffer.from(inner).toString('base64').length, count: 2 },
    });
    expect(payload.nested.root.children[1]).toMatchObject({ kind: 'array', key: { kind: 'text', value: 'b' } });
  });

  it('a MessagePack bin of CBOR nests by an offset shift', () => {
    const frame = new Uint8Array(msgpackEncode({ blob: Buffer.from(inner) }));
    const out = JSON.parse(runCli(['inspect', 'f.bin', '--json'], { 'f.bin': frame }).stdout);
    const blob = out.root.children[0];
    expect(blob.nested).toMatchObject({
      format: 'cbor',
      via: 'bytes',
      root: { start: blob.start + blob.head, end: blob.end },
    });
  });

  it('a gzip frame: the compression line, offsets in the decompressed bytes, and --json "compression"', () => {
    const value = new TextEncoder().encode(
      JSON.stringify({ rows: Array.from({ length: 30 }, (_, i) => ({ i, s: 'same same' })) }),
    );
    const gz = new Uint8Array(zlib.gzipSync(value));
    const text = runCli(['inspect', 'f.gz'], { 'f.gz': gz });
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[1]).toBe(
      `gzip → json, ${gz.length.toLocaleString('en-US')} → ${value.length.toLocaleString('en-US')} bytes (${(value.length / gz.length).toFixed(1)}x); offsets below are in the decompressed bytes`,
    );
    const out = JSON.parse(runCli(['inspect', 'f.gz', '--json'], { 'f.gz': gz }).stdout);
    expect(out).toMatchObject({
      format: 'json',
      error: null,
      compression: { method: 'gzip', compressedBytes: gz.length, decompressedBytes: value.length, error: null },
      root: { start: 0, end: value.length },
    });
  });

  it('a zip bomb exits 1 with the cap and the input offset on stderr', () => {
    const block = zlib.deflateRawSync(new Uint8Array(1024 * 1024), {
      level: 9,
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
    });
    const bomb = new Uint8Array(
      Buffer.concat([
        Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 2, 0xff]),
        ...Array.from({ length: 20 }, () => block),
        Buffer.from([0x03, 0x00]),
        Buffer.alloc(8),
      ]),
    );
    const { code, stderr } = runCli(['inspect', 'bomb.gz'], { 'bomb.gz': bomb });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^error: compression ratio exceeds 500:1 \(.*\) at input offset \d+ \(decompressed-too-large, offset \d+\)\n$/,
    );
  });
});
