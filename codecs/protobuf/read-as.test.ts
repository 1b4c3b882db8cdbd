import { describe, expect, test } from 'vitest';
import { SpanIndex } from '../core/span-index.js';
import { Kind } from '../core/kinds.js';
import { protobufWalker } from './walker.js';
import { formatReadAs, parseReadAs, readAsWalker } from './read-as.js';

/** "Read as": an ambiguous length-delimited field shown with another of its readings. */
// field 1 LEN "\x08\x01" (a message {1: 1}, or bytes, or packed varints [8, 1]); field 2 LEN "h" (not a message: a tag with no value).
const frame = new Uint8Array([0x0a, 0x02, 0x08, 0x01, 0x12, 0x01, 0x68]);

describe('read as', () => {
  test('the raw walker reads field 1 as a message, and offers the other readings', () => {
    const index = new SpanIndex(frame, protobufWalker);
    expect(index.kind(2)).toBe('map');
    expect((index.walker.details!(index, 2) as { readings: string[] }).readings).toEqual([
      'message',
      'packed',
      'text',
      'bytes',
    ]);
  });

  test('packed re-indexes the subtree as varints, with spans', () => {
    const index = new SpanIndex(frame, readAsWalker(parseReadAs('protobuf:1=packed')!), { depth: 1 });
    // A field's value starts at its length varint.
    const id = index.nodeAt(1);
    expect(index.store.kind[id]).toBe(Kind.array);
    const items = index.children(id);
    expect(items.map((c) => [index.store.start[c], index.store.end[c]])).toEqual([
      [2, 3],
      [3, 4],
    ]);
    expect(index.value(id)).toEqual([8, 1]);
    // The rest of the frame is as before.
    expect(index.value(0)).toEqual(
      new Map<unknown, unknown>([
        [1, [8, 1]],
        [2, 'h'],
      ]),
    );
  });

  test('bytes makes a message or a text node a leaf', () => {
    const bytes = new SpanIndex(frame, readAsWalker(parseReadAs('protobuf:1=bytes')!));
    expect(bytes.value(bytes.nodeAt(1))).toEqual(new Uint8Array([0x08, 0x01]));
    expect(bytes.children(bytes.nodeAt(1))).toEqual([]);
    const hi = new SpanIndex(frame, readAsWalker(parseReadAs('protobuf:5=bytes')!));
    expect(hi.value(hi.nodeAt(5))).toEqual(new Uint8Array([0x68]));
  });

  test('a reading the field was not offered is ignored (the frame still reads)', () => {
    const index = new SpanIndex(frame, readAsWalker(parseReadAs('protobuf:5=message')!));
    expect(index.error).toBeNull();
    expect(index.kind(index.nodeAt(5))).toBe('text');
  });

  test('choices round-trip through the format string', () => {
    expect(formatReadAs(parseReadAs('protobuf:6=bytes,2=packed')!)).toBe('protobuf:2=packed,6=bytes');
    expect(parseReadAs('cbor')).toBeNull();
  });
});
