import { EntriesMap, ExtValue, Flag, Kind, SimpleValue, type SpanIndex, TaggedValue } from '../../../codecs/index.js';
import { tagNumber } from '../../../codecs/core/tag-number.js';

const BIG = '\u0000big:';
const BIG_QUOTED = /"\\u0000big:(-?\d+)"/g;

function hex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i].toString(16).padStart(2, '0');
  return s;
}

/**
 * Our value model as JSON for reading (the Text tab, filters, diffs): bigints stay exact
 * digits, bytes become `"h'…'"`, tags `{"tag(1)": …}`, Maps with non-string keys
 * `{"<key>": …}`, undefined `"undefined"`. Not a lossless encoding: that is what EDN is for.
 */
function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return BIG + value.toString();
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value instanceof Uint8Array) return `h'${hex(value)}'`;
  if (value instanceof TaggedValue) return { [`tag(${value.tag})`]: value.value };
  if (value instanceof SimpleValue) return `simple(${value.value})`;
  if (value instanceof ExtValue)
    return value.timestamp?.date
      ? value.timestamp.date.toISOString()
      : { [`ext(${value.type})`]: `h'${hex(value.data)}'` };
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [keyText(k), v]));
  if (value instanceof EntriesMap) return value.entries.map(([k, v]) => ({ [keyText(k)]: v }));
  return value;
}

function keyText(k: unknown): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'bigint') return k.toString();
  if (k instanceof Uint8Array) return `h'${hex(k)}'`;
  return JSON.stringify(k, replacer) ?? String(k);
}

export interface JsonTextResult {
  readonly text: string;
  readonly truncated: boolean;
}

/** Pretty JSON text, cut at `maxChars`. Values nested deeper than the engine's stack say so. */
export function jsonText(value: unknown, maxChars = Infinity, indent: number | undefined = 2): JsonTextResult {
  let text: string;
  try {
    text = (JSON.stringify(value, replacer, indent) ?? 'undefined').replace(BIG_QUOTED, '$1');
  } catch (e) {
    return {
      text: `// cannot show as JSON: ${(e as Error).message}. The EDN view is iterative and shows any depth.`,
      truncated: false,
    };
  }
  if (text.length > maxChars) return { text: text.slice(0, maxChars), truncated: true };
  return { text, truncated: false };
}

type JsonPiece = string | { readonly node: number; readonly depth: number };

/** The text for a subtree read through the value model, its lines moved in to `depth`. */
function valuePiece(value: unknown, indent: string, depth: number): string {
  const text = (JSON.stringify(value, replacer, indent.length || undefined) ?? 'undefined').replace(BIG_QUOTED, '$1');
  return indent && depth > 0 ? text.replace(/\n/g, `\n${indent.repeat(depth)}`) : text;
}

/**
 * A CBOR tag around a map or array that reads as a TaggedValue (`{"tag(N)": …}`), whose
 * content is walked here. A tag around anything else (a bignum, a date) is written from its value.
 */
function wrapsContainer(index: SpanIndex, id: number, content: number): boolean {
  if (!index.walker.tagValue || content < 0) return false;
  const kind = index.store.kind[content];
  if (kind !== Kind.map && kind !== Kind.array) return false;
  const probe = kind === Kind.map ? {} : [];
  const read = index.walker.tagValue(index, id, probe);
  return read instanceof TaggedValue && read.value === probe;
}

/**
 * Pretty JSON of a node written from the span index, so maps keep their wire order (a
 * JavaScript object puts integer-like keys such as "840" before "978"; a Map with integer
 * keys became one). Maps, arrays and CBOR tags around them are walked here; every other
 * node (scalars, extensions, CRDT and schema-read Protobuf nodes) is written from its value
 * as jsonText does. Iterative; cut at `maxChars`.
 */
export function nodeJsonText(index: SpanIndex, id: number, maxChars = Infinity, indentWidth = 2): JsonTextResult {
  if (!index.has(id)) return { text: 'undefined', truncated: false };
  if (index.walker.value) return jsonText(index.value(id), maxChars, indentWidth || undefined);
  index.expandAll(id);
  const { store } = index;
  const indent = ' '.repeat(indentWidth);
  const newline = (depth: number) => (indent ? `\n${indent.repeat(depth)}` : '');
  const colon = indent ? ': ' : ':';
  const out: string[] = [];
  let length = 0;
  const work: JsonPiece[] = [{ node: id, depth: 0 }];
  while (work.length) {
    const piece = work.pop()!;
    if (typeof piece === 'string') {
      out.push(piece);
      length += piece.length;
      if (length > maxChars) return { text: out.join('').slice(0, maxChars), truncated: true };
      continue;
    }
    const { node, depth } = piece;
    const kind = store.kind[node];
    const children: number[] = [];
    for (let c = store.firstChild[node]; c >= 0; c = store.nextSibling[c]) children.push(c);
    const pieces: JsonPiece[] = [];
    if ((kind === Kind.map || kind === Kind.array) && (store.flags[node] & Flag.incomplete) === 0) {
      const isMap = kind === Kind.map;
      const step = isMap ? 2 : 1;
      if (children.length === 0) pieces.push(isMap ? '{}' : '[]');
      else {
        pieces.push(isMap ? '{' : '[');
        for (let i = 0; i < children.length; i += step) {
          pieces.push((i > 0 ? ',' : '') + newline(depth + 1));
          if (isMap) pieces.push(JSON.stringify(keyText(index.value(children[i]))) + colon);
          pieces.push({ node: children[i + step - 1], depth: depth + 1 });
        }
        pieces.push(newline(depth) + (isMap ? '}' : ']'));
      }
    } else if (kind === Kind.tag && wrapsContainer(index, node, children[0] ?? -1)) {
      pieces.push(
        `{${newline(depth + 1)}${JSON.stringify(`tag(${tagNumber(index, node)})`)}${colon}`,
        { node: children[0], depth: depth + 1 },
        `${newline(depth)}}`,
      );
    } else pieces.push(valuePiece(index.value(node), indent, depth));
    for (let i = pieces.length - 1; i >= 0; i--) work.push(pieces[i]);
  }
  return { text: out.join(''), truncated: false };
}
