import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openChunkFile, openDirect, openPlain } from './chunk-file.js';

const newFile = (root = tmpdir()) => path.join(mkdtempSync(path.join(root, 'wirescope-chunk-')), 'out.bin');

/** Fills and flushes `file` in random steps; after each flush the file must hold every byte so far. */
function writeRandomly(file: string, open: (file: string) => ReturnType<typeof openPlain>, seed: number): Buffer {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  const out = open(file);
  const all: number[] = [];
  let used = 0;
  for (let step = 0; step < 300; step++) {
    const room = out.chunk.length - used;
    const n = Math.min(room, random(3) === 0 ? random(out.chunk.length) : random(700));
    for (let i = 0; i < n; i++) {
      const byte = (all.length * 7 + step) & 255;
      out.chunk[used++] = byte;
      all.push(byte);
    }
    if (random(4) === 0 || used === out.chunk.length) {
      used = out.flush(used);
      expect(readFileSync(file).equals(Buffer.from(all)), `after the flush at step ${step}`).toBe(true);
    }
  }
  used = out.flush(used);
  out.close();
  return Buffer.from(all);
}

describe('the hook sink file', () => {
  it('with direct I/O, holds every byte written after each flush, partial blocks included', () => {
    const file = newFile();
    if (!openDirect(file, 65536)) return expect(process.platform).not.toBe('linux'); // tmp without direct I/O
    // Every flush of a whole block direct, then only larger ones (the rest through the page cache).
    for (const [seed, directFrom] of [
      [1, 4096],
      [2, 4096],
      [3, 20_000],
    ]) {
      const expected = writeRandomly(file, (f) => openDirect(f, 65536, directFrom)!, seed);
      expect(readFileSync(file).equals(expected)).toBe(true);
    }
  });

  it('plain, holds the same bytes', () => {
    const file = newFile();
    const expected = writeRandomly(file, (f) => openPlain(f, 65536), 4);
    expect(readFileSync(file).equals(expected)).toBe(true);
  });

  it('falls back to a plain file where the file system refuses direct I/O (tmpfs, devices)', () => {
    expect(openDirect('/dev/null', 65536)).toBeNull();
    if (existsSync('/dev/shm')) {
      const file = newFile('/dev/shm');
      const expected = writeRandomly(file, (f) => openChunkFile(f, 65536), 5);
      expect(readFileSync(file).equals(expected)).toBe(true);
    }
  });
});
