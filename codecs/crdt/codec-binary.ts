/**
 * Validation of the two json-joy model codecs whose parts are binary blobs: the indexed
 * codec (`json-crdt/codec/indexed/binary`: a map of per-node byte fields) and the sidecar
 * codec (`json-crdt/codec/sidecar/binary`: a CBOR view plus a metadata blob). json-joy's
 * readers do not check bounds (a short blob reads `undefined` and decodes garbage), so
 * every blob is parsed here first with bounds checks, exactly as json-joy will read it,
 * and the references between nodes are checked to form one tree. CBOR values embedded in
 * indexed fields are validated with our own CBOR walker.
 */
import { SpanIndex } from '../core/span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { findInvalidUtf8 } from '../core/utf8.js';
import { isPlainObject, MAX_CRDT_DEPTH, MAX_VEC_LENGTH, type PathKey } from './codec-shapes.js';
import { readB1vu56, readVu57, varintRead } from './varint.js';

export interface BlobError {
  readonly message: string;
  /** The map key / array index of the blob in the frame's value. */
  readonly path: readonly PathKey[];
  /** Offset inside that blob. */
  readonly at: number;
}

export type BlobResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: BlobError };

class BlobFail {
  constructor(
    readonly message: string,
    readonly at: number,
  ) {}
}

/** A bounds-checked reader of json-joy's CrdtWriter encodings. */
class Reader {
  x = 0;
  private readonly varint = varintRead();
  constructor(
    readonly buf: Uint8Array,
    readonly end = buf.length,
  ) {}
  fail(message: string, at = this.x): never {
    throw new BlobFail(message, at);
  }
  u8(): number {
    if (this.x >= this.end) this.fail('unexpected end of blob');
    return this.buf[this.x++];
  }
  u16(): number {
    return this.u8() * 256 + this.u8();
  }
  u32(): number {
    return this.u16() * 65536 + this.u16();
  }
  /** A vu57 (codecs/crdt/varint.ts). */
  vu57(): number {
    const end = readVu57(this.buf, this.x, this.end, this.varint);
    return this.varintEnd(end);
  }
  /** A b1vu56 (codecs/crdt/varint.ts): its flag and value. */
  b1vu56(): [flag: number, value: number] {
    const end = readB1vu56(this.buf, this.x, this.end, this.varint);
    return [this.varint.flag, this.varintEnd(end)];
  }
  private varintEnd(end: number): number {
    if (end < 0) this.fail('unexpected end of blob', this.end);
    this.x = end;
    if (!Number.isSafeInteger(this.varint.value)) this.fail('variable-length integer beyond 2^53');
    return this.varint.value;
  }
  /** A relative id: one byte (index << 4 | diff) or b1vu56 index + vu57 diff. */
  id(): [index: number, diff: number] {
    const b = this.buf[this.x];
    if (this.x < this.end && b <= 0x7f) {
      this.x++;
      return [b >> 4, b & 0x0f];
    }
    const [, index] = this.b1vu56();
    return [index, this.vu57()];
  }
  /** Type and length header of a node: 3 bits type, 5 bits length (24/25/26 = u8/u16/u32 follows). */
  tl(): [type: number, length: number] {
    const b = this.u8();
    const minor = b & 0x1f;
    const length =
      minor < 24
        ? minor
        : minor === 24
          ? this.u8()
          : minor === 25
            ? this.u16()
            : minor === 26
              ? this.u32()
              : this.fail('reserved length', this.x - 1);
    return [b >> 5, length];
  }
  /** One embedded CBOR item, validated by our walker; its value. */
  cbor(): unknown {
    const start = this.x;
    const b = this.buf[start];
    // Fast paths for what json-joy writes most: short text and small unsigned integers.
    if (start < this.end && b >= 0x60 && b < 0x78) {
      const len = b - 0x60;
      if (start + 1 + len > this.end) this.fail('text runs past the blob');
      if (findInvalidUtf8(this.buf, start + 1, start + 1 + len) >= 0) this.fail('invalid UTF-8 in text');
      this.x = start + 1 + len;
      return new TextDecoder().decode(this.buf.subarray(start + 1, this.x));
    }
    if (start < this.end && b < 0x18) {
      this.x++;
      return b;
    }
    const index = new SpanIndex(this.buf.subarray(start, this.end), cborWalker, { depth: Infinity });
    const err = index.error;
    if (err && err.code !== 'trailing-bytes') this.fail(`embedded CBOR: ${err.message}`, start + err.offset);
    if (index.root < 0) this.fail('embedded CBOR item missing', start);
    this.x = start + index.store.end[index.root];
    return index.value(index.root);
  }
}

function run<T>(path: readonly PathKey[], body: () => T): BlobResult<T> {
  try {
    return { ok: true, value: body() };
  } catch (e) {
    if (e instanceof BlobFail) return { ok: false, error: { message: e.message, path, at: e.at } };
    return { ok: false, error: { message: `invalid: ${(e as Error)?.message ?? e}`, path, at: 0 } };
  }
}

type Ts = readonly [sid: number, time: number];
const key = (t: Ts) => `${t[0]}.${t[1]}`;

/** Checks that the node references form one tree below the root (no cycle, no node twice, no dangling id). */
function checkTree(root: string | null, refs: Map<string, string[]>): string | null {
  if (root === null) return null;
  if (!refs.has(root)) return `root points at missing node ${root}`;
  const seen = new Set<string>([root]);
  const stack: [string, number][] = [[root, 1]];
  while (stack.length) {
    const [id, depth] = stack.pop()!;
    if (depth > MAX_CRDT_DEPTH) return 'nesting too deep';
    for (const child of refs.get(id)!) {
      if (!refs.has(child)) return `node ${id} points at missing node ${child}`;
      if (seen.has(child)) return `node ${child} is referenced twice`;
      seen.add(child);
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

export interface IndexedInfo {
  /** The clock table as the frame lists it: local session first (`time` = its last used time). */
  readonly table: readonly { readonly sid: number; readonly time: number }[];
  readonly nodes: number;
}

const FIELD = /^[0-9a-z]+_[0-9a-z]+$/;

/** Indexed model: `{ c: clock table, r?: root id, '<sid index>_<time>': node, ... }`, all byte strings (base 36 names). */
export function checkIndexed(fields: unknown): BlobResult<IndexedInfo> {
  if (!isPlainObject(fields))
    return { ok: false, error: { message: 'an indexed model is a map of byte strings', path: [], at: 0 } };
  const c = fields.c;
  if (!(c instanceof Uint8Array))
    return { ok: false, error: { message: 'indexed model lacks the clock table field "c"', path: [], at: 0 } };
  const tableResult = run(['c'], () => {
    const r: Reader = new Reader(c);
    const n = r.vu57();
    if (n < 1) r.fail('empty clock table');
    const table: { sid: number; time: number }[] = [];
    const sids = new Set<number>();
    for (let i = 0; i < n; i++) {
      const sid = r.vu57();
      const time = r.vu57();
      if (sids.has(sid)) r.fail(`session ${sid} listed twice`);
      sids.add(sid);
      table.push({ sid, time });
    }
    if (r.x !== c.length) r.fail('bytes after the clock table');
    return table;
  });
  if (!tableResult.ok) return tableResult;
  const table = tableResult.value;
  const ts = (r: Reader): Ts => {
    const at = r.x;
    const [index, time] = r.id();
    if (index >= table.length) r.fail(`session index ${index} beyond the clock table`, at);
    return [table[index].sid, time];
  };
  /** A node or chunk id, or a reference to a node: never in the system session (json-joy reads those as "undefined"). */
  const nodeTs = (r: Reader): Ts => {
    const at = r.x;
    const id = ts(r);
    if (id[0] === 0) r.fail('node id in the system session', at);
    return id;
  };

  let root: string | null = null;
  const r = fields.r;
  if (r !== undefined) {
    if (!(r instanceof Uint8Array))
      return { ok: false, error: { message: 'root field "r" is not bytes', path: ['r'], at: 0 } };
    if (r.length) {
      const res = run(['r'], () => {
        const reader: Reader = new Reader(r);
        const id = nodeTs(reader);
        if (reader.x !== r.length) reader.fail('bytes after the root id');
        return key(id);
      });
      if (!res.ok) return res;
      root = res.value;
    }
  }

  const refs = new Map<string, string[]>();
  for (const name of Object.keys(fields)) {
    if (name === 'c' || name === 'r') continue;
    const blob = fields[name];
    if (!FIELD.test(name)) return { ok: false, error: { message: `unexpected field "${name}"`, path: [name], at: 0 } };
    if (!(blob instanceof Uint8Array))
      return { ok: false, error: { message: `field "${name}" is not bytes`, path: [name], at: 0 } };
    const [sidIndex, timeText] = name.split('_');
    const index = parseInt(sidIndex, 36);
    const time = parseInt(timeText, 36);
    if (index >= table.length || !Number.isSafeInteger(time))
      return { ok: false, error: { message: `field name "${name}" is not a node id`, path: [name], at: 0 } };
    if (table[index].sid === 0)
      return { ok: false, error: { message: `field "${name}" is in the system session`, path: [name], at: 0 } };
    const id = `${table[index].sid}.${time}`;
    if (refs.has(id)) return { ok: false, error: { message: `node ${id} appears twice`, path: [name], at: 0 } };
    const res = run([name], () => {
      const reader: Reader = new Reader(blob);
      const out: string[] = [];
      const [type, length] = reader.tl();
      switch (type) {
        case 0: // con: a CBOR value, or (length 1) a timestamp
          if (length === 0) reader.cbor();
          else if (length === 1) ts(reader);
          else reader.fail('con length is 0 or 1', 0);
          break;
        case 1: // val
          if (length !== 0) reader.fail('val length is 0', 0);
          out.push(key(nodeTs(reader)));
          break;
        case 2: {
          // obj: length × (CBOR text key, id)
          const keys = new Set<string>();
          for (let i = 0; i < length; i++) {
            const at = reader.x;
            const k = reader.cbor();
            if (typeof k !== 'string') reader.fail('obj key is not text', at);
            if (keys.has(k)) reader.fail(`obj key "${k}" twice`, at);
            keys.add(k);
            out.push(key(nodeTs(reader)));
          }
          break;
        }
        case 3: // vec: length × (0 | 1 id)
          if (length > MAX_VEC_LENGTH) reader.fail('vec too long', 0);
          for (let i = 0; i < length; i++) {
            const flag = reader.u8();
            if (flag === 1) out.push(key(nodeTs(reader)));
            else if (flag !== 0) reader.fail('vec element flag is 0 or 1', reader.x - 1);
          }
          break;
        case 4: // str: length × (id, CBOR text | CBOR uint span)
          for (let i = 0; i < length; i++) {
            nodeTs(reader);
            const at = reader.x;
            const v = reader.cbor();
            if (typeof v === 'string' ? !v.length : !(typeof v === 'number' && Number.isSafeInteger(v) && v >= 1))
              reader.fail('str chunk is neither text nor a span', at);
          }
          break;
        case 5: // bin: length × (id, b1vu56 deleted/span, bytes when live)
        case 6: // arr: length × (id, b1vu56 deleted/span, ids when live)
          for (let i = 0; i < length; i++) {
            nodeTs(reader);
            const at = reader.x;
            const [deleted, span] = reader.b1vu56();
            if (span < 1) reader.fail('empty chunk', at);
            if (deleted) continue;
            if (type === 5) {
              if (reader.x + span > reader.end) reader.fail('chunk bytes run past the blob');
              reader.x += span;
            } else for (let j = 0; j < span; j++) out.push(key(nodeTs(reader)));
          }
          break;
        default:
          reader.fail(`unknown node type ${type}`, 0);
      }
      if (reader.x !== blob.length) reader.fail('bytes after the node');
      return out;
    });
    if (!res.ok) return res;
    refs.set(id, res.value);
  }
  const treeError = checkTree(root, refs);
  if (treeError) return { ok: false, error: { message: treeError, path: [], at: 0 } };
  return { ok: true, value: { table, nodes: refs.size } };
}

export interface SidecarInfo {
  readonly nodes: number;
  /** The local session's id. */
  readonly sid: number;
}

interface SidecarFrame {
  /** Views of the children to read, in stream order (an arr adds them chunk by chunk). */
  readonly views: unknown[];
  i: number;
  readonly depth: number;
  /** arr: its view and the chunk headers still to read. */
  readonly arr?: readonly unknown[];
  chunks: number;
  /** The children are a vec's elements (an unset one is the origin con). */
  readonly vec?: boolean;
}

/**
 * Sidecar model: `meta` = u32 offset of the clock table, the node stream (ids, type/length,
 * chunk spans; pre-order), then the clock table; the view supplies every value. Walks the
 * stream against the view exactly as json-joy's sidecar decoder will.
 */
export function checkSidecar(view: unknown, meta: Uint8Array, metaPath: readonly PathKey[]): BlobResult<SidecarInfo> {
  return run(metaPath, () => {
    const r: Reader = new Reader(meta);
    const tableOffset = r.u32();
    const streamEnd = 4 + tableOffset;
    if (streamEnd > meta.length) r.fail('clock table offset beyond the blob', 0);
    // The clock table, at the end.
    const t: Reader = new Reader(meta);
    t.x = streamEnd;
    const n = t.vu57();
    if (n < 1) t.fail('empty clock table', streamEnd);
    const table: [number, number][] = [];
    for (let i = 0; i < n; i++) table.push([t.vu57(), t.vu57()]);
    if (t.x !== meta.length) t.fail('bytes after the clock table');

    const stream: Reader = new Reader(meta, streamEnd);
    stream.x = 4;
    const ids = new Set<string>();
    const ts = (): string => {
      const at = stream.x;
      const [index, diff] = stream.id();
      if (!index) return `0.${diff}`;
      const entry = table[index - 1];
      if (!entry) stream.fail(`session index ${index} beyond the clock table`, at);
      if (diff > entry[1]) stream.fail('timestamp before the session start', at);
      return `${entry[0]}.${entry[1] - diff}`;
    };
    if (meta.length > 4 && stream.x < streamEnd && meta[4] === 0) {
      // Empty document: json-joy peeks a 0 byte and reads nothing else.
      stream.x++;
      if (stream.x !== streamEnd) stream.fail('bytes after the empty root');
      return { nodes: 0, sid: table[0][0] };
    }
    let nodes = 0;
    const stack: SidecarFrame[] = [{ views: [view], i: 0, chunks: 0, depth: 0 }];
    while (stack.length) {
      const top = stack[stack.length - 1];
      if (top.i >= top.views.length) {
        // An arr reads its next chunk header before that chunk's elements.
        if (top.chunks > 0) {
          top.chunks--;
          if (ts().startsWith('0.')) stream.fail('chunk id in the system session');
          const at = stream.x;
          const [deleted, span] = stream.b1vu56();
          if (span < 1) stream.fail('empty chunk', at);
          if (!deleted) {
            const arr = top.arr!;
            if (top.views.length + span > arr.length)
              stream.fail('arr chunks span more elements than the view has', at);
            top.i = top.views.length;
            for (let j = 0; j < span; j++) top.views.push(arr[top.views.length]);
          }
          continue;
        }
        if (top.arr && top.views.length !== top.arr.length)
          stream.fail('arr chunks cover fewer elements than the view has');
        stack.pop();
        continue;
      }
      const v = top.views[top.i++];
      const depth = top.depth + 1;
      if (depth > MAX_CRDT_DEPTH) stream.fail('nesting too deep');
      const idAt = stream.x;
      const id = ts();
      const [type, length] = stream.tl();
      if (id.startsWith('0.')) {
        // Only an unset vec element is written as a node: the origin con.
        if (id !== '0.0' || type !== 0 || length !== 0 || !top.vec) stream.fail('node id in the system session', idAt);
      } else {
        if (ids.has(id)) stream.fail(`node ${id} appears twice`, idAt);
        ids.add(id);
        nodes++;
      }
      switch (type) {
        case 0:
          if (length === 1) ts();
          else if (length !== 0) stream.fail('con length is 0 or 1', idAt);
          break;
        case 1:
          if (length !== 0) stream.fail('val length is 0', idAt);
          stack.push({ views: [v], i: 0, chunks: 0, depth });
          break;
        case 2: {
          if (!isPlainObject(v)) stream.fail('view of an obj node is not an object', idAt);
          const keys = Object.keys(v);
          if (keys.length !== length) stream.fail(`obj has ${length} keys, its view ${keys.length}`, idAt);
          // json-joy insertion-sorts the keys: refuse the quadratic case it never writes.
          let sorted = true;
          for (let i = 1; i < keys.length && sorted; i++) if (keys[i - 1] > keys[i]) sorted = false;
          if (!sorted && keys.length > 2048) stream.fail('obj view keys are not sorted', idAt);
          keys.sort();
          stack.push({ views: keys.map((k) => v[k]), i: 0, chunks: 0, depth });
          break;
        }
        case 3:
          if (!Array.isArray(v) || v.length !== length || length > MAX_VEC_LENGTH)
            stream.fail('view of a vec node is not an array of its length', idAt);
          stack.push({ views: v.slice(), i: 0, chunks: 0, depth, vec: true });
          break;
        case 4:
        case 5: {
          const size = type === 4 ? (typeof v === 'string' ? v.length : -1) : v instanceof Uint8Array ? v.length : -1;
          if (size < 0)
            stream.fail(`view of a ${type === 4 ? 'str' : 'bin'} node is not ${type === 4 ? 'text' : 'bytes'}`, idAt);
          let live = 0;
          for (let i = 0; i < length; i++) {
            if (ts().startsWith('0.')) stream.fail('chunk id in the system session');
            const at = stream.x;
            const [deleted, span] = stream.b1vu56();
            if (span < 1) stream.fail('empty chunk', at);
            if (!deleted) live += span;
          }
          if (live !== size) stream.fail(`chunks span ${live} live elements, the view has ${size}`, idAt);
          break;
        }
        case 6: {
          if (!Array.isArray(v)) stream.fail('view of an arr node is not an array', idAt);
          stack.push({ views: [], i: 0, chunks: length, depth, arr: v });
          break;
        }
        default:
          stream.fail(`unknown node type ${type}`, idAt);
      }
    }
    if (stream.x !== streamEnd) stream.fail('bytes after the node tree');
    return { nodes, sid: table[0][0] };
  });
}
