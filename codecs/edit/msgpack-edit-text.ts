import { floatText, hex, quote } from '../core/diagnostic.js';
import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { decodeUtf8 } from '../core/utf8.js';
import { ExtValue, timestampText } from '../core/values.js';
import { msgpackInteger } from '../msgpack/value.js';

/**
 * The MessagePack edit text of a node: EDN-shaped (as `diagnostic()` prints MessagePack)
 * and keeping everything JSON loses, so that `msgpackFromText` gives back the very bytes:
 * - `nil`, `true`, `false`; integers with their format when it is not the narrowest the
 *   value fits (`5_u8`, `-1_i32`, `200_u64`); floats always with a dot or exponent, float 32
 *   marked (`1.5_f32`; unmarked = float 64), NaN payloads as `float'7ff8000000000001'`;
 * - `"str"`, and `_8` / `_16` / `_32` when a str, bin, ext, array or map has a wider length
 *   than it needs (`"a"_8`, `h'01'_16`, `[_16 1, 2]`, `{_32 "k": 1}`); a str that is not
 *   UTF-8 as `str(h'…')`;
 * - `h'…'` for bin; `ext(type, h'data')` for extensions, a timestamp (type -1) followed by
 *   its instant as a comment.
 * With `lines`, arrays and maps are printed over lines, one item a line, two spaces a level
 * (as the inspector indents EDN); the text gives back the same bytes either way.
 * Iterative, like `diagnostic()`: any nesting depth prints.
 */
export function msgpackEditText(
  index: SpanIndex,
  id: number = index.root,
  options: { readonly lines?: boolean } = {},
): string {
  if (id < 0 || id >= index.store.size) return '';
  index.expandAll(id);
  const out: string[] = [];
  /** Text as it is, or a node to print at a nesting depth. */
  const work: (string | { readonly id: number; readonly depth: number })[] = [{ id, depth: 0 }];
  while (work.length) {
    const piece = work.pop()!;
    if (typeof piece === 'string') {
      out.push(piece);
      continue;
    }
    const pieces = nodePieces(index, piece.id);
    const spread = options.lines && pieces.length > 2 && typeof pieces[1] === 'number';
    const laid = spread ? overLines(pieces, piece.depth) : pieces;
    for (let i = laid.length - 1; i >= 0; i--) {
      const p = laid[i];
      work.push(typeof p === 'number' ? { id: p, depth: piece.depth + 1 } : p);
    }
  }
  return out.join('');
}

/**
 * A container's pieces (open, child, separator, child, …, close) over lines: a line break
 * and the indent after the open bracket and each ", ", and before the close bracket.
 */
function overLines(pieces: readonly (string | number)[], depth: number): (string | number)[] {
  const inner = `\n${'  '.repeat(depth + 1)}`;
  const laid: (string | number)[] = [`${(pieces[0] as string).trimEnd()}${inner}`];
  for (let i = 1; i < pieces.length - 1; i++) {
    const p = pieces[i];
    laid.push(p === ', ' ? `,${inner}` : p);
  }
  laid.push(`\n${'  '.repeat(depth)}${pieces[pieces.length - 1] as string}`);
  return laid;
}

/** The narrowest length field: 0 = fix form (str, array, map), 8, 16 or 32 bits. */
function lengthBits(n: number, hasFix: number): number {
  return n < hasFix ? 0 : n < 0x100 ? 8 : n < 0x10000 ? 16 : 32;
}

function nodePieces(index: SpanIndex, id: number): (string | number)[] {
  const { store, bytes } = index;
  const start = store.start[id];
  const head = store.head[id];
  const end = store.end[id];
  const b = bytes[start];
  const kind = store.kind[id];
  const children: number[] = [];
  for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) children.push(c);
  switch (kind) {
    case Kind.uint:
    case Kind.nint:
      return [integerText(bytes, start)];
    case Kind.float32:
    case Kind.float64:
      return [floatNodeText(bytes, start, kind === Kind.float32)];
    case Kind.null:
      return ['nil'];
    case Kind.true:
      return ['true'];
    case Kind.false:
      return ['false'];
    case Kind.text: {
      const bits = b < 0xc0 ? 0 : b === 0xd9 ? 8 : b === 0xda ? 16 : 32;
      const suffix = bits !== lengthBits(end - start - head, 32) ? `_${bits}` : '';
      if (store.flags[id] & Flag.invalidUtf8) return [`str(h'${hex(bytes, start + head, end)}')${suffix}`];
      return [quote(decodeUtf8(bytes, start + head, end)) + suffix];
    }
    case Kind.bytes: {
      const bits = b === 0xc4 ? 8 : b === 0xc5 ? 16 : 32;
      const suffix = bits !== Math.max(8, lengthBits(end - start - head, 0)) ? `_${bits}` : '';
      return [`h'${hex(bytes, start + head, end)}'${suffix}`];
    }
    case Kind.ext: {
      const size = end - start - head;
      const fixed = b >= 0xd4 && b <= 0xd8;
      const bits = fixed ? 0 : b === 0xc7 ? 8 : b === 0xc8 ? 16 : 32;
      const preferred = [1, 2, 4, 8, 16].includes(size) ? 0 : Math.max(8, lengthBits(size, 0));
      const suffix = bits !== preferred ? `_${bits}` : '';
      const v = index.walker.leafValue(index, id);
      const ts = v instanceof ExtValue ? v.timestamp : null;
      return [
        `ext(${store.arg[id]}, h'${hex(bytes, start + head, end)}')${suffix}${ts ? ` / ${timestampText(ts)} /` : ''}`,
      ];
    }
    case Kind.array:
    case Kind.map: {
      const bits = b < 0xc0 ? 0 : b === 0xdc || b === 0xde ? 16 : 32;
      const suffix = bits !== lengthBits(store.arg[id], 16) ? `_${bits} ` : '';
      const map = kind === Kind.map;
      const pieces: (string | number)[] = [(map ? '{' : '[') + suffix];
      children.forEach((c, i) => {
        if (i > 0) pieces.push(map && i % 2 ? ': ' : ', ');
        pieces.push(c);
      });
      pieces.push(map ? '}' : ']');
      return pieces;
    }
    default:
      return ['?'];
  }
}

const INT_NAMES: Readonly<Record<number, string>> = {
  0xcc: 'u8',
  0xcd: 'u16',
  0xce: 'u32',
  0xcf: 'u64',
  0xd0: 'i8',
  0xd1: 'i16',
  0xd2: 'i32',
  0xd3: 'i64',
};

/** The format byte the narrowest encoding of `v` uses (unsigned formats for v >= 0, signed below). */
export function preferredIntFormat(v: bigint): number {
  if (v >= 0n) return v < 0x80n ? 0 : v < 0x100n ? 0xcc : v < 0x10000n ? 0xcd : v < 0x100000000n ? 0xce : 0xcf;
  return v >= -32n ? 0xe0 : v >= -0x80n ? 0xd0 : v >= -0x8000n ? 0xd1 : v >= -0x80000000n ? 0xd2 : 0xd3;
}

function integerText(bytes: Uint8Array, start: number): string {
  const b = bytes[start];
  const v = BigInt(msgpackInteger(bytes, start));
  if (b < 0x80 || b >= 0xe0) return String(v);
  return preferredIntFormat(v) === b ? String(v) : `${v}_${INT_NAMES[b]}`;
}

function floatNodeText(bytes: Uint8Array, start: number, single: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset + start + 1, single ? 4 : 8);
  const v = single ? view.getFloat32(0) : view.getFloat64(0);
  if (!Number.isNaN(v)) return floatText(v) + (single ? '_f32' : '');
  const bitsHex = hex(bytes, start + 1, start + (single ? 5 : 9));
  if (bitsHex === (single ? '7fc00000' : '7ff8000000000000')) return single ? 'NaN_f32' : 'NaN';
  return `float'${bitsHex}'`;
}
