import {
  childSegment,
  formatPath,
  Kind,
  previewValue,
  type PathSegment,
  type SpanIndex,
} from '../../../codecs/index.js';
import { tagNumber } from '../../../codecs/core/tag-number.js';
import type { DiffRow } from './api.js';
import { jsonText } from './json-text.js';

const MAX_ROWS = 2000;

/** One child of a container: its id and the path segment that leads to it. */
type Child = { readonly id: number; readonly segment: PathSegment };

/** What matches a child to its counterpart: a map's key (text and non-text keys never match) or an index. */
function matchKey(segment: PathSegment): string {
  switch (segment.type) {
    case 'key':
      return (segment.text ? 't:' : 'n:') + segment.key;
    case 'index':
    case 'chunk':
      return `i:${segment.index}`;
    default:
      return `o:${JSON.stringify(segment)}`;
  }
}

function entries(index: SpanIndex, id: number): Map<string, Child> | null {
  const kind = index.kind(id);
  const isMap = kind === 'map' || kind === 'crdt_obj';
  const isArray = kind === 'array' || kind === 'crdt_arr' || kind === 'crdt_vec';
  if (!isMap && !isArray) return null;
  const out = new Map<string, Child>();
  index.children(id).forEach((c, i) => {
    const segment: PathSegment = isMap ? childSegment(index, c, i) : { type: 'index', index: i };
    out.set(matchKey(segment), { id: c, segment });
  });
  return out;
}

/**
 * A tag both frames carry around a container (CBOR's self-describe 55799 around a whole
 * frame): the diff goes on inside it. A tag around a scalar (a bignum, a date) stays one
 * leaf, compared and shown by its value.
 */
function tagContent(index: SpanIndex, id: number): number {
  if (index.store.kind[id] !== Kind.tag) return -1;
  const content = index.store.firstChild[id];
  return content >= 0 && entries(index, content) ? content : -1;
}

const size = (index: SpanIndex, id: number) => index.store.end[id] - index.store.start[id];
/** What a row's field costs, as the tree's bytes column counts it: a map value with its key. */
const fieldSize = (index: SpanIndex, id: number) => {
  const key = index.keyOf(id);
  return size(index, id) + (key >= 0 ? size(index, key) : 0);
};
const short = (index: SpanIndex, id: number) => previewValue(index, id, 60);

/** Leaves compare by value (two formats encode the same value differently). */
function sameValue(a: SpanIndex, aId: number, b: SpanIndex, bId: number): boolean {
  if (a.format === b.format && size(a, aId) === size(b, bId)) {
    const x = a.bytes.subarray(a.store.start[aId], a.store.end[aId]);
    const y = b.bytes.subarray(b.store.start[bId], b.store.end[bId]);
    let same = true;
    for (let i = 0; i < x.length && same; i++) same = x[i] === y[i];
    if (same) return true;
  }
  return jsonText(a.value(aId), 1 << 20, undefined).text === jsonText(b.value(bId), 1 << 20, undefined).text;
}

/**
 * A structural diff of two decoded frames: maps matched by key, arrays by position; each
 * row has both previews and both byte sizes so the size delta of every change shows.
 * Iterative; stops after MAX_ROWS rows (the last row says so).
 */
export function diffFrames(a: SpanIndex, b: SpanIndex): DiffRow[] {
  const rows: DiffRow[] = [];
  if (a.root < 0 || b.root < 0) return rows;
  const work: { path: readonly PathSegment[]; aId: number; bId: number }[] = [{ path: [], aId: a.root, bId: b.root }];
  while (work.length && rows.length < MAX_ROWS) {
    const { path, aId, bId } = work.pop()!;
    const ta = tagContent(a, aId);
    const tb = tagContent(b, bId);
    if (ta >= 0 && tb >= 0 && tagNumber(a, aId) === tagNumber(b, bId)) {
      work.push({ path: [...path, childSegment(a, ta, 0)], aId: ta, bId: tb });
      continue;
    }
    const ea = entries(a, aId);
    const eb = entries(b, bId);
    if (ea && eb && a.kind(aId).replace('crdt_', '') === b.kind(bId).replace('crdt_', '')) {
      const next: { key: string; child: Child }[] = [];
      for (const [key, ca] of ea) {
        if (!eb.has(key))
          rows.push({
            path: formatPath([...path, ca.segment]),
            change: 'removed',
            before: short(a, ca.id),
            after: '',
            sizeBefore: fieldSize(a, ca.id),
            sizeAfter: 0,
          });
        else next.push({ key, child: ca });
      }
      for (const [key, cb] of eb) {
        if (!ea.has(key))
          rows.push({
            path: formatPath([...path, cb.segment]),
            change: 'added',
            before: '',
            after: short(b, cb.id),
            sizeBefore: 0,
            sizeAfter: fieldSize(b, cb.id),
          });
      }
      for (let i = next.length - 1; i >= 0; i--) {
        const { key, child } = next[i];
        work.push({ path: [...path, child.segment], aId: child.id, bId: eb.get(key)!.id });
      }
      continue;
    }
    if (!sameValue(a, aId, b, bId)) {
      rows.push({
        path: formatPath(path),
        change: 'changed',
        before: short(a, aId),
        after: short(b, bId),
        sizeBefore: fieldSize(a, aId),
        sizeAfter: fieldSize(b, bId),
      });
    }
  }
  if (work.length)
    rows.push({
      path: '…',
      change: 'changed',
      before: `diff stopped after ${MAX_ROWS} rows`,
      after: '',
      sizeBefore: 0,
      sizeAfter: 0,
    });
  return rows;
}
