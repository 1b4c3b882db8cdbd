import { Flag, Kind, isContainerKind, kindName, type KindName } from './kinds.js';
import { SpanStore, postOrder } from './span-store.js';
import type { DecodeError, DecodeWarning } from './errors.js';
import { EntriesMap, setOwn } from './values.js';
import { releaseByteView } from './utf8.js';
import type { FRAME_FORMATS } from './frame-formats.js';

export type FormatName = (typeof FRAME_FORMATS)[number];

/** A child named by its role rather than its position. */
export interface ChildName {
  /** `id`, `ops[3]`, `obj`, `values[0]`: the tree label. */
  readonly label: string;
  /** The path step: `.ops[3]`. */
  readonly path: string;
  /** The JSON Pointer step: `/ops/3`. */
  readonly pointer: string;
}

/** A node's one-line preview of at most `max` characters (core/describe.ts's `previewValue`). */
export type Preview = (index: SpanIndex, id: number, max: number) => string;

/**
 * What each format contributes: a validating walker that records nodes into the store,
 * and the value of a leaf node. Everything else (expansion, views, values of containers,
 * attribution) is shared.
 */
export interface FormatWalker {
  readonly format: FormatName;
  /**
   * Walks the root item at offset 0 (`node` = -1) or the children of an existing node,
   * recording nodes `depth` levels below it; deeper subtrees are still fully validated,
   * only not recorded. Never throws: sets `index.error` and marks open nodes incomplete.
   */
  walk(index: SpanIndex, node: number, depth: number): void;
  /** The value of a complete leaf (non-container) node. */
  leafValue(index: SpanIndex, node: number): unknown;
  /** The value of a tag from its content's value (bignum -> bigint, ...). */
  tagValue?(index: SpanIndex, node: number, content: unknown): unknown;
  /**
   * The value of any node, when the format defines its own (a CRDT node's value is its
   * document view, not a list of its children). Used by `SpanIndex.value` instead of the
   * generic containers-from-children rule.
   */
  value?(index: SpanIndex, node: number): unknown;
  /** The node's header in words (`obj 1.5`, `ins_str 2.8`), when the generic one does not fit. */
  describe?(index: SpanIndex, node: number): string;
  /**
   * The format whose rules the node's bytes follow, when it is not the index's own (a
   * framing protocol's JSON payload: its strings are JSON strings, with quotes and escapes).
   */
  nodeFormat?(index: SpanIndex, node: number): FormatName;
  /** A one-line preview of the node's value, at most `max` characters. */
  preview?(index: SpanIndex, node: number, max: number): string;
  /** Extra fields for the node in machine-readable output (ids, spans, byte splits). */
  details?(index: SpanIndex, node: number): Record<string, unknown>;
  /**
   * The name of a child that has no key, where the format names children by their role
   * (json-joy's `id`, `ops[2]`, `after`, `values[0]`), or null where its position names it.
   * Paths, tree labels and field patterns ask this; without it every such child is a position.
   */
  childName?(index: SpanIndex, node: number): ChildName | null;
  /** What a tag's single child is, for its row label (`epoch seconds`, `UUID bytes`, `content`). */
  tagContentLabel?(index: SpanIndex, tag: number): string;
  /**
   * A tag's one-line preview, at most about `max` characters: its meaning for tags the format
   * knows (dates, bignums, UUIDs), `N(content)` otherwise. `preview` previews any other node.
   */
  tagPreview?(index: SpanIndex, tag: number, max: number, preview: Preview): string;
  /**
   * Nodes to allocate up front for a frame walked to `depth`, when the format knows better
   * than the generic guess (undefined: use the generic guess).
   */
  capacityHint?(bytes: Uint8Array, depth: number): number | undefined;
}

export interface IndexOptions {
  /** Levels recorded below the root: 1 = the root's children. Default: everything. */
  depth?: number;
}

/**
 * A validated, lazily expanded index of one frame: every recorded node has kind, start,
 * end (exclusive) and header length. After construction the whole frame has been walked
 * with bounds checks, so `error` and the root's extent are known even at depth 0.
 */
export class SpanIndex {
  readonly store: SpanStore;
  error: DecodeError | null = null;
  readonly warnings: DecodeWarning[] = [];
  /** Per-node data a format keeps beside the store (json-joy ids and spans); owned by its walker. */
  formatData: unknown = null;

  readonly bytes: Uint8Array;

  constructor(
    bytes: Uint8Array,
    readonly walker: FormatWalker,
    options: IndexOptions = {},
  ) {
    // A Node Buffer (or other subclass) becomes a plain view: byte reads stay monomorphic
    // and `slice` copies (Buffer's `slice` would alias the frame).
    this.bytes =
      bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const depth = options.depth ?? Infinity;
    this.store = new SpanStore(walker.capacityHint?.(this.bytes, depth) ?? initialCapacity(bytes.length, depth));
    this.store.frameLength = bytes.length;
    try {
      walker.walk(this, -1, depth);
    } catch (e) {
      this.fail('internal', 0, `internal decoder error: ${(e as Error)?.message ?? e}`);
    }
    // Memory: the store gives back what the walk did not use, and no module keeps the frame.
    this.store.trim();
    releaseByteView();
  }

  get format(): FormatName {
    return this.walker.format;
  }

  /** The root node's id, or -1 when not even the root's header decoded. */
  get root(): number {
    return this.store.size > 0 ? 0 : -1;
  }

  get ok(): boolean {
    return this.error === null;
  }

  /** Records the first fatal error; later ones (from re-walking the same bytes) are the same error. */
  fail(code: DecodeError['code'], offset: number, message: string): void {
    if (!this.error) this.error = { code, offset, message: `${message} at byte ${offset}` };
  }

  warn(warning: DecodeWarning): void {
    this.warnings.push(warning);
  }

  kind(id: number): KindName {
    return kindName(this.store.kind[id]);
  }

  isContainer(id: number): boolean {
    const k = this.store.kind[id];
    return (
      isContainerKind(k) || ((k === Kind.bytes || k === Kind.text) && (this.store.flags[id] & Flag.indefinite) !== 0)
    );
  }

  isExpanded(id: number): boolean {
    return (this.store.flags[id] & Flag.expanded) !== 0;
  }

  isIncomplete(id: number): boolean {
    return (this.store.flags[id] & Flag.incomplete) !== 0;
  }

  /**
   * The node's head in bytes, one meaning in every format: the initial byte plus its length
   * or count argument (CBOR, MessagePack; a tag's number, an ext's length and type), or the
   * opening token (JSON's `[`, `{`, `"`). A scalar's value bytes are value, not head: a
   * CBOR float64 `fb …` or uint32 `1a …` has a 1-byte head as in MessagePack (the initial
   * byte, which for `05` or `f5` holds the value too), a JSON number or literal none.
   * Attribution, `--json`'s `head`, the UI tree and the hex tones use this. (`store.head`
   * is the walker's own bookkeeping, where a node's payload starts for re-reading: for CBOR
   * integers and floats it covers the value bytes as well.)
   */
  headerLength(id: number): number {
    if (!this.has(id)) return 0;
    const k = this.store.kind[id];
    if (k === Kind.number) return 0;
    // CBOR and MessagePack scalars start with their type byte; JSON literals and Protobuf
    // varints have none (a varint's first byte is value).
    if ((k >= Kind.float16 && k <= Kind.undefined) || k === Kind.uint || k === Kind.nint)
      return this.format === 'json' || this.format === 'ndjson' || this.format === 'protobuf' || this.format === 'yjs'
        ? 0
        : 1;
    return this.store.head[id];
  }

  /** True when `id` names a recorded node. */
  has(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.store.size;
  }

  /**
   * Throws a RangeError unless `id` names a recorded node. For helpers that describe one
   * node (paths, costs, descriptions, renderers): past the store's size its typed arrays
   * hold zeros, so an absent id reads as its own parent, first child and next sibling and
   * any walk along those links never ends.
   */
  requireNode(id: number, where: string): void {
    if (!this.has(id)) throw new RangeError(`${where}: node ${id} is not in this index (${this.store.size} nodes)`);
  }

  /**
   * Records the children of `id` (and `depth - 1` levels below them). Walks only the
   * subtrees not yet recorded. Iterative: no recursion however deep the frame nests.
   */
  expand(id: number, depth = 1): void {
    if (!this.has(id) || !(depth >= 1)) return;
    const pending = [id];
    const depths = [depth];
    while (pending.length) {
      const n = pending.pop()!;
      const d = depths.pop()!;
      if (!this.isExpanded(n)) {
        // One walk records the whole subtree down to `d` levels.
        if (this.isContainer(n)) this.walkSafely(n, d);
        continue;
      }
      if (d <= 1) continue;
      for (let c = this.store.firstChild[n]; c >= 0; c = this.store.nextSibling[c]) {
        if (this.isContainer(c)) {
          pending.push(c);
          depths.push(d - 1);
        }
      }
    }
  }

  /** Records the whole subtree of `id`. */
  expandAll(id: number): void {
    this.expand(id, Infinity);
  }

  private walkSafely(id: number, depth: number): void {
    try {
      this.walker.walk(this, id, depth);
    } catch (e) {
      this.fail('internal', this.store.start[id], `internal decoder error: ${(e as Error)?.message ?? e}`);
    }
    releaseByteView();
  }

  /** Child entries of a node: for a map, the values (use `keyOf` for their keys). Expands on demand. */
  children(id: number): number[] {
    if (!this.has(id)) return [];
    this.expand(id);
    const out: number[] = [];
    const { flags, firstChild, nextSibling } = this.store;
    for (let c = firstChild[id]; c >= 0; c = nextSibling[c]) if ((flags[c] & Flag.key) === 0) out.push(c);
    return out;
  }

  /** The key node of a map value (or of a CRDT object entry, or an ins_obj key), or -1. */
  keyOf(id: number): number {
    if (!this.has(id)) return -1;
    const parent = this.store.parent[id];
    if (parent < 0 || this.store.flags[id] & Flag.key) return -1;
    const pk = this.store.kind[parent];
    if (pk !== Kind.map && pk !== Kind.crdt_obj && pk !== Kind.crdt_op && pk !== Kind.pb_group) return -1;
    // Usually the key was recorded just before its value.
    if (this.store.nextSibling[id - 1] === id && this.store.flags[id - 1] & Flag.key) return id - 1;
    let prev = -1;
    for (let c = this.store.firstChild[parent]; c >= 0 && c !== id; c = this.store.nextSibling[c]) prev = c;
    return prev >= 0 && this.store.flags[prev] & Flag.key ? prev : -1;
  }

  /**
   * The deepest node whose span contains `offset`, expanding lazily on the way down. Each
   * step records one level; where the path runs through a chain (the child holds nearly all
   * of its parent's bytes) it records more levels at once, so a deeply nested frame costs
   * O(n log n), not O(n^2), to click into.
   */
  nodeAt(offset: number): number {
    let id = this.root;
    if (id < 0 || !(offset >= this.store.start[id] && offset < this.store.end[id])) return -1;
    let depth = 1;
    for (;;) {
      // Walk only at the frontier of what is recorded, with the depth the path earned.
      if (!this.isExpanded(id)) this.expand(id, depth);
      let next = -1;
      for (let c = this.store.firstChild[id]; c >= 0; c = this.store.nextSibling[c]) {
        if (offset >= this.store.start[c] && offset < this.store.end[c]) {
          next = c;
          break;
        }
      }
      if (next < 0) return id;
      const parentSize = this.store.end[id] - this.store.start[id];
      const childSize = this.store.end[next] - this.store.start[next];
      depth = childSize * 8 >= parentSize * 7 ? Math.min(depth * 2, 4096) : 1;
      id = next;
    }
  }

  /**
   * The value of a node. Containers are built from the recorded children (so values share
   * the walker's validation); an incomplete node yields the part that decoded. Iterative.
   */
  value(id: number): unknown {
    if (!this.has(id)) return undefined;
    if (this.walker.value) return this.walker.value(this, id);
    this.expandAll(id);
    const { kind, flags, firstChild, nextSibling } = this.store;
    const results = new Map<number, unknown>();
    // Children are built before their parent.
    for (const n of postOrder(this.store, id)) {
      if (!this.isContainer(n)) {
        if (!(flags[n] & Flag.incomplete)) results.set(n, this.walker.leafValue(this, n));
        continue;
      }
      const items: unknown[] = [];
      for (let c = firstChild[n]; c >= 0; c = nextSibling[c]) {
        items.push(results.has(c) ? results.get(c) : undefined);
        results.delete(c);
      }
      results.set(n, this.buildContainer(n, kind[n], items));
    }
    return results.get(id);
  }

  private buildContainer(id: number, k: number, items: unknown[]): unknown {
    if (k === Kind.map || k === Kind.pb_group) return buildMap(items);
    if (k === Kind.bytes || k === Kind.text) {
      // Indefinite-length string: the concatenation of its chunks.
      // A chunk cut off by an error is missing (undefined): keep the chunks that decoded.
      const chunks = items.filter((c) => c !== undefined);
      if (k === Kind.text) return chunks.join('');
      const total = chunks.reduce<number>((s, c) => s + (c as Uint8Array).length, 0);
      const out = new Uint8Array(total);
      let o = 0;
      for (const c of chunks as Uint8Array[]) {
        out.set(c, o);
        o += c.length;
      }
      return out;
    }
    if (k === Kind.tag) return this.walker.tagValue ? this.walker.tagValue(this, id, items[0]) : items[0];
    return items;
  }
}

/**
 * Fresh memory costs page faults (~50 µs per MB), so the store starts near the nodes a
 * frame will likely need rather than the worst case (one node per byte): small frames at
 * one node per byte up to 128 bytes (growing costs more than the
 * slack) and per two bytes up to 512, big ones at one per sixteen (real payloads carry strings), and
 * a depth-limited index at 64. The store doubles when a frame needs more.
 */
function initialCapacity(length: number, depth: number): number {
  if (length <= 128) return length + 1;
  if (length <= 512) return (length >> 1) + 8;
  return depth !== Infinity ? 64 : Math.min(length >> 4, 1 << 18);
}

function buildMap(items: unknown[]): unknown {
  let stringKeys = true;
  for (let i = 0; i < items.length; i += 2) {
    if (typeof items[i] !== 'string') {
      stringKeys = false;
      break;
    }
  }
  if (stringKeys) {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < items.length; i += 2) {
      const key = items[i] as string;
      if (Object.hasOwn(obj, key)) return entries(items);
      setOwn(obj, key, items[i + 1]);
    }
    return obj;
  }
  const map = new Map<unknown, unknown>();
  for (let i = 0; i < items.length; i += 2) {
    // A Map compares keys with SameValueZero and stores a -0 key as 0: keep the sign.
    if (map.has(items[i]) || Object.is(items[i], -0)) return entries(items);
    map.set(items[i], items[i + 1]);
  }
  return map;
}

function entries(items: unknown[]): EntriesMap {
  const out: [unknown, unknown][] = [];
  for (let i = 0; i < items.length; i += 2) out.push([items[i], items[i + 1]]);
  return new EntriesMap(out);
}
