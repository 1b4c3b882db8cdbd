import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { decodeFrame, SpanIndex, protobufWalker, Kind } from '../index.js';
import { isPrintableText, lenReadings, type LenReading } from './readings.js';
import { protobufData } from './walker.js';
import { countPackedVarints, readVarint } from './wire.js';

/**
 * The raw walker reads a length-delimited field as a message on trust and takes it back
 * when its fields do not parse (walker.ts, F_SPECULATIVE): the full index must be the
 * one a level-by-level walk gives, where each field's reading is ranked before anything
 * below it is recorded, and every length-delimited node must show its first ranked reading.
 */
const READING_KIND: Record<LenReading, number> = {
  message: Kind.map,
  text: Kind.text,
  bytes: Kind.bytes,
  packed: Kind.array,
};

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

type Field =
  | { n: number; kind: 'varint'; v: number }
  | { n: number; kind: 'i32' }
  | { n: number; kind: 'i64' }
  | { n: number; kind: 'len'; body: number[] }
  | { n: number; kind: 'group'; fields: Field[] };

function encode(fields: Field[]): number[] {
  const out: number[] = [];
  for (const f of fields) {
    if (f.kind === 'varint') out.push(...varint(f.n * 8), ...varint(f.v));
    else if (f.kind === 'i32') out.push(...varint(f.n * 8 + 5), 1, 2, 3, 4);
    else if (f.kind === 'i64') out.push(...varint(f.n * 8 + 1), 1, 2, 3, 4, 5, 6, 7, 8);
    else if (f.kind === 'len') out.push(...varint(f.n * 8 + 2), ...varint(f.body.length), ...f.body);
    else out.push(...varint(f.n * 8 + 3), ...encode(f.fields), ...varint(f.n * 8 + 4));
  }
  return out;
}

const fieldNumber = fc.integer({ min: 1, max: 40 });
const { message } = fc.letrec<{ message: number[]; field: Field }>((tie) => ({
  message: fc.array(tie('field') as fc.Arbitrary<Field>, { maxLength: 5 }).map(encode),
  field: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ n: fieldNumber, kind: fc.constant('varint' as const), v: fc.nat() }),
    fc.record({ n: fieldNumber, kind: fc.constantFrom('i32' as const, 'i64' as const) }),
    fc.record({
      n: fieldNumber,
      kind: fc.constant('len' as const),
      body: fc.oneof(tie('message') as fc.Arbitrary<number[]>, fc.array(fc.nat(255), { maxLength: 12 })),
    }),
    fc.record({
      n: fieldNumber,
      kind: fc.constant('group' as const),
      fields: fc.array(tie('field') as fc.Arbitrary<Field>, { maxLength: 3 }),
    }),
  ),
}));

/** The recorded tree: kind, span, head and argument of every node, children nested. */
function tree(ix: SpanIndex, id: number, expandEachLevel: boolean): unknown {
  const { store } = ix;
  if (expandEachLevel && ix.isContainer(id) && !ix.isExpanded(id)) ix.expand(id, 1);
  const kids = ix.isContainer(id) ? ix.children(id).map((c) => tree(ix, c, expandEachLevel)) : [];
  return [store.kind[id], store.start[id], store.end[id], store.head[id], store.arg[id], kids];
}

function checkReadings(ix: SpanIndex): void {
  const { store } = ix;
  const data = protobufData(ix);
  for (let id = 1; id < store.size; id++) {
    if (store.head[id] === 0) continue; // only length-delimited values have a head
    const ranked = lenReadings(ix.bytes, store.start[id] + store.head[id], store.end[id]);
    expect(store.kind[id]).toBe(READING_KIND[ranked.readings[0]]);
    expect(store.arg[id]).toBe(ranked.count);
    expect(data.readings.get(id)).toEqual(ranked.readings);
  }
}

describe('Protobuf raw walker: readings taken on trust', () => {
  it('a full index equals a level-by-level one, and shows each field’s first reading (random, mutated, cut)', () => {
    fc.assert(
      fc.property(message, fc.nat(), fc.nat(), fc.nat(255), (encoded, cut, at, xor) => {
        const whole = Uint8Array.from(encoded);
        const mutated = whole.slice();
        if (mutated.length) mutated[at % mutated.length] ^= xor;
        for (const bytes of [whole, mutated, whole.subarray(0, cut % (whole.length + 1))]) {
          const full = new SpanIndex(bytes, protobufWalker);
          const stepwise = new SpanIndex(bytes, protobufWalker, { depth: 1 });
          expect(full.error).toEqual(stepwise.error);
          if (full.store.size === 0) continue;
          expect(tree(full, 0, true)).toEqual(tree(stepwise, 0, true));
          // Expanding re-reads groups (and may warn of one twice): the set of groups warned of must agree.
          const offsets = (ix: SpanIndex) => [...new Set(ix.warnings.map((w) => w.offset))].sort((a, b) => a - b);
          expect(offsets(full)).toEqual(offsets(stepwise));
          for (const w of [...full.warnings, ...stepwise.warnings])
            expect(w.message).toMatch(/^field \d+ is a group .* at byte \d+$/);
          checkReadings(full);
        }
      }),
      { numRuns: 400, seed: 1515 },
    );
  });

  it('on messages protobufjs encodes, every length-delimited node shows the first reading the eager ranking gives', () => {
    // Short and long strings, bytes that look like anything (hashes, packed runs, messages),
    // nested messages short enough to be scanned first and long enough to be read on trust,
    // packed numbers and maps: the walk picks each reading without ranking them all.
    const root = protobuf.parse(
      `syntax = "proto3";
       message Leaf { string s = 1; sint32 z = 2; bytes b = 3; }
       message Node {
         string name = 1; bytes blob = 2; Leaf leaf = 3; repeated Leaf leaves = 4; repeated uint32 packed = 5;
         repeated double doubles = 6; map<string, int64> counts = 7; fixed32 f = 8; Node child = 9; repeated sint64 deltas = 10;
       }`,
    ).root;
    const Node = root.lookupType('Node');
    const leaf = fc.record(
      {
        s: fc.string({ maxLength: 40 }),
        z: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        b: fc.uint8Array({ maxLength: 24 }),
      },
      { requiredKeys: [] },
    );
    const { node } = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
      node: fc.record(
        {
          name: fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 20 })),
          blob: fc.oneof(
            fc.uint8Array({ maxLength: 40 }),
            leaf.map((l) => Node.lookupType('Leaf').encode(l).finish()),
          ),
          leaf,
          leaves: fc.array(leaf, { maxLength: 3 }),
          packed: fc.array(fc.nat(), { maxLength: 12 }),
          doubles: fc.array(fc.double({ noNaN: true }), { maxLength: 4 }),
          counts: fc.dictionary(fc.string({ maxLength: 6 }), fc.integer().map(String), { maxKeys: 3 }),
          f: fc.nat(),
          child: fc.option(tie('node'), { nil: undefined, depthSize: 'small' }),
          deltas: fc.array(fc.integer().map(String), { maxLength: 5 }),
        },
        { requiredKeys: [] },
      ),
    }));
    fc.assert(
      fc.property(node, (value) => {
        const bytes = Node.encode(Node.fromObject(value)).finish();
        const ix = new SpanIndex(bytes, protobufWalker);
        expect(ix.error).toBeNull();
        checkReadings(ix);
        expect(tree(ix, 0, false)).toEqual(tree(new SpanIndex(bytes, protobufWalker, { depth: 1 }), 0, true));
      }),
      { numRuns: 300, seed: 1518 },
    );
  });

  it('a message reading taken back leaves no nodes, warnings or group ends behind', () => {
    // Field 1 holds a group (field 2) that never ends: not a message, but three whole varints.
    const bytes = Uint8Array.of(0x0a, 0x03, 0x13, 0x08, 0x01, 0x10, 0x05);
    const ix = new SpanIndex(bytes, protobufWalker);
    expect(ix.error).toBeNull();
    expect(ix.warnings).toEqual([]);
    const field1 = ix.children(0)[0];
    expect(ix.kind(field1)).toBe('array');
    // Packed items are recorded when the field is first opened.
    expect(ix.store.size).toBe(1 + 2 * 2);
    expect(ix.children(field1)).toHaveLength(3);
    expect(ix.store.size).toBe(1 + 2 * 2 + 3);
    expect(ix.value(field1)).toEqual([0x13, 0x08, 0x01]);
    expect(protobufData(ix).groupEnd.size).toBe(0);
    expect(ix.value(ix.children(0)[1])).toBe(5);
  });

  it('decodeFrame without a depth records packed items, whether the format is detected or forced', () => {
    // Field 1: 'abc'; field 2: packed varints 1, 300, 2.
    const bytes = Uint8Array.of(0x0a, 0x03, 0x61, 0x62, 0x63, 0x12, 0x04, 0x01, 0xac, 0x02, 0x02);
    for (const format of ['auto', 'protobuf'] as const) {
      const { index } = decodeFrame(bytes, { format });
      const packed = index!.children(0)[1];
      expect(index!.kind(packed), format).toBe('array');
      expect(index!.isExpanded(packed), format).toBe(true);
      expect(index!.store.size, format).toBe(1 + 4 + 3);
    }
  });

  it('the printable-text check agrees with a plain one (ASCII runs, UTF-8, control characters, any offset)', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    const reference = (b: Uint8Array) => {
      try {
        strict.decode(b);
      } catch {
        return false;
      }
      return b.every((c) => !((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f));
    };
    const byte = fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
      fc.nat(255),
      fc.constantFrom(0x09, 0x0a, 0x0d, 0x7f, 0x1f, 0xc3, 0xa9, 0xe2, 0x82, 0xac),
    );
    // Every odd byte at every position of a long ASCII run (the fast paths take 8 and 4 bytes a step).
    const ascii = new TextEncoder().encode('The quick brown fox jumps over the lazy dog, 0123456789!');
    for (const odd of [0x00, 0x09, 0x0a, 0x0d, 0x10, 0x1f, 0x7f, 0x80, 0xc3, 0xff]) {
      for (let at = 0; at < ascii.length; at++) {
        const bytes = ascii.slice();
        bytes[at] = odd;
        for (const from of [0, 1, 3])
          expect(isPrintableText(bytes, from, bytes.length), `${odd} at ${at} from ${from}`).toBe(
            reference(bytes.subarray(from)),
          );
      }
    }
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 120, size: 'max' }), fc.nat(8), (list, pad) => {
        const bytes = new Uint8Array(pad + list.length);
        bytes.fill(0x01, 0, pad);
        bytes.set(list, pad);
        expect(isPrintableText(bytes, pad, bytes.length)).toBe(reference(bytes.subarray(pad)));
      }),
      { numRuns: 3000, seed: 1516 },
    );
  });

  it('the printable-text check agrees with the strict decoder on every lead byte, with second bytes at every boundary', () => {
    // Overlongs (c0, e0 80, f0 80), surrogates (ed a0), past U+10FFFF (f4 90, f5), cut sequences:
    // the one-pass check must reject exactly what a strict decoder rejects.
    const strict = new TextDecoder('utf-8', { fatal: true });
    const valid = (b: Uint8Array) => {
      try {
        strict.decode(b);
        return true;
      } catch {
        return false;
      }
    };
    const tails = [0x41, 0x7f, 0x80, 0xbf, 0xc0];
    // Where the second byte's allowed range starts or ends for some lead byte (e0: a0-bf, ed: 80-9f, f0: 90-bf, f4: 80-8f).
    const seconds = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
    const bytes = new Uint8Array(6);
    let checked = 0;
    for (let b0 = 0x80; b0 < 0x100; b0++) {
      for (const b1 of seconds) {
        for (const b2 of tails) {
          for (const b3 of [0x80, 0xbf, 0x41]) {
            bytes.set([0x61, b0, b1, b2, b3, 0x62]);
            const expected =
              valid(bytes) && bytes.every((c) => !((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f));
            if (isPrintableText(bytes, 0, 6) !== expected)
              expect(`${[...bytes].map((c) => c.toString(16))} -> ${!expected}`).toBe(`-> ${expected}`);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(128 * seconds.length * tails.length * 3);
  });

  it('the packed-varint count agrees with reading the varints one by one (whole, cut, too long, any offset)', () => {
    const reference = (bytes: Uint8Array, start: number, end: number) => {
      let n = 0;
      for (let pos = start; pos < end; n++) {
        pos = readVarint(bytes, pos, end);
        if (pos < 0) return -1;
      }
      return n;
    };
    // High bytes weighted up so that runs of nine and ten continuation bytes (the limits) occur.
    const byte = fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
      fc.nat(0x7f),
      fc.constantFrom(0, 1, 2, 0x7f, 0x80, 0xff),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.nat(40), fc.nat(40), (list, a, b) => {
        const bytes = Uint8Array.from(list);
        const [start, end] = [Math.min(a, b, bytes.length), Math.min(Math.max(a, b), bytes.length)];
        expect(countPackedVarints(bytes, start, end)).toBe(reference(bytes, start, end));
      }),
      { numRuns: 5000, seed: 1517 },
    );
    const nine = [0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89];
    for (const [list, count] of [
      [[...nine, 0x01], 1],
      [[...nine, 0x02], -1],
      [[...nine, 0x80, 0x01], -1],
      [[0x05, 0x80], -1],
      [[], 0],
    ] as const) {
      expect(countPackedVarints(Uint8Array.from(list), 0, list.length), String(list)).toBe(count);
    }
  });
});
