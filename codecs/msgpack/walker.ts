import { Flag, Kind } from '../core/kinds.js';
import type { DecodeErrorCode } from '../core/errors.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { acquireWalkStack, countIsClamped, type WalkStack } from '../core/walk-stack.js';
import { reportDuplicateKeys } from '../core/duplicates.js';
import { msgpackLeafValue } from './value.js';

/**
 * The validating MessagePack walker (https://github.com/msgpack/msgpack/blob/master/spec.md,
 * every format): one iterative pass that records nodes down to a depth and validates
 * everything below it without recording it. Every read is bounds checked; a declared
 * str / bin / ext length is compared with the bytes that remain before anything else
 * happens; nesting uses an explicit stack, never the JS call stack.
 *
 * Node layout (`head` = the bytes before the payload, payload = [start + head, end)):
 *
 * | format                              | kind            | head          | payload            | arg                     |
 * |-------------------------------------|-----------------|---------------|--------------------|-------------------------|
 * | positive / negative fixint          | uint / nint     | 1             | none               | the value               |
 * | uint 8/16/32/64, int 8/16/32/64     | uint / nint (*) | 1             | 1, 2, 4, 8 bytes   | the value (**)          |
 * | float 32 / float 64                 | float32/float64 | 1             | 4 / 8 bytes        | 0                       |
 * | nil, false, true                    | null/false/true | 1             | none               | 0                       |
 * | fixstr, str 8/16/32                 | text            | 1, 2, 3, 5    | the UTF-8 bytes    | byte length             |
 * | bin 8/16/32                         | bytes           | 2, 3, 5       | the bytes          | byte length             |
 * | fixext 1/2/4/8/16                   | ext (leaf)      | 2             | 1, 2, 4, 8, 16     | ext type (signed int8)  |
 * | ext 8/16/32                         | ext (leaf)      | 3, 4, 6       | the data           | ext type (signed int8)  |
 * | fixarray, array 16/32               | array           | 1, 3, 5       | the items          | item count              |
 * | fixmap, map 16/32                   | map             | 1, 3, 5       | keys and values    | number of pairs         |
 *
 * So a scalar's head is its format byte only and the value bytes are its payload; for
 * strings, bin, ext and containers the head is the format byte plus the length / count
 * bytes (plus the type byte for ext). (*) The signed formats give `uint` when the value is
 * >= 0 (as a positive fixint would), `nint` otherwise. (**) As a float64: exact up to 2^53,
 * `msgpackLeafValue` re-reads the bytes for the exact value.
 *
 * A node is recorded only when its head is complete. Fixed-size scalars are atomic: when
 * their value bytes are cut off, the error is `truncated` and the node is not recorded.
 * A str / bin / ext (fixext included) whose payload is longer than the input is recorded,
 * incomplete, ending at the end of the input, with `length-exceeds-input` at its start.
 */

export const msgpackWalker: FormatWalker = {
  format: 'msgpack',
  walk: walkMsgpack,
  leafValue: msgpackLeafValue,
};

/** Stack frame kind of the virtual frame that holds the root. */
const ROOT_FRAME = 0;

// Results of `readHeader`: what the item at `pos` is. Module-level scratch so that decoding
// a header allocates nothing; the walk is synchronous and never re-entered.
const H_LEAF = 0;
const H_CONTAINER = 1;
const H_TRUNCATED = 2;
const H_INVALID = 3;
let hKind = 0;
let hHead = 0;
/** Leaf: payload length. Container: items to read (a map counts keys and values). */
let hSize = 0;
let hArg = 0;

function walkMsgpack(index: SpanIndex, node: number, depth: number): void {
  const bytes = index.bytes;
  const len = bytes.length;
  const store = index.store;
  const stack = acquireWalkStack();
  let pos: number;

  if (node < 0) {
    if (len === 0) {
      index.fail('empty-input', 0, 'empty input: no MessagePack value');
      return;
    }
    // A virtual frame that expects exactly one item: the root (always recorded).
    stack.push(-1, 1, ROOT_FRAME, (depth > 0 ? depth : 0) + 1);
    pos = 0;
  } else {
    const k = store.kind[node];
    if ((k !== Kind.array && k !== Kind.map) || !(depth >= 1)) return;
    // Re-read the container's children; the walk that recorded it validated its header.
    pos = store.start[node] + store.head[node];
    const count = k === Kind.map ? store.arg[node] * 2 : store.arg[node];
    store.flags[node] |= Flag.expanded;
    if (count === 0) return;
    stack.push(node, count, k, depth);
  }

  // The frame on top of the stack lives in locals, written back (`spill`) only when a
  // container is pushed above it or an error marks the stack: most items touch no stack array.
  let t = stack.top;
  let fNode = stack.node[t];
  let fRemaining = stack.remaining[t];
  let fItems = 0;
  let fIsMap = stack.kind[t] === Kind.map;
  let fDepthLeft = stack.depthLeft[t];
  let fLast = -1;

  for (;;) {
    if (pos >= len) {
      spill(stack, t, fItems, fLast);
      failAt(index, stack, 'truncated', len, len, `unexpected end of input: ${describeFrame(stack.kind[t])} is missing ${missing(stack, t)}`);
      return;
    }
    const start = pos;
    const b = bytes[pos];
    let r: number;
    let kind: number;
    let head = 1;
    let size: number;
    let arg: number;
    // Inline fast paths for the one-byte heads; readHeader for the rest.
    if (b < 0x80) {
      r = H_LEAF;
      kind = Kind.uint;
      size = 0;
      arg = b;
    } else if (b >= 0xe0) {
      r = H_LEAF;
      kind = Kind.nint;
      size = 0;
      arg = b - 256;
    } else if (b < 0x90) {
      r = H_CONTAINER;
      kind = Kind.map;
      arg = b & 15;
      size = arg * 2;
    } else if (b < 0xa0) {
      r = H_CONTAINER;
      kind = Kind.array;
      size = arg = b & 15;
    } else if (b < 0xc0) {
      r = H_LEAF;
      kind = Kind.text;
      size = arg = b & 31;
    } else {
      r = readHeader(bytes, pos, len);
      if (r >= H_TRUNCATED) {
        spill(stack, t, fItems, fLast);
        if (r === H_TRUNCATED) failAt(index, stack, 'truncated', len, len, truncatedHeader(bytes, start, len));
        else failAt(index, stack, 'invalid-byte', start, start, 'the never-used format byte 0xc1');
        return;
      }
      kind = hKind;
      head = hHead;
      size = hSize;
      arg = hArg;
    }
    pos += head;

    // Every item the main loop reads is recorded: unrecorded subtrees are validated by `skip`.
    const id = store.add(kind, start, head, arg, fNode, fLast);
    fLast = id;
    if (fIsMap && (fItems & 1) === 0) store.flags[id] |= Flag.key;

    if (r === H_LEAF) {
      if (size > len - pos) {
        store.flags[id] |= Flag.incomplete;
        store.end[id] = len;
        spill(stack, t, fItems, fLast);
        failAt(index, stack, 'length-exceeds-input', start, len, `${describeKind(kind)} declares ${size} bytes but only ${len - pos} remain`);
        return;
      }
      if (kind === Kind.text) {
        const bad = findInvalidUtf8(bytes, pos, pos + size);
        if (bad >= 0) {
          store.flags[id] |= Flag.incomplete;
          store.end[id] = pos + size;
          spill(stack, t, fItems, fLast);
          failAt(index, stack, 'invalid-utf8', bad, pos + size, 'invalid UTF-8 in str');
          return;
        }
      }
      pos += size;
      store.end[id] = pos;
    } else {
      const depthLeft = fDepthLeft - 1;
      if (depthLeft > 0) store.flags[id] |= Flag.expanded;
      if (size > 0) {
        spill(stack, t, fItems, fLast);
        if (depthLeft > 0) {
          stack.push(id, size, kind, depthLeft);
          t = stack.top;
          fNode = id;
          fRemaining = size;
          fItems = 0;
          fIsMap = kind === Kind.map;
          fDepthLeft = depthLeft;
          fLast = -1;
          continue;
        }
        // Children below the recorded depth: validate without recording. The frame stays on
        // the stack meanwhile so that an error marks this node incomplete.
        stack.push(id, size, kind, 0);
        pos = skip(index, stack, bytes, pos, len, size);
        if (pos < 0) return;
        stack.pop();
      }
      store.end[id] = pos;
    }

    // The item ended at `pos`: close every container it completes.
    while (++fItems >= fRemaining) {
      if (fNode >= 0) {
        store.end[fNode] = pos;
        if (fIsMap) reportDuplicateKeys(index, fNode);
      }
      stack.pop();
      t = stack.top;
      if (t < 0) break;
      fNode = stack.node[t];
      fRemaining = stack.remaining[t];
      fItems = stack.items[t];
      fIsMap = stack.kind[t] === Kind.map;
      fDepthLeft = stack.depthLeft[t];
      fLast = stack.last[t];
    }
    if (t < 0) break;
  }

  if (node < 0) {
    const root = index.root;
    if (root >= 0 && store.end[root] < len && !index.error) {
      index.fail('trailing-bytes', store.end[root], `${len - store.end[root]} trailing bytes after the top-level value`);
    }
  }
}

/** Writes the locals of the top frame back to the stack. */
function spill(stack: WalkStack, t: number, items: number, last: number): void {
  stack.items[t] = items;
  stack.last[t] = last;
}

/**
 * Validates `pending` items starting at `pos` without recording them; returns where they
 * end, or -1 after `failAt`. Only the number of items still owed matters here (MessagePack
 * puts no constraint on map keys), so nesting costs no memory at all. `pending` can exceed
 * 2^53 only when it far exceeds the bytes that remain: it then never reaches 0 and the
 * walk ends in `truncated` (or an earlier error), as it must.
 */
function skip(index: SpanIndex, stack: WalkStack, bytes: Uint8Array, pos: number, len: number, pending: number): number {
  while (pending > 0) {
    if (pos >= len) {
      failAt(index, stack, 'truncated', len, len, `unexpected end of input: ${pending} more ${pending === 1 ? 'item' : 'items'} expected`);
      return -1;
    }
    const b = bytes[pos];
    pending--;
    // Fast paths: fixints, fixmap, fixarray.
    if (b < 0x80 || b >= 0xe0) {
      pos++;
      continue;
    }
    if (b < 0xa0) {
      pending += b < 0x90 ? (b & 15) * 2 : b & 15;
      pos++;
      continue;
    }
    const start = pos;
    const r = readHeader(bytes, pos, len);
    if (r >= H_TRUNCATED) {
      if (r === H_TRUNCATED) failAt(index, stack, 'truncated', len, len, truncatedHeader(bytes, start, len));
      else failAt(index, stack, 'invalid-byte', start, start, 'the never-used format byte 0xc1');
      return -1;
    }
    pos += hHead;
    if (r === H_CONTAINER) {
      pending += hSize;
      continue;
    }
    const size = hSize;
    if (size > len - pos) {
      failAt(index, stack, 'length-exceeds-input', start, len, `${describeKind(hKind)} declares ${size} bytes but only ${len - pos} remain`);
      return -1;
    }
    if (hKind === Kind.text) {
      const bad = findInvalidUtf8(bytes, pos, pos + size);
      if (bad >= 0) {
        failAt(index, stack, 'invalid-utf8', bad, pos + size, 'invalid UTF-8 in str');
        return -1;
      }
    }
    pos += size;
  }
  return pos;
}

/**
 * Decodes the head of the item at `pos` (pos < len) into hKind / hHead / hSize / hArg.
 * Checks that the head, and the whole item for fixed-size scalars, is inside the input;
 * a str / bin / ext payload is checked by the caller.
 */
function readHeader(bytes: Uint8Array, pos: number, len: number): number {
  const b = bytes[pos];
  if (b < 0x80) {
    hKind = Kind.uint;
    hHead = 1;
    hSize = 0;
    hArg = b;
    return H_LEAF;
  }
  if (b >= 0xe0) {
    hKind = Kind.nint;
    hHead = 1;
    hSize = 0;
    hArg = b - 256;
    return H_LEAF;
  }
  if (b < 0xc0) {
    hHead = 1;
    if (b < 0x90) {
      hKind = Kind.map;
      hArg = b & 15;
      hSize = hArg * 2;
      return H_CONTAINER;
    }
    if (b < 0xa0) {
      hKind = Kind.array;
      hArg = b & 15;
      hSize = hArg;
      return H_CONTAINER;
    }
    hKind = Kind.text;
    hArg = hSize = b & 31;
    return H_LEAF;
  }
  const avail = len - pos;
  switch (b) {
    case 0xc0:
      return scalar(Kind.null, 0, 0);
    case 0xc1:
      return H_INVALID;
    case 0xc2:
      return scalar(Kind.false, 0, 0);
    case 0xc3:
      return scalar(Kind.true, 0, 0);
    case 0xc4: // bin 8
      if (avail < 2) return H_TRUNCATED;
      return sized(Kind.bytes, 2, bytes[pos + 1]);
    case 0xc5: // bin 16
      if (avail < 3) return H_TRUNCATED;
      return sized(Kind.bytes, 3, u16(bytes, pos + 1));
    case 0xc6: // bin 32
      if (avail < 5) return H_TRUNCATED;
      return sized(Kind.bytes, 5, u32(bytes, pos + 1));
    case 0xc7: // ext 8: length, type
      if (avail < 3) return H_TRUNCATED;
      return ext(3, bytes[pos + 1], bytes[pos + 2]);
    case 0xc8: // ext 16
      if (avail < 4) return H_TRUNCATED;
      return ext(4, u16(bytes, pos + 1), bytes[pos + 3]);
    case 0xc9: // ext 32
      if (avail < 6) return H_TRUNCATED;
      return ext(6, u32(bytes, pos + 1), bytes[pos + 5]);
    case 0xca:
      if (avail < 5) return H_TRUNCATED;
      return scalar(Kind.float32, 4, 0);
    case 0xcb:
      if (avail < 9) return H_TRUNCATED;
      return scalar(Kind.float64, 8, 0);
    case 0xcc:
      if (avail < 2) return H_TRUNCATED;
      return scalar(Kind.uint, 1, bytes[pos + 1]);
    case 0xcd:
      if (avail < 3) return H_TRUNCATED;
      return scalar(Kind.uint, 2, u16(bytes, pos + 1));
    case 0xce:
      if (avail < 5) return H_TRUNCATED;
      return scalar(Kind.uint, 4, u32(bytes, pos + 1));
    case 0xcf:
      if (avail < 9) return H_TRUNCATED;
      return scalar(Kind.uint, 8, u32(bytes, pos + 1) * 4294967296 + u32(bytes, pos + 5));
    case 0xd0: {
      if (avail < 2) return H_TRUNCATED;
      const v = (bytes[pos + 1] << 24) >> 24;
      return scalar(v < 0 ? Kind.nint : Kind.uint, 1, v);
    }
    case 0xd1: {
      if (avail < 3) return H_TRUNCATED;
      const v = (u16(bytes, pos + 1) << 16) >> 16;
      return scalar(v < 0 ? Kind.nint : Kind.uint, 2, v);
    }
    case 0xd2: {
      if (avail < 5) return H_TRUNCATED;
      const v = u32(bytes, pos + 1) | 0;
      return scalar(v < 0 ? Kind.nint : Kind.uint, 4, v);
    }
    case 0xd3: {
      if (avail < 9) return H_TRUNCATED;
      // hi * 2^32 + lo with a signed hi: one rounding, so the float nearest the int64.
      const v = (u32(bytes, pos + 1) | 0) * 4294967296 + u32(bytes, pos + 5);
      return scalar(v < 0 ? Kind.nint : Kind.uint, 8, v);
    }
    case 0xd4: // fixext 1/2/4/8/16: type, data
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8:
      if (avail < 2) return H_TRUNCATED;
      return ext(2, 1 << (b - 0xd4), bytes[pos + 1]);
    case 0xd9: // str 8
      if (avail < 2) return H_TRUNCATED;
      return sized(Kind.text, 2, bytes[pos + 1]);
    case 0xda: // str 16
      if (avail < 3) return H_TRUNCATED;
      return sized(Kind.text, 3, u16(bytes, pos + 1));
    case 0xdb: // str 32
      if (avail < 5) return H_TRUNCATED;
      return sized(Kind.text, 5, u32(bytes, pos + 1));
    case 0xdc: // array 16
      if (avail < 3) return H_TRUNCATED;
      return container(Kind.array, 3, u16(bytes, pos + 1));
    case 0xdd: // array 32
      if (avail < 5) return H_TRUNCATED;
      return container(Kind.array, 5, u32(bytes, pos + 1));
    case 0xde: // map 16
      if (avail < 3) return H_TRUNCATED;
      return container(Kind.map, 3, u16(bytes, pos + 1));
    default: // 0xdf: map 32
      if (avail < 5) return H_TRUNCATED;
      return container(Kind.map, 5, u32(bytes, pos + 1));
  }
}

/** A fixed-size scalar: the format byte, then `size` value bytes (already bounds checked). */
function scalar(kind: number, size: number, arg: number): number {
  hKind = kind;
  hArg = arg;
  hHead = 1;
  hSize = size;
  return H_LEAF;
}

function sized(kind: number, head: number, length: number): number {
  hKind = kind;
  hHead = head;
  hSize = length;
  hArg = length;
  return H_LEAF;
}

function ext(head: number, length: number, type: number): number {
  hKind = Kind.ext;
  hHead = head;
  hSize = length;
  hArg = (type << 24) >> 24; // the type is a signed int8 (-1 = timestamp)
  return H_LEAF;
}

function container(kind: number, head: number, count: number): number {
  hKind = kind;
  hHead = head;
  hArg = count;
  hSize = kind === Kind.map ? count * 2 : count;
  return H_CONTAINER;
}

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) >>> 0) + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
}

/**
 * Records the first error and marks every recorded node still open as incomplete, ending
 * where the walk stopped consuming input (`stop`): the end of the input for `truncated`
 * and `length-exceeds-input` (a str cut off by its declared length is recorded up to the
 * end of the input), the str's declared end for `invalid-utf8`, the bad byte for
 * `invalid-byte`. `stop` depends only on the bytes, not on what was recorded, so a shallow
 * walk and a later expansion give open nodes the same ends, and a parent always contains
 * its children.
 */
function failAt(index: SpanIndex, stack: WalkStack, code: DecodeErrorCode, at: number, stop: number, message: string): void {
  index.fail(code, at, message);
  const store = index.store;
  const end = Math.min(stop, index.bytes.length);
  for (let t = stack.top; t >= 0; t--) {
    const id = stack.node[t];
    if (id < 0) continue;
    store.flags[id] |= Flag.incomplete;
    store.end[id] = Math.max(store.start[id] + store.head[id], end);
  }
}

const formatNames: Record<number, string> = {
  0xc4: 'bin 8',
  0xc5: 'bin 16',
  0xc6: 'bin 32',
  0xc7: 'ext 8',
  0xc8: 'ext 16',
  0xc9: 'ext 32',
  0xca: 'float 32',
  0xcb: 'float 64',
  0xcc: 'uint 8',
  0xcd: 'uint 16',
  0xce: 'uint 32',
  0xcf: 'uint 64',
  0xd0: 'int 8',
  0xd1: 'int 16',
  0xd2: 'int 32',
  0xd3: 'int 64',
  0xd4: 'fixext 1',
  0xd5: 'fixext 2',
  0xd6: 'fixext 4',
  0xd7: 'fixext 8',
  0xd8: 'fixext 16',
  0xd9: 'str 8',
  0xda: 'str 16',
  0xdb: 'str 32',
  0xdc: 'array 16',
  0xdd: 'array 32',
  0xde: 'map 16',
  0xdf: 'map 32',
};

function truncatedHeader(bytes: Uint8Array, start: number, len: number): string {
  const b = bytes[start];
  const follow = len - start - 1;
  return `unexpected end of input inside the ${formatNames[b] ?? 'item'} (format byte 0x${b.toString(16).padStart(2, '0')}, ${follow} ${follow === 1 ? 'byte follows' : 'bytes follow'} it)`;
}

function describeKind(kind: number): string {
  return kind === Kind.text ? 'str' : kind === Kind.bytes ? 'bin' : 'ext';
}

function describeFrame(frameKind: number): string {
  return frameKind === Kind.array ? 'array' : frameKind === Kind.map ? 'map' : 'top level';
}

function missing(stack: WalkStack, t: number): string {
  if (stack.kind[t] === ROOT_FRAME) return 'a value';
  const left = stack.remaining[t] - stack.items[t];
  const atLeast = countIsClamped(stack, t) ? 'at least ' : '';
  if (stack.kind[t] === Kind.map) {
    const pairs = Math.ceil(left / 2);
    return stack.items[t] % 2 === 1 ? 'a value' : `${atLeast}${pairs} ${pairs === 1 ? 'entry' : 'entries'}`;
  }
  return `${atLeast}${left} ${left === 1 ? 'item' : 'items'}`;
}
