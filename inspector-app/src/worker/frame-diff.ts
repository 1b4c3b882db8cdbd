import { previewValue, type SpanIndex } from '../../../codecs/index.js';
import type { DiffRow } from './api.js';
import { jsonText } from './json-text.js';

const MAX_ROWS = 2000;
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

type Entry = { readonly label: string; readonly id: number };

function entries(index: SpanIndex, id: number): Map<string, number> | null {
  const kind = index.kind(id);
  const isMap = kind === 'map' || kind === 'crdt_obj';
  const isArray = kind === 'array' || kind === 'crdt_arr' || kind === 'crdt_vec';
  if (!isMap && !isArray) return null;
  const out = new Map<string, number>();
  index.children(id).forEach((c, i) => {
    const keyId = index.keyOf(c);
    const key =
      isMap && keyId >= 0
        ? index.kind(keyId) === 'text' && !index.isIncomplete(keyId)
          ? String(index.value(keyId))
          : previewValue(index, keyId, 60)
        : String(i);
    out.set(isMap ? `k:${key}` : `i:${key}`, c);
  });
  return out;
}

function childPath(path: string, key: string): string {
  const body = key.slice(2);
  if (key.startsWith('i:')) return `${path}[${body}]`;
  return IDENT.test(body) ? `${path}.${body}` : `${path}[${JSON.stringify(body)}]`;
}

const size = (index: SpanIndex, id: number) => index.store.end[id] - index.store.start[id];
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
  const work: { path: string; aId: number; bId: number }[] = [{ path: '$', aId: a.root, bId: b.root }];
  while (work.length && rows.length < MAX_ROWS) {
    const { path, aId, bId } = work.pop()!;
    const ea = entries(a, aId);
    const eb = entries(b, bId);
    if (ea && eb && a.kind(aId).replace('crdt_', '') === b.kind(bId).replace('crdt_', '')) {
      const next: Entry[] = [];
      for (const [key, ca] of ea) {
        const cb = eb.get(key);
        if (cb === undefined)
          rows.push({
            path: childPath(path, key),
            change: 'removed',
            before: short(a, ca),
            after: '',
            sizeBefore: size(a, ca),
            sizeAfter: 0,
          });
        else next.push({ label: key, id: ca });
      }
      for (const [key, cb] of eb) {
        if (!ea.has(key))
          rows.push({
            path: childPath(path, key),
            change: 'added',
            before: '',
            after: short(b, cb),
            sizeBefore: 0,
            sizeAfter: size(b, cb),
          });
      }
      for (let i = next.length - 1; i >= 0; i--)
        work.push({ path: childPath(path, next[i].label), aId: next[i].id, bId: eb.get(next[i].label)! });
      continue;
    }
    if (!sameValue(a, aId, b, bId)) {
      rows.push({
        path,
        change: 'changed',
        before: short(a, aId),
        after: short(b, bId),
        sizeBefore: size(a, aId),
        sizeAfter: size(b, bId),
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
