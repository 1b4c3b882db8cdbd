import { Flag, Kind, isContainerKind } from '../core/kinds.js';
import { describeCrdt, previewCrdt, crdtDetails } from './describe.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { indexCbor } from '../cbor/index.js';
import { utf16LengthIfValidUtf8, utf16LengthOfUtf8 } from '../core/utf8.js';
import { extendIncompleteParents } from './partial-tree.js';
import { crdtAnnotations, SESSION, type CrdtAnnotations } from './annotations.js';
import { crdtModelValue, crdtModelLeafValue, decodeWtf8, findInvalidWtf8, WTF8_SURROGATES } from './model-value.js';
import { readB1vu56, readVu57, varintRead } from './varint.js';
import { cborScalarEnd } from '../cbor/scalar-end.js';
import { crdtChildName } from './op-roles.js';
import { grouped } from '../core/grouped.js';

export {
  crdtClockTable,
  crdtExtensionOf,
  crdtByteSplit,
  nodeByteSplit,
  CrdtTimestamp,
  type CrdtClockTable,
} from './model-value.js';

/**
 * The validating walker for json-joy structural binary models (`Model.toBinary()`,
 * json-joy 17.67.0, `json-crdt/codec/structural/binary`). One iterative pass over the whole
 * frame, whatever the requested depth: every node is recorded and marked expanded, so
 * `walk(index, node >= 0, …)` has nothing left to do.
 *
 * Layout (all integers unsigned; vu57 / b1vu56 are json-joy's little-endian varints):
 *
 *   logical clock:  u32 BE N | node tree (exactly N bytes) | clock table (to the end)
 *                   clock table = vu57 count (>= 1) | count × (vu57 sid, vu57 time)
 *                   the first entry is the model's own session (time = clock.time - 1)
 *   server clock:   0x80 | vu57 server time | node tree (to the end)
 *
 *   id:      logical: one byte 0xxxyyyy (x = session index 0..7, y = time diff 0..15), or
 *            b1vu56 (flag 1, x) + vu57 y; x is 1-based into the clock table, the id is
 *            (table[x-1].sid, table[x-1].time - y); x = 0 is the system session (sid 0).
 *            server: vu57 time (sid 1).
 *   node:    id | type octet (major = octet >> 5, minor = octet & 31; for obj, vec, str,
 *            bin and arr the minor is the count, 31 = a vu57 count follows) | body
 *     con 0x00: CBOR value            con 0x01: id (a timestamp constant)
 *     val 0x20: node
 *     obj 0x40: count × (CBOR text key, node)
 *     vec 0x60: count × (0x00 = absent element | node)
 *     str 0x80: count × (id, CBOR text = live chunk | CBOR uint = deleted span)
 *     bin 0xa0: count × (id, b1vu56 (deleted, length), [length bytes when live])
 *     arr 0xc0: count × (id, b1vu56 (deleted, span), [span nodes when live])
 *   root:    0x00 (the document is undefined) | node
 *
 * Recorded tree: `crdt_model` (whole frame) with the tree root and the `crdt_clock`
 * (table entries as `crdt_clock_entry` children; for a server clock a childless
 * `crdt_clock` over 0x80 + time, recorded before the tree). A root 0x00 and an absent vec
 * element are recorded as a 1-byte `crdt_con` with arg -1 and no id. Content bytes (object
 * keys, string text, binary data, CBOR-encoded constants other than `undefined`) are
 * `crdt_content` leaves; a con holding a timestamp has a `crdt_id` child (metadata).
 *
 * Stricter than json-joy's decoder where json-joy would accept garbage or build a view that
 * does not follow the bytes: unknown type octets, con minors other than 0 / 1, val minors
 * other than 0, keys that are not definite CBOR text, duplicate object keys, invalid UTF-8,
 * string chunks that are neither text nor an unsigned span, node ids in the system session,
 * duplicate node ids, ids outside the clock (server: time + span <= server time; logical:
 * the session is in the table and time + span - 1 <= its table time), counts larger than
 * the bytes left, a clock table with no entry or a repeated session, a constant whose CBOR
 * json-joy refuses (a `__proto__` or indefinite-length map key), and any byte left over in
 * the node section or after the table.
 *
 * Text (keys, string chunks) is UTF-8 except that a lone UTF-16 surrogate, which json-joy
 * writes when an edit splits a surrogate pair, may appear as ED A0..BF xx; it decodes to
 * that surrogate. json-joy 17.67.0 itself decodes strings of 32+ bytes with Buffer's UTF-8
 * decoder (U+FFFD instead): such strings get a 'lone-surrogate' warning.
 */

/** Error codes this walker adds to `DecodeErrorCode` (cast until core lists them). */
/** The json-joy-specific codes this walker reports (all in DecodeErrorCode). */
export type CrdtModelErrorCode = Extract<
  DecodeErrorCode,
  'invalid-id' | 'duplicate-id' | 'invalid-clock' | 'duplicate-key'
>;
type Code = DecodeErrorCode;

export const crdtModelWalker: FormatWalker = {
  format: 'crdt-model',
  walk(index: SpanIndex, node: number): void {
    // Everything is recorded by the first walk; re-walking a node has nothing to add.
    if (node >= 0) return;
    new ModelWalk(index).run();
    extendIncompleteParents(index);
  },
  leafValue: crdtModelLeafValue,
  value: crdtModelValue,
  describe: describeCrdt,
  preview: previewCrdt,
  details: crdtDetails,
  childName: crdtChildName,
  // Strings carry most of a model's bytes: start small and let the store grow. Capped: this
  // walker also runs in format detection on frames it rejects at byte 0.
  capacityHint: (bytes: Uint8Array) => Math.min((bytes.length >> 4) + 32, 4096),
};

/** Validates a json-joy structural binary model and records all of it. Never throws. */
export function indexCrdtModel(bytes: Uint8Array): SpanIndex {
  return new SpanIndex(bytes, crdtModelWalker);
}

/** Stack frame kinds. */
const F_ROOT = 0;
const F_VAL = 1;
const F_OBJ = 2;
const F_VEC = 3;
const F_STR = 4;
const F_BIN = 5;
const F_ARR = 6;
const F_ARR_CHUNK = 7;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const NODE_KIND = [
  Kind.crdt_con,
  Kind.crdt_val,
  Kind.crdt_obj,
  Kind.crdt_vec,
  Kind.crdt_str,
  Kind.crdt_bin,
  Kind.crdt_arr,
];
const NODE_NAME = ['con', 'val', 'obj', 'vec', 'str', 'bin', 'arr'];

class ModelWalk {
  readonly bytes: Uint8Array;
  readonly len: number;
  readonly ann: CrdtAnnotations;
  pos = 0;
  /** Reads stop here: the end of the node section (logical) or of the frame. */
  limit = 0;
  failed = false;

  logical = true;
  serverTime = 0;
  /** The clock table (logical): sid and time per 1-based session index - 1. */
  readonly tSid: number[] = [];
  readonly tTime: number[] = [];
  readonly tStart: number[] = [];
  readonly tEnd: number[] = [];
  tableStart = 0;
  tableHead = 0;
  tableCount = 0;
  tableErr: { code: Code; offset: number; message: string; stop: number } | null = null;

  /** Explicit stack: node, frame kind, items left, last child recorded. */
  readonly sNode: number[] = [];
  readonly sKind: number[] = [];
  readonly sLeft: number[] = [];
  readonly sLast: number[] = [];
  readonly sKeys: (Set<string> | null)[] = [];

  // Results of the small readers (no allocation per read).
  flag = 0;
  /** The last varint read. */
  private readonly varint = varintRead();
  idX = 0;
  idY = 0;
  sid = 0;
  time = 0;

  constructor(readonly index: SpanIndex) {
    this.bytes = index.bytes;
    this.len = index.bytes.length;
    this.ann = crdtAnnotations(index);
  }

  get store() {
    return this.index.store;
  }

  run(): void {
    const { bytes, len, index } = this;
    if (len === 0) {
      index.fail('empty-input', 0, 'empty input: no json-joy model');
      return;
    }
    this.logical = (bytes[0] & 0x80) === 0;
    const root = this.store.add(Kind.crdt_model, 0, 0, 0, -1, -1);
    let treeEnd: number;
    if (this.logical) {
      if (len < 4)
        return this.fail(
          'truncated',
          len,
          `unexpected end of input: the model's 4-byte node section length is cut off after ${grouped(len)} bytes`,
          len,
        );
      const n = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
      this.store.head[root] = 4;
      this.store.end[root] = 4;
      this.store.arg[root] = n;
      if (n > len - 4)
        return this.fail(
          'length-exceeds-input',
          0,
          `node section length ${grouped(n)} exceeds the ${grouped(len - 4)} bytes after it`,
          4,
        );
      treeEnd = 4 + n;
      this.readClockTable(treeEnd);
      this.pos = 4;
    } else {
      if (bytes[0] !== 0x80)
        return this.fail(
          'invalid-byte',
          0,
          `unknown model header 0x${bytes[0].toString(16)} (server-clock models start with 0x80)`,
          0,
        );
      this.pos = 1;
      this.limit = len;
      const time = this.vu57('the server time');
      if (time < 0) return;
      if (time > MAX_SAFE) return this.fail('invalid-clock' as Code, 1, `server time ${time} is beyond 2^53`, 1);
      this.serverTime = time;
      const clock = this.store.add(Kind.crdt_clock, 0, this.pos, time, root, -1);
      this.store.flags[clock] |= Flag.expanded;
      this.ann.set(clock, SESSION.SERVER, time);
      this.store.arg[root] = time;
      this.store.end[root] = this.pos;
      treeEnd = len;
    }
    this.limit = treeEnd;
    this.walkTree(root, this.logical ? -1 : 1);
    if (!this.failed) this.checkUniqueIds();
    if (this.failed) return this.finish();
    if (this.pos < treeEnd) {
      const what = this.logical ? `the node section (${grouped(treeEnd - 4)} bytes declared)` : 'the frame';
      return this.fail(
        'trailing-bytes',
        this.pos,
        `${grouped(treeEnd - this.pos)} bytes after the node tree inside ${what}`,
        this.pos,
      );
    }
    if (this.logical) this.recordClockTable(root, this.store.size > 1 ? 1 : -1);
    if (!this.failed) this.store.end[root] = len;
    this.finish();
  }

  /** Marks every container expanded (everything is recorded). */
  finish(): void {
    const store = this.store;
    const { kind, flags } = store;
    for (let i = 0; i < store.size; i++) if (isContainerKind(kind[i])) flags[i] |= Flag.expanded;
  }

  /**
   * Records the first error and marks the open nodes (stack, root, `extra`) incomplete,
   * ending where the walk stopped.
   */
  fail(code: Code, offset: number, message: string, stop: number, extra = -1): void {
    if (this.failed) return;
    this.failed = true;
    this.index.fail(code, offset, message);
    const store = this.store;
    const end = store.end;
    const flags = store.flags;
    const mark = (n: number) => {
      if (n < 0) return;
      flags[n] |= Flag.incomplete;
      end[n] = Math.max(store.start[n], Math.min(stop, this.len));
    };
    for (let i = 0; i < this.sNode.length; i++) mark(this.sNode[i]);
    mark(extra);
    if (store.size > 0) mark(0);
    this.finish();
  }

  truncated(what: string): -1 {
    const at = this.limit;
    const where = this.limit < this.len ? ' (where the node section ends)' : '';
    this.fail('truncated', at, `unexpected end of input in ${what}${where}`, at);
    return -1;
  }

  // ------------------------------------------------------------------ primitive reads

  /** vu57 at `pos`; -1 when cut off (error recorded). May exceed 2^53 (imprecise): callers check. */
  vu57(what = 'a varint'): number {
    const end = readVu57(this.bytes, this.pos, this.limit, this.varint);
    if (end < 0) return this.truncated(what);
    this.pos = end;
    return this.varint.value;
  }

  /** b1vu56 at `pos`: the flag goes to `this.flag`; -1 when cut off. */
  b1vu56(what: string): number {
    const end = readB1vu56(this.bytes, this.pos, this.limit, this.varint);
    if (end < 0) return this.truncated(what);
    this.pos = end;
    this.flag = this.varint.flag;
    return this.varint.value;
  }

  /** An encoded id at `pos` into idX / idY (logical) or idY (server). */
  readId(what: string): boolean {
    if (this.pos >= this.limit) {
      this.truncated(what);
      return false;
    }
    if (!this.logical) {
      const t = this.vu57(what);
      if (t < 0) return false;
      this.idX = 1;
      this.idY = t;
      return true;
    }
    const b0 = this.bytes[this.pos];
    if (b0 < 0x80) {
      this.pos++;
      this.idX = b0 >> 4;
      this.idY = b0 & 15;
      return true;
    }
    const x = this.b1vu56(what);
    if (x < 0) return false;
    const y = this.vu57(what);
    if (y < 0) return false;
    this.idX = x;
    this.idY = y;
    return true;
  }

  /**
   * Resolves the id just read into sid / time and checks it against the clock: covering
   * `span` ids (>= 1), a node's or chunk's id must lie inside what the clock has seen.
   * `node`: ids of nodes may not be in the system session and must be unique.
   */
  resolveId(start: number, span: number, node: boolean, what: string): boolean {
    const edge = Math.max(span, 1) - 1;
    if (!this.logical) {
      const time = this.idY;
      if (time > MAX_SAFE || time + edge >= this.serverTime) {
        this.fail(
          'invalid-id' as Code,
          start,
          `${what} id 1.${time}${edge ? ` (span ${span})` : ''} is not below the server time ${this.serverTime}`,
          start,
        );
        return false;
      }
      this.sid = SESSION.SERVER;
      this.time = time;
    } else {
      const x = this.idX;
      const y = this.idY;
      if (x === 0) {
        if (node) {
          this.fail('invalid-id' as Code, start, `${what} id is in the system session 0`, start);
          return false;
        }
        if (y > MAX_SAFE) {
          this.fail('invalid-id' as Code, start, `${what} id time ${y} is beyond 2^53`, start);
          return false;
        }
        this.sid = SESSION.SYSTEM;
        this.time = y;
        return true;
      }
      if (x > this.tSid.length) {
        const err = this.tableErr;
        if (err) {
          // The session's table entry is where the table broke: report that.
          this.fail(err.code, err.offset, err.message, start);
        } else {
          this.fail(
            'invalid-id' as Code,
            start,
            `${what} id refers to session ${x}, but the clock table has ${grouped(this.tableCount)} entries`,
            start,
          );
        }
        return false;
      }
      const sid = this.tSid[x - 1];
      const top = this.tTime[x - 1];
      const time = top - y;
      if (time < 0) {
        this.fail('invalid-id' as Code, start, `${what} id ${sid}.${top}-${y} is before time 0`, start);
        return false;
      }
      if (node && sid === SESSION.SYSTEM) {
        this.fail('invalid-id' as Code, start, `${what} id is in the system session 0`, start);
        return false;
      }
      if (time + edge > top) {
        this.fail(
          'invalid-id' as Code,
          start,
          `${what} ${sid}.${time} spans ${span} ids, past session ${sid}'s clock time ${top}`,
          start,
        );
        return false;
      }
      this.sid = sid;
      this.time = time;
    }
    if (node) {
      // Node ids must be unique (json-joy indexes nodes by id): collected per session
      // here, checked once the tree is read (`checkUniqueIds`).
      const key = this.logical ? this.idX : 1;
      // A plain array: allocating a typed array per session cost more than small frames.
      const times = (this.nodeTimes[key] ??= []);
      times.push(this.time);
    }
    return true;
  }

  /** Node times per session key (session index; 1 for a server clock). */
  readonly nodeTimes: number[][] = [];

  /**
   * Reports the first node (in byte order) whose id an earlier node already has. A pass
   * over each session's times finds out whether there is one; only then are the nodes
   * scanned for it. (Runs after the tree is read: the error comes before the byte checks
   * that follow the tree, but the nodes after the duplicate stay recorded.)
   */
  checkUniqueIds(): void {
    let dup = false;
    for (let k = 0; k < this.nodeTimes.length && !dup; k++) {
      const times = this.nodeTimes[k];
      if (times) dup = hasDuplicate(times);
    }
    if (!dup) return;
    const store = this.store;
    const seen = new Map<number, Set<number>>();
    for (let i = 0; i < store.size; i++) {
      const k = store.kind[i];
      if (k < Kind.crdt_con || k > Kind.crdt_arr || (store.arg[i] === -1 && k === Kind.crdt_con)) continue;
      const sid = this.ann.sid[i];
      const time = this.ann.time[i];
      let set = seen.get(sid);
      if (!set) seen.set(sid, (set = new Set()));
      if (set.has(time)) {
        const at = store.start[i];
        this.fail('duplicate-id' as Code, at, `node id ${sid}.${time} appears twice`, this.pos);
        return;
      }
      set.add(time);
    }
  }

  /**
   * A CBOR head at `pos` (json-joy writes keys and string chunks with CBOR): major type,
   * argument (exact up to 2^53) and where the head ends. Returns false when cut off or
   * reserved / indefinite (error recorded).
   */
  cborMajor = 0;
  cborArg = 0;
  cborHead(what: string): boolean {
    const bytes = this.bytes;
    const start = this.pos;
    if (start >= this.limit) {
      this.truncated(what);
      return false;
    }
    const ib = bytes[start];
    const ai = ib & 31;
    this.cborMajor = ib >> 5;
    if (ai < 24) {
      this.cborArg = ai;
      this.pos = start + 1;
      return true;
    }
    if (ai > 27) {
      this.fail(
        'invalid-byte',
        start,
        `${what}: CBOR head 0x${ib.toString(16)} is ${ai === 31 ? 'indefinite-length' : 'reserved'} here`,
        start,
      );
      return false;
    }
    const n = 1 << (ai - 24);
    if (start + 1 + n > this.limit) {
      this.truncated(what);
      return false;
    }
    let v = 0;
    for (let i = 1; i <= n; i++) v = v * 256 + bytes[start + i];
    this.cborArg = v;
    this.pos = start + 1 + n;
    return true;
  }

  // ------------------------------------------------------------------ clock table

  /** Reads the logical clock table at [start, len) into tSid/tTime; errors are kept for later. */
  readClockTable(start: number): void {
    const { bytes, len } = this;
    this.tableStart = start;
    let p = start;
    const err = (code: Code, offset: number, message: string, stop: number) => {
      this.tableErr = { code, offset, message: message, stop };
    };
    // The table runs to the end of the frame.
    const read = varintRead();
    const vu = (): number => {
      const end = readVu57(bytes, p, len, read);
      if (end < 0) {
        p = len;
        return -1;
      }
      p = end;
      return read.value;
    };
    const count = vu();
    if (count < 0) return err('truncated', len, 'unexpected end of input in the clock table length', len);
    this.tableHead = p - start;
    this.tableCount = Math.min(count, MAX_SAFE);
    if (count === 0)
      return err(
        'invalid-clock' as Code,
        start,
        "the clock table has no entries (the first is the model's own session)",
        p,
      );
    if (count * 2 > len - p)
      return err(
        'length-exceeds-input',
        start,
        `clock table of ${grouped(count)} entries exceeds the ${grouped(len - p)} bytes left`,
        p,
      );
    const sids = new Set<number>();
    for (let i = 0; i < count; i++) {
      const s = p;
      const sid = vu();
      const time = sid < 0 ? -1 : vu();
      if (time < 0) return err('truncated', len, `unexpected end of input in clock table entry ${i + 1}`, len);
      if (sid > MAX_SAFE || time > MAX_SAFE)
        return err('invalid-clock' as Code, s, `clock table entry ${i + 1} (${sid}.${time}) is beyond 2^53`, s);
      if (sids.has(sid)) return err('invalid-clock' as Code, s, `session ${sid} appears twice in the clock table`, s);
      sids.add(sid);
      this.tSid.push(sid);
      this.tTime.push(time);
      this.tStart.push(s);
      this.tEnd.push(p);
    }
    if (p < len) err('trailing-bytes', p, `${grouped(len - p)} trailing bytes after the clock table`, p);
  }

  recordClockTable(root: number, prev: number): void {
    const store = this.store;
    const count = this.tSid.length;
    const clock = store.add(Kind.crdt_clock, this.tableStart, this.tableHead, this.tableCount, root, prev);
    this.ann.setSpan(clock, count);
    let last = -1;
    for (let i = 0; i < count; i++) {
      const e = store.add(Kind.crdt_clock_entry, this.tStart[i], this.tEnd[i] - this.tStart[i], i + 1, clock, last);
      this.ann.set(e, this.tSid[i], this.tTime[i]);
      last = e;
    }
    store.end[clock] = count ? this.tEnd[count - 1] : this.tableStart + this.tableHead;
    const err = this.tableErr;
    if (err && err.code === 'trailing-bytes') {
      // The table is whole; bytes follow it. The model ends with its table.
      this.index.fail(err.code, err.offset, err.message);
      this.failed = true;
      store.end[root] = err.offset;
    } else if (err) {
      this.sNode.push(clock);
      this.fail(err.code, err.offset, err.message, err.stop);
      this.sNode.pop();
    }
  }

  // ------------------------------------------------------------------ the node tree

  walkTree(root: number, prev: number): void {
    const { sNode, sKind, sLeft, sLast, sKeys } = this;
    sNode.push(root);
    sKind.push(F_ROOT);
    sLeft.push(1);
    sLast.push(prev);
    sKeys.push(null);
    while (sNode.length) {
      const t = sNode.length - 1;
      const parent = sNode[t];
      if (sLeft[t] === 0) {
        if (sKind[t] !== F_ROOT) this.store.end[parent] = this.pos;
        sNode.pop();
        sKind.pop();
        sLeft.pop();
        sLast.pop();
        sKeys.pop();
        continue;
      }
      sLeft[t]--;
      let c: number;
      switch (sKind[t]) {
        case F_ROOT:
        case F_VEC:
          c = this.node(parent, sLast[t], true);
          break;
        case F_VAL:
        case F_ARR_CHUNK:
          c = this.node(parent, sLast[t], false);
          break;
        case F_OBJ: {
          const key = this.objKey(parent, sLast[t], t);
          if (key < 0) return;
          sLast[t] = key;
          c = this.node(parent, key, false);
          break;
        }
        case F_STR:
          c = this.strChunk(parent, sLast[t]);
          break;
        case F_BIN:
          c = this.binChunk(parent, sLast[t]);
          break;
        default:
          c = this.arrChunk(parent, sLast[t]);
          break;
      }
      if (c < 0) return;
      sLast[t] = c;
    }
  }

  push(node: number, kind: number, count: number): void {
    this.sNode.push(node);
    this.sKind.push(kind);
    this.sLeft.push(count);
    this.sLast.push(-1);
    this.sKeys.push(kind === F_OBJ && count > 1 ? new Set() : null);
  }

  /** One CRDT node at `pos`; returns its id (-1 after an error). Containers are pushed. */
  node(parent: number, prev: number, allowAbsent: boolean): number {
    const { bytes, store } = this;
    const start = this.pos;
    if (allowAbsent && start < this.limit && bytes[start] === 0) {
      // The root's undefined value / an absent vec element: one 0x00 byte, no node id.
      const id = store.add(Kind.crdt_con, start, 1, -1, parent, prev);
      this.pos = start + 1;
      return id;
    }
    if (!this.readId('a node id')) return -1;
    if (!this.resolveId(start, 1, true, 'node')) return -1;
    const sid = this.sid;
    const time = this.time;
    if (this.pos >= this.limit) return this.truncated('a node type octet');
    const octetAt = this.pos;
    const octet = bytes[this.pos++];
    const major = octet >> 5;
    const minor = octet & 31;
    if (major > 6) {
      this.fail('invalid-byte', octetAt, `unknown CRDT node type octet 0x${octet.toString(16)}`, octetAt);
      return -1;
    }
    let count = 0;
    if (major === 0) {
      if (minor > 1) {
        this.fail(
          'invalid-byte',
          octetAt,
          `con node octet 0x${octet.toString(16)}: expected 0x00 (CBOR value) or 0x01 (timestamp)`,
          octetAt,
        );
        return -1;
      }
      count = minor;
    } else if (major === 1) {
      if (minor !== 0) {
        this.fail('invalid-byte', octetAt, `val node octet 0x${octet.toString(16)}: expected 0x20`, octetAt);
        return -1;
      }
      count = 1;
    } else {
      count = minor < 31 ? minor : this.vu57(`the ${NODE_NAME[major]} node's count`);
      if (count < 0) return -1;
      // Each vec element takes at least a byte, every other entry or chunk at least two.
      const least = major === 3 ? 1 : 2;
      if (count > (this.limit - this.pos) / least) {
        this.fail(
          'length-exceeds-input',
          start,
          `${NODE_NAME[major]} node of ${grouped(count)} ${major === 2 ? 'keys' : major === 3 ? 'elements' : 'chunks'} exceeds the ${grouped(this.limit - this.pos)} bytes left`,
          start,
        );
        return -1;
      }
    }
    const id = store.add(NODE_KIND[major], start, this.pos - start, count, parent, prev);
    this.ann.set(id, sid, time);
    switch (major) {
      case 0:
        return this.conBody(id) ? id : -1;
      case 1:
        this.push(id, F_VAL, 1);
        break;
      case 2:
        this.push(id, F_OBJ, count);
        break;
      case 3:
        this.push(id, F_VEC, count);
        break;
      case 4:
        this.push(id, F_STR, count);
        break;
      case 5:
        this.push(id, F_BIN, count);
        break;
      default:
        this.push(id, F_ARR, count);
        break;
    }
    return id;
  }

  /** The body of con node `id`: a CBOR value (content) or a timestamp (crdt_id). */
  conBody(id: number): boolean {
    const { store, bytes } = this;
    const start = this.pos;
    if (store.arg[id] === 1) {
      if (!this.readId('a con timestamp')) return this.failOpen(id);
      if (!this.resolveId(start, 1, false, 'timestamp constant')) return this.failOpen(id);
      const ref = store.add(Kind.crdt_id, start, this.pos - start, 0, id, -1);
      store.end[ref] = this.pos;
      this.ann.set(ref, this.sid, this.time);
      store.end[id] = this.pos;
      return true;
    }
    if (start >= this.limit) {
      this.truncated('a con value');
      return this.failOpen(id);
    }
    // Scalars (most constants) are measured here; anything else goes to the CBOR walker.
    const scalarEnd = cborScalarEnd(bytes, start, this.limit);
    if (scalarEnd > 0) {
      if (bytes[start] !== 0xf7) {
        // CBOR undefined (json-joy's "deleted" marker) is metadata: no content child.
        const c = store.add(Kind.crdt_content, start, 0, scalarEnd - start, id, -1);
        store.end[c] = scalarEnd;
      }
      this.pos = scalarEnd;
      store.end[id] = scalarEnd;
      return true;
    }
    // Find the CBOR item's extent (depth 0: validated, not recorded).
    const sub = bytes.subarray(start, this.limit);
    const probe = indexCbor(sub, { depth: 0 });
    const perr = probe.error;
    if (perr && perr.code !== 'trailing-bytes') {
      this.fail(perr.code, start + perr.offset, `con value: ${stripAt(perr.message)}`, start + perr.offset, id);
      return false;
    }
    const itemEnd = start + probe.store.end[0];
    const ib = bytes[start];
    if (ib >= 0x80 && ib !== 0xf7 && !this.checkCborKeys(start, itemEnd, id)) return false;
    if (ib !== 0xf7) {
      // CBOR undefined (json-joy's "deleted" marker) is metadata: no content child.
      const c = store.add(Kind.crdt_content, start, 0, itemEnd - start, id, -1);
      store.end[c] = itemEnd;
    }
    this.pos = itemEnd;
    store.end[id] = itemEnd;
    return true;
  }

  /**
   * json-joy's CBOR decoder refuses a map key `__proto__` (in an indefinite-length map it
   * would replace the view's prototype) and indefinite-length text keys; so do we, so that
   * a model we accept is one json-joy loads. Duplicate CBOR keys become warnings on the
   * con's content.
   */
  checkCborKeys(start: number, end: number, con: number): boolean {
    const full = indexCbor(this.bytes.subarray(start, end));
    const s = full.store;
    const { kind, flags } = s;
    for (const w of full.warnings)
      this.index.warn({ ...w, offset: w.offset + start, node: this.store.size, message: `con value: ${w.message}` });
    for (let i = 0; i < s.size; i++) {
      if (kind[i] === Kind.text && flags[i] & Flag.key && flags[i] & Flag.indefinite) {
        this.fail(
          'invalid-byte',
          start + s.start[i],
          'con value: an indefinite-length map key (json-joy refuses it)',
          start + s.start[i],
          con,
        );
        return false;
      }
      if (kind[i] === Kind.text && flags[i] & Flag.key && s.end[i] - s.start[i] - s.head[i] === 9) {
        const p = s.start[i] + s.head[i];
        let k = '';
        for (let j = 0; j < 9; j++) k += String.fromCharCode(full.bytes[p + j]);
        if (k === '__proto__') {
          this.fail(
            'invalid-byte',
            start + s.start[i],
            'con value: a CBOR map key "__proto__" (json-joy refuses it)',
            start + s.start[i],
            con,
          );
          return false;
        }
      }
    }
    return true;
  }

  failOpen(extra: number): false {
    // The error is recorded; mark the node being read as well.
    if (extra >= 0) {
      this.store.flags[extra] |= Flag.incomplete;
      this.store.end[extra] = Math.max(this.store.start[extra], Math.min(this.pos, this.len));
    }
    return false;
  }

  /**
   * A lone surrogate (an edit split a surrogate pair) is valid json-joy content, but
   * json-joy 17.67.0 decodes strings of 32 bytes or more with Buffer's UTF-8 decoder, which
   * turns it into U+FFFD: its view of such a frame differs from the sender's. Warn then.
   */
  surrogateWarning(p: number, n: number, what: string): void {
    if (n < 32) return;
    this.index.warn({
      code: 'lone-surrogate',
      offset: p,
      node: this.store.size,
      message: `${what} holds a lone UTF-16 surrogate; json-joy decodes a ${n}-byte string with U+FFFD in its place at byte ${p}`,
    });
  }

  /** An object key (definite CBOR text) recorded as a crdt_content key node. */
  objKey(obj: number, prev: number, t: number): number {
    const { bytes, store } = this;
    const start = this.pos;
    if (!this.cborHead('an object key')) return -1;
    if (this.cborMajor !== 3) {
      this.fail('invalid-byte', start, `object key: expected CBOR text, found major type ${this.cborMajor}`, start);
      return -1;
    }
    const n = this.cborArg;
    const p = this.pos;
    if (n > this.limit - p) {
      this.fail(
        'length-exceeds-input',
        start,
        `object key of ${grouped(n)} bytes exceeds the ${grouped(this.limit - p)} bytes left`,
        start,
      );
      return -1;
    }
    const bad = findInvalidWtf8(bytes, p, p + n);
    if (bad >= 0) {
      this.fail('invalid-utf8', bad, 'invalid UTF-8 in an object key', bad);
      return -1;
    }
    if (bad === WTF8_SURROGATES) this.surrogateWarning(p, n, 'object key');
    const keys = this.sKeys[t];
    if (keys) {
      const key = decodeWtf8(bytes, p, p + n);
      if (keys.has(key)) {
        this.fail('duplicate-key' as Code, start, `object key ${JSON.stringify(key)} appears twice`, start);
        return -1;
      }
      keys.add(key);
    }
    const id = store.add(Kind.crdt_content, p, 0, n, obj, prev);
    store.flags[id] |= Flag.key;
    store.end[id] = p + n;
    this.pos = p + n;
    return id;
  }

  strChunk(str: number, prev: number): number {
    const { bytes, store } = this;
    const start = this.pos;
    if (!this.readId('a string chunk id')) return -1;
    const headAt = this.pos;
    if (!this.cborHead('a string chunk')) return -1;
    const major = this.cborMajor;
    const n = this.cborArg;
    if (major === 0) {
      if (n > MAX_SAFE) {
        this.fail('invalid-byte', headAt, `deleted string span ${n} is beyond 2^53`, headAt);
        return -1;
      }
      if (!this.resolveId(start, n, false, 'string tombstone')) return -1;
      const id = store.add(Kind.crdt_tombstone, start, this.pos - start, n, str, prev);
      this.ann.set(id, this.sid, this.time);
      this.ann.setSpan(id, n);
      return id;
    }
    if (major !== 3) {
      this.fail(
        'invalid-byte',
        headAt,
        `string chunk: expected CBOR text (live) or an unsigned integer (deleted span), found major type ${major}`,
        headAt,
      );
      return -1;
    }
    const p = this.pos;
    if (n > this.limit - p) {
      this.fail(
        'length-exceeds-input',
        headAt,
        `string chunk of ${grouped(n)} bytes exceeds the ${grouped(this.limit - p)} bytes left`,
        headAt,
      );
      return -1;
    }
    // Valid UTF-8 (the common case) is validated and measured in one pass; anything else
    // may still be json-joy's WTF-8 (lone surrogates of a split pair).
    let span = utf16LengthIfValidUtf8(bytes, p, p + n);
    if (span < 0) {
      const bad = findInvalidWtf8(bytes, p, p + n);
      if (bad >= 0) {
        this.fail('invalid-utf8', bad, 'invalid UTF-8 in a string chunk', bad);
        return -1;
      }
      if (bad === WTF8_SURROGATES) this.surrogateWarning(p, n, 'string chunk');
      span = utf16LengthOfUtf8(bytes, p, p + n);
    }
    if (!this.resolveId(start, span, false, 'string chunk')) return -1;
    const id = store.add(Kind.crdt_chunk, start, p - start, span, str, prev);
    this.ann.set(id, this.sid, this.time);
    this.ann.setSpan(id, span);
    const c = store.add(Kind.crdt_content, p, 0, n, id, -1);
    store.end[c] = p + n;
    store.end[id] = p + n;
    this.pos = p + n;
    return id;
  }

  binChunk(bin: number, prev: number): number {
    const store = this.store;
    const start = this.pos;
    if (!this.readId('a binary chunk id')) return -1;
    const headAt = this.pos;
    const n = this.b1vu56('a binary chunk length');
    if (n < 0) return -1;
    const deleted = this.flag === 1;
    const p = this.pos;
    if (!deleted && n > this.limit - p) {
      this.fail(
        'length-exceeds-input',
        headAt,
        `binary chunk of ${grouped(n)} bytes exceeds the ${grouped(this.limit - p)} bytes left`,
        headAt,
      );
      return -1;
    }
    if (n > MAX_SAFE) {
      this.fail('invalid-byte', headAt, `deleted binary span ${n} is beyond 2^53`, headAt);
      return -1;
    }
    if (!this.resolveId(start, n, false, deleted ? 'binary tombstone' : 'binary chunk')) return -1;
    const id = store.add(deleted ? Kind.crdt_tombstone : Kind.crdt_chunk, start, p - start, n, bin, prev);
    this.ann.set(id, this.sid, this.time);
    this.ann.setSpan(id, n);
    if (!deleted) {
      const c = store.add(Kind.crdt_content, p, 0, n, id, -1);
      store.end[c] = p + n;
      store.end[id] = p + n;
      this.pos = p + n;
    }
    return id;
  }

  arrChunk(arr: number, prev: number): number {
    const store = this.store;
    const start = this.pos;
    if (!this.readId('an array chunk id')) return -1;
    const headAt = this.pos;
    const n = this.b1vu56('an array chunk span');
    if (n < 0) return -1;
    const deleted = this.flag === 1;
    const p = this.pos;
    if (!deleted && n > (this.limit - p) / 2) {
      this.fail(
        'length-exceeds-input',
        headAt,
        `array chunk of ${grouped(n)} elements exceeds the ${grouped(this.limit - p)} bytes left`,
        headAt,
      );
      return -1;
    }
    if (n > MAX_SAFE) {
      this.fail('invalid-byte', headAt, `deleted array span ${n} is beyond 2^53`, headAt);
      return -1;
    }
    if (!this.resolveId(start, n, false, deleted ? 'array tombstone' : 'array chunk')) return -1;
    const id = store.add(deleted ? Kind.crdt_tombstone : Kind.crdt_chunk, start, p - start, n, arr, prev);
    this.ann.set(id, this.sid, this.time);
    this.ann.setSpan(id, n);
    if (!deleted) this.push(id, F_ARR_CHUNK, n);
    return id;
  }
}

/**
 * Whether a list of times (integers >= 0) repeats one. Times of one session cluster below
 * its clock, so a bitmap over [min, max] usually does it in one pass; a sparse list is
 * sorted instead.
 */
function hasDuplicate(times: readonly number[]): boolean {
  const n = times.length;
  if (n < 2) return false;
  let min = times[0];
  let max = min;
  let increasing = true;
  for (let i = 1; i < n; i++) {
    const t = times[i];
    if (t <= times[i - 1]) increasing = false;
    if (t < min) min = t;
    else if (t > max) max = t;
  }
  if (increasing) return false;
  const range = max - min + 1;
  if (range <= 64 * n + 4096) {
    const bits = new Uint32Array(Math.ceil(range / 32));
    for (let i = 0; i < n; i++) {
      const d = times[i] - min;
      const w = Math.floor(d / 32);
      const b = 1 << (d % 32);
      if (bits[w] & b) return true;
      bits[w] |= b;
    }
    return false;
  }
  const sorted = times.slice().sort((a, b) => a - b);
  for (let i = 1; i < n; i++) if (sorted[i] === sorted[i - 1]) return true;
  return false;
}

function stripAt(message: string): string {
  return message.replace(/ at byte \d+$/, '');
}
