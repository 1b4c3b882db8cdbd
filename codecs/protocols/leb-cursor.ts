import { Flag, Kind } from '../core/kinds.js';
import type { FormatWalker, SpanIndex } from '../core/span-index.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { initParts, markIncomplete, partsData, payload, protocolWalker, text, type PartsData } from './frame-parts.js';
import { LIB0_TRUNCATED, lib0Value, readVarInt, readVarUint } from '../yjs/lib0-read.js';
import { grouped } from '../core/grouped.js';

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
/**
 * What a LEB walk keeps beside the store: the values of its leaves and key names by node id
 * (an array, not frame-parts' Maps: a Yjs update of a large document is hundreds of thousands
 * of nodes), each container's last child, and node descriptions.
 */
export interface LebData extends PartsData {
  own: unknown[];
  labels: Map<number, string>;
}

export function lebData(index: SpanIndex): LebData | null {
  const data = index.formatData as LebData | null;
  return data && 'own' in data ? data : null;
}

export class LebCursor {
  pos = 0;
  limit: number;
  readonly open: number[] = [];
  /** Bytes of document content (text, JSON, binary, any values, map keys); the rest is CRDT metadata. */
  contentBytes = 0;
  /** Node descriptions the tree shows instead of the generic `map(n)` (structs, buffers). */
  readonly labels = new Map<number, string>();
  /** Leaf values and key names by node id. */
  readonly values: unknown[] = [];
  /** The last child recorded per container, by node id. */
  private readonly last: number[] = [];

  constructor(readonly index: SpanIndex) {
    this.limit = index.bytes.length;
    const data = initParts(index) as LebData;
    data.own = this.values;
    data.labels = this.labels;
  }

  /** The zero-width key node of a map entry (none in an array); returns the previous sibling for the value. */
  private keyNode(parent: number, name: string | null, start: number): number {
    const prev = parent >= 0 ? (this.last[parent] ?? -1) : -1;
    const { store } = this.index;
    if (parent < 0 || name === null || store.kind[parent] !== Kind.map) return prev;
    const k = store.add(Kind.text, start, 0, name.length, parent, prev);
    store.setEnd(k, start);
    store.addFlags(k, Flag.key);
    this.values[k] = name;
    this.last[parent] = k;
    return k;
  }

  /** A leaf `name: value` spanning [start, end) whose head is `head` bytes. */
  leaf(
    parent: number,
    name: string | null,
    start: number,
    end: number,
    value: unknown,
    kind: number,
    head = 0,
  ): number {
    const { store } = this.index;
    const prev = this.keyNode(parent, name, start);
    const id = store.add(
      kind,
      start,
      head,
      kind === Kind.text || kind === Kind.bytes ? end - start - head : 0,
      parent,
      prev,
    );
    store.setEnd(id, end);
    this.values[id] = value;
    if (parent >= 0) {
      this.last[parent] = id;
      store.setArg(parent, store.arg[parent] + 1);
    }
    return id;
  }

  /** A payload [start, end) read by the usual rules (frame-parts' `payload`: JSON, CBOR, MessagePack, text, bytes). */
  payload(parent: number, name: string, start: number, end: number, prefer?: 'json' | 'text' | 'bytes'): void {
    const data = partsData(this.index);
    const last = this.last[parent];
    if (last !== undefined) data.last.set(parent, last);
    payload(this.index, parent, name, start, end, prefer);
    this.last[parent] = data.last.get(parent)!;
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
    this.leaf(parent, name, start, this.pos, value, Kind.uint);
    return value;
  }

  /** A leaf of the bytes read since `start` holding `value` (a name for a number on the wire). */
  named(parent: number, name: string, start: number, value: string): number {
    return this.leaf(parent, name, start, this.pos, value, Kind.text);
  }

  /** A length the rest of the buffer can hold, else an error at `at`. */
  length(at: number, n: number, what: string): number {
    if (n > this.limit - this.pos)
      this.fail(
        'length-exceeds-input',
        at,
        `${what} declares ${grouped(n)} bytes but ${grouped(this.limit - this.pos)} remain${this.limit < this.bytes.length ? ' in its buffer' : ''}`,
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
    const id = this.leaf(parent, name, start, this.pos, value, Kind.text, head);
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
    this.leaf(parent, name, start, this.pos, value, Kind.bytes, head);
    if (content) this.contentBytes += n;
    return value;
  }

  /** Opens a container at `start` whose head runs to the current position. */
  openAt(parent: number, name: string | null, kind: number, start: number, label?: string): number {
    const { store } = this.index;
    const prev = this.keyNode(parent, name, start);
    const head = this.pos - start;
    const id = store.add(kind, start, head, 0, parent, prev);
    store.setEnd(id, start + head);
    store.addFlags(id, Flag.expanded);
    if (parent >= 0) {
      this.last[parent] = id;
      store.setArg(parent, store.arg[parent] + 1);
    }
    this.open.push(id);
    if (label) this.labels.set(id, label);
    return id;
  }

  /** Opens a container here (no head). */
  openHere(parent: number, name: string | null, kind: number, label?: string): number {
    return this.openAt(parent, name, kind, this.pos, label);
  }

  close(id: number): void {
    this.index.store.setEnd(id, this.pos);
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
        `${grouped(this.limit - this.pos)} byte${this.limit - this.pos === 1 ? '' : 's'} left in ${what} after its content`,
      );
    this.limit = outer;
  }
}

/**
 * A FormatWalker over a LEB walk (frame-parts' protocol walker for payloads): leaf values and
 * key names from the cursor's array, descriptions from its labels.
 */
export function lebWalker(
  format: FormatWalker['format'],
  walkFrame: (index: SpanIndex) => void,
  describeRoot: (index: SpanIndex) => string,
): FormatWalker {
  const base = protocolWalker(format, walkFrame, describeRoot);
  return {
    ...base,
    leafValue(index, node) {
      const own = lebData(index)?.own;
      const v = own?.[node];
      return v !== undefined ? v : base.leafValue(index, node);
    },
    describe(index, node) {
      const data = lebData(index);
      const label = node === 0 ? undefined : data?.labels.get(node);
      if (label !== undefined) return label;
      if (node !== 0 && data && data.own[node] !== undefined) {
        const { store } = index;
        if (store.flags[node] & Flag.key) return 'key';
        return store.kind[node] === Kind.bytes ? `bytes(${store.end[node] - store.start[node]})` : index.kind(node);
      }
      return base.describe!(index, node);
    },
  };
}
