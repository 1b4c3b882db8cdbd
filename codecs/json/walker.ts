import { Flag, Kind } from '../core/kinds.js';
import type { DecodeErrorCode } from '../core/errors.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { SpanStore } from '../core/span-store.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { acquireWalkStack } from '../core/walk-stack.js';
import { reportDuplicateKeys } from '../core/duplicates.js';
import { jsonLeafValue } from './value.js';
import { hex2 } from '../core/hex.js';
import { grouped } from '../core/grouped.js';

/**
 * The validating JSON walker (RFC 8259) over UTF-8 bytes: one iterative pass that records
 * nodes down to a depth and validates everything below it without recording it. Nesting
 * uses an explicit stack, never the JS call stack.
 *
 * Spans: a node covers its token exactly (strings with both quotes, containers from the
 * opening through the closing bracket); whitespace, commas and colons belong to the parent.
 * `head` is 1 for strings and containers (the opening quote / bracket), 0 for numbers and
 * literals. `arg` is the byte length between the quotes for strings, the item count for
 * arrays and the pair count for objects (set at the closing bracket).
 *
 * Errors: the offset is the first byte that cannot continue a valid document. When the
 * input ends where more bytes could still make it valid (it is a proper prefix of some
 * valid document: `[1,`, `"ab`, `tru`, `1.`, `-`), the error is 'truncated' at the input
 * length.
 */

/** Frame kind of the virtual frame that holds the root value. */
const ROOT = 0;
const ARRAY: number = Kind.array;
const MAP: number = Kind.map;

/** Parser states: what the next non-whitespace byte may be. */
const S_VALUE = 0; // a value (root, after ',' in an array, after ':')
const S_ARRAY_FIRST = 1; // a value or ']'
const S_OBJECT_FIRST = 2; // a key or '}'
const S_KEY = 3; // a key (after ',' in an object)
const S_COLON = 4; // ':'
const S_AFTER = 5; // ',' or the closing bracket (or the end, at the root)

/** Byte classes inside a string: 0 = plain ASCII, copied through. */
const C_CONTROL = 1;
const C_QUOTE = 2;
const C_BACKSLASH = 3;
const C_HIGH = 4;
const STRING_CLASS = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) STRING_CLASS[b] = C_CONTROL;
STRING_CLASS[0x22] = C_QUOTE;
STRING_CLASS[0x5c] = C_BACKSLASH;
for (let b = 0x80; b < 0x100; b++) STRING_CLASS[b] = C_HIGH;

/** Bytes that may follow a backslash (besides 'u'): " \ / b f n r t */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const ch of '"\\/bfnrt') SIMPLE_ESCAPE[ch.charCodeAt(0)] = 1;

/**
 * Digits by table, not by a helper call: TurboFan inlines a small helper only at call sites
 * hit at least 0.15 times per call of the walker, and over a mix of shapes (many small
 * frames with few numbers) the fraction and exponent loops fell below that and stayed
 * calls in the number path of float arrays.
 */
const DIGIT = new Uint8Array(256);
for (let b = 0x30; b <= 0x39; b++) DIGIT[b] = 1;

const HEX = new Uint8Array(256);
for (const ch of '0123456789abcdefABCDEF') HEX[ch.charCodeAt(0)] = 1;

const EMPTY_WORDS = new Int32Array(0);

const LIT_TRUE = Uint8Array.from([0x74, 0x72, 0x75, 0x65]);
const LIT_FALSE = Uint8Array.from([0x66, 0x61, 0x6c, 0x73, 0x65]);
const LIT_NULL = Uint8Array.from([0x6e, 0x75, 0x6c, 0x6c]);

export const jsonWalker: FormatWalker = {
  format: 'json',
  walk: walkJson,
  leafValue: jsonLeafValue,
  capacityHint: jsonCapacityHint,
};

/**
 * Nodes to allocate up front for a frame over 512 bytes indexed in full (smaller ones and
 * depth-limited indexes keep the generic guess). Each growth of the store is a fresh
 * buffer and a copy of every node so far, and the generic guess of one node per 16 bytes
 * is a quarter of what a number array needs (`1,` is two bytes): on a 16 KB array of small
 * integers the buffers alone were a fifth of the time. A non-empty container of n items
 * has n - 1 commas (an object also n / 2 colons), so commas + colons + 2 per opening
 * bracket count it with its items; the count over the first eighth of the frame (256 B
 * to SAMPLE_BYTES), scaled to the frame plus a tenth, is the guess (commas in strings only
 * make it larger).
 */
function jsonCapacityHint(bytes: Uint8Array, depth: number): number | undefined {
  const len = bytes.length;
  if (len <= 512 || depth !== Infinity) return undefined;
  // An eighth of the frame, 256 B to 4 KB: the scan stays a few percent of the walk.
  const sampled = Math.min(len, Math.max(256, Math.min(SAMPLE_BYTES, len >> 3)));
  let count = 0;
  for (let i = 0; i < sampled; i++) count += STRUCTURE_WEIGHT[bytes[i]];
  return Math.min(len + 1, Math.ceil((count * len * 1.1) / sampled) + 16);
}
const SAMPLE_BYTES = 4096;
const STRUCTURE_WEIGHT = new Uint8Array(256);
STRUCTURE_WEIGHT[0x2c] = STRUCTURE_WEIGHT[0x3a] = 1; // , :
STRUCTURE_WEIGHT[0x5b] = STRUCTURE_WEIGHT[0x7b] = 2; // [ {

function walkJson(index: SpanIndex, node: number, depth: number): void {
  walkJsonFrom(index, node, depth, 0, -1, -1, '');
}

/**
 * Walks the JSON text from `start` to the end of a frame in another format (a framing
 * protocol's payload: Socket.IO's `42["ev",{…}]` after its `42`) into that frame's index, in one pass:
 * its value is recorded as the last child of `parent` (after `prevSibling`, -1 for the
 * first) with `depth` levels below it recorded (-1: validated, nothing recorded), spans and
 * error offsets in the frame. The text is read as a root walk reads a frame (a leading BOM
 * and whitespace skipped, bytes after the value an error); errors are reported through
 * `index.fail` with `errorContext` before the message, and leave open nodes incomplete as a
 * root walk does. Returns the value's node id, or -1 when nothing was recorded. The
 * value's subtree expands later through `jsonWalker.walk` like any JSON node (the frame's
 * walker hands its JSON nodes to it), and duplicate keys are compared as decoded JSON strings
 * when the frame's walker reports format `json`, as the Socket.IO walker does.
 */
export function walkJsonInto(
  index: SpanIndex,
  start: number,
  parent: number,
  prevSibling: number,
  depth: number,
  errorContext = '',
): number {
  const first = index.store.size;
  walkJsonFrom(index, -1, depth < 0 ? -1 : depth, start, parent, prevSibling, errorContext);
  return index.store.size > first ? first : -1;
}

/**
 * The walk: of the root value in bytes[from, end of frame) (`node` = -1; recorded under
 * `rootParent` after `rootPrev`, or as the frame's root when -1), or of the children of a
 * recorded container `node` (then `from` and the root arguments are unused). The text
 * always runs to the frame's end: with `len` the frame's length, the JIT drops bounds checks
 * that a length passed in keeps (measured: 2.5 % more instructions on the JSON shapes).
 */
function walkJsonFrom(
  index: SpanIndex,
  node: number,
  depth: number,
  from: number,
  rootParent: number,
  rootPrev: number,
  errorContext: string,
): void {
  const bytes = index.bytes;
  const len = bytes.length;
  const store = index.store;
  const stack = acquireWalkStack();
  let pos: number;
  let state: number;

  if (node < 0) {
    pos =
      len - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf ? from + 3 : from;
    if (len - from < 3 && len > from && bytes[from] === 0xef && (len - from === 1 || bytes[from + 1] === 0xbb)) {
      index.fail('truncated', len, `${errorContext}unexpected end of input inside a byte order mark`);
      return;
    }
    while (pos < len && isWhitespace(bytes[pos])) pos++;
    if (pos >= len) {
      index.fail(
        'empty-input',
        from,
        `${errorContext}${len === from ? 'empty input: no JSON value' : 'no JSON value: the input is only whitespace'}`,
      );
      return;
    }
    // A virtual frame that holds exactly one item: the root (a child of rootParent, which
    // this walk neither ends nor counts).
    stack.push(rootParent, -1, ROOT, depth + 1);
    stack.last[stack.top] = rootPrev;
    state = S_VALUE;
  } else {
    // The container's opening bracket was validated by the walk that recorded it.
    const k = store.kind[node];
    if (k !== ARRAY && k !== MAP) return;
    pos = store.start[node] + store.head[node];
    store.flags[node] |= Flag.expanded;
    stack.push(node, -1, k, depth);
    state = k === MAP ? S_OBJECT_FIRST : S_ARRAY_FIRST;
  }

  // Long strings are scanned four bytes at a time through an aligned Int32 view of the same
  // memory (not worth its allocation for small frames; word offsets stay int32 below 2 GiB).
  const wordShift = (4 - (bytes.byteOffset & 3)) & 3;
  const words =
    len >= 256 && len < 0x7fffffff
      ? new Int32Array(bytes.buffer, bytes.byteOffset + wordShift, (len - wordShift) >> 2)
      : EMPTY_WORDS;
  const wordCount = words.length;

  // The frame on top of the stack, kept in locals: saved to the stack on push, reloaded on pop.
  let t = stack.top;
  let frameKind = stack.kind[t];
  let parent = stack.node[t];
  let depthLeft = stack.depthLeft[t];
  let record = depthLeft > 0;
  let items = 0;
  let last = stack.last[t];

  // The first error: code, offset, message, and the leaf it stopped in (recorded as incomplete).
  let errCode: DecodeErrorCode | null = null;
  let errAt = 0;
  let errMessage = '';
  let leafKind = -1;
  let leafStart = 0;
  let leafKey = false;

  for (;;) {
    while (pos < len) {
      const c = bytes[pos];
      if (c > 0x20) break;
      if (c === 0x20) {
        // Indentation: runs of spaces, four per test where the frame has a word view.
        pos++;
        if (wordCount > 0 && pos + 8 <= len && bytes[pos] === 0x20) {
          while (((pos - wordShift) & 3) !== 0 && bytes[pos] === 0x20) pos++;
          if (((pos - wordShift) & 3) === 0) {
            let k = (pos - wordShift) >> 2;
            while (k < wordCount && words[k] === 0x20202020) k++;
            pos = (k << 2) + wordShift;
          }
        }
      } else if (c === 0x0a || c === 0x0d || c === 0x09) {
        pos++;
      } else {
        break;
      }
    }
    if (state === S_AFTER && frameKind === ROOT) break;
    if (pos >= len) {
      errCode = 'truncated';
      errAt = len;
      errMessage = `unexpected end of input: ${expectation(state, frameKind)}`;
      break;
    }
    let c = bytes[pos];

    if (state === S_AFTER) {
      if (c === 0x2c) {
        pos++;
        state = frameKind === MAP ? S_KEY : S_VALUE;
        continue;
      }
      if (c !== (frameKind === MAP ? 0x7d : 0x5d)) {
        errCode = 'invalid-token';
        errAt = pos;
        errMessage = `unexpected ${describeByte(bytes, pos)}: ${expectation(state, frameKind)}`;
        break;
      }
    } else if (state === S_COLON) {
      if (c !== 0x3a) {
        errCode = 'invalid-token';
        errAt = pos;
        errMessage = `unexpected ${describeByte(bytes, pos)}: expected ':' after an object key`;
        break;
      }
      pos++;
      state = S_VALUE;
      continue;
    } else if (!((state === S_ARRAY_FIRST && c === 0x5d) || (state === S_OBJECT_FIRST && c === 0x7d))) {
      // A value or a key.
      const start = pos;
      const isKey = state === S_KEY || state === S_OBJECT_FIRST;
      if (c === 0x22) {
        // String: scan to the closing quote, validating escapes, control bytes and UTF-8.
        let p = pos + 1;
        for (;;) {
          if (wordCount > 0) {
            while (((p - wordShift) & 3) !== 0 && p < len && STRING_CLASS[bytes[p]] === 0) p++;
            if (((p - wordShift) & 3) === 0) {
              // Stops at the first word holding a byte < 0x20, '"', '\\' or >= 0x80 (SWAR tests).
              let k = (p - wordShift) >> 2;
              while (k < wordCount) {
                const w = words[k];
                const q = w ^ 0x22222222;
                const b = w ^ 0x5c5c5c5c;
                if ((((w - 0x20202020) & ~w) | ((q - 0x01010101) & ~q) | ((b - 0x01010101) & ~b) | w) & 0x80808080)
                  break;
                k++;
              }
              p = (k << 2) + wordShift;
            }
          } else {
            while (
              p + 3 < len &&
              (STRING_CLASS[bytes[p]] |
                STRING_CLASS[bytes[p + 1]] |
                STRING_CLASS[bytes[p + 2]] |
                STRING_CLASS[bytes[p + 3]]) ===
                0
            )
              p += 4;
          }
          while (p < len && STRING_CLASS[bytes[p]] === 0) p++;
          if (p >= len) {
            errCode = 'truncated';
            errAt = len;
            errMessage = 'unexpected end of input inside a string';
            break;
          }
          const cls = STRING_CLASS[bytes[p]];
          if (cls === C_QUOTE) break;
          if (cls === C_HIGH) {
            // A run of non-ASCII bytes: validated in one call.
            let q = p + 1;
            while (q < len && bytes[q] >= 0x80) q++;
            const bad = findInvalidUtf8(bytes, p, q);
            if (bad >= 0) {
              if (q === len && isUtf8Prefix(bytes, bad, len)) {
                errCode = 'truncated';
                errAt = len;
                errMessage = 'unexpected end of input inside a string (in a UTF-8 sequence)';
              } else {
                errCode = 'invalid-utf8';
                errAt = bad;
                errMessage = `invalid UTF-8 (byte 0x${hex2(bytes[bad])}) in a string`;
              }
              break;
            }
            p = q;
          } else if (cls === C_BACKSLASH) {
            // Escape-heavy text is runs of escapes: validated in one loop (a \u escape by one
            // test of its four digits); the checks below only see one that is cut off or bad.
            while (p + 5 < len && bytes[p] === 0x5c) {
              const x = bytes[p + 1];
              if (SIMPLE_ESCAPE[x] === 1) p += 2;
              else if (
                x === 0x75 &&
                (HEX[bytes[p + 2]] & HEX[bytes[p + 3]] & HEX[bytes[p + 4]] & HEX[bytes[p + 5]]) === 1
              )
                p += 6;
              else break;
            }
            if (bytes[p] !== 0x5c) continue;
            const e = p + 1;
            if (e >= len) {
              errCode = 'truncated';
              errAt = len;
              errMessage = 'unexpected end of input inside a string escape';
              break;
            }
            const x = bytes[e];
            if (SIMPLE_ESCAPE[x] === 1) {
              p = e + 1;
            } else if (x === 0x75) {
              let h = e + 1;
              while (h < e + 5 && h < len && HEX[bytes[h]] === 1) h++;
              if (h < e + 5) {
                if (h >= len) {
                  errCode = 'truncated';
                  errAt = len;
                  errMessage = 'unexpected end of input inside a \\u escape';
                } else {
                  errCode = 'invalid-escape';
                  errAt = h;
                  errMessage = `invalid \\u escape: ${describeByte(bytes, h)} is not a hex digit`;
                }
                break;
              }
              p = h;
            } else {
              errCode = 'invalid-escape';
              errAt = e;
              errMessage = `invalid escape: ${describeByte(bytes, e)} after a backslash`;
              break;
            }
          } else {
            errCode = 'invalid-byte';
            errAt = p;
            errMessage = `unescaped control character U+00${hex2(bytes[p]).toUpperCase()} in a string`;
            break;
          }
        }
        if (errCode !== null) {
          leafKind = Kind.text;
          leafStart = start;
          leafKey = isKey;
          break;
        }
        pos = p + 1;
        if (record) {
          last = recordNode(store, Kind.text, start, 1, pos, p - start - 1, isKey ? Flag.key : 0, parent, last);
        }
        items++;
        // Compact text: the ':' or ',' right after the token is taken here, not once around the loop.
        if (isKey) {
          if (bytes[pos] === 0x3a) {
            pos++;
            state = S_VALUE;
          } else {
            state = S_COLON;
          }
        } else if (frameKind !== ROOT && bytes[pos] === 0x2c) {
          pos++;
          state = frameKind === MAP ? S_KEY : S_VALUE;
        } else {
          state = S_AFTER;
        }
        continue;
      }

      if (isKey) {
        errCode = 'invalid-token';
        errAt = pos;
        errMessage =
          c === 0x7d
            ? "unexpected '}' after a trailing comma"
            : `unexpected ${describeByte(bytes, pos)}: ${expectation(state, frameKind)}`;
        break;
      }

      if (c === 0x5b || c === 0x7b) {
        const kind = c === 0x5b ? ARRAY : MAP;
        let id = -1;
        if (record) {
          // The end is set at the closing bracket (or by the error that stops the walk).
          id = last = recordNode(store, kind, start, 1, start + 1, 0, depthLeft > 1 ? Flag.expanded : 0, parent, last);
        }
        // Save the parent frame (the new container counted as its item) and enter the child.
        stack.items[t] = items + 1;
        stack.last[t] = last;
        stack.push(id, -1, kind, depthLeft - 1);
        t++;
        frameKind = kind;
        parent = id;
        depthLeft--;
        record = depthLeft > 0;
        items = 0;
        last = -1;
        pos++;
        state = kind === MAP ? S_OBJECT_FIRST : S_ARRAY_FIRST;
        continue;
      }

      if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
        // A number, -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, or one of the
        // literals true, false, null: leaves with no head, arg or flags, recorded at one
        // place below. In an array, scalars separated by bare commas (`1,2,3`: number arrays)
        // are read one after the other in this loop, not once around the main loop per token.
        let leafAt = start;
        let kind: number = Kind.number;
        let p = pos;
        for (;;) {
          scalar: {
            if (c >= 0x66) {
              // 'f', 'n' or 't' (a number starts below 0x3a).
              const lit = c === 0x74 ? LIT_TRUE : c === 0x66 ? LIT_FALSE : LIT_NULL;
              kind = c === 0x74 ? Kind.true : c === 0x66 ? Kind.false : Kind.null;
              const n = lit.length;
              let i = 1;
              while (i < n && p + i < len && bytes[p + i] === lit[i]) i++;
              if (i < n) {
                p += i;
                if (p >= len) {
                  errCode = 'truncated';
                  errMessage = `unexpected end of input in the literal '${literalName(kind)}'`;
                } else {
                  errCode = 'invalid-token';
                  errMessage = `invalid literal: expected '${literalName(kind)}', found ${describeByte(bytes, p)}`;
                }
                break scalar;
              }
              p += n;
              break scalar;
            }
            kind = Kind.number;
            if (c === 0x2d) {
              p++;
              if (p >= len) {
                errCode = 'truncated';
                errMessage = "unexpected end of input in a number (after '-')";
                break scalar;
              }
              c = bytes[p];
            }
            if (c === 0x30) {
              p++;
              if (p < len && DIGIT[bytes[p]] === 1) {
                errCode = 'invalid-number';
                errMessage = 'invalid number: leading zero';
                break scalar;
              }
            } else if (c >= 0x31 && c <= 0x39) {
              p++;
              while (p < len && DIGIT[bytes[p]] === 1) p++;
            } else {
              errCode = 'invalid-number';
              errMessage = `invalid number: expected a digit after '-', found ${describeByte(bytes, p)}`;
              break scalar;
            }
            if (p < len && bytes[p] === 0x2e) {
              p++;
              if (p >= len) {
                errCode = 'truncated';
                errMessage = "unexpected end of input in a number (after '.')";
                break scalar;
              }
              if (DIGIT[bytes[p]] !== 1) {
                errCode = 'invalid-number';
                errMessage = `invalid number: expected a digit after '.', found ${describeByte(bytes, p)}`;
                break scalar;
              }
              p++;
              while (p < len && DIGIT[bytes[p]] === 1) p++;
            }
            if (p < len && (bytes[p] | 0x20) === 0x65) {
              p++;
              if (p < len && (bytes[p] === 0x2b || bytes[p] === 0x2d)) p++;
              if (p >= len) {
                errCode = 'truncated';
                errMessage = 'unexpected end of input in a number (in the exponent)';
                break scalar;
              }
              if (DIGIT[bytes[p]] !== 1) {
                errCode = 'invalid-number';
                errMessage = `invalid number: expected a digit in the exponent, found ${describeByte(bytes, p)}`;
                break scalar;
              }
              p++;
              while (p < len && DIGIT[bytes[p]] === 1) p++;
            }
          }
          if (errCode !== null) {
            errAt = Math.min(p, len);
            leafKind = kind;
            leafStart = leafAt;
            break;
          }
          pos = p;
          if (record) {
            // recordNode written out (head, flags and arg stay zero): TurboFan inlines about
            // 920 bytes of bytecode into this function and recordNode is 277, so over a mix
            // of shapes, where strings and containers are hit more often per call, a call
            // site here stayed a call per number (float arrays 1.6x JSON.parse).
            if (store.size === store.cap) store.growFor(leafAt);
            const id = store.size++;
            const cap = store.cap;
            const i32 = store.slabI32;
            const at = store.i32At + id;
            i32[at] = leafAt;
            i32[at + cap] = pos;
            i32[at + 2 * cap] = parent;
            i32[at + 3 * cap] = -1;
            i32[at + 4 * cap] = -1;
            if (last >= 0) i32[store.i32At + 4 * cap + last] = id;
            else if (parent >= 0) i32[store.i32At + 3 * cap + parent] = id;
            store.slabU8[store.u8At + id] = kind;
            last = id;
          }
          items++;
          if (frameKind !== ARRAY || pos + 1 >= len || bytes[pos] !== 0x2c) break;
          c = bytes[pos + 1];
          if (c !== 0x2d && (c < 0x30 || c > 0x39) && c !== 0x74 && c !== 0x66 && c !== 0x6e) break;
          leafAt = p = pos + 1;
        }
        if (errCode !== null) break;
        if (frameKind !== ROOT && bytes[pos] === 0x2c) {
          pos++;
          state = frameKind === MAP ? S_KEY : S_VALUE;
        } else {
          state = S_AFTER;
        }
        continue;
      }

      errAt = pos;
      if (c === 0x2e || c === 0x2b) {
        errCode = 'invalid-number';
        errMessage = `invalid number: a number cannot start with '${c === 0x2e ? '.' : '+'}'`;
      } else {
        errCode = 'invalid-token';
        errMessage =
          c === 0x5d && state === S_VALUE && frameKind === ARRAY
            ? "unexpected ']' after a trailing comma"
            : `unexpected ${describeByte(bytes, pos)}: ${expectation(state, frameKind)}`;
      }
      break;
    }

    // The closing bracket of the container on top of the stack.
    pos++;
    if (parent >= 0) {
      store.setEnd(parent, pos);
      store.setArg(parent, frameKind === MAP ? items / 2 : items);
      if (frameKind === MAP && record) reportDuplicateKeys(index, parent);
    }
    stack.pop();
    t--;
    if (t < 0) return; // the expanded container ended
    frameKind = stack.kind[t];
    parent = stack.node[t];
    depthLeft = stack.depthLeft[t];
    record = depthLeft > 0;
    items = stack.items[t];
    last = stack.last[t];
    state = S_AFTER;
  }

  if (errCode !== null) {
    if (leafKind >= 0 && record) {
      // The leaf the error stopped in: recorded as incomplete, up to where the walk stopped.
      const head = leafKind === Kind.text ? 1 : 0;
      const id = store.add(leafKind, leafStart, head, 0, parent, last);
      store.flags[id] |= Flag.incomplete | (leafKey ? Flag.key : 0);
      store.end[id] = Math.max(leafStart + head, errAt);
    }
    index.fail(errCode, errAt, errorContext + errMessage);
    // Every recorded container still open is incomplete; it ends where the walk stopped.
    // (The root frame's node is the parent of a payload walked into another format's index.)
    for (let f = t; f >= 0; f--) {
      const id = stack.node[f];
      if (id >= 0 && stack.kind[f] !== ROOT) {
        store.flags[id] |= Flag.incomplete;
        store.end[id] = Math.max(store.start[id] + store.head[id], errAt);
      }
    }
    return;
  }

  // The root ended; `pos` is past the whitespace after it.
  if (pos < len) {
    index.fail(
      'trailing-bytes',
      pos,
      `${errorContext}${grouped(len - pos)} trailing ${len - pos === 1 ? 'byte' : 'bytes'} after the top-level value (starting with ${describeByte(bytes, pos)})`,
    );
  }
}

/**
 * Appends a node straight into the store's packed arrays (see SpanStore) and links it as
 * the last child of `parent`: `store.add` plus the end and flags, without the typed-array
 * views that writing `store.end` / `store.flags` makes and reads per node.
 */
function recordNode(
  store: SpanStore,
  kind: number,
  start: number,
  head: number,
  end: number,
  arg: number,
  flags: number,
  parent: number,
  last: number,
): number {
  if (store.size === store.cap) store.growFor(start);
  const id = store.size++;
  const c = store.cap;
  const i32 = store.slabI32;
  const u8 = store.slabU8;
  const i = store.i32At + id;
  const b = store.u8At + id;
  i32[i] = start;
  i32[i + c] = end;
  i32[i + 2 * c] = parent;
  i32[i + 3 * c] = -1;
  i32[i + 4 * c] = -1;
  if (last >= 0) i32[store.i32At + 4 * c + last] = id;
  else if (parent >= 0) i32[store.i32At + 3 * c + parent] = id;
  u8[b] = kind;
  u8[b + 2 * c] = head;
  // Fresh slots are zero (see SpanStore): numbers and literals write neither.
  if (flags !== 0) u8[b + c] = flags;
  if (arg !== 0) store.slabF64[store.f64At + id] = arg;
  return id;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** True when bytes[at, end) is a proper prefix of a well-formed UTF-8 sequence (cut off by the end of input). */
function isUtf8Prefix(bytes: Uint8Array, at: number, end: number): boolean {
  const b0 = bytes[at];
  const need = b0 >= 0xc2 && b0 <= 0xdf ? 2 : b0 >= 0xe0 && b0 <= 0xef ? 3 : b0 >= 0xf0 && b0 <= 0xf4 ? 4 : 0;
  if (need === 0 || end - at >= need) return false;
  for (let i = at + 1; i < end; i++) if ((bytes[i] & 0xc0) !== 0x80) return false;
  if (end - at >= 2) {
    const b1 = bytes[at + 1];
    if (
      (b0 === 0xe0 && b1 < 0xa0) ||
      (b0 === 0xed && b1 >= 0xa0) ||
      (b0 === 0xf0 && b1 < 0x90) ||
      (b0 === 0xf4 && b1 >= 0x90)
    )
      return false;
  }
  return true;
}

function expectation(state: number, frameKind: number): string {
  const where = frameKind === ARRAY ? 'an array' : frameKind === MAP ? 'an object' : 'the top level';
  switch (state) {
    case S_VALUE:
      return frameKind === MAP ? "expected a value after ':'" : `expected a value in ${where}`;
    case S_ARRAY_FIRST:
      return "expected a value or ']' in an array";
    case S_OBJECT_FIRST:
      return "expected a string key or '}' in an object";
    case S_KEY:
      return "expected a string key after ',' in an object";
    case S_COLON:
      return "expected ':' after an object key";
    default:
      return frameKind === MAP
        ? "expected ',' or '}' after an object value"
        : "expected ',' or ']' after an array item";
  }
}

function describeByte(bytes: Uint8Array, at: number): string {
  if (at >= bytes.length) return 'end of input';
  const b = bytes[at];
  if (b >= 0x21 && b < 0x7f) return `'${String.fromCharCode(b)}'`;
  return `byte 0x${hex2(b)}`;
}

function literalName(kind: number): string {
  return kind === Kind.true ? 'true' : kind === Kind.false ? 'false' : 'null';
}
