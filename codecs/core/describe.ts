import { grouped } from './grouped.js';
import { Flag, Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { floatLiteral, hex, quote } from './diagnostic.js';
import { decodeUtf8 } from './utf8.js';
import { ExtValue, timestampText } from './values.js';
import { tagNumber } from './tag-number.js';

export { tagNumber };

/**
 * Short human-readable text for one node, shared by the CLI tree, the annotated hex dump
 * and the UI's value column. Reads only the node's own bytes (never its subtree), so it
 * stays cheap on unexpanded containers of a huge frame.
 */

/** The node's header in cbor.me style: `map(2)`, `text(5)`, `array(*)` for indefinite, `tag(1)`. */
export function describeHead(index: SpanIndex, id: number): string {
  index.requireNode(id, 'describeHead');
  if (index.walker.describe) return index.walker.describe(index, id);
  const { store } = index;
  const kind = store.kind[id];
  const indefinite = (store.flags[id] & Flag.indefinite) !== 0;
  const count = (): string => (indefinite ? '*' : grouped(store.arg[id]));
  switch (kind) {
    case Kind.uint:
      return 'unsigned';
    case Kind.nint:
      return 'negative';
    case Kind.bytes:
      return `bytes(${count()})`;
    case Kind.text:
      return `text(${count()})`;
    case Kind.array:
      return `array(${count()})`;
    case Kind.map:
      return `map(${count()})`;
    case Kind.tag:
      return `tag(${tagNumber(index, id)})`;
    case Kind.ext:
      return `ext(${store.arg[id]})`;
    case Kind.simple:
      return `simple(${store.arg[id]})`;
    default:
      return index.kind(id);
  }
}

/**
 * A one-line preview of the node's value, at most `max` characters: scalars in diagnostic
 * notation, containers as a count (`[3 items]`, `{2 entries}`).
 */
export function previewValue(index: SpanIndex, id: number, max = 80): string {
  index.requireNode(id, 'previewValue');
  if (index.walker.preview) return index.walker.preview(index, id, max);
  return plainPreview(index, id, max);
}

/** The preview read from the node's bytes by kind, for a walker's `preview` to fall back on. */
export function plainPreview(index: SpanIndex, id: number, max = 80): string {
  const { store, bytes } = index;
  const kind = store.kind[id];
  const incomplete = (store.flags[id] & Flag.incomplete) !== 0;
  const indefinite = (store.flags[id] & Flag.indefinite) !== 0;
  let text: string;
  switch (kind) {
    case Kind.array:
      text = countText(index, id, 'item', '[', ']');
      break;
    case Kind.map:
      text = countText(index, id, 'entry', '{', '}');
      break;
    case Kind.tag:
      // Known tags read as what they mean (dates, bignums, URI, UUID, embedded CBOR).
      text = index.walker.tagPreview?.(index, id, max, previewValue) ?? `${tagNumber(index, id)}(…)`;
      break;
    case Kind.text:
      if (indefinite) text = '(_ text chunks)';
      else if (incomplete) text = '"…" (truncated)';
      else {
        const s =
          index.format === 'json'
            ? String(index.walker.leafValue(index, id))
            : decodeUtf8(
                bytes,
                store.start[id] + store.head[id],
                Math.min(store.end[id], store.start[id] + store.head[id] + max * 4),
              );
        text = quote(s);
      }
      break;
    case Kind.bytes:
      if (indefinite) text = '(_ byte chunks)';
      else {
        const from = store.start[id] + store.head[id];
        text = `h'${hex(bytes, from, Math.min(store.end[id], from + Math.ceil(max / 2)))}'`;
      }
      break;
    case Kind.ext: {
      // The MessagePack timestamp extension (type -1) reads as the instant it encodes.
      const v = incomplete ? null : index.walker.leafValue(index, id);
      const ts = v instanceof ExtValue ? v.timestamp : null;
      text = ts
        ? timestampText(ts)
        : `ext(${store.arg[id]}, ${grouped(store.end[id] - store.start[id] - store.head[id])} bytes)`;
      break;
    }
    case Kind.float16:
    case Kind.float32:
    case Kind.float64:
      text = incomplete ? '…' : floatLiteral(index, id).text;
      break;
    case Kind.number:
      text = decodeUtf8(bytes, store.start[id], Math.min(store.end[id], store.start[id] + max));
      break;
    default: {
      if (incomplete) text = '…';
      else {
        const v = index.walker.leafValue(index, id);
        text =
          typeof v === 'bigint'
            ? v.toString()
            : v === undefined
              ? 'undefined'
              : typeof v === 'object' && v !== null
                ? `simple(${store.arg[id]})`
                : String(v);
      }
    }
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

function countText(index: SpanIndex, id: number, noun: string, open: string, close: string): string {
  const n = index.store.arg[id];
  const indefinite = (index.store.flags[id] & Flag.indefinite) !== 0;
  if (n < 0) return `${open}_ …${close}`;
  const plural = noun === 'entry' ? 'entries' : noun + 's';
  return `${open}${indefinite ? '_ ' : ''}${grouped(n)} ${n === 1 ? noun : plural}${close}`;
}
