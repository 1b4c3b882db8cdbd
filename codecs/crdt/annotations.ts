import type { SpanIndex } from '../core/span-index.js';

/**
 * Per-node CRDT facts the span store cannot hold, kept beside a SpanIndex (shared by the
 * model walker and the patch walker). Struct-of-arrays, indexed by node id, grown with the
 * store; NaN means "not set".
 *
 * - `sid`, `time`: the logical timestamp the node carries, decoded to absolute values:
 *   a CRDT node's id, an RGA chunk's / tombstone's first id, a `crdt_id` node's id, a patch
 *   operation's id, a clock table entry's session and time. A con node holding a timestamp
 *   reference has a `crdt_id` child whose id is the reference.
 * - `span`: how many ids a chunk or tombstone covers (string length in UTF-16 units, byte
 *   count, element count); for a str / bin / arr node its number of chunks as encoded; for a
 *   patch operation or timespan, its span.
 *
 * Writers (walkers) call `crdtAnnotations(index)` once and use `set` / `setSpan`; readers
 * use `crdtIdOf` / `crdtSpanOf`.
 */
export class CrdtAnnotations {
  sid: Float64Array;
  time: Float64Array;
  span: Float64Array;

  constructor(capacity = 16) {
    const cap = Math.max(4, capacity | 0);
    this.sid = new Float64Array(cap).fill(NaN);
    this.time = new Float64Array(cap).fill(NaN);
    this.span = new Float64Array(cap).fill(NaN);
  }

  get capacity(): number {
    return this.sid.length;
  }

  /** Makes room for node id `id` (call before writing the arrays directly). */
  ensure(id: number): void {
    const cap = this.sid.length;
    if (id < cap) return;
    let next = cap * 2;
    while (next <= id) next *= 2;
    this.sid = grow(this.sid, next);
    this.time = grow(this.time, next);
    this.span = grow(this.span, next);
  }

  /** Records node `id`'s timestamp. */
  set(id: number, sid: number, time: number): void {
    this.ensure(id);
    this.sid[id] = sid;
    this.time[id] = time;
  }

  /** Records node `id`'s span. */
  setSpan(id: number, span: number): void {
    this.ensure(id);
    this.span[id] = span;
  }
}

function grow(a: Float64Array, cap: number): Float64Array {
  const out = new Float64Array(cap).fill(NaN);
  out.set(a);
  return out;
}

/** A logical timestamp: session id and time. */
export interface CrdtId {
  readonly sid: number;
  readonly time: number;
}

const table = new WeakMap<SpanIndex, CrdtAnnotations>();

/** The annotations of an index, created (empty) on first use. */
export function crdtAnnotations(index: SpanIndex): CrdtAnnotations {
  let a = table.get(index);
  if (!a) {
    a = new CrdtAnnotations(Math.max(16, index.store.capacity));
    table.set(index, a);
  }
  return a;
}

/** The timestamp recorded for node `id`, or null (not a node, or none recorded). */
export function crdtIdOf(index: SpanIndex, id: number): CrdtId | null {
  const a = table.get(index);
  if (!a || !index.has(id) || id >= a.capacity) return null;
  const sid = a.sid[id];
  const time = a.time[id];
  if (sid !== sid || time !== time) return null;
  return { sid, time };
}

/** The span recorded for node `id`, or null. */
export function crdtSpanOf(index: SpanIndex, id: number): number | null {
  const a = table.get(index);
  if (!a || !index.has(id) || id >= a.capacity) return null;
  const span = a.span[id];
  return span === span ? span : null;
}

/** `sid.time`, json-joy's own notation for a timestamp. */
export function formatId(id: CrdtId): string {
  return `${id.sid}.${id.time}`;
}

/** json-joy's reserved session ids (`json-crdt-patch/enums.d.ts`, SESSION). */
export const SESSION = {
  /** Built-in ids (ORIGIN 0.0: the root's initial undefined value). */
  SYSTEM: 0,
  /** Server-clock documents and patches: every id has session 1. */
  SERVER: 1,
  /** Operations not attributed to a user (e.g. the default document of a schema). */
  GLOBAL: 2,
  /** Models not shared with other users. */
  LOCAL: 3,
  /** Session ids are capped at 53 bits. */
  MAX: 9007199254740991,
} as const;
