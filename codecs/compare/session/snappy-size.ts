/**
 * The length of snappyjs 0.7.0's `compress(bytes)` without writing it: its compressor
 * (snappy_compressor.js: MIT, Copyright (c) Zhipeng Jia, https://github.com/zhipeng-jia/snappyjs)
 * with every emit replaced by the number of bytes it would write. snappyjs allocates an
 * output of 1.17x the input per call and copies the result out of it; the session sizes
 * every message of every codec, and only needs the length. session-deflate-size.test.ts
 * checks it against snappyjs itself, byte count for byte count (the version is pinned).
 */

const BLOCK_SIZE = 1 << 16;
const MAX_HASH_TABLE_BITS = 14;
const INPUT_MARGIN = 15;

const hashTables: (Uint16Array | undefined)[] = new Array(MAX_HASH_TABLE_BITS + 1);

// snappyjs's arithmetic, kept as it is: a double product (not Math.imul) and reads past
// the end that yield undefined, so the hashes, and so the matches, are the same.
function hashFunc(key: number, hashFuncShift: number): number {
  return (key * 0x1e35a7bd) >>> hashFuncShift;
}

function load32(array: Uint8Array, pos: number): number {
  return array[pos] + (array[pos + 1] << 8) + (array[pos + 2] << 16) + (array[pos + 3] << 24);
}

function equals32(array: Uint8Array, pos1: number, pos2: number): boolean {
  return (
    array[pos1] === array[pos2] &&
    array[pos1 + 1] === array[pos2 + 1] &&
    array[pos1 + 2] === array[pos2 + 2] &&
    array[pos1 + 3] === array[pos2 + 3]
  );
}

const literalSize = (len: number): number => (len <= 60 ? 1 : len < 256 ? 2 : 3) + len;

const copyLessThan64Size = (offset: number, len: number): number => (len < 12 && offset < 2048 ? 2 : 3);

function copySize(offset: number, len: number): number {
  let n = 0;
  while (len >= 68) {
    n += copyLessThan64Size(offset, 64);
    len -= 64;
  }
  if (len > 64) {
    n += copyLessThan64Size(offset, 60);
    len -= 60;
  }
  return n + copyLessThan64Size(offset, len);
}

function fragmentSize(input: Uint8Array, ip: number, inputSize: number): number {
  let hashTableBits = 1;
  while (1 << hashTableBits <= inputSize && hashTableBits <= MAX_HASH_TABLE_BITS) hashTableBits += 1;
  hashTableBits -= 1;
  const hashFuncShift = 32 - hashTableBits;
  const hashTable = (hashTables[hashTableBits] ??= new Uint16Array(1 << hashTableBits));
  hashTable.fill(0);

  const ipEnd = ip + inputSize;
  const baseIp = ip;
  let nextEmit = ip;
  let out = 0;
  let flag = true;
  let hash: number;
  let nextHash: number;
  let nextIp: number;
  let candidate = 0;
  let skip: number;

  if (inputSize >= INPUT_MARGIN) {
    const ipLimit = ipEnd - INPUT_MARGIN;
    ip += 1;
    nextHash = hashFunc(load32(input, ip), hashFuncShift);
    while (flag) {
      skip = 32;
      nextIp = ip;
      do {
        ip = nextIp;
        hash = nextHash;
        const bytesBetweenHashLookups = skip >>> 5;
        skip += 1;
        nextIp = ip + bytesBetweenHashLookups;
        if (ip > ipLimit) {
          flag = false;
          break;
        }
        nextHash = hashFunc(load32(input, nextIp), hashFuncShift);
        candidate = baseIp + hashTable[hash];
        hashTable[hash] = ip - baseIp;
      } while (!equals32(input, ip, candidate));
      if (!flag) break;

      out += literalSize(ip - nextEmit);
      do {
        const base = ip;
        let matched = 4;
        while (ip + matched < ipEnd && input[ip + matched] === input[candidate + matched]) matched += 1;
        ip += matched;
        out += copySize(base - candidate, matched);
        nextEmit = ip;
        if (ip >= ipLimit) {
          flag = false;
          break;
        }
        const prevHash = hashFunc(load32(input, ip - 1), hashFuncShift);
        hashTable[prevHash] = ip - 1 - baseIp;
        const curHash = hashFunc(load32(input, ip), hashFuncShift);
        candidate = baseIp + hashTable[curHash];
        hashTable[curHash] = ip - baseIp;
      } while (equals32(input, ip, candidate));
      if (!flag) break;

      ip += 1;
      nextHash = hashFunc(load32(input, ip), hashFuncShift);
    }
  }
  if (nextEmit < ipEnd) out += literalSize(ipEnd - nextEmit);
  return out;
}

function varintSize(value: number): number {
  let n = 0;
  do {
    value = value >>> 7;
    n++;
  } while (value > 0);
  return n;
}

/** `snappy.compress(bytes).length` (snappyjs). */
export function snappyCompressedSize(bytes: Uint8Array): number {
  const length = bytes.length;
  let n = varintSize(length);
  for (let pos = 0; pos < length; pos += BLOCK_SIZE) n += fragmentSize(bytes, pos, Math.min(length - pos, BLOCK_SIZE));
  return n;
}
