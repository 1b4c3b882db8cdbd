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
    // Widest elements first keeps every view aligned. Written out (no helper taking the
    // constructor) so each `new` site stays monomorphic: this runs for every frame.
    const arg = new Float64Array(buffer, offset, capacity);
    let o = offset + capacity * 8;
    const start = new Uint32Array(buffer, o, capacity);
    o += capacity * 4;
    const end = new Uint32Array(buffer, o, capacity);
    o += capacity * 4;
    const parent = new Int32Array(buffer, o, capacity);
    o += capacity * 4;
    const firstChild = new Int32Array(buffer, o, capacity);
    o += capacity * 4;
    const nextSibling = new Int32Array(buffer, o, capacity);
    o += capacity * 4;
    const kind = new Uint8Array(buffer, o, capacity);
    const flags = new Uint8Array(buffer, o + capacity, capacity);
    const head = new Uint8Array(buffer, o + 2 * capacity, capacity);
    const n = this.size;
    if (n) {
      arg.set(this.arg.subarray(0, n));
      start.set(this.start.subarray(0, n));
      end.set(this.end.subarray(0, n));
      parent.set(this.parent.subarray(0, n));
      firstChild.set(this.firstChild.subarray(0, n));
      nextSibling.set(this.nextSibling.subarray(0, n));
      kind.set(this.kind.subarray(0, n));
      flags.set(this.flags.subarray(0, n));
      head.set(this.head.subarray(0, n));
    }
    // No links yet. A plain loop beats fill() on the small stores most frames get.
    if (capacity - n <= 256) {
      for (let i = n; i < capacity; i++) firstChild[i] = nextSibling[i] = -1;
    } else {
      firstChild.fill(-1, n);
      nextSibling.fill(-1, n);
    }
    this.arg = arg;
    this.start = start;
    this.end = end;
    this.parent = parent;
    this.firstChild = firstChild;
    this.nextSibling = nextSibling;
    this.kind = kind;
    this.flags = flags;
    this.head = head;
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
