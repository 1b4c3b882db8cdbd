import { closeSync, constants, existsSync, mkdtempSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChunkFile, openChunkFile, openDirect, openPlain } from './chunk-file.js';

const newFile = (root = tmpdir()) => path.join(mkdtempSync(path.join(root, 'wirescope-chunk-')), 'out.bin');

/** Fills and flushes `file` in random steps; after each flush the file must hold every byte so far. */
function writeRandomly(file: string, open: (file: string) => ChunkFile | null, seed: number): Buffer {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  const out = open(file);
  expect(out, 'opened').not.toBeNull();
  const chunk = out!.chunk;
  const all = Buffer.alloc(16 * 1024 * 1024);
  let total = 0;
  let used = 0;
  for (let step = 0; step < 200; step++) {
    const room = chunk.length - used;
    const n = Math.min(room, random(8) === 0 ? random(chunk.length) : random(700));
    for (let i = 0; i < n; i++) chunk[used++] = all[total++] = (total * 7 + step) & 255;
    if (random(4) === 0 || used === chunk.length) {
      used = out!.flush(used);
      expect(readFileSync(file).equals(all.subarray(0, total)), `after the flush at step ${step}`).toBe(true);
    }
  }
  out!.flush(used);
  out!.close();
  return all.subarray(0, total);
}

describe('the hook sink file', () => {
  it('with direct I/O, holds every byte written after each flush, partial blocks included', () => {
    const probe = openDirect(newFile(), 65536);
    if (!probe) return expect(process.platform).not.toBe('linux'); // tmp without direct I/O
    probe.close();
    // Every flush of a whole block direct, then only larger ones (the rest through the page cache).
    for (const [seed, directFrom] of [
      [1, 4096],
      [2, 4096],
      [3, 20_000],
    ]) {
      const file = newFile();
      const expected = writeRandomly(file, (f) => openDirect(f, 65536, directFrom), seed);
      expect(readFileSync(file).equals(expected)).toBe(true);
    }
  });

  it('takes a buffer that is aligned at its very start (an offset of 0 is an offset found)', () => {
    const probeFile = newFile();
    if (!openDirect(probeFile, 65536)) return expect(process.platform).not.toBe('linux');
    // A view that starts where a direct write is accepted: its first byte is aligned.
    const alignedView = (bytes: number): Buffer => {
      const big = Buffer.allocUnsafeSlow(bytes + 8192);
      const fd = openSync(probeFile, constants.O_WRONLY | constants.O_DIRECT);
      try {
        for (let start = 0; start < 4096; start += 16) {
          try {
            writeSync(fd, big, start, 8192, 0);
            return big.subarray(start, start + bytes);
          } catch {
            // misaligned: the next offset
          }
        }
      } finally {
        closeSync(fd);
      }
      throw new Error('no aligned offset');
    };
    const file = newFile();
    const expected = writeRandomly(file, (f) => openDirect(f, 65536, 4096, alignedView), 6);
    expect(readFileSync(file).equals(expected)).toBe(true);
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
