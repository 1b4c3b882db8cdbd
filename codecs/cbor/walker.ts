import { Flag, Kind } from '../core/kinds.js';
import type { DecodeErrorCode } from '../core/errors.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { SpanStore } from '../core/span-store.js';
import { byteView, findInvalidLongUtf8, findInvalidUtf8In, releaseSimdFrame } from '../core/utf8.js';
import { acquireWalkStack, countIsClamped, type WalkStack } from '../core/walk-stack.js';
import { reportDuplicateKeys } from '../core/duplicates.js';
import { cborLeafValue, cborTagValue } from './value.js';
import { checkTagContent } from './tag-validity.js';
import { hex2 } from '../core/hex.js';
import { cborTagPreview, tagContentLabel } from './known-tags.js';
import { grouped } from '../core/grouped.js';

/**
 * The validating CBOR walker (RFC 8949): one iterative pass that records nodes down to a
 * depth and validates everything below it without recording it. Every read is bounds
 * checked; a declared string length is compared with the bytes that remain before anything
 * else happens; nesting uses an explicit stack, never the JS call stack.
 *
 * The loop is written for speed (it runs over every byte of every frame): no closures over
 * the position, no allocation per item; helpers take and return plain numbers.
 */

/** Stack frame kinds besides Kind.array / Kind.map / Kind.tag. */
const ROOT_FRAME = 0;
const INDEF_BYTES = 100;
const INDEF_TEXT = 101;

export const cborWalker: FormatWalker = {
  format: 'cbor',
  walk: walkCbor,
  leafValue: cborLeafValue,
  tagValue: cborTagValue,
  tagContentLabel,
  tagPreview: cborTagPreview,
  capacityHint: cborCapacityHint,
};

/**
 * A depth-limited index records the root and, at depth 1, the root's items: for a definite
 * array or map that is exactly 1 + its item count (at most one item per remaining byte),
 * so the store is sized for it instead of for the frame. Otherwise no hint. A count beyond
 * HINT_MAX is not taken at its word (the header may lie): the store grows as items come.
 */
function cborCapacityHint(bytes: Uint8Array, depth: number): number | undefined {
  if (depth < 1) return 1;
  if (depth === Infinity) return countHeads(bytes);
  if (depth > 1 || bytes.length === 0) return undefined;
  const ib = bytes[0];
  const head = HEAD_LENGTH[ib];
  if (ib < 0x80 || ib >= 0xc0 || head === 0 || head > bytes.length) return undefined;
  const count = head === 1 ? ib & 31 : readArg(bytes, 1, head - 1);
  return 1 + Math.min(ib >= 0xa0 ? count * 2 : count, bytes.length - head, HINT_MAX);
}
const HINT_MAX = 1 << 16;

/**
 * The nodes a full index of the frame will record: one per head (breaks excepted), found by
 * hopping from head to head, over string contents, validating nothing (the walk does). A
 * full index sized by it never grows and has nothing to trim: growing a store copies every
 * node into fresh memory, and fresh memory is most of what indexing a number-dense frame
 * costs (a 369 KB mesh grew three times from the generic guess and took about twice as long
 * as at its exact size), while this loop costs a few nanoseconds per item. It stops at the
 * first byte that is no well-formed head (the walk reports it), or that overruns the frame.
 */
function countHeads(bytes: Uint8Array): number {
  const len = bytes.length;
  let pos = 0;
  let n = 1; // room for one incomplete item at the end
  while (pos < len) {
    const ib = bytes[pos];
    let head = HEAD_LENGTH[ib];
    if (head === 0) {
      if (ib >= 0xc0 && ib <= 0xdb)
        head = ib < 0xd8 ? 1 : 1 + (1 << (ib - 0xd8)); // a tag
      else if (ib === 0x5f || ib === 0x7f || ib === 0x9f || ib === 0xbf)
        head = 1; // an indefinite length
      else if (ib === 0xf8)
        head = 2; // a two-byte simple value
      else if (ib === 0xff) {
        pos++; // a break ends a node, it is none
        continue;
      } else break;
    }
    let next = pos + head;
    if (ib >= 0x40 && ib < 0x80 && (ib & 31) !== 31) next += head === 1 ? ib & 31 : readArg(bytes, pos + 1, head - 1);
    if (next > len) break;
    n++;
    pos = next;
  }
  return n;
}

function walkCbor(index: SpanIndex, node: number, depth: number): void {
  textView = null;
  releaseSimdFrame();
  walkItems(index, node, depth);
  // Not kept past the walk: it would hold the frame's buffer.
  textView = null;
}

function walkItems(index: SpanIndex, node: number, depth: number): void {
  const bytes = index.bytes;
  const len = bytes.length;
  const store = index.store;
  const stack = acquireWalkStack();
  let pos: number;

  if (node < 0) {
    if (len === 0) {
      index.fail('empty-input', 0, 'empty input: no CBOR data item');
      return;
    }
    // A virtual frame that expects exactly one item: the root.
    stack.push(-1, 1, ROOT_FRAME, depth + 1);
    pos = 0;
  } else {
    // Re-read the container's children; the walk that recorded it validated its header.
    pos = store.start[node] + store.head[node];
    const k = store.kind[node];
    const indefinite = (store.flags[node] & Flag.indefinite) !== 0;
    const count = indefinite ? -1 : k === Kind.map ? store.arg[node] * 2 : k === Kind.tag ? 1 : store.arg[node];
    const frameKind = k === Kind.bytes ? INDEF_BYTES : k === Kind.text ? INDEF_TEXT : k;
    store.flags[node] |= Flag.expanded;
    if (count === 0) return;
    stack.push(node, count, frameKind, depth);
  }

  while (stack.top >= 0) {
    const t = stack.top;
    const frameKind = stack.kind[t];
    if ((frameKind === Kind.array || frameKind === Kind.map) && stack.remaining[t] > 0 && stack.depthLeft[t] > 0) {
      pos = recordLeaves(index, stack, t, pos);
      // Stopped inside a container it opened: read on from the top of the stack.
      if (stack.top !== t) continue;
      // At the last recorded level a definite array or map is recorded and its content
      // validated right here (every child of a depth-1 index's root), then leaves again.
      while (stack.depthLeft[t] === 1 && stack.items[t] < stack.remaining[t]) {
        const end = recordSkippedContainers(index, stack, t, pos);
        if (end < 0) return;
        if (end === pos) break; // not one: the general code below reads it
        pos = recordLeaves(index, stack, t, end);
      }
      if (stack.items[t] === stack.remaining[t]) {
        closeTop(index, stack, pos);
        itemDone(index, stack, pos);
        continue;
      }
    }
    if (pos >= len) {
      failAt(
        index,
        stack,
        'truncated',
        len,
        `unexpected end of input: ${describeFrame(frameKind, stack, t)} is missing ${missing(stack, t)}`,
      );
      return;
    }
    const start = pos;
    const ib = bytes[pos];
    const major = ib >> 5;
    const ai = ib & 31;

    if (ib === 0xff) {
      if (stack.remaining[t] >= 0) {
        failAt(
          index,
          stack,
          'unexpected-break',
          pos,
          frameKind === ROOT_FRAME
            ? 'break (0xff) outside an indefinite-length item'
            : `break (0xff) inside a definite-length ${describeFrame(frameKind, stack, t)}`,
        );
        return;
      }
      if (frameKind === Kind.map && (stack.items[t] & 1) === 1) {
        failAt(index, stack, 'unexpected-break', pos, 'break (0xff) where an indefinite-length map expects a value');
        return;
      }
      pos++;
      closeTop(index, stack, pos);
      itemDone(index, stack, pos);
      continue;
    }

    if (
      (frameKind === INDEF_BYTES || frameKind === INDEF_TEXT) &&
      (major !== (frameKind === INDEF_BYTES ? 2 : 3) || ai === 31)
    ) {
      const what = frameKind === INDEF_BYTES ? 'byte' : 'text';
      failAt(
        index,
        stack,
        'invalid-indefinite-chunk',
        pos,
        `an indefinite-length ${what} string may hold only definite-length ${what} string chunks, found initial byte 0x${hex2(ib)}`,
      );
      return;
    }

    // The head: initial byte plus 0, 1, 2, 4 or 8 argument bytes.
    let arg = ai;
    let head = 1;
    if (ai >= 24) {
      if (ai <= 27) {
        const n = 1 << (ai - 24);
        if (pos + 1 + n > len) {
          failAt(index, stack, 'truncated', len, truncatedHead(ib, n, len - pos - 1));
          return;
        }
        // A float's bits are not an argument: leave them for the value reader.
        if (major !== 7 || ai === 24) arg = readArg(bytes, pos + 1, n);
        head = 1 + n;
      } else if (ai <= 30) {
        failAt(
          index,
          stack,
          'reserved-additional-info',
          pos,
          `reserved additional information ${ai} in initial byte 0x${hex2(ib)}`,
        );
        return;
      } else if (major === 0 || major === 1 || major === 6 || major === 7) {
        // Major 7 with AI 31 is the break, handled above.
        failAt(
          index,
          stack,
          'invalid-major-31',
          pos,
          `additional information 31 is not allowed for major type ${major} (initial byte 0x${hex2(ib)})`,
        );
        return;
      } else {
        arg = -1; // indefinite length
      }
    }
    pos += head;

    let kind: number;
    if (major === 7) {
      if (ai < 20) kind = Kind.simple;
      else if (ai === 20) kind = Kind.false;
      else if (ai === 21) kind = Kind.true;
      else if (ai === 22) kind = Kind.null;
      else if (ai === 23) kind = Kind.undefined;
      else if (ai === 24) {
        if (arg < 32) {
          failAt(index, stack, 'invalid-simple', start, `two-byte simple value ${arg} (below 32) is not well-formed`);
          return;
        }
        kind = Kind.simple;
      } else kind = ai === 25 ? Kind.float16 : ai === 26 ? Kind.float32 : Kind.float64;
    } else {
      kind = MAJOR_KIND[major];
    }

    const depthLeft = stack.depthLeft[t];
    let id = -1;
    if (depthLeft > 0) {
      id = store.add(kind, start, head, arg, stack.node[t], stack.last[t]);
      stack.last[t] = id;
      if (frameKind === Kind.map && (stack.items[t] & 1) === 0) store.addFlags(id, Flag.key);
    }

    if (major === 2 || major === 3) {
      if (arg >= 0) {
        if (arg > len - pos) {
          if (id >= 0) {
            store.addFlags(id, Flag.incomplete);
            store.setEnd(id, len);
          }
          failAt(
            index,
            stack,
            'length-exceeds-input',
            start,
            `${major === 2 ? 'byte' : 'text'} string declares ${grouped(arg)} bytes but only ${grouped(len - pos)} remain`,
            len,
          );
          return;
        }
        if (major === 3) {
          const bad = findInvalidText(bytes, pos, pos + arg);
          if (bad >= 0) {
            if (id >= 0) {
              store.addFlags(id, Flag.incomplete);
              store.setEnd(id, pos + arg);
            }
            failAt(index, stack, 'invalid-utf8', bad, 'invalid UTF-8 in text string', pos + arg);
            return;
          }
        }
        pos += arg;
        if (id >= 0) store.setEnd(id, pos);
        if (leafDone(stack, t)) continue;
        closeTop(index, stack, pos);
        itemDone(index, stack, pos);
      } else {
        if (id >= 0) store.addFlags(id, Flag.indefinite | (depthLeft > 1 ? Flag.expanded : 0));
        stack.push(id, -1, major === 2 ? INDEF_BYTES : INDEF_TEXT, depthLeft - 1);
      }
    } else if (major >= 4 && major <= 6) {
      if (major === 6) checkTagContent(index, start, arg, pos, id);
      const count = arg < 0 ? -1 : major === 5 ? arg * 2 : major === 6 ? 1 : arg;
      if (id >= 0) {
        if (arg < 0) store.addFlags(id, Flag.indefinite);
        if (depthLeft > 1) store.addFlags(id, Flag.expanded);
      }
      if (count === 0) {
        itemDone(index, stack, pos);
      } else if (depthLeft <= 1 && count > 0 && major !== 6) {
        // Children not recorded: validate the subtree with the lean skipper.
        stack.push(id, count, major === 5 ? Kind.map : Kind.array, 0);
        const end = skipItems(index, stack, pos);
        if (end < 0) return;
        pos = end;
        closeTop(index, stack, pos);
        itemDone(index, stack, pos);
      } else {
        stack.push(id, count, MAJOR_KIND[major], depthLeft - 1);
      }
    } else {
      if (leafDone(stack, t)) continue;
      closeTop(index, stack, pos);
      itemDone(index, stack, pos);
    }
  }

  if (node < 0) {
    const root = index.root;
    const rootEnd = root >= 0 ? store.endOf(root) : len;
    if (rootEnd < len && !index.error) {
      index.fail('trailing-bytes', rootEnd, `${grouped(len - rootEnd)} trailing bytes after the top-level item`);
    }
  }
}

/**
 * The fast path of a full index: records the items of the definite array or map on top of
 * the stack, writing the store directly: leaves (integers, floats, simple values, definite
 * strings) and, where their children are recorded too, definite arrays and maps, which it
 * enters and leaves itself (a GeoJSON ring is thousands of two-number arrays, a tweet
 * dozens of small maps). Returns at the first item it does not handle (a tag, an
 * indefinite length, anything malformed, a container at the last recorded level), with
 * that item's container on top of the stack (it may be one this loop opened), which the
 * general loop then reads, reporting any error; or when the container it was called for
 * has all its items. Most items of real frames go through here, and this loop is several
 * times leaner than the general one.
 */
function recordLeaves(index: SpanIndex, stack: WalkStack, t: number, pos: number): number {
  const bytes = index.bytes;
  const len = bytes.length;
  const store = index.store;
  const base = t;
  let remaining = stack.remaining[t];
  let isMap = stack.kind[t] === Kind.map;
  let parent = stack.node[t];
  // Containers are recorded here only where their children are recorded too.
  let nest = stack.depthLeft[t] > 1;
  // A container first at the last recorded level (every child of a depth-1 root may be
  // one): nothing to record here.
  if (!nest && pos < len && bytes[pos] >= 0x80 && bytes[pos] < 0xc0) return pos;
  let items = stack.items[t];
  let last = stack.last[t];
  // Once per growth of the store: its packed arrays (see SpanStore) and where each field
  // starts in them. One add per write: with an index computed per field, writing a fresh
  // store (memory not yet in cache) was measurably slower.
  for (let full = false; ; full = false) {
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
    // The node count in a local, written back before anything else reads the store.
    let size = store.size;
    while (pos < len) {
      if (items === remaining) {
        if (t === base) break;
        // A container this loop opened has all its items: end it, count it in its parent.
        i32[endAt + parent] = pos;
        store.size = size;
        if (isMap) reportDuplicateKeys(index, parent);
        stack.pop();
        t--;
        last = parent;
        parent = stack.node[t];
        remaining = stack.remaining[t];
        isMap = stack.kind[t] === Kind.map;
        nest = stack.depthLeft[t] > 1;
        items = stack.items[t] + 1;
        continue;
      }
      const ib = bytes[pos];
      const head = HEAD_LENGTH[ib];
      if (head === 0) break;
      let end = pos + head;
      if (end > len) break;
      const major = ib >> 5;
      let arg = ib & 31;
      let kind: number;
      if (major === 7) {
        kind = arg < 20 ? Kind.simple : SIMPLE_KIND[arg - 20];
      } else {
        if (head > 1) arg = readArg(bytes, pos + 1, head - 1);
        if (major >= 4) {
          // A definite array or map (tags have no head length here).
          if (!nest) break;
          kind = major === 5 ? Kind.map : Kind.array;
        } else if (major >= 2) {
          if (arg > len - end || (major === 3 && !isValidText(bytes, end, end + arg))) break;
          end += arg;
          kind = MAJOR_KIND[major];
        } else {
          kind = MAJOR_KIND[major];
        }
      }
      if (size === c) {
        // Grow, then read this item again with the new arrays.
        full = true;
        break;
      }
      const id = size++;
      i32[startAt + id] = pos;
      i32[endAt + id] = end;
      i32[parentAt + id] = parent;
      i32[firstChildAt + id] = -1;
      i32[nextSiblingAt + id] = -1;
      if (last >= 0) i32[nextSiblingAt + last] = id;
      else if (parent >= 0) i32[firstChildAt + parent] = id;
      u8[kindAt + id] = kind;
      u8[headAt + id] = head;
      f64[argAt + id] = arg;
      pos = end;
      if (major < 4 || major === 7) {
        if (isMap && (items & 1) === 0) u8[flagsAt + id] = Flag.key;
        last = id;
        items++;
        if (isMap || major === 2 || major === 3 || bytes[pos] !== ib) continue;
        // A run of numbers with this same initial byte in an array (the floats of a vertex
        // buffer, byte-sized integers): recorded without decoding each head again.
        const constantArg = major === 7 || head === 1;
        const stop = len - head;
        while (items < remaining && pos <= stop && bytes[pos] === ib && size < c) {
          const next = size++;
          i32[startAt + next] = pos;
          i32[endAt + next] = pos + head;
          i32[parentAt + next] = parent;
          i32[firstChildAt + next] = -1;
          i32[nextSiblingAt + next] = -1;
          i32[nextSiblingAt + last] = next;
          u8[kindAt + next] = kind;
          u8[headAt + next] = head;
          f64[argAt + next] = constantArg ? arg : readArg(bytes, pos + 1, head - 1);
          last = next;
          items++;
          pos += head;
        }
        continue;
      }
      u8[flagsAt + id] = isMap && (items & 1) === 0 ? Flag.key | Flag.expanded : Flag.expanded;
      const count = major === 5 ? arg * 2 : arg;
      if (count === 0) {
        last = id;
        items++;
        continue;
      }
      // A short array of numbers and simple values (a coordinate pair, a vector): its items
      // are recorded right here when they all fit the store, without a stack frame.
      if (major === 4 && count <= SHORT_SKIP && size + count <= c) {
        let p = pos;
        let k = 0;
        for (; k < count && p < len; k++) {
          const b = bytes[p];
          if (b >= 0x40 && b < 0xe0) break;
          const h = HEAD_LENGTH[b];
          if (h === 0) break;
          p += h;
        }
        if (k === count && p <= len) {
          let prev = -1;
          for (k = 0; k < count; k++) {
            const b = bytes[pos];
            const h = HEAD_LENGTH[b];
            const child = size++;
            i32[startAt + child] = pos;
            i32[endAt + child] = pos + h;
            i32[parentAt + child] = id;
            i32[firstChildAt + child] = -1;
            i32[nextSiblingAt + child] = -1;
            if (prev >= 0) i32[nextSiblingAt + prev] = child;
            else i32[firstChildAt + id] = child;
            const ai = b & 31;
            u8[kindAt + child] =
              b >= 0xe0 ? (ai < 20 ? Kind.simple : SIMPLE_KIND[ai - 20]) : b >= 0x20 ? Kind.nint : Kind.uint;
            u8[headAt + child] = h;
            f64[argAt + child] = b >= 0xe0 || h === 1 ? ai : readArg(bytes, pos + 1, h - 1);
            prev = child;
            pos += h;
          }
          i32[endAt + id] = pos;
          last = id;
          items++;
          continue;
        }
      }
      // Open it: its items are read next, into it.
      stack.items[t] = items;
      stack.last[t] = id;
      stack.push(id, count, kind, stack.depthLeft[t] - 1);
      t = stack.top;
      parent = id;
      remaining = stack.remaining[t];
      isMap = major === 5;
      nest = stack.depthLeft[t] > 1;
      items = 0;
      last = -1;
    }
    store.size = size;
    if (!full) break;
    store.growFor(pos);
  }
  stack.items[t] = items;
  stack.last[t] = last;
  return pos;
}

/**
 * At the last recorded level (the container on top of the stack records its children but
 * not theirs): while the items at `pos` are definite arrays or maps, records each, validates
 * its content with `skipItems` and goes on after it. Returns where it stopped: at anything
 * else (a leaf, a tag, an indefinite length, a cut head; `pos` itself when the first item is
 * one), or -1 after an error, which `skipItems` reported. The same as the general loop does,
 * without its trips.
 */
function recordSkippedContainers(index: SpanIndex, stack: WalkStack, t: number, pos: number): number {
  const bytes = index.bytes;
  const len = bytes.length;
  const store = index.store;
  const isMap = stack.kind[t] === Kind.map;
  const remaining = stack.remaining[t];
  while (stack.items[t] < remaining && pos < len) {
    const ib = bytes[pos];
    const head = HEAD_LENGTH[ib];
    if (ib < 0x80 || ib >= 0xc0 || head === 0 || pos + head > len) break;
    const count = head === 1 ? ib & 31 : readArg(bytes, pos + 1, head - 1);
    const kind = ib >= 0xa0 ? Kind.map : Kind.array;
    const id = store.add(kind, pos, head, count, stack.node[t], stack.last[t]);
    if (isMap && (stack.items[t] & 1) === 0) store.addFlags(id, Flag.key);
    stack.last[t] = id;
    pos += head;
    if (count !== 0) {
      // Open on the stack while its content is read, so an error marks it incomplete.
      stack.push(id, kind === Kind.map ? count * 2 : count, kind, 0);
      pos = skipItems(index, stack, pos);
      if (pos < 0) return -1;
      stack.pop();
      store.setEnd(id, pos);
    }
    stack.items[t]++;
  }
  return pos;
}

/**
 * Head length by initial byte for the items the fast loops read in place: 1 + 0, 1, 2, 4
 * or 8 argument bytes; 0 for what they leave to the general code (tags, indefinite
 * lengths, reserved additional information, the break, two-byte simple values, which must
 * be checked to be at least 32).
 */
export const HEAD_LENGTH = new Uint8Array(256);
for (let ib = 0; ib < 256; ib++) {
  const major = ib >> 5;
  const ai = ib & 31;
  if (major === 6 || ai >= 28 || ib === 0xf8) continue;
  HEAD_LENGTH[ib] = ai < 24 ? 1 : 1 + (1 << (ai - 24));
}

/**
 * A DataView over the frame being walked (`byteView`) to check text four bytes per load:
 * made at the first text of four bytes or more in a frame of VIEW_FRAME_MIN bytes or more
 * (in a smaller one it costs more than it saves), dropped when the walk ends.
 */
let textView: DataView | null = null;
const VIEW_FRAME_MIN = 256;

/** The offset of the first invalid UTF-8 sequence in bytes[start, end), or -1. */
function findInvalidText(bytes: Uint8Array, start: number, end: number): number {
  const view = end - start >= 4 && bytes.length >= VIEW_FRAME_MIN ? (textView ?? (textView = byteView(bytes))) : null;
  // Long text: the SIMD validator, or the JS one from the first byte that is not ASCII.
  return view !== null && end - start > 16
    ? findInvalidLongUtf8(bytes, view, start, end)
    : findInvalidUtf8In(bytes, view, start, end);
}

/**
 * Strict UTF-8 validity of bytes[start, end), with the common case inline: ASCII text of 4
 * to 16 bytes (most keys and short values on the wire) in a frame that already has its
 * `textView` is recognized by OR-ing two or four overlapping 32-bit loads that cover it, so
 * the check has no loop whose exit depends on the string's length. Everything else goes to
 * `isValidTextRest`. Kept this small so that TurboFan inlines it into the loops that call it
 * for every string: with the rarer cases in the same function it grew past the inlining
 * budget once compiled on its own, and every string in `skipItems` paid a call (about a
 * sixth of a depth-1 index of text-keyed records).
 */
function isValidText(bytes: Uint8Array, start: number, end: number): boolean {
  const size = end - start;
  const view = textView;
  if (view !== null && size >= 4 && size <= 16) {
    const high =
      size <= 8
        ? view.getInt32(start, true) | view.getInt32(end - 4, true)
        : view.getInt32(start, true) |
          view.getInt32(start + 4, true) |
          view.getInt32(end - 8, true) |
          view.getInt32(end - 4, true);
    if ((high & 0x80808080) === 0) return true;
  }
  return isValidTextRest(bytes, start, end);
}

/** `isValidText` for what its inline test does not settle: short or long text, no view yet, a byte >= 0x80. */
function isValidTextRest(bytes: Uint8Array, start: number, end: number): boolean {
  const size = end - start;
  let high: number;
  if (size < 4) {
    // 0 to 3 bytes: three loads cover them (some twice); none for an empty string.
    high = size === 0 ? 0 : bytes[start] | bytes[start + (size >> 1)] | bytes[end - 1];
  } else if (bytes.length < VIEW_FRAME_MIN) {
    let i = start;
    while (i + 4 <= end && (bytes[i] | bytes[i + 1] | bytes[i + 2] | bytes[i + 3]) < 0x80) i += 4;
    while (i < end && bytes[i] < 0x80) i++;
    high = i === end ? 0 : 0x80;
  } else {
    const view = textView ?? (textView = byteView(bytes));
    if (size <= 8) {
      high = view.getInt32(start, true) | view.getInt32(end - 4, true);
    } else if (size <= 16) {
      high =
        view.getInt32(start, true) |
        view.getInt32(start + 4, true) |
        view.getInt32(end - 8, true) |
        view.getInt32(end - 4, true);
    } else {
      // Long text: the SIMD validator, or the JS one from the first byte that is not ASCII.
      return findInvalidLongUtf8(bytes, view, start, end) < 0;
    }
  }
  return (high & 0x80808080) === 0 || findInvalidText(bytes, start, end) < 0;
}

const SIMPLE_KIND = [Kind.false, Kind.true, Kind.null, Kind.undefined, 0, Kind.float16, Kind.float32, Kind.float64];

/**
 * Validates the items of the container on top of the stack without recording anything
 * (a definite array or map of `count` items whose children are beyond the recorded depth)
 * and returns the offset after its last item, or -1 after reporting an error. Nested
 * containers use the same stack above it. This is what makes a depth-1 index cheap: per
 * item only the head is read and checked, text is still UTF-8 validated.
 */
function skipItems(index: SpanIndex, stack: WalkStack, pos: number): number {
  const bytes = index.bytes;
  const len = bytes.length;
  const base = stack.top;
  // A push grows the stack by replacing all of its typed arrays, so these are re-read when
  // one of them changed (cached across a growth they went stale: past 64 open containers
  // the skipper counted items in the old arrays, e.g. 65 nested `81` around `00` at depth 0
  // reported "truncated").
  let remaining = stack.remaining;
  let items = stack.items;
  let kinds = stack.kind;
  for (;;) {
    let t = stack.top;
    let frameKind = kinds[t];
    // Definite arrays and maps in a tight loop: leaves are read in place, nested definite
    // arrays and maps are entered and left without the general code. Anything else
    // (indefinite lengths, tags, breaks) or anything wrong is left to the general code
    // below, which also reports errors.
    let closed = false;
    if ((frameKind === Kind.array || frameKind === Kind.map) && remaining[t] >= 0) {
      let r = remaining[t];
      let n = items[t];
      for (;;) {
        if (n === r) {
          // This container has ended: close it and count it in the one around it.
          if (t === base) return pos;
          stack.pop();
          t--;
          const k = kinds[t];
          if ((k === Kind.array || k === Kind.map) && remaining[t] >= 0) {
            r = remaining[t];
            n = items[t] + 1;
            continue;
          }
          closed = true;
          break;
        }
        if (pos >= len) break;
        const ib = bytes[pos];
        const head = HEAD_LENGTH[ib];
        if (head === 0) break;
        const next = pos + head;
        if (next > len) break;
        // Integers, floats and simple values (0x00-0x3f, 0xe0-0xff) are only their head.
        if (ib >= 0x40 && ib < 0xe0) {
          const arg = head === 1 ? ib & 31 : readArg(bytes, pos + 1, head - 1);
          if (ib >= 0x80) {
            // A definite array or map (tags have no head length here).
            pos = next;
            if (arg === 0) {
              n++;
              continue;
            }
            // A short one of numbers and simple values (a coordinate pair, a vector) is
            // skipped right here, without a stack frame; anything else gets one below.
            const count = ib >= 0xa0 ? arg * 2 : arg;
            if (count <= SHORT_SKIP) {
              let p = next;
              let k = 0;
              for (; k < count && p < len; k++) {
                const b = bytes[p];
                if (b >= 0x40 && b < 0xe0) break;
                const h = HEAD_LENGTH[b];
                if (h === 0) break;
                p += h;
                // The same head again (the second float of a coordinate pair): no table read.
                if (k + 1 < count && p < len && bytes[p] === b) {
                  p += h;
                  k++;
                }
              }
              if (k === count && p <= len) {
                pos = p;
                n++;
                continue;
              }
            }
            items[t] = n;
            stack.pushSkip(ib >= 0xa0 ? arg * 2 : arg, ib >= 0xa0 ? Kind.map : Kind.array);
            if (stack.remaining !== remaining) ({ remaining, items, kind: kinds } = stack);
            t++;
            r = remaining[t];
            n = 0;
            continue;
          }
          // A definite byte or text string.
          if (arg > len - next || (ib >= 0x60 && !isValidText(bytes, next, next + arg))) break;
          pos = next + arg;
        } else {
          pos = next;
          // A run of the same head (the floats of a vertex array): hop from one to the next.
          if (bytes[pos] === ib) {
            const stop = len - head;
            while (n + 1 < r && pos <= stop && bytes[pos] === ib) {
              pos += head;
              n++;
            }
          }
        }
        n++;
      }
      if (!closed) items[t] = n;
      frameKind = kinds[t];
    }
    if (!closed) {
      if (pos >= len) {
        failAt(
          index,
          stack,
          'truncated',
          len,
          `unexpected end of input: ${describeFrame(kinds[t], stack, t)} is missing ${missing(stack, t)}`,
        );
        return -1;
      }
      const ib = bytes[pos];
      const major = ib >> 5;
      const ai = ib & 31;
      if (ib === 0xff) {
        if (remaining[t] >= 0 || (frameKind === Kind.map && (items[t] & 1) === 1)) {
          failAt(
            index,
            stack,
            'unexpected-break',
            pos,
            remaining[t] >= 0
              ? `break (0xff) inside a definite-length ${describeFrame(frameKind, stack, t)}`
              : 'break (0xff) where an indefinite-length map expects a value',
          );
          return -1;
        }
        pos++;
        stack.pop();
        t--;
      } else {
        if (
          (frameKind === INDEF_BYTES || frameKind === INDEF_TEXT) &&
          (major !== (frameKind === INDEF_BYTES ? 2 : 3) || ai === 31)
        ) {
          const what = frameKind === INDEF_BYTES ? 'byte' : 'text';
          failAt(
            index,
            stack,
            'invalid-indefinite-chunk',
            pos,
            `an indefinite-length ${what} string may hold only definite-length ${what} string chunks, found initial byte 0x${hex2(ib)}`,
          );
          return -1;
        }
        let arg = ai;
        let next = pos + 1;
        if (ai >= 24) {
          if (ai <= 27) {
            const n = 1 << (ai - 24);
            if (next + n > len) {
              failAt(index, stack, 'truncated', len, truncatedHead(ib, n, len - next));
              return -1;
            }
            // Float bits are no argument; only a two-byte simple value needs its byte.
            if (major !== 7 || ai === 24) arg = readArg(bytes, next, n);
            next += n;
          } else if (ai <= 30) {
            failAt(
              index,
              stack,
              'reserved-additional-info',
              pos,
              `reserved additional information ${ai} in initial byte 0x${hex2(ib)}`,
            );
            return -1;
          } else if (major < 2 || major > 5) {
            failAt(
              index,
              stack,
              'invalid-major-31',
              pos,
              `additional information 31 is not allowed for major type ${major} (initial byte 0x${hex2(ib)})`,
            );
            return -1;
          } else {
            arg = -1;
          }
        }
        if (major === 2 || major === 3) {
          if (arg >= 0) {
            if (arg > len - next) {
              failAt(
                index,
                stack,
                'length-exceeds-input',
                pos,
                `${major === 2 ? 'byte' : 'text'} string declares ${grouped(arg)} bytes but only ${grouped(len - next)} remain`,
                len,
              );
              return -1;
            }
            if (major === 3) {
              const bad = findInvalidText(bytes, next, next + arg);
              if (bad >= 0) {
                failAt(index, stack, 'invalid-utf8', bad, 'invalid UTF-8 in text string', next + arg);
                return -1;
              }
            }
            pos = next + arg;
          } else {
            pos = next;
            stack.pushSkip(-1, major === 2 ? INDEF_BYTES : INDEF_TEXT);
            ({ remaining, items, kind: kinds } = stack);
            continue;
          }
        } else if (major >= 4 && major <= 6) {
          if (major === 6) checkTagContent(index, pos, arg, next, -1);
          pos = next;
          const count = arg < 0 ? -1 : major === 5 ? arg * 2 : major === 6 ? 1 : arg;
          if (count !== 0) {
            stack.pushSkip(count, MAJOR_KIND[major]);
            ({ remaining, items, kind: kinds } = stack);
            continue;
          }
        } else {
          if (major === 7 && ai === 24 && arg < 32) {
            failAt(index, stack, 'invalid-simple', pos, `two-byte simple value ${arg} (below 32) is not well-formed`);
            return -1;
          }
          pos = next;
        }
      }
    }
    // An item ended at `pos`: count it and close finished containers down to the base.
    for (;;) {
      const r = remaining[t];
      if (r >= 0 && ++items[t] >= r) {
        if (t === base) return pos;
        stack.pop();
        t--;
      } else {
        if (r < 0) items[t]++;
        break;
      }
    }
  }
}

/** Containers of up to this many items (a map counts keys and values) may be skipped in place. */
const SHORT_SKIP = 16;

const MAJOR_KIND = [Kind.uint, Kind.nint, Kind.bytes, Kind.text, Kind.array, Kind.map, Kind.tag, 0];

/**
 * Counts a finished leaf in the container on top of the stack; true while that container
 * still expects items (the common case, kept out of a loop for speed).
 */
function leafDone(stack: WalkStack, t: number): boolean {
  const items = ++stack.items[t];
  const remaining = stack.remaining[t];
  return remaining < 0 || items < remaining;
}

/** Counts a finished item in its container and closes every container that is now full. */
function itemDone(index: SpanIndex, stack: WalkStack, pos: number): void {
  while (stack.top >= 0) {
    const t = stack.top;
    const remaining = stack.remaining[t];
    const items = ++stack.items[t];
    if (remaining < 0 || items < remaining) return;
    closeTop(index, stack, pos);
  }
}

/** Ends the container on top of the stack at `pos`. */
function closeTop(index: SpanIndex, stack: WalkStack, pos: number): void {
  const t = stack.top;
  const id = stack.node[t];
  if (id >= 0) {
    const store: SpanStore = index.store;
    store.setEnd(id, pos);
    // An indefinite item's count is known only now; record it (maps count pairs).
    if (stack.remaining[t] < 0) store.setArg(id, stack.kind[t] === Kind.map ? stack.items[t] / 2 : stack.items[t]);
    if (stack.kind[t] === Kind.map && stack.depthLeft[t] > 0) reportDuplicateKeys(index, id);
  }
  stack.pop();
}

/**
 * Records the error; every node still open is incomplete and ends where the walk stopped:
 * at `reach`, the furthest byte the failing item is recorded to. That is the error offset,
 * except for a string whose declared length overruns the input (recorded to the end of the
 * input, error at its head) and a string with invalid UTF-8 (recorded whole, error inside).
 * Ending the open containers at the error offset instead left them shorter than their own
 * child (`82 01 5a ff ff ff ff 00`: root [0, 2) around a string [2, 8), so nodeAt(3) found
 * nothing) and made their ends depend on the recorded depth (the skipper records no string).
 */
function failAt(
  index: SpanIndex,
  stack: WalkStack,
  code: DecodeErrorCode,
  at: number,
  message: string,
  reach = at,
): void {
  index.fail(code, at, message);
  const store = index.store;
  const len = index.bytes.length;
  for (let t = stack.top; t >= 0; t--) {
    const id = stack.node[t];
    if (id >= 0) {
      store.flags[id] |= Flag.incomplete;
      store.end[id] = Math.max(store.start[id] + store.head[id], Math.min(reach, len));
    }
  }
}

/** Reads a big-endian unsigned argument of n = 1, 2, 4 or 8 bytes (8-byte values as a float, exact up to 2^53). */
export function readArg(bytes: Uint8Array, at: number, n: number): number {
  switch (n) {
    case 1:
      return bytes[at];
    case 2:
      return (bytes[at] << 8) | bytes[at + 1];
    case 4:
      return ((bytes[at] << 24) >>> 0) + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
    default: {
      const hi = ((bytes[at] << 24) >>> 0) + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
      const lo = ((bytes[at + 4] << 24) >>> 0) + ((bytes[at + 5] << 16) | (bytes[at + 6] << 8) | bytes[at + 7]);
      return hi * 4294967296 + lo;
    }
  }
}

function describeFrame(frameKind: number, stack: WalkStack, t: number): string {
  const indefinite = stack.remaining[t] < 0 ? 'indefinite-length ' : '';
  switch (frameKind) {
    case Kind.array:
      return indefinite + 'array';
    case Kind.map:
      return indefinite + 'map';
    case Kind.tag:
      return 'tag';
    case INDEF_BYTES:
      return 'indefinite-length byte string';
    case INDEF_TEXT:
      return 'indefinite-length text string';
    default:
      return 'top level';
  }
}

function missing(stack: WalkStack, t: number): string {
  const remaining = stack.remaining[t];
  const atLeast = countIsClamped(stack, t) ? 'at least ' : '';
  if (remaining < 0)
    return stack.kind[t] === Kind.map && stack.items[t] % 2 === 1 ? 'a value and its break (0xff)' : 'its break (0xff)';
  if (stack.kind[t] === Kind.map) {
    const pairs = Math.ceil((remaining - stack.items[t]) / 2);
    return stack.items[t] % 2 === 1 ? 'a value' : `${atLeast}${grouped(pairs)} ${pairs === 1 ? 'entry' : 'entries'}`;
  }
  if (stack.kind[t] === Kind.tag) return 'its content';
  const n = remaining - stack.items[t];
  return stack.kind[t] === ROOT_FRAME ? 'a data item' : `${atLeast}${grouped(n)} ${n === 1 ? 'item' : 'items'}`;
}

/** A head cut inside its argument; the error's offset (the end of the input) is the only one named. */
function truncatedHead(ib: number, needs: number, remain: number): string {
  return `unexpected end of input inside the head of an item (initial byte 0x${hex2(ib)} needs ${needs} argument bytes, ${remain} ${remain === 1 ? 'remains' : 'remain'})`;
}
