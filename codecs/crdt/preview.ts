import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { hex } from '../core/diagnostic.js';
import { crdtModelValue } from './model-value.js';

/**
 * One-line previews of json-joy model nodes (the document view as JSON, cut at `max`
 * characters) in time linear in the size of the tree, however deep it nests. Building
 * each node's whole view to print its first 60 characters made the CLI's default tree
 * quadratic (8,000 nested arrays: 41 s). Here every node's preview is made once, bottom
 * up, from its children's previews, each cut just past `max` (the cut is what the parent
 * shows anyway), and kept per index and `max`.
 *
 * Nodes that nest (model, val, obj, vec, arr and an arr's chunks) are built from their
 * children; the others (constants, strings, binaries, their chunks, clocks) have flat
 * subtrees and take the view the value model gives them.
 */
interface Previews {
  /** The node's text inside a parent's JSON (JSON.stringify's), null when its view is undefined; cut past max. */
  readonly nested: (string | null | undefined)[];
  /** The node's text on its own (bytes unquoted, undefined spelled out); cut past max. */
  readonly top: (string | undefined)[];
}

const memo = new WeakMap<SpanIndex, Map<number, Previews>>();

export function modelPreview(index: SpanIndex, id: number, max: number): string {
  let byMax = memo.get(index);
  if (!byMax) memo.set(index, (byMax = new Map()));
  let previews = byMax.get(max);
  if (!previews) byMax.set(max, (previews = { nested: [], top: [] }));
  if (previews.top[id] === undefined) build(index, id, max, previews);
  const text = previews.top[id]!;
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

function nests(index: SpanIndex, n: number): boolean {
  const { kind, parent } = index.store;
  const k = kind[n];
  if (k === Kind.crdt_chunk) return parent[n] >= 0 && kind[parent[n]] === Kind.crdt_arr;
  return (
    k === Kind.crdt_model || k === Kind.crdt_val || k === Kind.crdt_obj || k === Kind.crdt_vec || k === Kind.crdt_arr
  );
}

/** Fills the previews of `id` and of every node below it that nests (iterative, post-order). */
function build(index: SpanIndex, id: number, max: number, p: Previews): void {
  const { firstChild, nextSibling } = index.store;
  const stack = [id];
  const opened: boolean[] = [];
  while (stack.length) {
    const n = stack[stack.length - 1];
    if (p.top[n] !== undefined) {
      stack.pop();
      continue;
    }
    if (!nests(index, n)) {
      flat(index, n, max, p);
      stack.pop();
      continue;
    }
    if (!opened[n]) {
      opened[n] = true;
      for (let c = firstChild[n]; c >= 0; c = nextSibling[c]) if (p.top[c] === undefined) stack.push(c);
      continue;
    }
    container(index, n, max, p);
    stack.pop();
  }
}

const replacer = (_k: string, v: unknown) =>
  typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? `h'${hex(v, 0, Math.min(v.length, 16))}'` : v;

function cut(s: string, max: number): string {
  return s.length > max + 1 ? s.slice(0, max + 1) : s;
}

function flat(index: SpanIndex, n: number, max: number, p: Previews): void {
  const { kind, flags } = index.store;
  const k = kind[n];
  if (k === Kind.crdt_clock || k === Kind.crdt_clock_entry || k === Kind.crdt_id || k === Kind.crdt_tombstone) {
    // No view of their own in a preview (a tombstone's is undefined).
    p.nested[n] = k === Kind.crdt_tombstone ? null : '';
    p.top[n] = '';
    return;
  }
  let value: unknown;
  try {
    value = crdtModelValue(index, n);
  } catch {
    value = undefined;
  }
  p.nested[n] = value === undefined ? null : cut(JSON.stringify(value, replacer) ?? 'null', max);
  p.top[n] =
    flags[n] & Flag.incomplete
      ? '…'
      : value === undefined
        ? 'undefined'
        : value instanceof Uint8Array
          ? `h'${hex(value, 0, Math.min(value.length, max))}'`
          : p.nested[n]!;
}

function container(index: SpanIndex, n: number, max: number, p: Previews): void {
  const { kind, flags, firstChild, nextSibling } = index.store;
  const k = kind[n];
  if (k === Kind.crdt_model || k === Kind.crdt_val) {
    let c = firstChild[n];
    if (k === Kind.crdt_model) while (c >= 0 && kind[c] === Kind.crdt_clock) c = nextSibling[c];
    p.nested[n] = c >= 0 ? p.nested[c] : null;
    p.top[n] = c >= 0 ? p.top[c] : 'undefined';
  } else {
    let s = k === Kind.crdt_obj ? '{' : '[';
    let first = true;
    const add = (text: string) => {
      s += first ? text : ',' + text;
      first = false;
    };
    if (k === Kind.crdt_obj) {
      for (let c = firstChild[n]; c >= 0 && s.length <= max; c = nextSibling[c]) {
        if (!(flags[c] & Flag.key)) continue;
        const v = nextSibling[c];
        if (v < 0) break;
        // An entry whose view is undefined is not in the object (json-joy's view, JSON's rule).
        if (p.nested[v] !== null) add(`${p.nested[c]}:${p.nested[v]}`);
        c = v;
      }
    } else if (k === Kind.crdt_arr) {
      for (let chunk = firstChild[n]; chunk >= 0 && s.length <= max; chunk = nextSibling[chunk]) {
        if (kind[chunk] !== Kind.crdt_chunk) continue;
        for (let e = firstChild[chunk]; e >= 0 && s.length <= max; e = nextSibling[e]) add(p.nested[e] ?? 'null');
      }
    } else {
      for (let c = firstChild[n]; c >= 0 && s.length <= max; c = nextSibling[c]) add(p.nested[c] ?? 'null');
    }
    s += k === Kind.crdt_obj ? '}' : ']';
    p.nested[n] = cut(s, max);
    p.top[n] = p.nested[n]!;
  }
  if (flags[n] & Flag.incomplete) p.top[n] = '…';
}
