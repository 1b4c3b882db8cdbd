/**
 * Struct-of-arrays storage for span-index nodes: a node is an integer id, its fields live
 * in parallel typed arrays. A million items cost ~31 MB and no per-item JS object.
 *
 * Children form a singly linked list (`firstChild`, `nextSibling`) so a depth-first walk
 * records each byte once; a map stores key and value alternately (the key has Flag.key).
 */
export class SpanStore {
  size = 0;
  kind: Uint8Array;
  flags: Uint8Array;
  /** Header bytes: initial byte plus argument bytes (CBOR / MessagePack), opening token (JSON). */
  head: Uint8Array;
  start: Uint32Array;
  /** Exclusive end offset. For an incomplete node: where the walk stopped. */
  end: Uint32Array;
  parent: Int32Array;
  firstChild: Int32Array;
  nextSibling: Int32Array;
  /**
   * The header's argument: item count for containers (-1 when indefinite), byte length for
   * strings, tag number, simple value, ext type. Float64 holds integers exactly up to 2^53;
   * larger arguments are re-read from the bytes when a value is materialized.
   */
  arg: Float64Array;

  constructor(capacity = 256) {
    this.kind = this.flags = this.head = EMPTY_U8;
    this.start = this.end = EMPTY_U32;
    this.parent = this.firstChild = this.nextSibling = EMPTY_I32;
    this.arg = EMPTY_F64;
    this.allocate(Math.max(4, capacity | 0));
  }

  get capacity(): number {
    return this.kind.length;
  }

  /** Appends a node and returns its id; links it as the last child of `parent`. */
  add(kind: number, start: number, head: number, arg: number, parent: number, prevSibling: number): number {
    if (this.size === this.kind.length) this.allocate(this.kind.length * 2);
    // Fresh slots are already zero (flags) and -1 (links): see allocate().
    const id = this.size++;
    this.kind[id] = kind;
    this.head[id] = head;
    this.start[id] = start;
    this.end[id] = start + head;
    this.parent[id] = parent;
    this.arg[id] = arg;
    if (prevSibling >= 0) this.nextSibling[prevSibling] = id;
    else if (parent >= 0) this.firstChild[parent] = id;
    return id;
  }

  /**
   * (Re)allocates every field in one ArrayBuffer: one allocation instead of nine matters
   * for the many small frames of a busy socket. Existing nodes are copied.
   */
  private allocate(capacity: number): void {
    const { buffer, offset } = reserve(capacity * BYTES_PER_NODE);
    let o = offset;
    const take = <T extends Float64Array | Uint32Array | Int32Array | Uint8Array>(Type: new (b: ArrayBuffer, o: number, n: number) => T, old: T): T => {
      const view = new Type(buffer, o, capacity);
      o += capacity * view.BYTES_PER_ELEMENT;
      if (this.size) view.set(old.subarray(0, this.size) as never);
      return view;
    };
    // Widest elements first keeps every view aligned.
    this.arg = take(Float64Array, this.arg);
    this.start = take(Uint32Array, this.start);
    this.end = take(Uint32Array, this.end);
    this.parent = take(Int32Array, this.parent);
    this.firstChild = take(Int32Array, this.firstChild);
    this.nextSibling = take(Int32Array, this.nextSibling);
    this.firstChild.fill(-1, this.size);
    this.nextSibling.fill(-1, this.size);
    this.kind = take(Uint8Array, this.kind);
    this.flags = take(Uint8Array, this.flags);
    this.head = take(Uint8Array, this.head);
  }

  /** Bytes held by the typed arrays (for memory accounting in the UI). */
  get byteLength(): number {
    return this.capacity * BYTES_PER_NODE;
  }
}

const BYTES_PER_NODE = 8 + 4 * 5 + 3;

const EMPTY_U8 = new Uint8Array(0);
const EMPTY_U32 = new Uint32Array(0);
const EMPTY_I32 = new Int32Array(0);
const EMPTY_F64 = new Float64Array(0);

/**
 * Small stores are carved out of shared 256 KiB slabs: an ArrayBuffer allocation costs
 * more than indexing a small frame, and a busy socket sends thousands of them. A slab
 * lives while any store in it does (at most 256 KiB pinned by one long-lived small index);
 * stores over 16 KiB get a buffer of their own.
 */
const SLAB_BYTES = 256 * 1024;
const SLAB_MAX_REQUEST = 16 * 1024;
let slab = new ArrayBuffer(0);
let slabUsed = 0;

function reserve(bytes: number): { buffer: ArrayBuffer; offset: number } {
  if (bytes > SLAB_MAX_REQUEST) return { buffer: new ArrayBuffer(bytes), offset: 0 };
  if (slabUsed + bytes > slab.byteLength) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const offset = slabUsed;
  // Keep the next store's Float64Array 8-byte aligned.
  slabUsed += (bytes + 7) & ~7;
  return { buffer: slab, offset };
}
