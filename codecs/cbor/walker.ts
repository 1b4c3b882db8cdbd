import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { WalkStack } from '../core/walk-stack.js';
import { reportDuplicateKeys } from '../core/duplicates.js';
import { cborLeafValue, cborTagValue } from './value.js';

/**
 * The validating CBOR walker (RFC 8949): one iterative pass that records nodes down to a
 * depth and validates everything below it without recording it. Every read is bounds
 * checked; a declared string length is compared with the bytes that remain before anything
 * else happens; nesting uses an explicit stack, never the JS call stack.
 */

/** Container kinds on the walk stack besides Kind.array / Kind.map / Kind.tag. */
const INDEF_BYTES = 100;
const INDEF_TEXT = 101;

export const cborWalker: FormatWalker = {
  format: 'cbor',
  walk: walkCbor,
  leafValue: cborLeafValue,
  tagValue: cborTagValue,
};

function walkCbor(index: SpanIndex, node: number, depth: number): void {
  const bytes = index.bytes;
  const len = bytes.length;
  const store = index.store;
  const stack = new WalkStack();
  let pos: number;

  if (node < 0) {
    if (len === 0) {
      index.fail('empty-input', 0, 'empty input: no CBOR data item');
      return;
    }
    // A virtual frame that expects exactly one item: the root.
    stack.push(-1, 1, 0, depth + 1);
    pos = 0;
  } else {
    // Re-read the container's header; the walk above already validated it.
    pos = store.start[node] + store.head[node];
    const k = store.kind[node];
    const indefinite = (store.flags[node] & Flag.indefinite) !== 0;
    const count = indefinite ? -1 : k === Kind.map ? store.arg[node] * 2 : k === Kind.tag ? 1 : store.arg[node];
    const frameKind = k === Kind.bytes ? INDEF_BYTES : k === Kind.text ? INDEF_TEXT : k;
    store.flags[node] |= Flag.expanded;
    if (count === 0) return;
    stack.push(node, count, frameKind, depth);
  }

  /** Closes finished containers on top of the stack after an item ended at `pos`. */
  const itemDone = (): void => {
    while (stack.top >= 0) {
      const t = stack.top;
      stack.items[t]++;
      const remaining = stack.remaining[t];
      if (remaining < 0 || stack.items[t] < remaining) return;
      closeTop();
      if (stack.top < 0) return;
    }
  };

  /** Ends the container on top of the stack at `pos`. */
  const closeTop = (): void => {
    const t = stack.top;
    const id = stack.node[t];
    if (id >= 0) {
      store.end[id] = pos;
      // An indefinite item's count is known only now; record it (maps count pairs).
      if (stack.remaining[t] < 0) store.arg[id] = stack.kind[t] === Kind.map ? stack.items[t] / 2 : stack.items[t];
      if (stack.kind[t] === Kind.map && stack.depthLeft[t] > 0) reportDuplicateKeys(index, id);
    }
    stack.pop();
  };

  const fail = (code: Parameters<SpanIndex['fail']>[0], at: number, message: string): void => {
    index.fail(code, at, message);
    // Every node still open is incomplete; it ends where the walk stopped.
    for (let t = stack.top; t >= 0; t--) {
      const id = stack.node[t];
      if (id >= 0) {
        store.flags[id] |= Flag.incomplete;
        store.end[id] = Math.max(store.start[id] + store.head[id], Math.min(at, len));
      }
    }
  };

  while (stack.top >= 0) {
    const t = stack.top;
    const frameKind = stack.kind[t];
    if (pos >= len) {
      fail('truncated', len, `unexpected end of input: ${describeFrame(frameKind)} is missing ${missing(stack, t)}`);
      return;
    }
    const start = pos;
    const ib = bytes[pos];
    const major = ib >> 5;
    const ai = ib & 31;

    if (ib === 0xff) {
      if (stack.remaining[t] >= 0) {
        fail('unexpected-break', pos, stack.node[t] === -1 && t === 0 ? 'break (0xff) outside an indefinite-length item' : `break (0xff) inside a definite-length ${describeFrame(frameKind)}`);
        return;
      }
      if (frameKind === Kind.map && (stack.items[t] & 1) === 1) {
        fail('unexpected-break', pos, 'break (0xff) where an indefinite-length map expects a value');
        return;
      }
      pos++;
      closeTop();
      itemDone();
      continue;
    }

    if (frameKind === INDEF_BYTES || frameKind === INDEF_TEXT) {
      const want = frameKind === INDEF_BYTES ? 2 : 3;
      if (major !== want || ai === 31) {
        fail('invalid-indefinite-chunk', pos, `an indefinite-length ${want === 2 ? 'byte' : 'text'} string may hold only definite-length ${want === 2 ? 'byte' : 'text'} string chunks, found initial byte 0x${hex2(ib)}`);
        return;
      }
    }

    // The head: initial byte plus 0, 1, 2, 4 or 8 argument bytes.
    let arg = ai;
    let head = 1;
    if (ai >= 24) {
      if (ai <= 27) {
        const n = 1 << (ai - 24);
        if (pos + 1 + n > len) {
          fail('truncated', len, `unexpected end of input inside the head of the item at byte ${start} (needs ${n} argument bytes, ${len - pos - 1} remain)`);
          return;
        }
        arg = readArg(bytes, pos + 1, n);
        head = 1 + n;
      } else if (ai <= 30) {
        fail('reserved-additional-info', pos, `reserved additional information ${ai} in initial byte 0x${hex2(ib)}`);
        return;
      } else if (major === 0 || major === 1 || major === 6) {
        fail('invalid-major-31', pos, `additional information 31 is not allowed for major type ${major} (initial byte 0x${hex2(ib)})`);
        return;
      } else {
        arg = -1; // indefinite length
      }
    }
    pos += head;

    const record = stack.depthLeft[t] > 0;
    const isKey = frameKind === Kind.map && (stack.items[t] & 1) === 0;
    let id = -1;
    let kind: number;
    switch (major) {
      case 0:
        kind = Kind.uint;
        break;
      case 1:
        kind = Kind.nint;
        break;
      case 2:
      case 3:
        kind = major === 2 ? Kind.bytes : Kind.text;
        if (arg >= 0 && arg > len - pos) {
          if (record) {
            id = addNode(store, stack, t, kind, start, head, arg, isKey);
            store.flags[id] |= Flag.incomplete;
            store.end[id] = len;
          }
          fail('length-exceeds-input', start, `${major === 2 ? 'byte' : 'text'} string declares ${arg} bytes but only ${len - pos} remain`);
          return;
        }
        break;
      case 4:
        kind = Kind.array;
        break;
      case 5:
        kind = Kind.map;
        break;
      case 6:
        kind = Kind.tag;
        break;
      default:
        if (ai < 20) kind = Kind.simple;
        else if (ai === 20) kind = Kind.false;
        else if (ai === 21) kind = Kind.true;
        else if (ai === 22) kind = Kind.null;
        else if (ai === 23) kind = Kind.undefined;
        else if (ai === 24) {
          if (arg < 32) {
            fail('invalid-simple', start, `two-byte simple value ${arg} (below 32) is not well-formed`);
            return;
          }
          kind = Kind.simple;
        } else if (ai === 25) kind = Kind.float16;
        else if (ai === 26) kind = Kind.float32;
        else kind = Kind.float64;
    }

    if (record) id = addNode(store, stack, t, kind, start, head, arg, isKey);

    if (kind === Kind.bytes || kind === Kind.text) {
      if (arg >= 0) {
        if (kind === Kind.text) {
          const bad = findInvalidUtf8(bytes, pos, pos + arg);
          if (bad >= 0) {
            if (id >= 0) {
              store.flags[id] |= Flag.incomplete;
              store.end[id] = pos + arg;
            }
            fail('invalid-utf8', bad, 'invalid UTF-8 in text string');
            return;
          }
        }
        pos += arg;
        if (id >= 0) store.end[id] = pos;
        itemDone();
      } else {
        if (id >= 0) store.flags[id] |= Flag.indefinite | (stack.depthLeft[t] > 1 ? Flag.expanded : 0);
        stack.push(id, -1, kind === Kind.bytes ? INDEF_BYTES : INDEF_TEXT, stack.depthLeft[t] - 1);
      }
    } else if (kind === Kind.array || kind === Kind.map || kind === Kind.tag) {
      const count = arg < 0 ? -1 : kind === Kind.map ? arg * 2 : kind === Kind.tag ? 1 : arg;
      if (id >= 0) {
        if (arg < 0) store.flags[id] |= Flag.indefinite;
        if (stack.depthLeft[t] > 1) store.flags[id] |= Flag.expanded;
      }
      if (count === 0) {
        if (id >= 0) store.end[id] = pos;
        itemDone();
      } else {
        stack.push(id, count, kind, stack.depthLeft[t] - 1);
      }
    } else {
      itemDone();
    }
  }

  if (node < 0) {
    const root = index.root;
    if (root >= 0 && store.end[root] < len && !index.error) {
      index.fail('trailing-bytes', store.end[root], `${len - store.end[root]} trailing bytes after the top-level item`);
    }
  }
}

function addNode(store: SpanIndex['store'], stack: WalkStack, t: number, kind: number, start: number, head: number, arg: number, isKey: boolean): number {
  const id = store.add(kind, start, head, arg, stack.node[t], stack.last[t]);
  stack.last[t] = id;
  if (isKey) store.flags[id] |= Flag.key;
  return id;
}

/** Reads a big-endian unsigned argument of n = 1, 2, 4 or 8 bytes (8-byte values as a float, exact up to 2^53). */
function readArg(bytes: Uint8Array, at: number, n: number): number {
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

function describeFrame(frameKind: number): string {
  switch (frameKind) {
    case Kind.array:
      return 'array';
    case Kind.map:
      return 'map';
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
  if (remaining < 0) return 'its break (0xff)';
  if (stack.kind[t] === Kind.map) {
    const pairs = (remaining - stack.items[t]) / 2;
    return stack.items[t] & 1 ? 'a value' : `${pairs} ${pairs === 1 ? 'entry' : 'entries'}`;
  }
  if (stack.kind[t] === Kind.tag) return 'its content';
  const n = remaining - stack.items[t];
  return stack.node[t] === -1 && t === 0 ? 'a data item' : `${n} ${n === 1 ? 'item' : 'items'}`;
}

function hex2(b: number): string {
  return b.toString(16).padStart(2, '0');
}
