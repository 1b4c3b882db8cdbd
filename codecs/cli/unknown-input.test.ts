import { describe, expect, it } from 'vitest';
import { makeRng } from '../crdt/corpus.js';
import { FRAME_FORMATS } from '../index.js';
import { runCli } from '../test/helpers/cli.js';

/** What each reader found, as the CLI lists it under its "no format decodes" line. */
function readerLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /^ {2}\S/.test(l));
}

describe('what the CLI says about input no format decodes', () => {
  it('input no reader takes: says no format decodes it and lists every reader, furthest first', () => {
    // (Not whitespace: that reads as plain text.)
    const r = runCli(['inspect', '-'], { '-': 'ff ff 00' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: no format decodes this input \(3 bytes\); what each reader found, furthest first:$/m,
    );
    const lines = readerLines(r.stderr);
    const formats = lines.map((l) => l.trim().split(/[ :]/)[0]);
    expect([...formats].sort()).toEqual([...FRAME_FORMATS].sort());
    expect(lines.some((l) => /did not start/.test(l))).toBe(false);
    // Offsets never increase down the list; readers that could not start come last.
    const offsets = lines.map((l) => Number(/offset (\d+)/.exec(l)?.[1] ?? -1));
    for (let i = 1; i < offsets.length; i++) expect(offsets[i]).toBeLessThanOrEqual(offsets[i - 1]);
    expect(lines.find((l) => l.trim().startsWith('json'))).toMatch(/json: no JSON value starts in this input/);
  });

  it('4 KB of random bytes', () => {
    const rng = makeRng(11);
    const bytes = Uint8Array.from({ length: 4096 }, () => rng.int(256));
    const r = runCli(['inspect', 'f'], { f: bytes });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: no format decodes this input (4,096 bytes)');
    expect(readerLines(r.stderr).length).toBe(FRAME_FORMATS.length);
  });

  it('a frame one format almost decodes keeps its partial tree and error, listed first', () => {
    const r = runCli(['inspect', '-'], { '-': '83 01 02' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('shown as cbor, the reading that got furthest');
    expect(readerLines(r.stderr)[0]).toBe(
      '  cbor (truncated, offset 3): unexpected end of input: array is missing 1 item at byte 3',
    );
  });

  it('a forced format still reports its own error alone', () => {
    const r = runCli(['inspect', '-', '--format', 'cbor'], { '-': '83 01 02' });
    expect(r.stderr).toBe('error: unexpected end of input: array is missing 1 item at byte 3 (truncated, offset 3)\n');
  });
});
