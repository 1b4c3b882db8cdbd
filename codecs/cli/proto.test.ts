import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test/helpers/cli.js';
import { protobufjsRoot, TEST_PROTO } from '../test/helpers/protobuf-schema.js';
import { repoRoot } from '../test/helpers/paths.js';

/** `wirescope inspect --proto a.proto [--proto b.proto] [--type pkg.Msg] frame.bin`. */
const root = protobufjsRoot();
const Everything = root.lookupType('wtest.Everything');
const frame = Everything.encode(
  Everything.fromObject({ color: 2, name: 'probe', counts: { a: 3 }, at: { seconds: 1700000000, nanos: 0 } }),
).finish();
const files = { 'wtest.proto': TEST_PROTO, 'frame.bin': frame };

describe('inspect --proto', () => {
  it('--type reads the frame as that message: field names, enums by name, well-known types', () => {
    const r = runCli(['inspect', '--proto', 'wtest.proto', '--type', 'wtest.Everything', 'frame.bin'], files);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^protobuf \(wtest\.Everything\), \d+ bytes/);
    expect(r.stdout).toContain('color');
    expect(r.stdout).toContain('GREEN (2)');
    expect(r.stdout).toContain('"probe"');
    expect(r.stdout).toContain('2023-11-14T22:13:20.000Z');
  });

  it('without --type ranks the types and says which it used', () => {
    const r = runCli(['inspect', '--proto', 'wtest.proto', 'frame.bin'], files);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/protobuf \(wtest\.Everything, best of 3 types by fit: wtest\.Everything: reads whole/);
  });

  it('--json carries the field names and the chosen type', () => {
    const r = runCli(['inspect', '--proto', 'wtest.proto', '--type', 'wtest.Everything', 'frame.bin', '--json'], files);
    const out = JSON.parse(r.stdout);
    expect(out.format).toBe('protobuf');
    expect(out.protobuf).toMatchObject({ type: 'wtest.Everything', chosen: 'given' });
    expect(JSON.stringify(out.root)).toContain('"name":"color"');
  });

  it('imports resolve among several --proto files', () => {
    const a = 'syntax = "proto3"; package p; import "b.proto"; message A { B b = 1; }';
    const b = 'syntax = "proto3"; package p; message B { string s = 1; }';
    const bytes = new Uint8Array([0x0a, 0x04, 0x0a, 0x02, 0x68, 0x69]);
    const r = runCli(['inspect', '--proto', 'a.proto', '--proto', 'b.proto', '--type', 'p.A', 'f'], {
      'a.proto': a,
      'b.proto': b,
      f: bytes,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"hi"');
  });

  it('a missing import, a syntax error, an unknown type are usage errors that say so', () => {
    const missing = runCli(['inspect', '--proto', 'a.proto', 'f'], {
      'a.proto': 'syntax = "proto3"; import "b.proto"; message A { B b = 1; }',
      f: frame,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('import "b.proto" is not among the loaded files');
    const syntax = runCli(['inspect', '--proto', 'bad.proto', 'f'], { 'bad.proto': 'message {', f: frame });
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain('bad.proto');
    const type = runCli(['inspect', '--proto', 'wtest.proto', '--type', 'wtest.Nope', 'frame.bin'], files);
    expect(type.code).toBe(2);
    expect(type.stderr).toContain(
      'wtest.Nope is not a message type of the schema (wtest.Inner, wtest.Scalars, wtest.Everything)',
    );
    expect(runCli(['inspect', '--type', 'x.Y', 'frame.bin'], files).stderr).toContain('--type needs --proto');
  });

  it('a truncated frame is malformed with its offset, the fields before the cut shown', () => {
    const r = runCli(['inspect', '--proto', 'wtest.proto', '--type', 'wtest.Everything', 'f'], {
      'wtest.proto': TEST_PROTO,
      f: frame.subarray(0, frame.length - 2),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/offset \d+/);
    expect(r.stdout).toContain('GREEN (2)');
  });

  it('the built CLI takes the flags', () => {
    const repo = repoRoot;
    const dir = mkdtempSync(path.join(tmpdir(), 'wirescope-proto-'));
    writeFileSync(path.join(dir, 'wtest.proto'), TEST_PROTO);
    writeFileSync(path.join(dir, 'frame.bin'), frame);
    // `npm test` builds the CLI before vitest; rebuilding it here raced the other CLI tests,
    // which run bin/wirescope.js in parallel while esbuild rewrote dist/cli (seen in a full run).
    if (!existsSync(path.join(repo, 'dist/cli/wirescope.js')))
      execFileSync('npm', ['run', '-s', 'build:cli'], { cwd: repo, stdio: 'ignore' });
    const r = spawnSync(
      process.execPath,
      [
        path.join(repo, 'bin/wirescope.js'),
        'inspect',
        '--proto',
        path.join(dir, 'wtest.proto'),
        path.join(dir, 'frame.bin'),
      ],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('GREEN (2)');
  });
});

describe('paths with a schema', () => {
  it('name the fields', () => {
    const r = runCli(['inspect', '--proto', 'wtest.proto', '--type', 'wtest.Everything', 'frame.bin'], files);
    expect(r.stdout).toContain('  $.name  ');
  });
});
