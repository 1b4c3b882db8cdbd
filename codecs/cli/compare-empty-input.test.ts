import { describe, expect, it } from 'vitest';
import { runCliOn } from '../test/helpers/cli.js';

const run = runCliOn;

// `compare` on a 0-byte file once said "the frame does not decode" (exit 1) while
// `inspect` calls the same input `empty` (exit 0).
describe('wirescope compare on empty input', () => {
  it('says the input is empty, as inspect does, and exits 0', async () => {
    const r = await run(['compare', 'empty.bin'], new Uint8Array(0));
    expect(r.stdout).toBe('empty, 0 bytes — nothing to compare: the input is empty\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const inspected = await run(['inspect', 'empty.bin'], new Uint8Array(0));
    expect(inspected.stdout).toMatch(/^empty, 0 bytes — /);
    expect(inspected.code).toBe(r.code);
  });

  it('--json gives verdict empty and no rows; --markdown the same line', async () => {
    const j = await run(['compare', 'empty.bin', '--json'], new Uint8Array(0));
    expect(j.code).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out.frame).toEqual({ format: null, bytes: 0, verdict: 'empty' });
    expect(out.rows).toEqual([]);
    const md = await run(['compare', 'empty.bin', '--markdown'], new Uint8Array(0));
    expect(md.stdout).toBe('empty, 0 bytes — nothing to compare: the input is empty\n');
    expect(md.code).toBe(0);
  });

  it('with --format F the format’s own error stays (exit 1), as with inspect', async () => {
    const r = await run(['compare', 'empty.bin', '--format', 'cbor'], new Uint8Array(0));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^wirescope: the frame does not decode: /);
  });
});
