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
    capacity = Math.max(16, capacity | 0);
    this.kind = new Uint8Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.head = new Uint8Array(capacity);
    this.start = new Uint32Array(capacity);
    this.end = new Uint32Array(capacity);
    this.parent = new Int32Array(capacity);
    this.firstChild = new Int32Array(capacity);
    this.nextSibling = new Int32Array(capacity);
    this.arg = new Float64Array(capacity);
  }

  get capacity(): number {
    return this.kind.length;
  }

  /** Appends a node and returns its id; links it as the last child of `parent`. */
  add(kind: number, start: number, head: number, arg: number, parent: number, prevSibling: number): number {
    if (this.size === this.kind.length) this.grow();
    const id = this.size++;
    this.kind[id] = kind;
    this.flags[id] = 0;
    this.head[id] = head;
    this.start[id] = start;
    this.end[id] = start + head;
    this.parent[id] = parent;
    this.firstChild[id] = -1;
    this.nextSibling[id] = -1;
    this.arg[id] = arg;
    if (prevSibling >= 0) this.nextSibling[prevSibling] = id;
    else if (parent >= 0) this.firstChild[parent] = id;
    return id;
  }

  private grow(): void {
    const capacity = this.kind.length * 2;
    const grown = <T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(capacity);
      b.set(a);
      return b;
    };
    this.kind = grown(this.kind);
    this.flags = grown(this.flags);
    this.head = grown(this.head);
    this.start = grown(this.start);
    this.end = grown(this.end);
    this.parent = grown(this.parent);
    this.firstChild = grown(this.firstChild);
    this.nextSibling = grown(this.nextSibling);
    this.arg = grown(this.arg);
  }

  /** Bytes held by the typed arrays (for memory accounting in the UI). */
  get byteLength(): number {
    return this.capacity * 31;
  }
}
