import { Kind } from '../core/kinds.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { text } from '../protocols/frame-parts.js';
import type { LebCursor } from '../protocols/leb-cursor.js';

/** Nesting of lib0 `any` objects and arrays beyond which a frame is refused (the reader recurses). */
export const MAX_ANY_DEPTH = 256;

/**
 * One lib0 `any` value (lib0/encoding.js writeAny: a type byte from 127 down to 116, then the
 * value) recorded under `parent` as a node whose head is the type byte (and a length or
 * count): undefined, null, varInt, float32, float64, bigint64 (big-endian), false, true,
 * string, object (string keys recorded as key nodes), array, Uint8Array. Returns the value.
 */
export function readAny(cursor: LebCursor, parent: number, name: string | null, depth = 0): unknown {
  const { bytes } = cursor;
  const start = cursor.pos;
  const type = cursor.byte('an any value');
  const leaf = (kind: number, value: unknown, head = 1): unknown => {
    cursor.leaf(parent, name, start, cursor.pos, value, kind, head);
    return value;
  };
  switch (type) {
    case 127:
      return leaf(Kind.undefined, undefined);
    case 126:
      return leaf(Kind.null, null);
    case 125: {
      const v = cursor.int('an integer');
      return leaf(v < 0 || Object.is(v, -0) ? Kind.nint : Kind.uint, v);
    }
    case 124:
    case 123:
    case 122: {
      const size = type === 124 ? 4 : 8;
      if (cursor.limit - cursor.pos < size) cursor.cutOff(cursor.pos, type === 122 ? 'a bigint64' : 'a float');
      const view = new DataView(bytes.buffer, bytes.byteOffset + cursor.pos, size);
      cursor.pos += size;
      if (type === 124) return leaf(Kind.float32, view.getFloat32(0, false));
      if (type === 123) return leaf(Kind.float64, view.getFloat64(0, false));
      const v = view.getBigInt64(0, false);
      return leaf(v < 0n ? Kind.nint : Kind.uint, v);
    }
    case 121:
      return leaf(Kind.false, false);
    case 120:
      return leaf(Kind.true, true);
    case 119: {
      const n = cursor.length(start + 1, cursor.uint("an any string's length"), 'an any string');
      const bad = findInvalidUtf8(bytes, cursor.pos, cursor.pos + n);
      if (bad >= 0) cursor.fail('invalid-utf8', bad, 'an any string is not UTF-8');
      const value = text(bytes, cursor.pos, cursor.pos + n);
      const head = cursor.pos - start;
      cursor.pos += n;
      return leaf(Kind.text, value, head);
    }
    case 118:
    case 117: {
      if (depth >= MAX_ANY_DEPTH)
        cursor.fail('nesting-too-deep', start, `any values nest deeper than ${MAX_ANY_DEPTH} levels`);
      const isObject = type === 118;
      const n = cursor.uint(isObject ? "an object's size" : "an array's length");
      // Every entry takes a byte at least: a count the buffer cannot hold is refused before the loop.
      cursor.length(start, n, isObject ? 'an object' : 'an array');
      const id = cursor.openAt(parent, name, isObject ? Kind.map : Kind.array, start);
      const value: Record<string, unknown> | unknown[] = isObject ? {} : [];
      for (let i = 0; i < n; i++) {
        if (isObject) {
          const key = cursor.stringField(id, null, 'an object key', false);
          cursor.markKey(key.id);
          const v = readAny(cursor, id, null, depth + 1);
          Object.defineProperty(value, key.value, { value: v, enumerable: true, writable: true, configurable: true });
        } else (value as unknown[]).push(readAny(cursor, id, null, depth + 1));
      }
      cursor.close(id);
      return value;
    }
    case 116: {
      const n = cursor.length(start + 1, cursor.uint("a Uint8Array's length"), 'a Uint8Array');
      const value = bytes.slice(cursor.pos, cursor.pos + n);
      const head = cursor.pos - start;
      cursor.pos += n;
      cursor.leaf(parent, name, start, cursor.pos, value, Kind.bytes, head);
      return value;
    }
    default:
      return cursor.fail(
        'invalid-byte',
        start,
        `any value type 0x${type.toString(16).padStart(2, '0')}: lib0 defines 0x74 to 0x7f`,
      );
  }
}
