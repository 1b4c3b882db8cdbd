import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { diagnostic } from '../core/diagnostic.js';
import { tagNumber } from '../core/describe.js';
import { nestedValue, type NestedValue } from '../nested/nested-value.js';

/**
 * The `--json` node tree (schema 1, documented in README.md). Every node: kind, start, end
 * (exclusive), head; containers: count and children (or `"expanded": false` beyond
 * --depth); a map's children are its values, each with its `key` node. Written without
 * recursion so 100,000 nested arrays serialize.
 */
export const JSON_SCHEMA_VERSION = 1;

/** A node to print, in its index; a nested value's nodes carry it (offsets map to the frame's). */
type Piece = string | { readonly index: SpanIndex; readonly nested: NestedValue | null; readonly node: number };

/**
 * A string holding a value of its own (codecs/nested) gets `"nested": { format, via, label,
 * root }`, whose nodes' start / end / head are frame offsets (for base64 and hex: the
 * characters that encode each byte).
 */
export function nodeTreeJson(index: SpanIndex, id: number): string {
  if (id === -1) return 'null';
  index.requireNode(id, 'nodeTreeJson');
  const out: string[] = [];
  const work: Piece[] = [{ index, nested: null, node: id }];
  while (work.length) {
    const p = work.pop()!;
    if (typeof p === 'string') {
      out.push(p);
      continue;
    }
    const pieces = nodePieces(p.index, p.node, p.nested);
    for (let i = pieces.length - 1; i >= 0; i--) work.push(pieces[i]);
  }
  return out.join('');
}

function nodePieces(index: SpanIndex, id: number, nested: NestedValue | null): Piece[] {
  const { store } = index;
  const flags = store.flags[id];
  const at = (offset: number) => (nested ? nested.map.at(offset) : offset);
  const start = at(store.start[id]);
  const fields: string[] = [
    `"kind":${JSON.stringify(index.kind(id))}`,
    `"start":${start}`,
    `"end":${at(store.end[id])}`,
    `"head":${at(store.start[id] + index.headerLength(id)) - start}`,
  ];
  if (flags & Flag.incomplete) fields.push('"incomplete":true');
  if (flags & Flag.indefinite) fields.push('"indefinite":true');
  if (flags & Flag.duplicateKey) fields.push('"duplicateKey":true');
  const kind = store.kind[id];
  if (kind === Kind.tag) fields.push(`"tag":${jsonNumberOrString(tagNumber(index, id))}`);
  if (kind === Kind.ext) fields.push(`"type":${store.arg[id]}`);
  if (index.walker.details) {
    for (const [k, v] of Object.entries(index.walker.details(index, id)))
      fields.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  }
  const pieces: Piece[] = [];
  const container = index.isContainer(id);
  if (!container) {
    if (!(flags & Flag.incomplete)) {
      const value = jsonValue(index, id);
      if (value !== undefined) fields.push(`"value":${value}`);
      fields.push(`"edn":${JSON.stringify(diagnostic(index, id))}`);
    }
  } else if (kind !== Kind.tag && store.arg[id] >= 0) {
    fields.push(`"count":${store.arg[id]}`);
  }
  pieces.push('{' + fields.join(','));
  const keyId = index.keyOf(id);
  if (keyId >= 0) pieces.push(',"key":', { index, nested, node: keyId });
  if ((kind === Kind.bytes || kind === Kind.text) && !(flags & Flag.key)) {
    const inner = nestedValue(index, id, nested);
    if (inner && inner.index.root >= 0) {
      inner.index.expandAll(inner.index.root);
      pieces.push(
        `,"nested":{"format":${JSON.stringify(inner.format)},"via":${JSON.stringify(inner.via)},"label":${JSON.stringify(inner.label)},"root":`,
        { index: inner.index, nested: inner, node: inner.index.root },
        '}',
      );
    }
  }
  if (container) {
    if (!(flags & Flag.expanded)) pieces.push(',"expanded":false');
    else {
      pieces.push(',"children":[');
      let first = true;
      for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) {
        if (store.flags[c] & Flag.key) continue;
        if (!first) pieces.push(',');
        first = false;
        pieces.push({ index, nested, node: c });
      }
      pieces.push(']');
    }
  }
  pieces.push('}');
  return pieces;
}

/** The leaf's value as JSON text when JSON represents it exactly, else undefined (see `edn`). */
function jsonValue(index: SpanIndex, id: number): string | undefined {
  const v = index.walker.leafValue(index, id);
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return String(v);
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) && (!Number.isInteger(v) || Number.isSafeInteger(v))
        ? String(v)
        : undefined;
    case 'object':
      return v === null ? 'null' : undefined;
    default:
      return undefined;
  }
}

function jsonNumberOrString(text: string): string {
  return Number.isSafeInteger(Number(text)) ? text : JSON.stringify(text);
}
