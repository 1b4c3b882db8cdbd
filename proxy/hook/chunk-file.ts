/**
 * The file the hook's sink writes, with the buffer it fills. Where the file system takes
 * direct I/O (O_DIRECT: Linux, ext4/xfs/btrfs…), whole blocks go from the buffer to the disk
 * without the page cache: on a VM the kernel's copy into fresh page-cache pages costs the app
 * more CPU than the frames' own recording (a 400 MB copy: about 1 s of system time buffered,
 * 0.07 s direct, here). Direct I/O needs the buffer's address, the write's length and its file
 * offset aligned to the device's block, so a flush writes the whole blocks directly and the
 * last partial block through an ordinary descriptor (so the file holds every byte after each
 * flush), and keeps that partial block at the buffer's start to be written again, whole, by
 * the next flush. A flush of less than `directFrom` bytes (a quiet app's every 100 ms) goes
 * through the page cache too: a direct write waits for the device, which for a few blocks
 * costs the app's event loop more than the copy it saves. Elsewhere (tmpfs, other systems,
 * character devices) it is a plain file.
 */
import { closeSync, constants, ftruncateSync, openSync, writeSync } from 'node:fs';

export interface ChunkFile {
  /** The buffer the sink fills from its start. */
  readonly chunk: Buffer;
  /**
   * Writes chunk[0, used) so the file ends with those bytes; returns how many stay at the
   * chunk's start (already in the file, rewritten by the next flush). Throws on a write error.
   */
  flush(used: number): number;
  close(): void;
}

/** Flushes from this size on are written directly (where the file system allows). */
export const DIRECT_FROM = 256 * 1024;

export function openChunkFile(path: string, chunkBytes: number): ChunkFile {
  return openDirect(path, chunkBytes) ?? openPlain(path, chunkBytes);
}

export function openPlain(path: string, chunkBytes: number): ChunkFile {
  const fd = openSync(path, 'w');
  const chunk = Buffer.allocUnsafeSlow(chunkBytes);
  return {
    chunk,
    flush(used) {
      writeFully(fd, chunk, 0, used, null);
      return 0;
    },
    close: () => closeSync(fd),
  };
}

/** Lengths and file offsets of direct writes are multiples of this (any device's logical block divides it). */
const BLOCK = 4096;

/** A direct-I/O chunk file, or null where the file system or the platform has none. */
export function openDirect(
  path: string,
  chunkBytes: number,
  directFrom = DIRECT_FROM,
  allocate: (bytes: number) => Buffer = Buffer.allocUnsafeSlow,
): ChunkFile | null {
  const flag = (constants as Record<string, number | undefined>).O_DIRECT;
  if (!flag) return null;
  let direct: number;
  try {
    direct = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | flag, 0o666);
  } catch {
    return null;
  }
  // JS cannot see a buffer's address: find the offset into a larger one where a direct write
  // spanning pages is accepted (EINVAL: misaligned), then empty the file again.
  const raw = allocate(chunkBytes + BLOCK);
  let found: number | null = null;
  try {
    for (let start = 0; start < BLOCK && found === null; start += 16) {
      try {
        writeSync(direct, raw, start, 2 * BLOCK, 0);
        found = start;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e;
      }
    }
    ftruncateSync(direct, 0);
  } catch {
    found = null;
  }
  if (found === null) {
    closeSync(direct);
    return null;
  }
  const block = BLOCK;
  const plain = openSync(path, 'r+');
  const chunk = raw.subarray(found, found + chunkBytes - (chunkBytes % block));
  let fileOffset = 0; // where chunk[0] goes
  return {
    chunk,
    flush(used) {
      const whole = used - (used % block);
      if (whole >= directFrom) {
        writeFully(direct, chunk, 0, whole, fileOffset);
        if (used > whole) writeFully(plain, chunk, whole, used - whole, fileOffset + whole);
      } else writeFully(plain, chunk, 0, used, fileOffset);
      const tail = used - whole;
      fileOffset += whole;
      chunk.copyWithin(0, whole, used);
      return tail;
    },
    close() {
      closeSync(direct);
      closeSync(plain);
    },
  };
}

function writeFully(fd: number, bytes: Buffer, from: number, length: number, position: number | null): void {
  let done = 0;
  while (done < length)
    done += writeSync(fd, bytes, from + done, length - done, position === null ? null : position + done);
}
