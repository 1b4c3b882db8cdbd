import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appendixAVectors } from '../test/helpers/appendix-a.js';
import { runCli } from '../test/helpers/cli.js';
import { TEST_PROTO } from '../test/helpers/protobuf-schema.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fromHex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s/g, ''), 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('wirescope encode', () => {
  it('inspect --diag prints EDN only, its header as a comment, and encode reads it back to the same bytes', () => {
    const frame = fromHex('a2 61 61 19 0001 62 6262 f9 7e01');
    const diag = runCli(['inspect', 'f', '--diag'], { f: frame });
    expect(diag.code).toBe(0);
    const lines = diag.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^# cbor, 12 bytes/);
    expect(lines.slice(1)).toEqual([`{"a": 1_1, "bb": float'7e01'}`]);
    const back = runCli(['encode', '--format', 'cbor', '--from', 'edn', 'd'], { d: diag.stdout });
    expect(back.code).toBe(0);
    expect(toHex(back.stdoutBytes)).toBe(toHex(frame));
  });

  it('round-trips every well-formed Appendix A vector through inspect --diag and encode', () => {
    let checked = 0;
    for (const v of appendixAVectors()) {
      if (v.hex === 'f818') continue; // simple(24): not well-formed in RFC 8949
      const diag = runCli(['inspect', 'f', '--diag', '--format', 'cbor', '--input', 'raw'], { f: fromHex(v.hex) });
      const back = runCli(['encode', '--format', 'cbor', '-'], { '-': diag.stdout });
      expect(back.stderr, v.hex).toBe('');
      expect(toHex(back.stdoutBytes), v.hex).toBe(v.hex);
      checked++;
    }
    expect(checked).toBe(81);
  });

  it('round-trips a MessagePack frame through its edit text, widths kept', () => {
    const frame = fromHex('82 d9 01 61 cd 0001 a1 62 ca 3fc00000');
    const diag = runCli(['inspect', 'f', '--diag', '--format', 'msgpack'], { f: frame });
    expect(diag.stdout).toContain('{"a"_8: 1_u16, "b": 1.5_f32}');
    const back = runCli(['encode', '--format', 'msgpack', 'd'], { d: diag.stdout });
    expect(toHex(back.stdoutBytes)).toBe(toHex(frame));
  });

  it('writes hex or base64 text with --output, JSON as its text, Protobuf from proto3 JSON', () => {
    const hex = runCli(['encode', '--format', 'cbor', '--from', 'json', '--output', 'hex', 'f'], {
      f: '{"a": [1, 1.5]}',
    });
    expect(hex.stdoutBytes.length).toBeGreaterThan(0);
    expect(new TextDecoder().decode(hex.stdoutBytes)).toBe('a1616182 01f93e00\n'.replace(' ', ''));
    const b64 = runCli(['encode', '--format', 'msgpack', '--output', 'base64', 'f'], { f: '[1, 2]' });
    expect(new TextDecoder().decode(b64.stdoutBytes)).toBe('kgEC\n');
    const json = runCli(['encode', '--format', 'json', 'f'], { f: '{ "a" : 1 }' });
    expect(new TextDecoder().decode(json.stdoutBytes)).toBe('{ "a" : 1 }');
    const pb = runCli(['encode', '--format', 'protobuf', '--proto', 's.proto', '--type', 'wtest.Inner', 'f'], {
      's.proto': TEST_PROTO,
      f: '{"label": "x", "delta": -1}',
    });
    expect(pb.stderr).toBe('');
    expect(toHex(pb.stdoutBytes)).toBe('0a01781001');
  });

  it('a bad input exits 1 with file:line:column and writes no bytes', () => {
    const r = runCli(['encode', '--format', 'cbor', 'f'], { f: '[1,\n  2 3]' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("wirescope: f:2:5: expected ',' or ']', found \"3]\"\n");
    expect(r.stdoutBytes.length).toBe(0);
    const pb = runCli(['encode', '--format', 'protobuf', '--proto', 's.proto', '--type', 'wtest.Inner', 'f'], {
      's.proto': TEST_PROTO,
      f: '{\n  "lable": "x"\n}',
    });
    expect(pb.code).toBe(1);
    expect(pb.stderr).toContain('f:2:3: Inner has no field "lable"');
  });

  it('usage errors exit 2', () => {
    expect(runCli(['encode', 'f'], { f: '1' }).code).toBe(2); // no --format
    expect(runCli(['encode', '--format', 'xml', 'f'], { f: '1' }).code).toBe(2);
    expect(runCli(['encode', '--format', 'json', '--from', 'edn', 'f'], { f: '1' }).code).toBe(2);
    expect(runCli(['encode', '--format', 'protobuf', 'f'], { f: '{}' }).code).toBe(2); // no --proto / --type
    expect(runCli(['encode', '--format', 'cbor', '--type', 'X', 'f'], { f: '1' }).code).toBe(2);
    expect(runCli(['encode', '--format', 'cbor', '--output', 'utf8', 'f'], { f: '1' }).code).toBe(2);
    expect(runCli(['encode', '--format', 'cbor', 'missing']).code).toBe(2);
  });

  it('the installed bin pipes inspect --diag into encode and gets the original file back', () => {
    const bin = path.join(repo, 'bin/wirescope.js');
    const sample = path.join(repo, 'samples/order.cbor');
    const diag = execFileSync(process.execPath, [bin, 'inspect', sample, '--diag'], { encoding: 'utf8' });
    const back = spawnSync(process.execPath, [bin, 'encode', '--format', 'cbor', '--from', 'edn'], { input: diag });
    expect(back.status).toBe(0);
    expect(toHex(back.stdout)).toBe(toHex(execFileSync('cat', [sample])));
    const bad = spawnSync(process.execPath, [bin, 'encode', '--format', 'cbor'], { input: '{1: }', encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('wirescope: stdin:1:5: expected a CBOR item, found "}"\n');
  });
});

describe('the README on wirescope encode', () => {
  it('shows what encode prints for its echo example and what inspect --diag prints for that frame', () => {
    const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
    const example = /\$ echo '([^']*)' \| wirescope (encode [^\n]*)\n([^\n]*)/.exec(readme);
    expect(example, 'the README has an encode example').not.toBeNull();
    const [, input, command, shown] = example!;
    const r = runCli([...command.trim().split(/\s+/), '-'], { '-': `${input}\n` });
    expect(new TextDecoder().decode(r.stdoutBytes).trimEnd()).toBe(shown);
    const diag = /\$ wirescope inspect frame\.cbor --diag\n([^\n]*)\n([^\n]*)/.exec(readme)!;
    const frame = fromHex('a2 61 61 19 0001 62 6262 f9 7e01');
    expect(runCli(['inspect', 'f', '--diag'], { f: frame }).stdout).toBe(`${diag[1]}\n${diag[2]}\n`);
  });
});
