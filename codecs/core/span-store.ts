/**
 * Struct-of-arrays storage for span-index nodes: a node is an integer id, its fields live
 * in parallel typed arrays. A million items cost ~31 MB and no per-item JS object.
 *
 * Children form a singly linked list (`firstChild`, `nextSibling`) so a depth-first walk
 * records each byte once; a map stores key and value alternately (the key has Flag.key).
 */
export class SpanStore {
  size = 0;
  /**
   * Packed storage, one region per field: `i32` holds start | end | parent | firstChild |
   * nextSibling, `cap` entries each; `u8` holds kind | flags | head; `f64` holds arg.
   * Walkers write these directly; everyone else reads the named views below, which are
   * made on first use. Three typed arrays per store instead of nine: views cost more than
   * indexing a small frame, and a busy socket sends thousands of those.
   */
  i32: Int32Array;
  u8: Uint8Array;
  f64: Float64Array;
  /** Capacity in nodes; also the stride between the fields of `i32` and `u8`. */
  cap = 0;

  private kindView: Uint8Array | null = null;
  private flagsView: Uint8Array | null = null;
  private headView: Uint8Array | null = null;
  private startView: Uint32Array | null = null;
  private endView: Uint32Array | null = null;
  private parentView: Int32Array | null = null;
  private firstChildView: Int32Array | null = null;
  private nextSiblingView: Int32Array | null = null;

  constructor(capacity = 256) {
    this.i32 = EMPTY_I32;
    this.u8 = EMPTY_U8;
    this.f64 = EMPTY_F64;
    this.allocate(Math.max(4, capacity | 0));
  }

  get capacity(): number {
    return this.cap;
  }

  /** Node kind (see kinds.ts). */
  get kind(): Uint8Array {
    return this.kindView ?? (this.kindView = this.u8.subarray(0, this.cap));
  }
  /** Flag bits (see kinds.ts). */
  get flags(): Uint8Array {
    return this.flagsView ?? (this.flagsView = this.u8.subarray(this.cap, 2 * this.cap));
  }
  /** Header bytes: initial byte plus argument bytes (CBOR / MessagePack), opening token (JSON). */
  get head(): Uint8Array {
    return this.headView ?? (this.headView = this.u8.subarray(2 * this.cap, 3 * this.cap));
  }
  get start(): Uint32Array {
    return this.startView ?? (this.startView = new Uint32Array(this.i32.buffer, this.i32.byteOffset, this.cap));
  }
  /** Exclusive end offset. For an incomplete node: where the walk stopped. */
  get end(): Uint32Array {
    return this.endView ?? (this.endView = new Uint32Array(this.i32.buffer, this.i32.byteOffset + 4 * this.cap, this.cap));
  }
  get parent(): Int32Array {
    return this.parentView ?? (this.parentView = this.i32.subarray(2 * this.cap, 3 * this.cap));
  }
  get firstChild(): Int32Array {
    return this.firstChildView ?? (this.firstChildView = this.i32.subarray(3 * this.cap, 4 * this.cap));
  }
  get nextSibling(): Int32Array {
    return this.nextSiblingView ?? (this.nextSiblingView = this.i32.subarray(4 * this.cap, 5 * this.cap));
  }
  /**
   * The header's argument: item count for containers (-1 when indefinite), byte length for
   * strings, tag number, simple value, ext type. Float64 holds integers exactly up to 2^53;
   * larger arguments are re-read from the bytes when a value is materialized.
   */
  get arg(): Float64Array {
    return this.f64;
  }

  /** Appends a node and returns its id; links it as the last child of `parent`. */
  add(kind: number, start: number, head: number, arg: number, parent: number, prevSibling: number): number {
    if (this.size === this.cap) this.allocate(this.cap * 2);
    // Fresh slots are zero, so flags start clear; links start at -1 (none) here, per node,
    // rather than over the whole capacity (most small frames use a fraction of it).
    const id = this.size++;
    const c = this.cap;
    const i32 = this.i32;
    const u8 = this.u8;
    u8[id] = kind;
    u8[2 * c + id] = head;
    i32[id] = start;
    i32[c + id] = start + head;
    i32[2 * c + id] = parent;
    i32[3 * c + id] = -1;
    i32[4 * c + id] = -1;
    this.f64[id] = arg;
    if (prevSibling >= 0) i32[4 * c + prevSibling] = id;
    else if (parent >= 0) i32[3 * c + parent] = id;
    return id;
  }

  /**
   * (Re)allocates the three packed arrays in one ArrayBuffer region and copies existing
   * nodes; views made before are dropped (read the fields again after adding nodes).
   */
  private allocate(capacity: number): void {
    const { buffer, offset } = reserve(capacity * BYTES_PER_NODE);
    const f64 = new Float64Array(buffer, offset, capacity);
    const i32 = new Int32Array(buffer, offset + 8 * capacity, 5 * capacity);
    const u8 = new Uint8Array(buffer, offset + 28 * capacity, 3 * capacity);
    const n = this.size;
    const old = this.cap;
    if (n) {
      f64.set(this.f64.subarray(0, n));
      for (let field = 0; field < 5; field++) i32.set(this.i32.subarray(field * old, field * old + n), field * capacity);
      for (let field = 0; field < 3; field++) u8.set(this.u8.subarray(field * old, field * old + n), field * capacity);
    }
    this.f64 = f64;
    this.i32 = i32;
    this.u8 = u8;
    this.cap = capacity;
    this.kindView = this.flagsView = this.headView = null;
    this.startView = this.endView = null;
    this.parentView = this.firstChildView = this.nextSiblingView = null;
  }

  /** Bytes held by the typed arrays (for memory accounting in the UI). */
  get byteLength(): number {
    return this.cap * BYTES_PER_NODE;
  }
}

const BYTES_PER_NODE = 8 + 4 * 5 + 3;

const EMPTY_U8 = new Uint8Array(0);
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

/**
 * A zeroed Float64Array for per-node data that lives beside a store (format annotations),
 * carved from the same slabs for the same reason.
 */
export function allocateFloat64(count: number): Float64Array {
  const { buffer, offset } = reserve(count * 8);
  return new Float64Array(buffer, offset, count);
}

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

/**
 * The recorded subtree of `id` with every node after all of its descendants (post-order),
 * without recursion: value builders walk it to build children before their parents.
 */
export function postOrder(store: SpanStore, id: number): number[] {
  const { firstChild, nextSibling } = store;
  const stack = [id];
  const order: number[] = [];
  while (stack.length) {
    const n = stack.pop()!;
    order.push(n);
    for (let c = firstChild[n]; c >= 0; c = nextSibling[c]) stack.push(c);
  }
  return order.reverse();
}
