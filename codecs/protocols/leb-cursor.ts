import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { closeContainer, field, markIncomplete, openContainer, text } from './frame-parts.js';
import { LIB0_TRUNCATED, lib0Value, readVarInt, readVarUint } from '../yjs/lib0-read.js';

/** Thrown (and caught by the walk's entry point) once the error is recorded on the index. */
export class LebStop {}
const STOP = new LebStop();

/**
 * One walk over a frame of LEB128 lengths and length-prefixed buffers (Yjs's lib0 encodings,
 * Automerge's sync messages and chunks): the read position, the end of the buffer being read
 * (`limit`), the containers still open (the innermost is marked incomplete on an error) and
 * the bytes counted as document content. Every node is recorded with its span through the
 * shared protocol building blocks (frame-parts.ts); an error is recorded on the index and
 * stops the walk with `LebStop`, which the walk's entry point catches.
 */
export class LebCursor {
  pos = 0;
  limit: number;
  readonly open: number[] = [];
  /** Bytes of document content (text, JSON, binary, any values, map keys); the rest is CRDT metadata. */
  contentBytes = 0;
  /** Node descriptions the tree shows instead of the generic `map(n)` (structs, buffers). */
  readonly labels = new Map<number, string>();

  constructor(readonly index: SpanIndex) {
    this.limit = index.bytes.length;
  }

  get bytes(): Uint8Array {
    return this.index.bytes;
  }

  /** Records the error and stops the walk. */
  fail(code: DecodeErrorCode, offset: number, message: string): never {
    this.index.fail(code, offset, message);
    throw STOP;
  }

  /** Marks the open containers incomplete up to where the walk stopped. */
  stopped(): void {
    const innermost = this.open[this.open.length - 1];
    if (innermost !== undefined)
      markIncomplete(this.index, innermost, Math.max(this.pos, this.index.error?.offset ?? 0));
  }

  uint(what: string): number {
    const at = this.pos;
    const end = readVarUint(this.bytes, at, this.limit);
    if (end === LIB0_TRUNCATED) this.cutOff(at, what);
    if (end < 0) this.fail('invalid-varint', at, `${what}: a varUint past 2^53`);
    this.pos = end;
    return lib0Value;
  }

  int(what: string): number {
    const at = this.pos;
    const end = readVarInt(this.bytes, at, this.limit);
    if (end === LIB0_TRUNCATED) this.cutOff(at, what);
    if (end < 0) this.fail('invalid-varint', at, `${what}: a varInt past 2^53`);
    this.pos = end;
    return lib0Value;
  }

  byte(what: string): number {
    if (this.pos >= this.limit) this.cutOff(this.pos, what);
    return this.bytes[this.pos++];
  }

  /** A read ran out of bytes: past the frame it is truncated, inside it the enclosing buffer's length was short. */
  cutOff(at: number, what: string): never {
    if (this.limit >= this.bytes.length) this.fail('truncated', at, `${what} is cut off: the frame ends`);
    this.fail('length-exceeds-input', at, `${what} runs past the end of its buffer (byte ${this.limit})`);
  }

  /** A varUint leaf `name` under `parent`. */
  uintField(parent: number, name: string | null, what = name ?? 'a number'): number {
    const start = this.pos;
    const value = this.uint(what);
    field(this.index, parent, name, start, this.pos, value, Kind.uint);
    return value;
  }

  /** A leaf of the bytes read since `start` holding `value` (a name for a number on the wire). */
  named(parent: number, name: string, start: number, value: string): number {
    return field(this.index, parent, name, start, this.pos, value, Kind.text);
  }

  /** A length the rest of the buffer can hold, else an error at `at`. */
  length(at: number, n: number, what: string): number {
    if (n > this.limit - this.pos)
      this.fail(
        'length-exceeds-input',
        at,
        `${what} declares ${n} bytes but ${this.limit - this.pos} remain${this.limit < this.bytes.length ? ' in its buffer' : ''}`,
      );
    return n;
  }

  /** A varString (length, then UTF-8) as a text leaf whose head is the length; `content` counts its text. */
  stringField(parent: number, name: string | null, what: string, content: boolean): { id: number; value: string } {
    const start = this.pos;
    const n = this.length(start, this.uint(`${what}'s length`), what);
    const bad = findInvalidUtf8(this.bytes, this.pos, this.pos + n);
    if (bad >= 0) this.fail('invalid-utf8', bad, `${what} is not UTF-8`);
    const value = text(this.bytes, this.pos, this.pos + n);
    const head = this.pos - start;
    this.pos += n;
    const id = field(this.index, parent, name, start, this.pos, value, Kind.text, head);
    if (content) this.contentBytes += n;
    return { id, value };
  }

  /** A varUint8Array as a bytes leaf whose head is the length. */
  bytesField(parent: number, name: string | null, what: string, content: boolean): Uint8Array {
    const start = this.pos;
    const n = this.length(start, this.uint(`${what}'s length`), what);
    const value = this.bytes.slice(this.pos, this.pos + n);
    const head = this.pos - start;
    this.pos += n;
    field(this.index, parent, name, start, this.pos, value, Kind.bytes, head);
    if (content) this.contentBytes += n;
    return value;
  }

  /** Opens a container at `start` whose head runs to the current position. */
  openAt(parent: number, name: string | null, kind: number, start: number, label?: string): number {
    const id = openContainer(this.index, parent, name, kind, start, this.pos - start);
    this.open.push(id);
    if (label) this.labels.set(id, label);
    return id;
  }

  /** Opens a container here (no head). */
  openHere(parent: number, name: string | null, kind: number, label?: string): number {
    return this.openAt(parent, name, kind, this.pos, label);
  }

  close(id: number): void {
    closeContainer(this.index, id, this.pos);
    this.open.pop();
  }

  /** Marks a key leaf (an any object's key, which is on the wire). */
  markKey(id: number): void {
    this.index.store.addFlags(id, Flag.key);
  }

  /**
   * Reads a varUint8Array's content with `read`, which must consume it exactly; the container
   * `id` (already open, its head the length) closes at its end.
   */
  within(start: number, n: number, what: string, read: () => void): void {
    this.length(start, n, what);
    const outer = this.limit;
    this.limit = this.pos + n;
    read();
    if (this.pos !== this.limit)
      this.fail(
        'trailing-bytes',
        this.pos,
        `${this.limit - this.pos} byte${this.limit - this.pos === 1 ? '' : 's'} left in ${what} after its content`,
      );
    this.limit = outer;
  }
}
