import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { indexJson } from './index.js';
import { Flag, Kind } from '../core/kinds.js';
import { EntriesMap, setOwn } from '../core/values.js';
import type { SpanIndex } from '../core/span-index.js';

const enc = new TextEncoder();
/** Fatal and BOM-stripping, like the walker (which skips one leading BOM). */
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Values as JSON.parse would give them: bigint -> number, duplicate keys -> last one wins. */
function normalize(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(normalize);
  if (v instanceof EntriesMap) {
    const obj: Record<string, unknown> = {};
    for (const [k, x] of v.entries) setOwn(obj, k as string, normalize(x));
    return obj;
  }
  if (v !== null && typeof v === 'object') {
    const obj: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setOwn(obj, k, normalize((v as Record<string, unknown>)[k]));
    return obj;
  }
  return v;
}

const isWs = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** Structural invariants of every recorded node (complete or not). */
function checkSpans(index: SpanIndex): void {
  const { store, bytes } = index;
  // Plain checks (an expect() per byte would dominate the run time).
  const check = (ok: boolean, id: number, what: string): void => {
    if (!ok) throw new Error(`node ${id} [${store.start[id]}, ${store.end[id]}) violates: ${what}`);
  };
  const len = bytes.length;
  for (let id = 0; id < store.size; id++) {
    const start = store.start[id];
    const end = store.end[id];
    const head = store.head[id];
    const k = store.kind[id];
    const complete = !index.isIncomplete(id);
    check(start + head <= end, id, 'head inside the span');
    check(end <= len, id, 'span inside the input');
    if (k === Kind.text) {
      check(head === 1, id, 'head 1');
      check(bytes[start] === 0x22, id, 'opening quote');
      if (complete) {
        check(bytes[end - 1] === 0x22, id, 'closing quote');
        check(store.arg[id] === end - start - 2, id, 'string arg = bytes between the quotes');
      }
    } else if (k === Kind.array || k === Kind.map) {
      check(head === 1, id, 'head 1');
      check(bytes[start] === (k === Kind.array ? 0x5b : 0x7b), id, 'opening bracket');
      if (complete) check(bytes[end - 1] === (k === Kind.array ? 0x5d : 0x7d), id, 'closing bracket');
    } else {
      check(head === 0, id, 'head 0');
      check(k === Kind.number || k === Kind.true || k === Kind.false || k === Kind.null, id, 'a JSON kind');
      if (complete) {
        const text = Buffer.from(bytes.subarray(start, end)).toString('latin1');
        if (k === Kind.number)
          check(/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text), id, 'number grammar');
        else check(text === (k === Kind.true ? 'true' : k === Kind.false ? 'false' : 'null'), id, 'literal text');
      }
    }
    if (k !== Kind.array && k !== Kind.map) {
      check(store.firstChild[id] === -1, id, 'no children');
      continue;
    }
    if (!index.isExpanded(id)) {
      check(store.firstChild[id] === -1, id, 'no children');
      continue;
    }
    // Children: in order, disjoint, inside the parent; between them only the separators.
    const children: number[] = [];
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) children.push(c);
    let prevEnd = start + head;
    children.forEach((c, i) => {
      check(store.parent[c] === id, c, 'parent link');
      check(store.start[c] >= prevEnd, c, 'children in order, disjoint, inside the parent');
      const isKey = (store.flags[c] & Flag.key) !== 0;
      check(isKey === (k === Kind.map && i % 2 === 0), c, 'keys alternate with values');
      if (isKey) check(store.kind[c] === Kind.text, c, 'keys are text');
      // Expected separator before child i: none for the first, ':' before a map value, ',' otherwise.
      const sep = i === 0 ? -1 : k === Kind.map && i % 2 === 1 ? 0x3a : 0x2c;
      let seen = 0;
      for (let p = prevEnd; p < store.start[c]; p++) {
        if (bytes[p] === sep) seen++;
        else check(isWs(bytes[p]), c, 'only whitespace and one separator before the child');
      }
      check(seen === (sep < 0 ? 0 : 1), c, 'exactly one separator before the child');
      prevEnd = store.end[c];
      check(prevEnd <= end, c, 'child inside the parent');
    });
    if (complete) {
      for (let p = prevEnd; p < end - 1; p++) check(isWs(bytes[p]), id, 'only whitespace before the closing bracket');
      check(
        store.arg[id] === (k === Kind.map ? children.length / 2 : children.length),
        id,
        'container arg = item / pair count',
      );
      // A complete child list: every child is complete.
      for (const c of children) check(!index.isIncomplete(c), c, 'children of a complete container are complete');
    }
  }
  if (index.ok && store.size > 0) {
    let p = 0;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) p = 3;
    for (; p < store.start[0]; p++) check(isWs(bytes[p]), 0, 'only whitespace before the root');
    for (p = store.end[0]; p < len; p++) check(isWs(bytes[p]), 0, 'only whitespace after the root');
  }
}

/** Node tuples (everything but the expanded flag) sorted by position: equal for equal walks. */
function signature(index: SpanIndex): string[] {
  const { store } = index;
  const out: string[] = [];
  for (let id = 0; id < store.size; id++) {
    const parent = store.parent[id];
    out.push(
      [
        store.start[id],
        store.end[id],
        store.kind[id],
        store.head[id],
        store.arg[id],
        store.flags[id] & ~Flag.expanded,
        parent < 0 ? -1 : store.start[parent],
      ].join(':'),
    );
  }
  return out.sort();
}

const jsonValues = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 4, stringUnit: 'grapheme' }),
  fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }),
);

/** JSON text: compact, indented, or indented with arbitrary JSON whitespace. */
const jsonTexts = fc
  .tuple(jsonValues, fc.constantFrom<string | number | undefined>(undefined, 2, '\t', '\r\n \t'), fc.boolean())
  .map(([v, indent, bom]) => {
    const text = JSON.stringify(v, null, indent);
    return { value: v, text, bytes: bom ? Uint8Array.from([0xef, 0xbb, 0xbf, ...enc.encode(text)]) : enc.encode(text) };
  });

const interestingBytes = [
  ...'{}[],:"\\/\'0129-+.eEtrufalsnx'.split('').map((c) => c.charCodeAt(0)),
  0x20,
  0x09,
  0x0a,
  0x0d,
  0x0c,
  0x00,
  0x01,
  0x1f,
  0x7f,
  0x80,
  0xbf,
  0xc0,
  0xc2,
  0xc3,
  0xa9,
  0xe2,
  0x82,
  0xac,
  0xed,
  0xa0,
  0xef,
  0xbb,
  0xf0,
  0x9f,
  0xf4,
  0x90,
  0xf5,
  0xff,
];
const mutation = fc.record({
  op: fc.constantFrom('replace', 'insert', 'delete', 'truncate'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  byte: fc.oneof(fc.constantFrom(...interestingBytes), fc.integer({ min: 0, max: 255 })),
});
function mutate(bytes: Uint8Array, ms: { op: string; at: number; byte: number }[]): Uint8Array {
  let b = Array.from(bytes);
  for (const m of ms) {
    const i = Math.min(b.length, Math.floor(m.at * (b.length + 1)));
    if (m.op === 'replace' && i < b.length) b[i] = m.byte;
    else if (m.op === 'insert') b.splice(i, 0, m.byte);
    else if (m.op === 'delete') b.splice(i, 1);
    else if (m.op === 'truncate') b = b.slice(0, i);
  }
  return Uint8Array.from(b);
}

/** Near-JSON token soup: mostly almost-valid documents, many edge cases of the grammar. */
const tokenSoup = fc
  .array(
    fc.constantFrom(
      '[',
      ']',
      '{',
      '}',
      ',',
      ':',
      ' ',
      '\n',
      '"',
      '"a"',
      '"\\u00e9"',
      '"\\ud83d"',
      '"é"',
      '\\',
      'u',
      '0',
      '1',
      '-',
      '.',
      'e',
      '+',
      '12',
      '-0',
      '0.5',
      '1e5',
      'true',
      'false',
      'null',
      'tru',
      '"k":',
      '1.',
      '00',
      '\t',
      '\u0001',
      '""',
      '1E+2',
      '-01',
      '.5',
      '1e-',
      '9007199254740993',
      '"\\n"',
      '"\\x"',
      '/',
      '\r',
      '\ufeff',
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));

/** String bodies from pieces that exercise escapes, control bytes, BOMs and non-ASCII. */
const stringSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'a',
        'é',
        '中',
        '😀',
        '\ufeff',
        '\u2028',
        '\u007f',
        '\u0001',
        '\u001f',
        '\u0000',
        '\t',
        '\n',
        '\\',
        '\\\\',
        '\\"',
        '\\/',
        '\\b',
        '\\f',
        '\\n',
        '\\r',
        '\\t',
        '\\v',
        '\\x',
        '\\a',
        '\\0',
        "\\'",
        '\\U0041',
        '\\u',
        '\\u0',
        '\\u00',
        '\\u00e9',
        '\\u00E9',
        '\\uD83D',
        '\\uDE00',
        '\\ud83d\\ude00',
        '\\uDG00',
        '\\u12g4',
        '"',
        'u',
        '0',
        'F',
        'g',
        ' ',
      ),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/**
 * The same bytes at a given offset inside a larger buffer whose other bytes are '"' and '\\':
 * a walker that reads outside its view or mishandles alignment sees them.
 */
function placed(bytes: Uint8Array, offset: number): Uint8Array {
  const buffer = new Uint8Array(offset + bytes.length + 8);
  for (let i = 0; i < buffer.length; i++) buffer[i] = i & 1 ? 0x22 : 0x5c;
  buffer.set(bytes, offset);
  return buffer.subarray(offset, offset + bytes.length);
}

/** The walker against JSON.parse on the same bytes: same acceptance, same value. */
function agree(bytes: Uint8Array, offset = 0): void {
  if (offset) bytes = placed(bytes, offset);
  const index = indexJson(bytes);
  expect(index.error?.code).not.toBe('internal');
  checkSpans(index);
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    // Not UTF-8: JSON text must be, so the walker must reject it too.
    expect(index.ok).toBe(false);
    return;
  }
  let parsed: unknown;
  let parsedOk = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsedOk = false;
  }
  expect(index.ok, `${JSON.stringify(text)}: ${index.error?.message}`).toBe(parsedOk);
  if (parsedOk) expect(normalize(index.value(0))).toEqual(parsed);
}

describe('json walker properties', () => {
  it('accepts JSON.stringify output and materializes what JSON.parse gives', () => {
    fc.assert(
      fc.property(jsonTexts, ({ text, bytes }) => {
        const index = indexJson(bytes);
        expect(index.error).toBeNull();
        checkSpans(index);
        const v = index.value(0);
        const parsed = JSON.parse(text);
        expect(normalize(v)).toEqual(parsed);
        // bigint only for integer text beyond 2^53, and then exactly.
        const { store } = index;
        for (let id = 0; id < store.size; id++) {
          if (store.kind[id] !== Kind.number) continue;
          const numText = Buffer.from(bytes.subarray(store.start[id], store.end[id])).toString('latin1');
          const n = index.value(id);
          if (typeof n === 'bigint') {
            expect(numText).toMatch(/^-?[0-9]+$/);
            expect(n).toBe(BigInt(numText));
            expect(Math.abs(Number(n))).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
          } else {
            expect(Object.is(n, JSON.parse(numText))).toBe(true);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('every proper prefix of a document is truncated at its length (or empty input)', () => {
    fc.assert(
      fc.property(jsonTexts, ({ text, bytes }) => {
        // A number root may end anywhere (a prefix of 12 is 1); strings and containers may not.
        if (!/^[[{"]/.test(text)) return;
        const first = bytes[0] === 0xef ? 3 : 0; // a leading BOM (the text itself starts with [ { or ")
        for (let k = 0; k < bytes.length; k++) {
          const error = indexJson(bytes.subarray(0, k)).error;
          // Inside a leading BOM the input is cut off too; right after it, it is still empty.
          const expected = k === 0 || k === first ? 'empty-input' : 'truncated';
          if (error?.code !== expected || error.offset !== (expected === 'truncated' ? k : 0)) {
            throw new Error(`prefix ${k} of ${JSON.stringify(text)}: ${JSON.stringify(error)}`);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('shallow indexes expand to the same nodes as a full index', () => {
    fc.assert(
      fc.property(jsonTexts, fc.integer({ min: 0, max: 3 }), ({ bytes }, depth) => {
        const full = indexJson(bytes);
        const shallow = indexJson(bytes, { depth });
        expect(shallow.error).toBeNull();
        checkSpans(shallow);
        shallow.expandAll(0);
        checkSpans(shallow);
        expect(signature(shallow)).toEqual(signature(full));
        expect(shallow.value(0)).toEqual(full.value(0));
      }),
      { numRuns: 200 },
    );
  });

  it('nodeAt returns the smallest recorded node containing the offset', () => {
    fc.assert(
      fc.property(jsonTexts, fc.double({ min: 0, max: 1, noNaN: true }), ({ bytes }, at) => {
        const index = indexJson(bytes);
        const offset = Math.floor(at * bytes.length);
        const { store } = index;
        let best = -1;
        for (let id = 0; id < store.size; id++) {
          if (
            offset >= store.start[id] &&
            offset < store.end[id] &&
            (best < 0 || store.end[id] - store.start[id] < store.end[best] - store.start[best])
          )
            best = id;
        }
        expect(index.nodeAt(offset)).toBe(best);
      }),
      { numRuns: 200 },
    );
  });

  it('mutated and truncated documents never throw and agree with JSON.parse', () => {
    fc.assert(
      fc.property(jsonTexts, fc.array(mutation, { minLength: 1, maxLength: 3 }), ({ bytes }, ms) => {
        agree(mutate(bytes, ms));
      }),
      { numRuns: 2000 },
    );
  });

  it('near-JSON token soup agrees with JSON.parse', () => {
    fc.assert(
      fc.property(tokenSoup, fc.boolean(), (text, nested) => {
        agree(enc.encode(text));
        if (nested) agree(enc.encode(`{"x": [${text}]}`));
      }),
      { numRuns: 3000 },
    );
  });

  it('string bodies agree with JSON.parse (escapes, control bytes, U+FEFF, surrogates)', () => {
    fc.assert(
      fc.property(stringSoup, fc.constantFrom('"#"', '["#"]', '{"#": "#"}', '{"k": ["x", "#"]}'), (body, frame) => {
        agree(enc.encode(frame.replaceAll('#', () => body)));
      }),
      { numRuns: 3000 },
    );
  });

  it('long strings (the word-at-a-time scan) agree with JSON.parse at every alignment', () => {
    const filler = 'abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ~!@#$%^&*()_+-=|;<>?,./';
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 90 }), stringSoup), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 7 }),
        fc.boolean(),
        (chunks, pad, offset, truncate) => {
          const body = chunks.map(([n, soup]) => filler.repeat(4).slice(0, n) + soup).join('');
          let bytes = enc.encode(
            `${' '.repeat(pad % 5)}["${filler.repeat(3).slice(0, pad)}", "${body}", {"k": "${body}"}]`,
          );
          if (truncate) bytes = bytes.subarray(0, Math.floor(bytes.length * ((pad % 97) / 97)));
          agree(bytes, offset);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('long JSON.stringify output at odd buffer offsets', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 120, unit: 'binary' }),
            fc.string({ maxLength: 120 }),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 1, max: 7 }),
        (values, offset) => {
          const text = JSON.stringify(values);
          const bytes = placed(enc.encode(text), offset);
          const index = indexJson(bytes);
          expect(index.error).toBeNull();
          checkSpans(index);
          expect(normalize(index.value(0))).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('shallow indexes of broken documents keep the first error through expansion', () => {
    fc.assert(
      fc.property(
        jsonTexts,
        fc.array(mutation, { minLength: 1, maxLength: 2 }),
        fc.integer({ min: 0, max: 2 }),
        ({ bytes }, ms, depth) => {
          const b = mutate(bytes, ms);
          const full = indexJson(b);
          const shallow = indexJson(b, { depth });
          expect(shallow.error).toEqual(full.error);
          if (shallow.root >= 0) {
            shallow.expandAll(0);
            shallow.value(0);
          }
          expect(shallow.error).toEqual(full.error);
          checkSpans(shallow);
        },
      ),
      { numRuns: 500 },
    );
  });
});
