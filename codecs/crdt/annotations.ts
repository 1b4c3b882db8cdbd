import type { SpanIndex } from '../core/span-index.js';
import { allocateFloat64 } from '../core/span-store.js';

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
  /** sid | time | span, `cap` entries each, in one slab-carved region (NaN = not set). */
  private region: Float64Array;
  private cap: number;
  private sidView: Float64Array | null = null;
  private timeView: Float64Array | null = null;
  private spanView: Float64Array | null = null;

  constructor(capacity = 16) {
    this.cap = Math.max(4, capacity | 0);
    // One region for the three fields: small frames are indexed by the thousand, and
    // three ArrayBuffers (or even three views) cost more than walking such a frame.
    this.region = allocateFloat64(3 * this.cap).fill(NaN);
  }

  get capacity(): number {
    return this.cap;
  }

  /** Session ids by node (views made on first read; re-read after nodes are added). */
  get sid(): Float64Array {
    return this.sidView ?? (this.sidView = this.region.subarray(0, this.cap));
  }
  get time(): Float64Array {
    return this.timeView ?? (this.timeView = this.region.subarray(this.cap, 2 * this.cap));
  }
  get span(): Float64Array {
    return this.spanView ?? (this.spanView = this.region.subarray(2 * this.cap, 3 * this.cap));
  }

  /** Makes room for node id `id` (call before writing the arrays directly). */
  ensure(id: number): void {
    const cap = this.cap;
    if (id < cap) return;
    let next = cap * 2;
    while (next <= id) next *= 2;
    const region = allocateFloat64(3 * next).fill(NaN);
    for (let field = 0; field < 3; field++)
      region.set(this.region.subarray(field * cap, (field + 1) * cap), field * next);
    this.region = region;
    this.cap = next;
    this.sidView = this.timeView = this.spanView = null;
  }

  /** Records node `id`'s timestamp. */
  set(id: number, sid: number, time: number): void {
    this.ensure(id);
    this.region[id] = sid;
    this.region[this.cap + id] = time;
  }

  /** Records node `id`'s span. */
  setSpan(id: number, span: number): void {
    this.ensure(id);
    this.region[2 * this.cap + id] = span;
  }
}

/** A logical timestamp: session id and time. */
export interface CrdtId {
  readonly sid: number;
  readonly time: number;
}

/** The annotations of an index, kept in its `formatData` slot, created (empty) on first use. */
export function crdtAnnotations(index: SpanIndex): CrdtAnnotations {
  let a = table(index);
  if (!a) {
    // Small at first, grown on demand: format detection tries this walker on every frame,
    // and a capacity-sized NaN fill per attempt was most of the cost of rejecting one.
    a = new CrdtAnnotations(16);
    index.formatData = a;
  }
  return a;
}

function table(index: SpanIndex): CrdtAnnotations | null {
  return index.formatData instanceof CrdtAnnotations ? index.formatData : null;
}

/** The timestamp recorded for node `id`, or null (not a node, or none recorded). */
export function crdtIdOf(index: SpanIndex, id: number): CrdtId | null {
  const a = table(index);
  if (!a || !index.has(id) || id >= a.capacity) return null;
  const sid = a.sid[id];
  const time = a.time[id];
  if (Number.isNaN(sid) || Number.isNaN(time)) return null;
  return { sid, time };
}

/** The span recorded for node `id`, or null. */
export function crdtSpanOf(index: SpanIndex, id: number): number | null {
  const a = table(index);
  if (!a || !index.has(id) || id >= a.capacity) return null;
  const span = a.span[id];
  return Number.isNaN(span) ? null : span;
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
