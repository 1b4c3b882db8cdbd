import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../test/helpers/cli.js';
import { repoRoot } from '../test/helpers/paths.js';
import { hex } from '../test/helpers/hex.js';

const repo = repoRoot;

const run = runCli;

describe('wirescope inspect', () => {
  it('prints an indented tree with offset, size and value', () => {
    const r = run(['inspect', 'f'], { f: hex('a2 61 61 01 61 62 82 02 03') });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cbor, 9 bytes/);
    expect(r.stdout).toContain('     0     9  map(2) {2 entries}');
    expect(r.stdout).toContain('     3     1    "a": unsigned 1');
    expect(r.stdout).toContain('     6     3    "b": array(2) [2 items]');
    expect(r.stdout).toContain('     7     1      unsigned 2');
  });

  it('--json: schema, every node with kind/start/end/head, keys on map values', () => {
    const r = run(['inspect', 'f', '--json'], { f: hex('a2 61 61 01 61 62 82 02 03') });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.schema).toBe(1);
    expect(out.format).toBe('cbor');
    expect(out.error).toBeNull();
    expect(out.root).toMatchObject({ kind: 'map', start: 0, end: 9, head: 1, count: 2 });
    expect(out.root.children[1]).toMatchObject({
      kind: 'array',
      start: 6,
      end: 9,
      head: 1,
      key: { kind: 'text', start: 4, end: 6, value: 'b' },
    });
    expect(out.root.children[1].children.map((c: { value: number }) => c.value)).toEqual([2, 3]);
  });

  it('truncated input: exit 1, error with offset, partial tree kept', () => {
    const r = run(['inspect', 'f', '--json'], { f: hex('83 01 02') });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.error).toMatchObject({ offset: 3, code: 'truncated' });
    expect(out.error.message).toContain('byte 3');
    expect(out.root.incomplete).toBe(true);
    expect(out.root.children.map((c: { value: number }) => c.value)).toEqual([1, 2]);
    const text = run(['inspect', 'f', '--format', 'cbor'], { f: hex('83 01 02') });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('offset 3');
    expect(text.stdout).toContain('unsigned 2');
  });

  it('reads hex (spaces, 0x, commas, # comments) and base64 / base64url text', () => {
    const viaHex = run(['inspect', 'f', '--json'], { f: '0x83, 0x01 # one\n02 03\n' });
    expect(JSON.parse(viaHex.stdout).input).toEqual({ bytes: 4, encoding: 'hex' });
    const viaB64 = run(['inspect', 'f', '--json'], { f: Buffer.from(hex('83010203')).toString('base64') });
    expect(JSON.parse(viaB64.stdout).input).toEqual({ bytes: 4, encoding: 'base64' });
    const url = Buffer.from(hex('43 fb ff fe')).toString('base64url');
    expect(url).toMatch(/[-_]/);
    const viaUrl = run(['inspect', 'f', '--json', '--format', 'cbor'], { f: url });
    expect(JSON.parse(viaUrl.stdout)).toMatchObject({
      input: { encoding: 'base64url' },
      root: { kind: 'bytes', edn: "h'fbfffe'" },
    });
    const forced = run(['inspect', 'f', '--input', 'hex'], { f: 'zz' });
    expect(forced.code).toBe(2);
  });

  it('--diag prints EDN and --hex the annotated dump with offsets and sizes', () => {
    const d = run(['inspect', 'f', '--diag'], { f: hex('9f 01 82 02 03 ff') });
    expect(d.stdout).toContain('[_ 1, [2, 3]]');
    const h = run(['inspect', 'f', '--hex'], { f: hex('a1 61 61 01') });
    expect(h.stdout).toMatch(/^\s+0\s+4\s+a1\s+# map\(1\)$/m);
    expect(h.stdout).toMatch(/^\s+3\s+1\s+01\s+# unsigned 1$/m);
  });

  it('--depth 1 records only the root children', () => {
    const r = run(['inspect', 'f', '--json', '--depth', '1'], { f: hex('82 82 01 02 03') });
    const out = JSON.parse(r.stdout);
    expect(out.root.children[0]).toMatchObject({ kind: 'array', start: 1, end: 4, expanded: false });
  });

  it('usage errors exit 2', () => {
    expect(run([]).code).toBe(2);
    expect(run(['inspect']).code).toBe(2);
    expect(run(['inspect', 'f', '--bogus'], { f: 'a0' }).code).toBe(2);
    expect(run(['inspect', 'f', '--format', 'xml'], { f: 'a0' }).code).toBe(2);
    expect(run(['inspect', 'missing']).code).toBe(2);
    expect(run(['--help']).code).toBe(0);
  });

  it('decodes every Appendix A vector given as hex text', () => {
    const vectorsPath = path.resolve(repo, '../shared/test-vectors/cbor-appendix-a.json');
    if (!existsSync(vectorsPath))
      throw new Error(`missing ${vectorsPath}: the RFC 8949 Appendix A vectors live in ../shared`);
    const vectors: { hex: string }[] = JSON.parse(readFileSync(vectorsPath, 'utf8'));
    for (const v of vectors) {
      const r = run(['inspect', 'f', '--json', '--format', 'cbor'], { f: v.hex });
      const out = JSON.parse(r.stdout);
      // f818 is simple(24) in RFC 7049 but not well-formed in RFC 8949 (section 3.3, Appendix F).
      expect(r.code, v.hex).toBe(v.hex === 'f818' ? 1 : 0);
      expect(out.input.bytes).toBe(v.hex.length / 2);
    }
  });

  it('the installed bin runs on a file and on stdin', () => {
    const bin = path.join(repo, 'bin/wirescope.js');
    const out = execFileSync(process.execPath, [bin, 'inspect', path.join(repo, 'samples/order.cbor'), '--json'], {
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toMatchObject({ schema: 1, format: 'cbor', error: null });
    const piped = spawnSync(process.execPath, [bin, 'inspect', '-'], { input: '83 01 02', encoding: 'utf8' });
    expect(piped.status).toBe(1);
    expect(piped.stderr).toContain('offset 3');
  });
});

describe('MessagePack timestamps', () => {
  it('show as the instant they encode, nanoseconds kept', () => {
    // timestamp 64: nanoseconds 123456789 in the top 30 bits, seconds 1763763842 in the low 34.
    const seconds = 1763763842n;
    const word = (123456789n << 34n) | seconds;
    const payload = Buffer.alloc(8);
    payload.writeBigUInt64BE(word);
    const frame = Uint8Array.from([0xd7, 0xff, ...payload]);
    const r = run(['inspect', 'f', '--format', 'msgpack'], { f: frame });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('timestamp 2025-11-21T22:24:02.123456789Z');
    const d = run(['inspect', 'f', '--format', 'msgpack', '--diag'], { f: frame });
    expect(d.stdout).toContain("ext(-1, h'");
    expect(d.stdout).toContain('/ timestamp 2025-11-21T22:24:02.123456789Z /');
  });
});
