import { Flag, Kind } from '../core/kinds.js';
import type { DecodeErrorCode } from '../core/errors.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import { byteView, releaseSimdFrame } from '../core/utf8.js';
import { findInvalidText, VIEW_FRAME_MIN } from './text-check.js';
import { acquireWalkStack, countIsClamped, type WalkStack } from '../core/walk-stack.js';
import { reportDuplicateKeys } from '../core/duplicates.js';
import { msgpackLeafValue } from './value.js';
import { hex2 } from '../core/hex.js';
import { grouped } from '../core/grouped.js';

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
  capacityHint: msgpackCapacityHint,
};

/**
 * Nodes to allocate up front. Growing the store copies every node recorded so far into
 * fresh memory, and fresh memory is most of what indexing a number-dense frame costs (a
 * 363 KB mesh, sized from a sample of its first eighth, grew twice and took about a third
 * longer than at its exact size). So a full index counts the items of the whole frame
 * (`countHeads`: a few nanoseconds per item, as the CBOR walker does); a depth-1 index
 * takes the root's count (at most one item per byte that remains); depth 0 records the
 * root only; other depths keep the generic guess. Still a guess for malformed frames: the
 * store grows when the walk needs more, and gives back what it did not use.
 */
function msgpackCapacityHint(bytes: Uint8Array, depth: number): number | undefined {
  if (!(depth >= 1)) return 1;
  const len = bytes.length;
  if (len === 0) return 1;
  if (depth === 1) {
    const b = bytes[0];
    if (b >= 0x80 && b < 0xa0) return 1 + (b < 0x90 ? (b & 15) * 2 : b & 15);
    const perCount = ITEMS_PER_COUNT[b];
    if (perCount === 0 || NEED[b] > len) return 1;
    const count = b === 0xdc || b === 0xde ? u16(bytes, 1) : u32(bytes, 1);
    return 1 + Math.min(count * perCount, len - NEED[b]);
  }
  if (depth !== Infinity) return undefined;
  return countHeads(bytes);
}

/**
 * The nodes a full index of the frame will record, plus one: MessagePack is a sequence of
 * heads in pre-order, so this hops from head to head (over str / bin / ext payloads),
 * validating nothing (the walk does). It stops at the first byte that is no head (0xc1) or
 * whose item overruns the frame. Trailing bytes count too (the store is trimmed).
 */
function countHeads(bytes: Uint8Array): number {
  const len = bytes.length;
  let pos = 0;
  let n = 1; // room for one incomplete item at the end
  while (pos < len) {
    const b = bytes[pos];
    const size = ITEM_SIZE[b];
    n++;
    if (size !== 0) {
      pos += size;
      // A run of the same format byte (the floats of a vertex array): no table read per item.
      while (pos < len && bytes[pos] === b) {
        pos += size;
        n++;
      }
      continue;
    }
    // str / bin / ext 8-32 (their length follows), array / map 16-32 (only their head), 0xc1.
    const need = NEED[b];
    if (need === 0 || need > len - pos) break;
    const width = LENGTH_WIDTH[b];
    const n32 =
      ITEMS_PER_COUNT[b] !== 0
        ? 0
        : width === 1
          ? bytes[pos + 1]
          : width === 2
            ? u16(bytes, pos + 1)
            : u32(bytes, pos + 1);
    pos += need + n32;
  }
  return n;
}

/** Stack frame kind of the virtual frame that holds the root. */
const ROOT_FRAME = 0;

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
    stack.push(-1, 1, ROOT_FRAME, Math.max(depth, 0) + 1);
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

  // One DataView over a large frame for the text checks (see text-check.ts), made at its
  // first string of four bytes or more: a number array never pays for it. The SIMD
  // validator's window of the frame before (keyed by the Uint8Array) is not trusted.
  let view: DataView | null = null;
  releaseSimdFrame();
  const viewable = len >= VIEW_FRAME_MIN;

  // The frame on top of the stack lives in locals, written back (`spill`) only when a
  // container is pushed above it or an error marks the stack: most items touch no stack array.
  let t = stack.top;
  let fNode = stack.node[t];
  let fRemaining = stack.remaining[t];
  let fItems = 0;
  let fIsMap = stack.kind[t] === Kind.map;
  let fDepthLeft = stack.depthLeft[t];
  let fLast = -1;

  // Every item the loop reads is recorded (unrecorded subtrees are validated by `skip`),
  // written straight into the store's packed arrays (see SpanStore), as the CBOR walker's
  // fast loop does: no call, no view per item. The outer loop re-reads the arrays after the
  // store grows. The node count is a local too, written back before anything else runs.
  let nodes = store.size;
  for (;;) {
    const { slabI32: i32, slabU8: u8, slabF64: f64, cap: c } = store;
    const startAt = store.i32At,
      endAt = startAt + c,
      parentAt = endAt + c,
      firstChildAt = parentAt + c,
      nextSiblingAt = firstChildAt + c;
    const kindAt = store.u8At,
      flagsAt = kindAt + c,
      headAt = flagsAt + c,
      argAt = store.f64At;
    // (Containers to close need no room: a full store closes them before it grows.)
    while (nodes < c || fItems >= fRemaining) {
      // Every container the last item completed ends at `pos`.
      if (fItems >= fRemaining) {
        for (;;) {
          if (fNode >= 0) {
            i32[endAt + fNode] = pos;
            store.size = nodes;
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
          if (++fItems < fRemaining) break;
        }
        if (t < 0) break;
      }
      // Runs of leaves (numbers, nil, booleans, short strings: number arrays, coordinate
      // pairs, the keys and values of records) in a tighter loop; anything else, and
      // anything cut off, is read by the general code below.
      while (fItems < fRemaining && nodes < c && pos < len) {
        const b = bytes[pos];
        let kind: number;
        let arg = 0;
        let end: number;
        if (b < 0x80) {
          kind = Kind.uint;
          arg = b;
          end = pos + 1;
        } else if (b >= 0xe0) {
          kind = Kind.nint;
          arg = b - 256;
          end = pos + 1;
        } else if (b > 0x90 && b < 0xa0) {
          // A short array of numbers (coordinates, vectors, colours) whose items are
          // recorded too: the array and its items here, without a stack frame.
          const n = b & 15;
          if (fDepthLeft < 2 || n + 1 > c - nodes) break;
          let p = pos + 1;
          let k = 0;
          for (; k < n && p < len; k++) {
            const x = bytes[p];
            if (x < 0x80 || x >= 0xe0) p++;
            else if (x === 0xcb) p += 9;
            else if (x === 0xca) p += 5;
            else break;
          }
          if (k < n || p > len) break;
          const id = nodes++;
          i32[startAt + id] = pos;
          i32[endAt + id] = p;
          i32[parentAt + id] = fNode;
          i32[firstChildAt + id] = id + 1;
          i32[nextSiblingAt + id] = -1;
          if (fLast >= 0) i32[nextSiblingAt + fLast] = id;
          else if (fNode >= 0) i32[firstChildAt + fNode] = id;
          u8[kindAt + id] = Kind.array;
          u8[headAt + id] = 1;
          u8[flagsAt + id] = fIsMap && (fItems & 1) === 0 ? Flag.key | Flag.expanded : Flag.expanded;
          f64[argAt + id] = n;
          p = pos + 1;
          for (let item = 0; item < n; item++) {
            const x = bytes[p];
            const child = nodes++;
            const size = x < 0x80 || x >= 0xe0 ? 1 : x === 0xcb ? 9 : 5;
            i32[startAt + child] = p;
            i32[endAt + child] = p + size;
            i32[parentAt + child] = id;
            i32[firstChildAt + child] = -1;
            i32[nextSiblingAt + child] = item + 1 < n ? child + 1 : -1;
            u8[kindAt + child] =
              x < 0x80 ? Kind.uint : x >= 0xe0 ? Kind.nint : x === 0xcb ? Kind.float64 : Kind.float32;
            u8[headAt + child] = 1;
            if (x < 0x80) {
              if (x !== 0) f64[argAt + child] = x;
            } else if (x >= 0xe0) {
              f64[argAt + child] = x - 256;
            }
            p += size;
          }
          fLast = id;
          fItems++;
          pos = p;
          continue;
        } else if (b >= 0xa0 && b < 0xc0) {
          kind = Kind.text;
          arg = b & 31;
          end = pos + 1 + arg;
          if (end > len) break;
          if (arg !== 0) {
            const bad = findInvalidText(bytes, arg >= 4 && viewable ? (view ??= byteView(bytes)) : null, pos + 1, end);
            if (bad >= 0) break;
          }
        } else {
          const size = RUN_SIZE[b];
          if (size === 0 || size > len - pos) break;
          end = pos + size;
          kind = KIND[b];
          const at = pos + 1;
          switch (b) {
            case 0xcc:
              arg = bytes[at];
              break;
            case 0xcd:
              arg = u16(bytes, at);
              break;
            case 0xce:
              arg = u32(bytes, at);
              break;
            case 0xd0:
              arg = (bytes[at] << 24) >> 24;
              if (arg >= 0) kind = Kind.uint;
              break;
            case 0xd1:
              arg = (u16(bytes, at) << 16) >> 16;
              if (arg >= 0) kind = Kind.uint;
              break;
            case 0xd2:
              arg = u32(bytes, at) | 0;
              if (arg >= 0) kind = Kind.uint;
              break;
            case 0xd9: {
              arg = bytes[at];
              end = pos + 2 + arg;
              if (end > len) break;
              if (
                arg !== 0 &&
                findInvalidText(bytes, arg >= 4 && viewable ? (view ??= byteView(bytes)) : null, pos + 2, end) >= 0
              )
                end = -1;
              break;
            }
            // 0xc0, 0xc2, 0xc3, 0xca, 0xcb: the arg is 0
          }
          if (end < 0 || end > len) break;
        }
        const id = nodes++;
        i32[startAt + id] = pos;
        i32[endAt + id] = end;
        i32[parentAt + id] = fNode;
        i32[firstChildAt + id] = -1;
        i32[nextSiblingAt + id] = -1;
        if (fLast >= 0) i32[nextSiblingAt + fLast] = id;
        else if (fNode >= 0) i32[firstChildAt + fNode] = id;
        u8[kindAt + id] = kind;
        u8[headAt + id] = b === 0xd9 ? 2 : 1;
        if (fIsMap && (fItems & 1) === 0) u8[flagsAt + id] = Flag.key;
        if (arg !== 0) f64[argAt + id] = arg;
        fLast = id;
        fItems++;
        pos = end;
        if (fIsMap || bytes[pos] !== b || b === 0xd9 || (b >= 0xa0 && b < 0xc0)) continue;
        // A run of items with this same format byte in an array (the floats of a vertex
        // buffer, byte-sized integers): recorded without decoding the format byte again, each
        // linked to the next as it is written (the last one's link is closed after the run).
        const size = b < 0x80 || b >= 0xe0 ? 1 : RUN_SIZE[b];
        const constant = b < 0xcc || b >= 0xe0; // fixint, nil, booleans, floats: one kind, one arg
        let left = Math.min(fRemaining - fItems, c - nodes);
        let last = id;
        const stop = len - size;
        while (left > 0 && pos <= stop && bytes[pos] === b) {
          const next = nodes++;
          i32[startAt + next] = pos;
          i32[endAt + next] = pos + size;
          i32[parentAt + next] = fNode;
          i32[firstChildAt + next] = -1;
          i32[nextSiblingAt + last] = next;
          u8[headAt + next] = 1;
          if (constant) {
            u8[kindAt + next] = kind;
            if (arg !== 0) f64[argAt + next] = arg;
          } else {
            const v = runArg(bytes, b, pos + 1);
            u8[kindAt + next] = v < 0 ? Kind.nint : Kind.uint;
            if (v !== 0) f64[argAt + next] = v;
          }
          last = next;
          left--;
          pos += size;
        }
        i32[nextSiblingAt + last] = -1;
        fItems += last - id;
        fLast = last;
      }
      if (fItems >= fRemaining) continue;
      if (nodes === c) break;
      if (pos >= len) {
        store.size = nodes;
        spill(stack, t, fItems, fLast);
        failAt(
          index,
          stack,
          'truncated',
          len,
          len,
          `unexpected end of input: ${describeFrame(stack.kind[t])} is missing ${missing(stack, t)}`,
        );
        return;
      }
      const start = pos;
      const b = bytes[pos];
      let kind: number;
      let head = 1;
      /** Leaf: payload bytes after the head. Container: items to read (a map counts keys and values). */
      let size = 0;
      let arg: number;
      let container = false;
      if (b < 0x80) {
        kind = Kind.uint;
        arg = b;
      } else if (b >= 0xe0) {
        kind = Kind.nint;
        arg = b - 256;
      } else if (b < 0x90) {
        container = true;
        kind = Kind.map;
        arg = b & 15;
        size = arg * 2;
      } else if (b < 0xa0) {
        container = true;
        kind = Kind.array;
        size = arg = b & 15;
      } else if (b < 0xc0) {
        kind = Kind.text;
        size = arg = b & 31;
      } else {
        // Bytes needed to read the item: its head, and a fixed-size scalar's value bytes
        // (a scalar is atomic: cut off, it is `truncated` and not recorded). 0: 0xc1.
        const need = NEED[b];
        if (need === 0 || need > len - pos) {
          store.size = nodes;
          spill(stack, t, fItems, fLast);
          reportHeadError(index, stack, bytes, start, len);
          return;
        }
        kind = KIND[b];
        head = HEAD[b];
        const at = pos + 1;
        switch (b) {
          case 0xca: // float 32 / 64: the bits are the value, not an argument
            size = 4;
            arg = 0;
            break;
          case 0xcb:
            size = 8;
            arg = 0;
            break;
          case 0xcc: // uint 8/16/32/64
            size = 1;
            arg = bytes[at];
            break;
          case 0xcd:
            size = 2;
            arg = u16(bytes, at);
            break;
          case 0xce:
            size = 4;
            arg = u32(bytes, at);
            break;
          case 0xcf:
            size = 8;
            arg = u32(bytes, at) * 4294967296 + u32(bytes, at + 4);
            break;
          case 0xd0: // int 8/16/32/64: `uint` when >= 0
            size = 1;
            arg = (bytes[at] << 24) >> 24;
            if (arg >= 0) kind = Kind.uint;
            break;
          case 0xd1:
            size = 2;
            arg = (u16(bytes, at) << 16) >> 16;
            if (arg >= 0) kind = Kind.uint;
            break;
          case 0xd2:
            size = 4;
            arg = u32(bytes, at) | 0;
            if (arg >= 0) kind = Kind.uint;
            break;
          case 0xd3:
            size = 8;
            // hi * 2^32 + lo with a signed hi: one rounding, so the float nearest the int64.
            arg = (u32(bytes, at) | 0) * 4294967296 + u32(bytes, at + 4);
            if (arg >= 0) kind = Kind.uint;
            break;
          case 0xc4: // bin / str 8/16/32: the length is the argument
          case 0xd9:
            size = arg = bytes[at];
            break;
          case 0xc5:
          case 0xda:
            size = arg = u16(bytes, at);
            break;
          case 0xc6:
          case 0xdb:
            size = arg = u32(bytes, at);
            break;
          case 0xc7: // ext 8/16/32: length, then the type (a signed int8; -1 = timestamp)
            size = bytes[at];
            arg = (bytes[at + 1] << 24) >> 24;
            break;
          case 0xc8:
            size = u16(bytes, at);
            arg = (bytes[at + 2] << 24) >> 24;
            break;
          case 0xc9:
            size = u32(bytes, at);
            arg = (bytes[at + 4] << 24) >> 24;
            break;
          case 0xd4: // fixext 1/2/4/8/16: the type, then the data
          case 0xd5:
          case 0xd6:
          case 0xd7:
          case 0xd8:
            size = 1 << (b - 0xd4);
            arg = (bytes[at] << 24) >> 24;
            break;
          case 0xdc: // array 16/32, map 16/32: the count is the argument
            container = true;
            size = arg = u16(bytes, at);
            break;
          case 0xdd:
            container = true;
            size = arg = u32(bytes, at);
            break;
          case 0xde:
            container = true;
            arg = u16(bytes, at);
            size = arg * 2;
            break;
          case 0xdf:
            container = true;
            arg = u32(bytes, at);
            size = arg * 2;
            break;
          default: // nil, false, true
            arg = 0;
        }
      }
      pos += head;

      const id = nodes++;
      i32[startAt + id] = start;
      i32[parentAt + id] = fNode;
      i32[firstChildAt + id] = -1;
      i32[nextSiblingAt + id] = -1;
      if (fLast >= 0) i32[nextSiblingAt + fLast] = id;
      else if (fNode >= 0) i32[firstChildAt + fNode] = id;
      u8[kindAt + id] = kind;
      u8[headAt + id] = head;
      // Fresh slots are zero (see SpanStore): flags need a write only for a key, the arg
      // only when it is not 0 (floats, nil, booleans: a float array then never touches
      // the arg field's memory).
      if (fIsMap && (fItems & 1) === 0) u8[flagsAt + id] = Flag.key;
      if (arg !== 0) f64[argAt + id] = arg;
      fLast = id;

      if (!container) {
        // Fixints, nil and booleans (most items of number-dense frames) are done.
        if (size !== 0 || kind === Kind.ext) {
          if (size > len - pos) {
            u8[flagsAt + id] |= Flag.incomplete;
            i32[endAt + id] = len;
            store.size = nodes;
            spill(stack, t, fItems, fLast);
            failLengthExceeds(index, stack, start, len, kind, size, len - pos);
            return;
          }
          if (kind === Kind.text) {
            const bad = findInvalidText(
              bytes,
              size >= 4 && viewable ? (view ??= byteView(bytes)) : null,
              pos,
              pos + size,
            );
            if (bad >= 0) warnInvalidText(index, id, bad);
          } else if (kind === Kind.ext && arg === -1) {
            checkTimestamp(index, id, start, pos, size);
          }
          pos += size;
        }
        i32[endAt + id] = pos;
      } else {
        i32[endAt + id] = pos;
        const depthLeft = fDepthLeft - 1;
        if (depthLeft > 0) u8[flagsAt + id] |= Flag.expanded;
        if (size > 0) {
          spill(stack, t, fItems, fLast);
          if (depthLeft > 0) {
            stack.push(id, size, kind, depthLeft);
            t = stack.top;
            fNode = id;
            fRemaining = stack.remaining[t];
            fItems = 0;
            fIsMap = kind === Kind.map;
            fDepthLeft = depthLeft;
            fLast = -1;
            continue;
          }
          // Children below the recorded depth: validate without recording. The frame stays on
          // the stack meanwhile so that an error marks this node incomplete.
          stack.push(id, size, kind, 0);
          store.size = nodes;
          pos = skip(index, stack, bytes, pos, len, size);
          if (pos < 0) return;
          stack.pop();
          i32[endAt + id] = pos;
        }
      }

      // The item ended at `pos` (containers it completes are closed at the top of the loop).
      fItems++;
    }
    store.size = nodes;
    if (t < 0) break;
    store.growFor(pos);
  }

  if (node < 0) {
    // `endOf`, not the `end` view: making that view costs more than indexing a small frame.
    const rootEnd = index.root >= 0 ? store.endOf(index.root) : len;
    if (rootEnd < len && !index.error) {
      index.fail('trailing-bytes', rootEnd, `${grouped(len - rootEnd)} trailing bytes after the top-level value`);
    }
  }
}

/**
 * What each format byte from 0xc0 on is (the ones below are decoded inline): its node kind
 * (a signed int that is >= 0 becomes `uint` when read), its head (format byte plus length /
 * count / type bytes; 1 for scalars, whose value bytes are payload), the bytes needed
 * before it can be read (the head, plus the value bytes of a fixed-size scalar; 0 for the
 * never-used 0xc1), and for `skip`: the whole item's size when the format byte fixes it
 * (scalars, fixext), else the width of its length or count (0 for the fixed ones).
 */
const KIND = new Uint8Array(256);
const HEAD = new Uint8Array(256);
const NEED = new Uint8Array(256);
const FIXED_SIZE = new Uint8Array(256);
const LENGTH_WIDTH = new Uint8Array(256);
/** 1 for array 16/32, 2 for map 16/32 (items per count), 0 otherwise. */
const ITEMS_PER_COUNT = new Uint8Array(256);
{
  const scalar = (b: number, kind: number, valueBytes: number) => {
    KIND[b] = kind;
    HEAD[b] = 1;
    NEED[b] = FIXED_SIZE[b] = 1 + valueBytes;
  };
  const sized = (b: number, kind: number, width: number, extra = 0) => {
    KIND[b] = kind;
    HEAD[b] = NEED[b] = 1 + width + extra;
    LENGTH_WIDTH[b] = width;
  };
  scalar(0xc0, Kind.null, 0);
  scalar(0xc2, Kind.false, 0);
  scalar(0xc3, Kind.true, 0);
  scalar(0xca, Kind.float32, 4);
  scalar(0xcb, Kind.float64, 8);
  for (let n = 0; n < 4; n++) {
    scalar(0xcc + n, Kind.uint, 1 << n);
    scalar(0xd0 + n, Kind.nint, 1 << n);
  }
  for (let n = 0; n < 3; n++) {
    sized(0xc4 + n, Kind.bytes, 1 << n);
    sized(0xd9 + n, Kind.text, 1 << n);
    sized(0xc7 + n, Kind.ext, 1 << n, 1);
  }
  for (let n = 0; n < 5; n++) {
    // fixext: the type byte is read with the head; the data is checked as a payload.
    KIND[0xd4 + n] = Kind.ext;
    HEAD[0xd4 + n] = NEED[0xd4 + n] = 2;
    FIXED_SIZE[0xd4 + n] = 2 + (1 << n);
  }
  for (let n = 0; n < 2; n++) {
    sized(0xdc + n, Kind.array, 2 << n);
    sized(0xde + n, Kind.map, 2 << n);
    ITEMS_PER_COUNT[0xdc + n] = 1;
    ITEMS_PER_COUNT[0xde + n] = 2;
  }
}

/**
 * The whole item's size where the format byte fixes it (fixints, fixmap / fixarray heads,
 * fixstr, nil, booleans, floats, ints, fixext), 0 otherwise (the length or count follows, or 0xc1).
 */
const ITEM_SIZE = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  if (b < 0xa0 || b >= 0xe0) ITEM_SIZE[b] = 1;
  else if (b < 0xc0) ITEM_SIZE[b] = 1 + (b & 31);
  else ITEM_SIZE[b] = FIXED_SIZE[b];
}

/**
 * For the run loop: the size of a whole item whose format byte fixes it (nil, false, true,
 * float 32/64, uint and int 8/16/32), 2 for str 8 (its head), 0 for what the run leaves
 * to the general code.
 */
const RUN_SIZE = new Uint8Array(256);
for (const b of [0xc0, 0xc2, 0xc3, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xd0, 0xd1, 0xd2]) RUN_SIZE[b] = FIXED_SIZE[b];
RUN_SIZE[0xd9] = 2;

/** The value of a uint / int 8-32 (format byte `b`, 0xcc-0xce or 0xd0-0xd2) whose value bytes start at `at`. */
function runArg(bytes: Uint8Array, b: number, at: number): number {
  switch (b) {
    case 0xcc:
      return bytes[at];
    case 0xcd:
      return u16(bytes, at);
    case 0xce:
      return u32(bytes, at);
    case 0xd0:
      return (bytes[at] << 24) >> 24;
    case 0xd1:
      return (u16(bytes, at) << 16) >> 16;
    default: // 0xd2
      return u32(bytes, at) | 0;
  }
}

/**
 * Reports why the item at `start` cannot be read: 0xc1, a head (or fixed-size scalar) cut
 * off, or a str / bin / ext payload longer than the input. Read from the hot path's tables.
 */
function reportHeadError(index: SpanIndex, stack: WalkStack, bytes: Uint8Array, start: number, len: number): void {
  const b = bytes[start];
  if (b === 0xc1) return failAt(index, stack, 'invalid-byte', start, start, 'the never-used format byte 0xc1');
  const fix = b < 0xc0 || b >= 0xe0;
  if (!fix && len - start < NEED[b])
    return failAt(index, stack, 'truncated', len, len, truncatedHeader(bytes, start, len));
  const kind = fix ? Kind.text : KIND[b];
  const head = fix ? 1 : HEAD[b];
  const width = fix ? 0 : LENGTH_WIDTH[b];
  const size = fix
    ? b & 31
    : width === 1
      ? bytes[start + 1]
      : width === 2
        ? u16(bytes, start + 1)
        : width === 4
          ? u32(bytes, start + 1)
          : FIXED_SIZE[b] - head; // fixext: its data
  failLengthExceeds(index, stack, start, len, kind, size, len - start - head);
}

/**
 * A str that is not valid UTF-8 does not fail the frame (the spec asks decoders to expose
 * the original bytes): the node is marked, its value is the bytes, and a warning says
 * where the first bad sequence starts.
 */
function warnInvalidText(index: SpanIndex, id: number, bad: number): void {
  const store = index.store;
  store.flags[id] |= Flag.invalidUtf8;
  index.warn({
    code: 'invalid-utf8',
    offset: bad,
    node: id,
    message: `invalid UTF-8 (byte 0x${hex2(index.bytes[bad])}) in a str: kept as its bytes, at byte ${bad}`,
  });
}

/**
 * The timestamp extension (type -1) is 4, 8 or 12 bytes with nanoseconds up to
 * 999,999,999; anything else stays a plain ext, with a warning at the ext's offset.
 */
function checkTimestamp(index: SpanIndex, id: number, start: number, data: number, size: number): void {
  const bytes = index.bytes;
  let problem: string;
  if (size === 4) return;
  if (size === 8 || size === 12) {
    const nanoseconds = size === 8 ? u32(bytes, data) >>> 2 : u32(bytes, data);
    if (nanoseconds <= 999_999_999) return;
    problem = `nanoseconds ${nanoseconds} above 999999999`;
  } else {
    problem = `${size} data bytes (a timestamp has 4, 8 or 12)`;
  }
  index.warn({
    code: 'invalid-timestamp',
    offset: start,
    node: id,
    message: `timestamp extension (type -1) with ${problem}: kept as a plain ext, at byte ${start}`,
  });
}

/** Writes the locals of the top frame back to the stack. */
function spill(stack: WalkStack, t: number, items: number, last: number): void {
  stack.items[t] = items;
  stack.last[t] = last;
}

/**
 * Validates `pending` items starting at `pos` without recording them; returns where they
 * end, or -1 after `failAt`. Only the number of items still owed matters here (MessagePack
 * puts no constraint on map keys, and text that is not UTF-8 is a warning about a recorded
 * node, not an error), so nesting costs no memory and text is not read. `pending` can
 * exceed 2^53 only when it far exceeds the bytes that remain: it then never reaches 0 and
 * the walk ends in `truncated` (or an earlier error), as it must.
 */
function skip(
  index: SpanIndex,
  stack: WalkStack,
  bytes: Uint8Array,
  pos: number,
  len: number,
  pending: number,
): number {
  while (pending > 0) {
    if (pos >= len) {
      failAt(
        index,
        stack,
        'truncated',
        len,
        len,
        `unexpected end of input: ${grouped(pending)} more ${pending === 1 ? 'item' : 'items'} expected`,
      );
      return -1;
    }
    const b = bytes[pos];
    pending--;
    // Fast paths: fixints, fixmap, fixarray, fixstr.
    if (b < 0x80 || b >= 0xe0) {
      pos++;
      continue;
    }
    if (b < 0xa0) {
      pending += b < 0x90 ? (b & 15) * 2 : b & 15;
      pos++;
      continue;
    }
    if (b < 0xc0) {
      const end = pos + 1 + (b & 31);
      if (end > len) return skipError(index, stack, bytes, pos, len);
      pos = end;
      continue;
    }
    const need = NEED[b];
    if (need === 0 || need > len - pos) return skipError(index, stack, bytes, pos, len);
    const fixed = FIXED_SIZE[b];
    if (fixed !== 0) {
      // Scalars (already bounds checked by `need`) and fixext (its data may be cut off).
      if (fixed > len - pos) return skipError(index, stack, bytes, pos, len);
      pos += fixed;
      // A run of the same format byte (the floats of a vertex array): hop from one to the next.
      if (bytes[pos] === b) {
        const stop = len - fixed;
        while (pending > 0 && pos <= stop && bytes[pos] === b) {
          pos += fixed;
          pending--;
        }
      }
      continue;
    }
    const width = LENGTH_WIDTH[b];
    const n = width === 1 ? bytes[pos + 1] : width === 2 ? u16(bytes, pos + 1) : u32(bytes, pos + 1);
    const perCount = ITEMS_PER_COUNT[b];
    if (perCount !== 0) {
      pending += n * perCount;
      pos += need;
      continue;
    }
    if (n > len - pos - need) return skipError(index, stack, bytes, pos, len);
    pos += need + n;
  }
  return pos;
}

/** `skip` met an item it cannot read at `pos`: reports why, returns -1. */
function skipError(index: SpanIndex, stack: WalkStack, bytes: Uint8Array, pos: number, len: number): number {
  reportHeadError(index, stack, bytes, pos, len);
  return -1;
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
function failAt(
  index: SpanIndex,
  stack: WalkStack,
  code: DecodeErrorCode,
  at: number,
  stop: number,
  message: string,
): void {
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
  return `unexpected end of input inside the ${formatNames[b] ?? 'item'} (format byte 0x${hex2(b)}, ${follow} ${follow === 1 ? 'byte follows' : 'bytes follow'} it)`;
}

/** A str, bin or ext whose payload runs past the input: recorded up to the end of the input. */
function failLengthExceeds(
  index: SpanIndex,
  stack: WalkStack,
  start: number,
  len: number,
  kind: number,
  size: number,
  remain: number,
): void {
  failAt(
    index,
    stack,
    'length-exceeds-input',
    start,
    len,
    `${describeKind(kind)} declares ${grouped(size)} bytes but only ${grouped(remain)} remain`,
  );
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
    return stack.items[t] % 2 === 1 ? 'a value' : `${atLeast}${grouped(pairs)} ${pairs === 1 ? 'entry' : 'entries'}`;
  }
  return `${atLeast}${grouped(left)} ${left === 1 ? 'item' : 'items'}`;
}
