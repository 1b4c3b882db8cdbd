import { Flag, Kind } from '../core/kinds.js';
import { describeCrdt, previewCrdt, crdtDetails } from './describe.js';
import type { DecodeErrorCode } from '../core/errors.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import type { SpanStore } from '../core/span-store.js';
import { findInvalidUtf8, utf16LengthIfValidUtf8 } from '../core/utf8.js';
import { indexCbor } from '../cbor/index.js';
import { crdtAnnotations, SESSION, type CrdtAnnotations } from './annotations.js';
import { extendIncompleteParents } from './partial-tree.js';
import { OP_NAMES, PatchOpcode } from './patch-opcodes.js';
import { hex2 } from '../core/hex.js';
import { readB1vu56, readVu57, varintRead } from './varint.js';
import { cborScalarEnd } from '../cbor/scalar-end.js';
import { crdtChildName } from './op-roles.js';
import { patchNodeValue } from './patch-verbose.js';
import { grouped } from '../core/grouped.js';

/**
 * The validating span walker for json-joy's binary JSON CRDT Patch encoding
 * (`Patch.toBinary()`, json-joy 17.67.0 `json-crdt-patch/codec/binary`).
 *
 * Layout (vu57 = 7 bits per byte, high bit "more", the 8th byte holds 8 bits; b1vu56 = a
 * flag bit, then 6 bits with bit 6 as "more", then vu57-style bytes):
 *
 * | part | encoding |
 * | --- | --- |
 * | patch id | `vu57 sid`, `vu57 time` (the first operation's id) |
 * | meta | CBOR: `f7` (none) or `81 <item>` (a one-element array around the meta value) |
 * | operation count | `vu57 n` |
 * | operations | `n` times: opcode byte `ooooolll` (opcode << 3 \| low bits), then operands |
 * | id (reference) | `b1vu56 (flag, time)`; flag 0: session of the patch, flag 1: `vu57 sid` follows |
 *
 * Operations (`len` = the low 3 bits when non-zero, else a `vu57` after the opcode byte):
 *
 * | opcode | byte | operands | span |
 * | --- | --- | --- | --- |
 * | new_con 0 | `00` / `01` | `00`: one CBOR value; `01`: an id (a timestamp constant) | 1 |
 * | new_val 1 … new_arr 6 | `08` `10` `18` `20` `28` `30` | none (val, obj, vec, str, bin, arr) | 1 |
 * | ins_val 9 | `48` | obj id, value id | 1 |
 * | ins_obj 10 | `50`+len | obj id, len × (CBOR text key, value id) | 1 |
 * | ins_vec 11 | `58`+len | obj id, len × (index byte `00`..`17`, value id) | 1 |
 * | ins_str 12 | `60`+len | obj id, after id, len bytes of UTF-8 | UTF-16 length |
 * | ins_bin 13 | `68`+len | obj id, after id, len bytes | len |
 * | ins_arr 14 | `70`+len | obj id, after id, len element ids | len |
 * | upd_arr 15 | `78` | obj id, ref id, value id | 1 |
 * | del 16 | `80`+len | obj id, len × (id, `vu57` span) | 1 |
 * | nop 17 | `88`+len | none | len |
 *
 * Operation `i` has the implicit id (patch sid, patch time + the spans of operations 0..i-1).
 *
 * Tree: the root (`crdt_patch`, head 0, arg = operation count) holds a `crdt_id` leaf for
 * the patch id, a `crdt_meta` node (head 1, no children) and one `crdt_op` per operation
 * (arg = opcode 0..17, head = opcode byte + length varint). The operation count sits
 * between meta and the first operation and belongs to the root. Inside an operation:
 * referenced ids are `crdt_id` leaves (head = their whole encoding, as in the model walker;
 * arg = the slot index for ins_vec values, the span for del ranges, else 0); content is
 * `crdt_content` leaves (head 0, arg = byte length): a con value (its whole CBOR item;
 * CBOR undefined, json-joy's "deleted" marker, is metadata and gets no leaf), an object
 * key (the UTF-8 text only, Flag.key, followed by its value id; the CBOR length prefix is
 * the operation's metadata, as in the model walker), string text and binary data. An
 * ins_vec slot index byte is not a node either (metadata). Ids of the root, the patch id,
 * every operation, reference and del range go to the CRDT annotations (`crdtIdOf`), spans
 * of the root (the patch's span), operations and del ranges to `crdtSpanOf`.
 *
 * Everything is recorded whatever the requested depth: a patch is one flat list, and its
 * value (json-joy's verbose JSON form) needs all of it.
 *
 * Beyond well-formedness the walker rejects, as `implausible`, what json-joy's encoder
 * never writes (so arbitrary bytes rarely pass as a patch): session 0 or time 0 as the
 * patch id, meta other than `f7` / `81 …`, zero operations, a length varint below 8 (the
 * encoder uses the low bits then), values beyond 2^53 - 1, an
 * explicit session equal to the patch's own, an object key that is not a definite text
 * string, a vec index other than `00`..`17`, a del range of span 0, a reference (outside
 * session 0) whose time is not older than its operation's (json-joy's clocks are Lamport
 * clocks: whatever an operation refers to was seen, so is older), and ids past 2^53 - 1.
 * A con or meta value holding a CBOR map key `__proto__` is `invalid-byte` (json-joy's CBOR
 * decoder refuses it; the model walker does the same); duplicate CBOR map keys and varints
 * not in their shortest form (json-joy's decoder reads them: codecs/crdt/varint.ts) are warnings.
 * Opcode bytes json-joy never writes (opcodes 7, 8, 18..31, non-zero low bits where no
 * length is encoded, new_con low bits 2..7) are `unknown-opcode`. Text must be strict
 * UTF-8 (json-joy writes a lone surrogate of a short string as `ed a0..bf xx`; such
 * patches are rejected as `invalid-utf8`).
 */

/** Error codes this walker adds to the shared model (see the report to codecs/core/errors.ts). */
export type PatchErrorCode = DecodeErrorCode;

export { PatchOpcode, patchOpName, type PatchOpName } from './patch-opcodes.js';

/** Opcode byte kinds: what the low three bits mean. */
const BYTE_INVALID = 0;
const BYTE_PLAIN = 1; // low bits must be 0 (and are)
const BYTE_LENGTH = 2; // low bits: a length 1..7, or 0 and a vu57 length follows
const OPCODE_BYTE = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  const op = b >> 3;
  const low = b & 7;
  if (op === PatchOpcode.new_con) OPCODE_BYTE[b] = low <= 1 ? BYTE_PLAIN : BYTE_INVALID;
  else if ((op >= 1 && op <= 6) || op === PatchOpcode.ins_val || op === PatchOpcode.upd_arr)
    OPCODE_BYTE[b] = low === 0 ? BYTE_PLAIN : BYTE_INVALID;
  else if ((op >= 10 && op <= 14) || op === PatchOpcode.del || op === PatchOpcode.nop) OPCODE_BYTE[b] = BYTE_LENGTH;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export const crdtPatchWalker: FormatWalker = {
  format: 'crdt-patch',
  walk: walkPatch,
  leafValue: patchNodeValue,
  value: patchNodeValue,
  describe: describeCrdt,
  preview: previewCrdt,
  details: crdtDetails,
  childName: crdtChildName,
  capacityHint: patchCapacityHint,
};

/**
 * Nodes to allocate for a patch: its operation count is in its first bytes (after the
 * patch id and, usually, an empty meta `f7`), and an operation is typically itself plus two
 * referenced ids. Growing the store and annotations later costs more than a close guess.
 */
function patchCapacityHint(bytes: Uint8Array): number {
  let p = 0;
  const skipVarint = (): boolean => {
    for (let k = 0; k < 8; k++) if (p >= bytes.length || !(bytes[p++] & 0x80)) return p <= bytes.length;
    return true;
  };
  if (skipVarint() && skipVarint() && bytes[p] === 0xf7) {
    p++;
    let count = 0;
    for (let shift = 1, k = 0; k < 4 && p < bytes.length; k++, shift *= 128) {
      const b = bytes[p++];
      count += (b & 0x7f) * shift;
      if (!(b & 0x80)) return Math.min(count * 3 + 8, (bytes.length >> 1) + 16, MAX_HINT);
    }
  }
  return Math.min((bytes.length >> 2) + 16, MAX_HINT);
}

/** Format detection runs this walker on every frame, most of which it rejects at once: never reserve much up front. */
const MAX_HINT = 4096;

/** Indexes a whole binary patch frame (never throws; see `index.error`). */
export function indexCrdtPatch(bytes: Uint8Array): SpanIndex {
  return new SpanIndex(bytes, crdtPatchWalker);
}

function walkPatch(index: SpanIndex, node: number): void {
  // The first walk records everything; re-walking a node has nothing to add.
  if (node >= 0) return;
  if (index.bytes.length === 0) {
    index.fail('empty-input', 0, 'empty input: no JSON CRDT patch');
    return;
  }
  new PatchParser(index).parse();
  extendIncompleteParents(index);
}

/**
 * One pass over the frame. Methods return false / -1 after recording an error; the caller
 * then returns at once (the first error stops the walk).
 */
class PatchParser {
  private readonly bytes: Uint8Array;
  private readonly len: number;
  private readonly store: SpanStore;
  private readonly ann: CrdtAnnotations;
  private pos = 0;
  /** Open nodes (root, then the current operation): incomplete if the walk stops. */
  private readonly open: number[] = [];
  /** The patch's session id. */
  private sid = 0;
  /** Last decoded id. */
  private idSid = 0;
  private idTime = 0;
  /** Last child recorded in the current operation (sibling link). */
  private last = -1;
  /** The last varint read. */
  private readonly varint = varintRead();

  constructor(private readonly index: SpanIndex) {
    this.bytes = index.bytes;
    this.len = index.bytes.length;
    this.store = index.store;
    this.ann = crdtAnnotations(index);
    this.ann.ensure(this.store.capacity - 1);
  }

  parse(): void {
    const store = this.store;
    const root = store.add(Kind.crdt_patch, 0, 0, 0, -1, -1);
    store.flags[root] |= Flag.expanded;
    this.open.push(root);

    // Patch id: the id of the first operation.
    const sid = this.vu57('the patch session id');
    if (sid < 0) return;
    const timeAt = this.pos;
    const time = this.vu57('the patch time');
    if (time < 0) return;
    this.sid = sid;
    const idNode = this.store.add(Kind.crdt_id, 0, this.pos, 0, root, -1);
    this.store.end[idNode] = this.pos;
    this.ann.set(idNode, sid, time);
    this.ann.set(root, sid, time);
    if (sid === SESSION.SYSTEM)
      return this.implausible(0, 'patch session id 0 (the system session) is never used by a patch');
    if (time === 0) return this.implausible(timeAt, 'patch time 0 (json-joy clocks start at 1)');

    // Meta: CBOR undefined, or a one-element array around the meta value.
    const metaStart = this.pos;
    if (metaStart >= this.len)
      return this.fail('truncated', this.len, 'unexpected end of input: the patch meta is missing');
    const mb = this.bytes[metaStart];
    if (mb !== 0xf7 && mb !== 0x81) {
      return this.implausible(
        metaStart,
        `patch meta must be CBOR undefined (f7) or a one-element array (81 ...), found initial byte 0x${hex2(mb)}`,
      );
    }
    const meta = this.store.add(Kind.crdt_meta, metaStart, 1, mb === 0x81 ? 1 : 0, root, idNode);
    this.store.flags[meta] |= Flag.expanded;
    this.pos = metaStart + 1;
    if (mb === 0x81) {
      this.open.push(meta);
      const at = this.pos;
      const end = this.cborItem(at, 'the patch meta value');
      if (end < 0 || !this.checkCborKeys(at, end, 'the patch meta value', meta)) return;
      this.pos = end;
      this.open.pop();
    }
    this.store.end[meta] = this.pos;

    // Operations.
    const countAt = this.pos;
    const count = this.vu57('the operation count');
    if (count < 0) return;
    if (count === 0)
      return this.implausible(countAt, 'a patch with no operations (json-joy cannot encode an empty patch)');
    if (count > this.len - this.pos) {
      return this.fail(
        'length-exceeds-input',
        countAt,
        `patch declares ${grouped(count)} operations but only ${grouped(this.len - this.pos)} bytes remain`,
        this.len,
      );
    }
    this.store.arg[root] = count;
    let t = time;
    let prev = meta;
    for (let i = 0; i < count; i++) {
      const op = this.operation(root, prev, t);
      if (op < 0) return;
      const span = this.ann.span[op];
      t += span;
      if (t > MAX_SAFE) return this.implausible(this.store.start[op], `operation ids pass 2^53 - 1 (time ${t})`);
      prev = op;
    }
    this.ann.setSpan(root, t - time);
    this.store.end[root] = this.pos;
    this.open.pop();
    if (this.pos < this.len) {
      this.index.fail(
        'trailing-bytes',
        this.pos,
        `${grouped(this.len - this.pos)} trailing bytes after the last operation`,
      );
    }
  }

  /** Reads one operation with id (patch sid, time); returns its node or -1. */
  private operation(root: number, prev: number, time: number): number {
    const bytes = this.bytes;
    const start = this.pos;
    if (start >= this.len) {
      this.fail('truncated', this.len, 'unexpected end of input: an operation is missing');
      return -1;
    }
    const octet = bytes[start];
    const opcode = octet >> 3;
    const low = octet & 7;
    const byteKind = OPCODE_BYTE[octet];
    if (byteKind === BYTE_INVALID) {
      const name = OP_NAMES[opcode];
      this.fail(
        'unknown-opcode',
        start,
        name
          ? `opcode byte 0x${hex2(octet)}: ${name} with low bits ${low} is never written`
          : `unknown opcode ${opcode} (byte 0x${hex2(octet)})`,
      );
      return -1;
    }
    this.pos = start + 1;
    const store = this.store;
    const op = store.add(Kind.crdt_op, start, 1, opcode, root, prev);
    store.flags[op] |= Flag.expanded;
    this.ann.set(op, this.sid, time);
    this.open.push(op);
    this.last = -1;

    let length = 0;
    if (byteKind === BYTE_LENGTH) {
      if (low) length = low;
      else {
        length = this.vu57('an operation length');
        if (length < 0) return -1;
        if (length < 8) {
          this.implausible(
            start + 1,
            `${OP_NAMES[opcode]} length ${length} written as a varint (json-joy writes lengths 1..7 in the opcode byte and never 0)`,
          );
          return -1;
        }
      }
      this.store.head[op] = this.pos - start;
    }

    let span = 1;
    switch (opcode) {
      case PatchOpcode.new_con: {
        if (low === 1) {
          // A constant holding a timestamp: any id, no ordering to check.
          if (this.ref(op, time, 0, false) < 0) return -1;
        } else {
          const at = this.pos;
          const end = this.cborItem(at, 'a new_con value');
          if (end < 0 || !this.checkCborKeys(at, end, 'a new_con value', op)) return -1;
          // CBOR undefined (json-joy's "deleted" marker, e.g. an object key's removal) is metadata.
          if (this.bytes[at] !== 0xf7) this.leaf(Kind.crdt_content, op, at, end, 0, end - at);
          this.pos = end;
        }
        break;
      }
      case PatchOpcode.ins_val:
        if (this.ref(op, time, 0) < 0 || this.ref(op, time, 0) < 0) return -1;
        break;
      case PatchOpcode.upd_arr:
        if (this.ref(op, time, 0) < 0 || this.ref(op, time, 0) < 0 || this.ref(op, time, 0) < 0) return -1;
        break;
      case PatchOpcode.ins_obj: {
        // Each entry takes at least a key byte and an id byte; the object id one more.
        if (!this.fits(length * 2 + 1, start, `ins_obj declares ${grouped(length)} entries`)) return -1;
        if (this.ref(op, time, 0) < 0) return -1;
        for (let i = 0; i < length; i++) {
          if (!this.key(op)) return -1;
          if (this.ref(op, time, 0) < 0) return -1;
        }
        break;
      }
      case PatchOpcode.ins_vec: {
        if (!this.fits(length * 2 + 1, start, `ins_vec declares ${grouped(length)} entries`)) return -1;
        if (this.ref(op, time, 0) < 0) return -1;
        for (let i = 0; i < length; i++) {
          const at = this.pos;
          if (at >= this.len) {
            this.fail('truncated', this.len, 'unexpected end of input: an ins_vec index is missing');
            return -1;
          }
          const b = this.bytes[at];
          if (b > 0x17) {
            this.implausible(
              at,
              `ins_vec index must be one CBOR byte 00..17 (json-joy writes the index as a raw byte and cannot read back 24 or more), found 0x${hex2(b)}`,
            );
            return -1;
          }
          this.pos = at + 1;
          if (this.ref(op, time, b) < 0) return -1;
        }
        break;
      }
      case PatchOpcode.ins_str:
      case PatchOpcode.ins_bin: {
        const name = OP_NAMES[opcode];
        if (!this.fits(length + 2, start, `${name} declares ${grouped(length)} bytes`)) return -1;
        if (this.ref(op, time, 0) < 0 || this.ref(op, time, 0) < 0) return -1;
        const at = this.pos;
        if (length > this.len - at) {
          this.fail(
            'length-exceeds-input',
            start,
            `${name} declares ${grouped(length)} bytes but only ${grouped(this.len - at)} remain`,
            this.len,
          );
          return -1;
        }
        const leaf = this.leaf(Kind.crdt_content, op, at, at + length, 0, length);
        if (opcode === PatchOpcode.ins_str) {
          // Validated and measured in one pass; on failure, locate the bad byte.
          span = utf16LengthIfValidUtf8(this.bytes, at, at + length);
          if (span < 0) {
            this.open.push(leaf);
            this.fail(
              'invalid-utf8',
              findInvalidUtf8(this.bytes, at, at + length),
              'invalid UTF-8 in ins_str text',
              at + length,
            );
            return -1;
          }
        } else span = length;
        this.pos = at + length;
        break;
      }
      case PatchOpcode.ins_arr: {
        if (!this.fits(length + 2, start, `ins_arr declares ${grouped(length)} elements`)) return -1;
        if (this.ref(op, time, 0) < 0 || this.ref(op, time, 0) < 0) return -1;
        for (let i = 0; i < length; i++) if (this.ref(op, time, 0) < 0) return -1;
        span = length;
        break;
      }
      case PatchOpcode.del: {
        if (!this.fits(length * 2 + 1, start, `del declares ${length} ranges`)) return -1;
        if (this.ref(op, time, 0) < 0) return -1;
        for (let i = 0; i < length; i++) if (!this.range(op, time)) return -1;
        break;
      }
      case PatchOpcode.nop:
        span = length;
        break;
      default:
        // new_val .. new_arr: the opcode byte is all.
        break;
    }
    this.ann.setSpan(op, span);
    this.store.end[op] = this.pos;
    this.open.pop();
    return op;
  }

  /** True when `need` bytes remain; else reports that the length overruns the input. */
  private fits(need: number, at: number, what: string): boolean {
    if (need <= this.len - this.pos) return true;
    this.fail('length-exceeds-input', at, `${what} but only ${grouped(this.len - this.pos)} bytes remain`, this.len);
    return false;
  }

  /** Records a leaf child of `parent` [start, end). */
  private leaf(kind: number, parent: number, start: number, end: number, head: number, arg: number): number {
    const id = this.store.add(kind, start, head, arg, parent, this.last);
    this.store.end[id] = end;
    this.last = id;
    return id;
  }

  /**
   * Reads an id referenced by the operation `op` (whose own time is `opTime`), records it
   * as a `crdt_id` leaf and returns the leaf, or -1. `ordered`: the id must be older than
   * the operation unless it is a system id (session 0).
   */
  private ref(op: number, opTime: number, arg: number, ordered = true): number {
    const start = this.pos;
    if (!this.id()) return -1;
    const node = this.leaf(Kind.crdt_id, op, start, this.pos, this.pos - start, arg);
    this.ann.set(node, this.idSid, this.idTime);
    if (ordered && this.idSid !== 0 && this.idTime >= opTime) {
      this.implausible(
        start,
        `operation ${this.sid}.${opTime} refers to ${this.idSid}.${this.idTime}, which is not older`,
      );
      return -1;
    }
    return node;
  }

  /** A del range: an id and a vu57 span. */
  private range(op: number, opTime: number): boolean {
    const start = this.pos;
    if (!this.id()) return false;
    const sid = this.idSid;
    const time = this.idTime;
    const span = this.vu57('a del range span');
    if (span < 0) return false;
    const node = this.leaf(Kind.crdt_id, op, start, this.pos, this.pos - start, span);
    this.ann.set(node, sid, time);
    this.ann.setSpan(node, span);
    if (span === 0) return (this.implausible(start, 'del range of span 0'), false);
    if (sid !== 0 && time + span > opTime) {
      return (
        this.implausible(
          start,
          `operation ${this.sid}.${opTime} deletes ${sid}.${time}..${time + span - 1}, which is not older`,
        ),
        false
      );
    }
    return true;
  }

  /** An object key: a definite-length CBOR text string, recorded with Flag.key. */
  private key(op: number): boolean {
    const bytes = this.bytes;
    const start = this.pos;
    if (start >= this.len) {
      this.fail('truncated', this.len, 'unexpected end of input: an ins_obj key is missing');
      return false;
    }
    const ib = bytes[start];
    const ai = ib & 31;
    if (ib >> 5 !== 3 || ai > 27) {
      return (
        this.implausible(
          start,
          `ins_obj key must be a definite-length CBOR text string, found initial byte 0x${hex2(ib)}`,
        ),
        false
      );
    }
    let size = ai;
    let head = 1;
    if (ai >= 24) {
      const n = 1 << (ai - 24);
      if (start + 1 + n > this.len) {
        this.fail('truncated', this.len, 'unexpected end of input inside the head of the ins_obj key');
        return false;
      }
      size = 0;
      for (let i = 1; i <= n; i++) size = size * 256 + bytes[start + i];
      head = 1 + n;
    }
    const at = start + head;
    if (size > this.len - at) {
      this.fail(
        'length-exceeds-input',
        start,
        `ins_obj key declares ${grouped(size)} bytes but only ${grouped(this.len - at)} remain`,
        this.len,
      );
      return false;
    }
    // The key's content is its text; the CBOR length prefix is the operation's metadata.
    const leaf = this.leaf(Kind.crdt_content, op, at, at + size, 0, size);
    this.store.flags[leaf] |= Flag.key;
    const bad = findInvalidUtf8(bytes, at, at + size);
    if (bad >= 0) {
      this.open.push(leaf);
      this.fail('invalid-utf8', bad, 'invalid UTF-8 in ins_obj key', at + size);
      return false;
    }
    this.pos = at + size;
    return true;
  }

  /** Reads an id (b1vu56 flag + time, then the session when the flag is set) into idSid / idTime. */
  private id(): boolean {
    const bytes = this.bytes;
    const start = this.pos;
    if (start >= this.len) {
      this.fail('truncated', this.len, 'unexpected end of input: an id is missing');
      return false;
    }
    const end = readB1vu56(bytes, start, this.len, this.varint);
    if (end < 0) {
      this.pos = this.len;
      this.fail('truncated', this.len, 'unexpected end of input inside the id');
      return false;
    }
    this.pos = end;
    const { flag, value } = this.varint;
    if (!this.varint.shortest) this.notShortest(start, 'the id time');
    if (value > MAX_SAFE) return (this.implausible(start, 'id time beyond 2^53 - 1'), false);
    let sid = this.sid;
    if (flag) {
      sid = this.vu57('the session id of an id');
      if (sid < 0) return false;
      if (sid === this.sid)
        return (
          this.implausible(
            start,
            `id ${sid}.${value} names the patch's own session explicitly (json-joy writes it implicitly)`,
          ),
          false
        );
    }
    this.idSid = sid;
    this.idTime = value;
    return true;
  }

  /** Reads a vu57; returns it, or -1 after an error. */
  private vu57(what: string): number {
    const start = this.pos;
    const end = readVu57(this.bytes, start, this.len, this.varint);
    if (end < 0) {
      this.pos = this.len;
      this.fail('truncated', this.len, `unexpected end of input inside ${what} (a varint)`);
      return -1;
    }
    this.pos = end;
    if (!this.varint.shortest) this.notShortest(start, what);
    const value = this.varint.value;
    if (value > MAX_SAFE) return (this.implausible(start, `${what} is beyond 2^53 - 1`), -1);
    return value;
  }

  /** json-joy reads a varint with a needless last 0 byte, but its encoder never writes one: a warning. */
  private notShortest(at: number, what: string): void {
    const node = this.open.length ? this.open[this.open.length - 1] : -1;
    this.index.warn({ code: 'non-canonical', offset: at, message: `${what} is not in its shortest form`, node });
  }

  /**
   * Validates one CBOR data item at `start` with the CBOR walker (bounds-checked, iterative,
   * strict); returns its end, or -1 after reporting its error at the right frame offset.
   */
  private cborItem(start: number, what: string): number {
    if (start >= this.len) {
      this.fail('truncated', this.len, `unexpected end of input: ${what} is missing`);
      return -1;
    }
    // Fast path for the usual constants (integers, floats, true / false / null / undefined,
    // definite strings): no sub-index. Anything else, and anything wrong, goes to the walker.
    const end = cborScalarEnd(this.bytes, start, this.len);
    if (end >= 0) return end;
    const sub = indexCbor(this.bytes.subarray(start), { depth: 0 });
    const err = sub.error;
    if (!err || err.code === 'trailing-bytes') return start + sub.store.end[0];
    const message = `${what}: ${err.message.replace(/ at byte \d+$/, '')}`;
    const at = start + err.offset;
    if (err.code === 'truncated' || err.code === 'empty-input') this.fail('truncated', this.len, message);
    else this.fail(err.code, at, message, err.code === 'length-exceeds-input' ? this.len : at);
    return -1;
  }

  /**
   * json-joy's CBOR decoder refuses a definite map key `__proto__` and sets the prototype
   * for an indefinite one; a value holding one is no patch json-joy reads (the model walker
   * rejects it the same way). Duplicate map keys become warnings. Only containers and tags
   * (initial byte >= 0x80, other than simple values and floats) can hold a map.
   */
  private checkCborKeys(start: number, end: number, what: string, node: number): boolean {
    const ib = this.bytes[start];
    if (ib < 0x80 || ib >= 0xe0) return true;
    const full = indexCbor(this.bytes.subarray(start, end));
    const s = full.store;
    for (const w of full.warnings)
      this.index.warn({ ...w, offset: w.offset + start, node, message: `${what}: ${w.message}` });
    for (let i = 0; i < s.size; i++) {
      if (s.kind[i] !== Kind.text || !(s.flags[i] & Flag.key) || s.end[i] - s.start[i] - s.head[i] !== 9) continue;
      const p = s.start[i] + s.head[i];
      let k = '';
      for (let j = 0; j < 9; j++) k += String.fromCharCode(full.bytes[p + j]);
      if (k === '__proto__') {
        this.fail('invalid-byte', start + s.start[i], `${what}: a CBOR map key "__proto__" (json-joy refuses it)`);
        return false;
      }
    }
    return true;
  }

  private implausible(at: number, message: string): void {
    this.fail('implausible', at, message);
  }

  /**
   * Records the error; every open node is incomplete and ends where the walk stopped (at
   * least at the end of what it holds, so children stay inside their parents).
   */
  private fail(code: PatchErrorCode, at: number, message: string, reach = Math.max(at, this.pos)): void {
    this.index.fail(code, at, message);
    const store = this.store;
    const end = Math.min(reach, this.len);
    for (const id of this.open) {
      store.flags[id] |= Flag.incomplete;
      store.end[id] = Math.max(store.start[id] + store.head[id], end, this.lastEndIn(id));
    }
  }

  /** The end of the last recorded child of `id` (or 0). */
  private lastEndIn(id: number): number {
    const store = this.store;
    let end = 0;
    for (let c = store.firstChild[id]; c >= 0; c = store.nextSibling[c]) end = store.end[c];
    return end;
  }
}

/** Total, content and metadata bytes: content is the payload of `crdt_content` leaves. */
export function patchByteSplit(index: SpanIndex): { totalBytes: number; contentBytes: number; metadataBytes: number } {
  const { store } = index;
  let content = 0;
  for (let id = 0; id < store.size; id++) {
    if (store.kind[id] === Kind.crdt_content) content += store.end[id] - store.start[id] - store.head[id];
  }
  const total = index.bytes.length;
  return { totalBytes: total, contentBytes: content, metadataBytes: total - content };
}

/**
 * Cheap pre-check for detection: the patch id, a meta byte json-joy writes and, when the
 * meta is absent, a plausible operation count and first opcode. A true answer still needs
 * the full walk.
 */
export function looksLikePatch(bytes: Uint8Array): boolean {
  const len = bytes.length;
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    let mul = 1;
    for (let i = 0; ; i++) {
      if (pos >= len) return -1;
      const b = bytes[pos++];
      if (i === 7) return b === 0 ? -1 : value + b * mul;
      value += (b & 0x7f) * mul;
      if (b < 0x80) return b === 0 && i > 0 ? -1 : value;
      mul *= 128;
    }
  };
  const sid = varint();
  if (sid <= 0 || sid > MAX_SAFE) return false;
  const time = varint();
  if (time <= 0 || time > MAX_SAFE) return false;
  if (pos >= len) return false;
  const meta = bytes[pos++];
  if (meta === 0x81) return pos < len;
  if (meta !== 0xf7) return false;
  const count = varint();
  if (count <= 0 || count > len - pos) return false;
  return OPCODE_BYTE[bytes[pos]] !== BYTE_INVALID;
}
