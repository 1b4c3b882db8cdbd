import { Flag, Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { decodeUtf8 } from './utf8.js';
import { ExtValue, timestampText } from './values.js';
import { hex2 } from './hex.js';

/**
 * Diagnostic notation (EDN, RFC 8949 section 8) of any node, built from the span index so
 * it shows what is on the wire: `_` for indefinite lengths and, for CBOR, the encoding
 * indicators `_0`..`_3` where an argument or float is wider than the preferred encoding
 * ('auto', the default), on every argument ('always') or never. MessagePack and JSON
 * frames print in the same notation (MessagePack extensions as `ext(type, h'..')`).
 * Iterative, so 100,000 nested arrays print without exhausting the call stack.
 */
export interface DiagnosticOptions {
  indicators?: 'auto' | 'always' | 'never';
  /** Stop after this many characters and append `…` (the UI previews big frames). */
  maxLength?: number;
}

type Piece = string | { node: number };

export function diagnostic(index: SpanIndex, id: number = index.root, options: DiagnosticOptions = {}): string {
  // An id outside the store (e.g. 0 when not even the root's head decoded, as for `ff`)
  // names no node: the store's typed arrays hold zeros there, so node 0 would be its own
  // first child and next sibling and the children loop in nodePieces would never end.
  if (id < 0 || id >= index.store.size) return '';
  index.expandAll(id);
  const indicators = options.indicators ?? 'auto';
  const maxLength = options.maxLength ?? Infinity;
  const out: string[] = [];
  let length = 0;
  // Work list of pieces in reverse order: strings are emitted, nodes are expanded in place.
  const work: Piece[] = [{ node: id }];
  while (work.length) {
    const piece = work.pop()!;
    if (typeof piece === 'string') {
      out.push(piece);
      length += piece.length;
      if (length > maxLength) return out.join('').slice(0, maxLength) + '…';
      continue;
    }
    const n = piece.node;
    const pieces = nodePieces(index, n, indicators);
    for (let i = pieces.length - 1; i >= 0; i--) work.push(pieces[i]);
  }
  return out.join('');
}

function nodePieces(index: SpanIndex, id: number, indicators: 'auto' | 'always' | 'never'): Piece[] {
  const { store, bytes } = index;
  const kind = store.kind[id];
  const start = store.start[id];
  const head = store.head[id];
  const end = store.end[id];
  const cbor = index.format === 'cbor';
  const indefinite = (store.flags[id] & Flag.indefinite) !== 0;
  const ind = cbor ? lengthIndicator(bytes, start, head, indicators) : '';
  const incomplete = (store.flags[id] & Flag.incomplete) !== 0;
  const children: number[] = [];
  for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) children.push(c);
  const list = (open: string, close: string, sep: (i: number) => string): Piece[] => {
    const pieces: Piece[] = [open];
    children.forEach((c, i) => {
      if (i > 0) pieces.push(sep(i));
      pieces.push({ node: c });
    });
    if (incomplete) pieces.push(children.length ? ', …' : '…');
    pieces.push(close);
    return pieces;
  };

  switch (kind) {
    case Kind.uint:
    case Kind.nint:
    case Kind.number:
    case Kind.float16:
    case Kind.float32:
    case Kind.float64:
    case Kind.simple:
    case Kind.true:
    case Kind.false:
    case Kind.null:
    case Kind.undefined:
      return [scalarText(index, id, indicators)];
    case Kind.bytes:
      if (indefinite) {
        if (!children.length && !incomplete) return ["''_"];
        return list('(_ ', ')', () => ', ');
      }
      return [`h'${hex(bytes, start + head, end)}'${ind}${incomplete ? '…' : ''}`];
    case Kind.text:
      if (indefinite) {
        if (!children.length && !incomplete) return ['""_'];
        return list('(_ ', ')', () => ', ');
      }
      if (incomplete) return [`"…"`];
      return [
        quote(
          index.format === 'json' ? String(index.walker.leafValue(index, id)) : decodeUtf8(bytes, start + head, end),
        ) + ind,
      ];
    case Kind.array:
      return list(indefinite ? '[_ ' : ind ? `[${ind} ` : '[', ']', () => ', ');
    case Kind.map:
      return list(indefinite ? '{_ ' : ind ? `{${ind} ` : '{', '}', (i) => (i % 2 ? ': ' : ', '));
    case Kind.tag: {
      const tag = index.walker.format === 'cbor' ? argumentText(bytes, start, head) : String(store.arg[id]);
      return [`${tag}${ind}(`, ...children.map((c) => ({ node: c })), incomplete && !children.length ? '…)' : ')'];
    }
    case Kind.ext: {
      // A timestamp (type -1) also shows the instant, as an EDN comment.
      const v = incomplete ? null : index.walker.leafValue(index, id);
      const ts = v instanceof ExtValue ? v.timestamp : null;
      return [`ext(${store.arg[id]}, h'${hex(bytes, start + head, end)}')${ts ? ` / ${timestampText(ts)} /` : ''}`];
    }
    case Kind.pb_tag:
      // A Protobuf field's key: its field number (the tag varint without the wire type).
      return [String(Math.floor(store.arg[id] / 8))];
    case Kind.pb_i32:
    case Kind.pb_i64:
      // Fixed-width fields: the unsigned reading (the schema-less default, as protoc --decode_raw).
      return [incomplete ? '…' : String(index.walker.leafValue(index, id))];
    case Kind.pb_group:
      return list('{', '}', (i) => (i % 2 ? ': ' : ', '));
    default:
      return ['?'];
  }
}

/** EDN of a scalar node. */
function scalarText(index: SpanIndex, id: number, indicators: 'auto' | 'always' | 'never'): string {
  const { store, bytes } = index;
  const kind = store.kind[id];
  const start = store.start[id];
  const head = store.head[id];
  switch (kind) {
    case Kind.uint:
    case Kind.nint: {
      if (index.format !== 'cbor') return String(index.walker.leafValue(index, id));
      const v = argumentText(bytes, start, head);
      const text = kind === Kind.uint ? v : (-1n - BigInt(v)).toString();
      return text + lengthIndicator(bytes, start, head, indicators);
    }
    case Kind.number:
      return decodeUtf8(bytes, start, store.end[id]);
    case Kind.float16:
    case Kind.float32:
    case Kind.float64: {
      const { text, width, preferred } = floatLiteral(index, id);
      let ind = '';
      if (index.format === 'cbor' && indicators !== 'never' && (indicators === 'always' || width > preferred))
        ind = `_${width}`;
      return text + ind;
    }
    case Kind.simple:
      return `simple(${store.arg[id]})`;
    case Kind.true:
      return 'true';
    case Kind.false:
      return 'false';
    case Kind.null:
      return 'null';
    default:
      return 'undefined';
  }
}

/** `1.5`, `100000.0`, `1.0e+300`, `Infinity`, `NaN`: a float always shows it is one. */
export function floatText(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v);
  if (/e/.test(s)) {
    const [m, e] = s.split('e');
    return `${m.includes('.') ? m : m + '.0'}e${e.startsWith('-') ? e : '+' + e.replace('+', '')}`;
  }
  return s.includes('.') ? s : s + '.0';
}

/**
 * A float node's value in EDN and the widths that matter for its encoding indicator
 * (1 = f16, 2 = f32, 3 = f64): the width on the wire and the narrowest that holds the value
 * exactly. A NaN is read from its bits, since its payload (and sign) are what a narrower
 * float may not hold: the canonical quiet NaN prints `NaN`, any other `float'7d1f'`, the
 * hex of its shortest encoding (RFC 8949 section 8.1 lets a NaN payload be spelled so).
 * The bits are the node's last 2, 4 or 8 bytes, in CBOR and MessagePack alike.
 */
export function floatLiteral(index: SpanIndex, id: number): { text: string; width: number; preferred: number } {
  const { store, bytes } = index;
  const kind = store.kind[id];
  const width = kind === Kind.float16 ? 1 : kind === Kind.float32 ? 2 : 3;
  const v = index.walker.leafValue(index, id) as number;
  if (!Number.isNaN(v)) return { text: floatText(v), width, preferred: preferredFloatWidth(v) };
  const size = 1 << width;
  let bits = 0n;
  for (let i = store.end[id] - size; i < store.end[id]; i++) bits = (bits << 8n) | BigInt(bytes[i]);
  // Sign and mantissa (payload, quiet bit included) as an f64 would hold them.
  const mantissaBits = width === 1 ? 10n : width === 2 ? 23n : 52n;
  const sign = bits >> (mantissaBits + (width === 1 ? 5n : width === 2 ? 8n : 11n));
  const mantissa = (bits & ((1n << mantissaBits) - 1n)) << (52n - mantissaBits);
  // Each narrower float keeps the top 10 (f16) or 23 (f32) mantissa bits.
  const preferred = (mantissa & ((1n << 42n) - 1n)) === 0n ? 1 : (mantissa & ((1n << 29n) - 1n)) === 0n ? 2 : 3;
  let shortest: bigint;
  if (preferred === 1) shortest = (sign << 15n) | (0x1fn << 10n) | (mantissa >> 42n);
  else if (preferred === 2) shortest = (sign << 31n) | (0xffn << 23n) | (mantissa >> 29n);
  else shortest = (sign << 63n) | (0x7ffn << 52n) | mantissa;
  const text = shortest === 0x7e00n ? 'NaN' : `float'${shortest.toString(16).padStart(4 << (preferred - 1), '0')}'`;
  return { text, width, preferred };
}

/** The narrowest float width (1 = f16, 2 = f32, 3 = f64) that holds `v` exactly. */
function preferredFloatWidth(v: number): number {
  if (Number.isNaN(v) || !Number.isFinite(v) || Object.is(v, -0) || v === 0) return 1;
  if (Math.fround(v) !== v) return 3;
  const a = Math.abs(v);
  // f16: 11 significant bits, exponents -24 (subnormal) .. 15.
  if (a > 65504 || a < 2 ** -24) return 2;
  const exp = Math.max(Math.floor(Math.log2(a)), -14);
  const scaled = a / 2 ** (exp - 10);
  return Number.isInteger(scaled) ? 1 : 2;
}

/** `_0`..`_3` when the head's argument is wider than needed (or always). */
function lengthIndicator(
  bytes: Uint8Array,
  start: number,
  head: number,
  indicators: 'auto' | 'always' | 'never',
): string {
  if (indicators === 'never' || head === 1) return '';
  const width = head === 2 ? 0 : head === 3 ? 1 : head === 5 ? 2 : 3;
  if (indicators === 'always') return `_${width}`;
  const v = BigInt(argumentText(bytes, start, head));
  const preferred = v < 24n ? -1 : v < 0x100n ? 0 : v < 0x10000n ? 1 : v < 0x100000000n ? 2 : 3;
  return width > preferred ? `_${width}` : '';
}

/** The CBOR head's argument as decimal text, exact to 2^64. */
function argumentText(bytes: Uint8Array, start: number, head: number): string {
  if (head === 1) return String(bytes[start] & 31);
  let v = 0n;
  for (let i = 1; i < head; i++) v = (v << 8n) | BigInt(bytes[start + i]);
  return v.toString();
}

export function quote(s: string): string {
  return JSON.stringify(s);
}

export function hex(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += HEX[bytes[i]];
  return s;
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => hex2(i));
