/**
 * Struct-of-arrays storage for span-index nodes: a node is an integer id, its fields live
 * in parallel typed arrays. A million items cost ~31 MB and no per-item JS object.
 *
 * Children form a singly linked list (`firstChild`, `nextSibling`) so a depth-first walk
 * records each byte once; a map stores key and value alternately (the key has Flag.key).
 */
export class SpanStore {
  size = 0;
  /** Capacity in nodes; also the stride between the fields of one array. */
  cap = 0;
  /**
   * Packed storage, one region per field, in arrays that span a whole slab (shared with
   * the other stores carved from it; see `reserve`): node `id`'s start, end, parent,
   * firstChild and nextSibling are `slabI32[i32At + f * cap + id]` for f = 0..4; its kind,
   * flags and head are `slabU8[u8At + f * cap + id]` for f = 0..2; its arg is
   * `slabF64[f64At + id]`. Walkers write these directly. A store thus creates no typed
   * array of its own: three per store cost more than indexing a small frame, and a busy
   * socket sends thousands of those. Everyone else reads the named views below (and the
   * per-store `i32` / `u8` / `f64`), which are made on first use.
   */
  slab: ArrayBuffer = EMPTY_BUFFER;
  slabI32: Int32Array = EMPTY_I32;
  slabU8: Uint8Array = EMPTY_U8;
  slabF64: Float64Array = EMPTY_F64;
  i32At = 0;
  u8At = 0;
  f64At = 0;

  /** The typed arrays below, made on first use: a store that is only walked makes none. */
  private views: StoreViews | null = null;
  // The packed per-store arrays are read while walkers record (duplicates.ts), so they are
  // kept here rather than behind `views`.
  private i32View: Int32Array | null = null;
  private u8View: Uint8Array | null = null;

  constructor(capacity = 256) {
    this.allocate(Math.max(4, capacity | 0));
  }

  get capacity(): number {
    return this.cap;
  }

  // Views are made from the buffer (`subarray` and a typed array's `buffer` cost about twice as much).
  /** This store's int32 fields: start | end | parent | firstChild | nextSibling, `cap` entries each. */
  get i32(): Int32Array {
    return this.i32View ?? (this.i32View = new Int32Array(this.slab, 4 * this.i32At, 5 * this.cap));
  }
  /** This store's byte fields: kind | flags | head, `cap` entries each. */
  get u8(): Uint8Array {
    return this.u8View ?? (this.u8View = new Uint8Array(this.slab, this.u8At, 3 * this.cap));
  }
  /** This store's arg field (the same array as `arg`). */
  get f64(): Float64Array {
    const v = this.viewCache();
    return v.f64 ?? (v.f64 = new Float64Array(this.slab, 8 * this.f64At, this.cap));
  }
  /** Node kind (see kinds.ts). */
  get kind(): Uint8Array {
    const v = this.viewCache();
    return v.kind ?? (v.kind = new Uint8Array(this.slab, this.u8At, this.cap));
  }
  /** Flag bits (see kinds.ts). */
  get flags(): Uint8Array {
    const v = this.viewCache();
    return v.flags ?? (v.flags = new Uint8Array(this.slab, this.u8At + this.cap, this.cap));
  }
  /** Header bytes: initial byte plus argument bytes (CBOR / MessagePack), opening token (JSON). */
  get head(): Uint8Array {
    const v = this.viewCache();
    return v.head ?? (v.head = new Uint8Array(this.slab, this.u8At + 2 * this.cap, this.cap));
  }
  get start(): Uint32Array {
    const v = this.viewCache();
    return v.start ?? (v.start = new Uint32Array(this.slab, 4 * this.i32At, this.cap));
  }
  /** Exclusive end offset. For an incomplete node: where the walk stopped. */
  get end(): Uint32Array {
    const v = this.viewCache();
    return v.end ?? (v.end = new Uint32Array(this.slab, 4 * (this.i32At + this.cap), this.cap));
  }
  get parent(): Int32Array {
    const v = this.viewCache();
    return v.parent ?? (v.parent = new Int32Array(this.slab, 4 * (this.i32At + 2 * this.cap), this.cap));
  }
  get firstChild(): Int32Array {
    const v = this.viewCache();
    return v.firstChild ?? (v.firstChild = new Int32Array(this.slab, 4 * (this.i32At + 3 * this.cap), this.cap));
  }
  get nextSibling(): Int32Array {
    const v = this.viewCache();
    return v.nextSibling ?? (v.nextSibling = new Int32Array(this.slab, 4 * (this.i32At + 4 * this.cap), this.cap));
  }
  /**
   * The header's argument: item count for containers (-1 when indefinite), byte length for
   * strings, tag number, simple value, ext type. Float64 holds integers exactly up to 2^53;
   * larger arguments are re-read from the bytes when a value is materialized.
   */
  get arg(): Float64Array {
    return this.f64;
  }

  private viewCache(): StoreViews {
    return this.views ?? (this.views = new StoreViews());
  }

  /**
   * Bytes in the frame (SpanIndex sets it): with the offset a walk has reached, it lets
   * `growFor` extrapolate how many nodes the frame will need.
   */
  frameLength = 0;

  /** Appends a node and returns its id; links it as the last child of `parent`. */
  add(kind: number, start: number, head: number, arg: number, parent: number, prevSibling: number): number {
    if (this.size === this.cap) this.growFor(start);
    // Slab memory is handed out once, so fresh slots are zero and flags start clear; links
    // start at -1 (none) here, per node, rather than over the whole capacity (most small
    // frames use a fraction of it).
    const id = this.size++;
    const c = this.cap;
    const i32 = this.slabI32;
    const u8 = this.slabU8;
    const i = this.i32At + id;
    const b = this.u8At + id;
    u8[b] = kind;
    u8[b + 2 * c] = head;
    i32[i] = start;
    i32[i + c] = start + head;
    i32[i + 2 * c] = parent;
    i32[i + 3 * c] = -1;
    i32[i + 4 * c] = -1;
    this.slabF64[this.f64At + id] = arg;
    if (prevSibling >= 0) i32[this.i32At + 4 * c + prevSibling] = id;
    else if (parent >= 0) i32[this.i32At + 3 * c + parent] = id;
    return id;
  }

  /**
   * Makes room for more nodes: to `capacity` when given (a walker that can estimate how many
   * nodes the frame holds passes its estimate), else double. Walkers that write the arrays
   * directly call this when the store is full.
   */
  grow(capacity = 0): void {
    this.allocate(Math.max(capacity > this.cap ? capacity | 0 : this.cap * 2, this.cap + 1));
  }

  /**
   * Grows a full store whose walk has reached byte `pos` to the nodes the whole frame will
   * likely need at the density seen so far, with a margin for the part not yet seen (a quarter
   * of it denser still early in the frame, a twentieth near its end): one growth instead of
   * a series of doublings, each of which copies every node into fresh memory (fresh memory
   * is most of what indexing a number-dense frame costs), and little to trim at the end.
   * At least a quarter more, at most eight times as many, never more than one node per byte.
   */
  growFor(pos: number): void {
    const c = this.cap;
    const len = this.frameLength;
    if (len === 0) return this.grow();
    const seen = pos > 0 && pos < len ? Math.ceil(((this.size * len) / pos) * (1.05 + (0.25 * (len - pos)) / len)) : 0;
    this.grow(Math.max(c + (c >> 2) + 16, Math.min(seen, c * 8, len + 1)));
  }

  /**
   * Gives back the capacity the walk did not use, when more than a fifth of it is empty (a
   * node then costs at most BYTES_PER_NODE * 5 / 4, under 40 bytes, instead of up to twice
   * BYTES_PER_NODE or more). A store with a buffer of its own is copied into one of its
   * size; a store at the end of the current slab is compacted in place and the slab takes
   * the rest back (zeroed: slab memory is handed out zeroed), so the next frame's store
   * reuses memory already in cache instead of fresh slab memory, which cost small frames
   * more than their walk. Called when the first walk of a frame ends.
   */
  trim(): void {
    const cap = this.cap;
    const n = Math.max(this.size, 4); // as the constructor
    if ((cap - n) * 5 <= cap) return;
    const bytes = cap * BYTES_PER_NODE;
    if (bytes > SLAB_MAX_REQUEST) {
      this.allocate(n);
      return;
    }
    const offset = this.f64At << 3;
    if (this.slab !== slab || offset + ((bytes + 7) & ~7) !== slabUsed) return;
    // New layout at the same offset with stride n: every field region moves down, so
    // moving them in order (int32 fields, then byte fields, which start after them all)
    // never overwrites data not yet moved.
    const size = this.size;
    const i32At = (offset >> 2) + 2 * n;
    const u8At = offset + 28 * n;
    const i32 = this.slabI32;
    const u8 = this.slabU8;
    for (let f = 0; f < 5; f++) i32.copyWithin(i32At + f * n, this.i32At + f * cap, this.i32At + f * cap + size);
    for (let f = 0; f < 3; f++) u8.copyWithin(u8At + f * n, this.u8At + f * cap, this.u8At + f * cap + size);
    // Unused slots of the new layout (a store of under four nodes) and the tail go back zeroed.
    for (let f = 0; f < 3; f++) u8.fill(0, u8At + f * n + size, u8At + (f + 1) * n);
    const used = (BYTES_PER_NODE * n + 7) & ~7;
    u8.fill(0, offset + BYTES_PER_NODE * n, offset + bytes);
    slabUsed = offset + used;
    this.i32At = i32At;
    this.u8At = u8At;
    this.cap = n;
    this.views = null;
    this.i32View = this.u8View = null;
  }

  /** Sets the exclusive end offset of node `id`. */
  setEnd(id: number, end: number): void {
    this.slabI32[this.i32At + this.cap + id] = end;
  }
  endOf(id: number): number {
    return this.slabI32[this.i32At + this.cap + id];
  }
  /** Sets flag bits of node `id`. */
  addFlags(id: number, bits: number): void {
    this.slabU8[this.u8At + this.cap + id] |= bits;
  }
  setArg(id: number, arg: number): void {
    this.slabF64[this.f64At + id] = arg;
  }

  /**
   * (Re)allocates the packed region and copies existing nodes; views made before are
   * dropped (read the fields again after adding nodes).
   */
  private allocate(capacity: number): void {
    const offset = reserve(capacity * BYTES_PER_NODE);
    const f64At = offset >> 3;
    const i32At = (offset >> 2) + 2 * capacity;
    const u8At = offset + 28 * capacity;
    const n = this.size;
    if (n) {
      const old = this.cap;
      copyFields(this.slabF64, this.f64At, old, reservedF64, f64At, capacity, 1, n);
      copyFields(this.slabI32, this.i32At, old, reservedI32, i32At, capacity, 5, n);
      copyFields(this.slabU8, this.u8At, old, reservedU8, u8At, capacity, 3, n);
    }
    this.slab = reservedBuffer;
    this.slabF64 = reservedF64;
    this.slabI32 = reservedI32;
    this.slabU8 = reservedU8;
    // The module does not keep the buffer past this call: after the store is dropped, a
    // large one must go with it (not stay until the next frame is indexed).
    releaseReserved();
    this.f64At = f64At;
    this.i32At = i32At;
    this.u8At = u8At;
    this.cap = capacity;
    this.views = null;
    this.i32View = this.u8View = null;
  }

  /** Bytes held by the typed arrays (for memory accounting in the UI). */
  get byteLength(): number {
    return this.cap * BYTES_PER_NODE;
  }
}

/** A store's typed arrays over its region (see SpanStore), made one by one on first use. */
class StoreViews {
  f64: Float64Array | null = null;
  kind: Uint8Array | null = null;
  flags: Uint8Array | null = null;
  head: Uint8Array | null = null;
  start: Uint32Array | null = null;
  end: Uint32Array | null = null;
  parent: Int32Array | null = null;
  firstChild: Int32Array | null = null;
  nextSibling: Int32Array | null = null;
}

/** Copies the first `n` entries of each of `fields` regions from one packed layout to another. */
function copyFields<T extends Int32Array | Uint8Array | Float64Array>(
  from: T,
  fromAt: number,
  fromStride: number,
  to: T,
  toAt: number,
  toStride: number,
  fields: number,
  n: number,
): void {
  for (let f = 0; f < fields; f++) {
    const src = fromAt + f * fromStride;
    const dst = toAt + f * toStride;
    // Within one slab (most growths) no subarray is needed to copy from.
    if (from === to) to.copyWithin(dst, src, src + n);
    else to.set(from.subarray(src, src + n), dst);
  }
}

const BYTES_PER_NODE = 8 + 4 * 5 + 3;

const EMPTY_BUFFER = new ArrayBuffer(0);
const EMPTY_U8 = new Uint8Array(0);
const EMPTY_I32 = new Int32Array(0);
const EMPTY_F64 = new Float64Array(0);

/**
 * Small stores are carved out of shared 256 KiB slabs: an ArrayBuffer allocation costs
 * more than indexing a small frame, and a busy socket sends thousands of them. A slab
 * lives while any store in it does (at most 256 KiB pinned by one long-lived small index);
 * stores over 16 KiB get a buffer of their own. Each slab has one array per element type
 * over all of it, which its stores index at their offsets.
 */
const SLAB_BYTES = 256 * 1024;
const SLAB_MAX_REQUEST = 16 * 1024;
let slabUsed = SLAB_BYTES;
let slab = EMPTY_BUFFER;
let slabI32 = EMPTY_I32;
let slabU8 = EMPTY_U8;
let slabF64 = EMPTY_F64;
/**
 * The buffer of the last `reserve` (a slab, or a large store's own buffer) and arrays over
 * all of it: `reserve`'s second result, read and released (`releaseReserved`) right after.
 */
let reservedBuffer = EMPTY_BUFFER;
let reservedI32 = EMPTY_I32;
let reservedU8 = EMPTY_U8;
let reservedF64 = EMPTY_F64;

/**
 * A zeroed Float64Array for per-node data that lives beside a store (format annotations),
 * carved from the same slabs for the same reason.
 */
export function allocateFloat64(count: number): Float64Array {
  const offset = reserve(count * 8);
  const out = new Float64Array(reservedBuffer, offset, count);
  releaseReserved();
  return out;
}

function releaseReserved(): void {
  reservedBuffer = EMPTY_BUFFER;
  reservedI32 = EMPTY_I32;
  reservedU8 = EMPTY_U8;
  reservedF64 = EMPTY_F64;
}

/**
 * Reserves `bytes` of zeroed memory and returns their byte offset in the buffer under
 * `reservedI32` / `reservedU8` / `reservedF64` (no object per call: this runs per index).
 */
function reserve(bytes: number): number {
  if (bytes > SLAB_MAX_REQUEST) {
    // Rounded up to whole float64s, so all three arrays cover the buffer.
    const buffer = new ArrayBuffer((bytes + 7) & ~7);
    reservedBuffer = buffer;
    reservedI32 = new Int32Array(buffer);
    reservedU8 = new Uint8Array(buffer);
    reservedF64 = new Float64Array(buffer);
    return 0;
  }
  if (slabUsed + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabI32 = new Int32Array(slab);
    slabU8 = new Uint8Array(slab);
    slabF64 = new Float64Array(slab);
    slabUsed = 0;
  }
  reservedBuffer = slab;
  reservedI32 = slabI32;
  reservedU8 = slabU8;
  reservedF64 = slabF64;
  const offset = slabUsed;
  // Keep the next store's Float64Array 8-byte aligned.
  slabUsed += (bytes + 7) & ~7;
  return offset;
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
