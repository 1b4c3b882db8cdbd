/** No bytes yet: a writer allocates on its first write. */
const EMPTY = new Uint8Array(0);

/** A growable byte buffer for the encoders of edited values. */
export class ByteWriter {
  private buf = EMPTY;
  private length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = Math.max(16, this.buf.length * 2);
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** `v` big-endian in `size` bytes (v must fit). */
  uint(v: bigint, size: number): void {
    this.room(size);
    for (let i = size - 1; i >= 0; i--) {
      this.buf[this.length + i] = Number(v & 0xffn);
      v >>= 8n;
    }
    this.length += size;
  }

  /** `v` (0 to 2^64 - 1) as a Protobuf base-128 varint, low groups first. */
  varint(v: bigint): void {
    while (v >= 0x80n) {
      this.byte(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.byte(Number(v));
  }

  /** The byte written at `offset`. */
  byteAt(offset: number): number {
    return this.buf[offset];
  }

  get size(): number {
    return this.length;
  }

  /** Copies bytes [from, until) into `out` at `offset`; the offset after them. */
  copyTo(out: Uint8Array, offset: number, from: number, until: number): number {
    out.set(this.buf.subarray(from, until), offset);
    return offset + until - from;
  }

  /** The bytes written so far (a copy). */
  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
