/**
 * A json-joy patch index's values in json-joy's verbose JSON form
 * (json-crdt-patch/codec/verbose): the patch, each operation, ids, meta and content leaves,
 * read from the nodes the patch walker (patch-walker.ts) recorded and its annotations.
 */
import { encodeBase64 } from '../core/base64.js';
import { Flag, Kind } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { decodeUtf8 } from '../core/utf8.js';
import { cborArgument, decodeFloat16, indexCbor } from '../cbor/index.js';
import { crdtAnnotations, crdtIdOf, crdtSpanOf, SESSION, type CrdtAnnotations } from './annotations.js';
import { OP_NAMES, PatchOpcode } from './patch-opcodes.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** A timestamp in verbose form: the time alone for server ids (session 1), else [sid, time]. */
export type VerboseTimestamp = number | [sid: number, time: number];

/** One operation in json-joy's verbose patch JSON. */
export type VerbosePatchOp =
  | { op: 'new_con'; value?: unknown; timestamp?: true }
  | { op: 'new_val' | 'new_obj' | 'new_vec' | 'new_str' | 'new_bin' | 'new_arr' }
  | { op: 'ins_val'; obj: VerboseTimestamp; value: VerboseTimestamp }
  | { op: 'ins_obj'; obj: VerboseTimestamp; value: [string, VerboseTimestamp][] }
  | { op: 'ins_vec'; obj: VerboseTimestamp; value: [number, VerboseTimestamp][] }
  | { op: 'ins_str'; obj: VerboseTimestamp; after: VerboseTimestamp; value: string }
  | { op: 'ins_bin'; obj: VerboseTimestamp; after: VerboseTimestamp; value: string }
  | { op: 'ins_arr'; obj: VerboseTimestamp; after: VerboseTimestamp; values: VerboseTimestamp[] }
  | { op: 'upd_arr'; obj: VerboseTimestamp; ref: VerboseTimestamp; value: VerboseTimestamp }
  | { op: 'del'; obj: VerboseTimestamp; what: [sid: number, time: number, span: number][] }
  | { op: 'nop'; len?: number };

/** A patch in json-joy's verbose JSON form. */
export interface VerbosePatch {
  id: [sid: number, time: number];
  ops: VerbosePatchOp[];
  meta?: unknown;
}

/** The complete operations of a patch index in verbose form (an incomplete one is left out). */
export function patchOps(index: SpanIndex): VerbosePatchOp[] {
  const out: VerbosePatchOp[] = [];
  if (index.format !== 'crdt-patch' || index.root < 0) return out;
  const { store } = index;
  const ann = crdtAnnotations(index);
  for (let c = store.firstChild[index.root]; c >= 0; c = store.nextSibling[c]) {
    if (store.kind[c] !== Kind.crdt_op || store.flags[c] & Flag.incomplete) continue;
    const op = opJson(index, ann, c);
    if (op) out.push(op);
  }
  return out;
}

/** The patch in verbose form (the part that decoded), or undefined without a patch id. */
export function patchJson(index: SpanIndex): VerbosePatch | undefined {
  if (index.format !== 'crdt-patch' || index.root < 0) return undefined;
  const { store } = index;
  const root = index.root;
  const idNode = store.firstChild[root];
  if (idNode < 0) return undefined;
  const id = crdtIdOf(index, idNode);
  if (!id) return undefined;
  const out: VerbosePatch = { id: [id.sid, id.time], ops: patchOps(index) };
  const meta = store.nextSibling[idNode];
  if (meta >= 0 && store.kind[meta] === Kind.crdt_meta && !(store.flags[meta] & Flag.incomplete)) {
    const value = metaValue(index, meta);
    if (value !== undefined) out.meta = value;
  }
  return out;
}

/** A patch node's value: the patch, an operation, the meta, an id or a content leaf in verbose form. */
export function patchNodeValue(index: SpanIndex, id: number): unknown {
  if (!index.has(id)) return undefined;
  const { store } = index;
  switch (store.kind[id]) {
    case Kind.crdt_patch:
      return patchJson(index);
    case Kind.crdt_op:
      return store.flags[id] & Flag.incomplete ? undefined : opJson(index, crdtAnnotations(index), id);
    case Kind.crdt_meta:
      return store.flags[id] & Flag.incomplete ? undefined : metaValue(index, id);
    case Kind.crdt_id:
      return idJson(index, id);
    case Kind.crdt_content:
      return store.flags[id] & Flag.incomplete ? undefined : contentValue(index, id);
    default:
      return undefined;
  }
}

/** A `crdt_id` node: the patch id as [sid, time], a del range as [sid, time, span], else a verbose timestamp. */
function idJson(index: SpanIndex, id: number): unknown {
  const ts = crdtIdOf(index, id);
  if (!ts) return undefined;
  if (index.store.parent[id] === index.root) return [ts.sid, ts.time];
  const span = crdtSpanOf(index, id);
  if (span !== null) return [ts.sid, ts.time, span];
  return verboseTs(ts.sid, ts.time);
}

function verboseTs(sid: number, time: number): VerboseTimestamp {
  return sid === SESSION.SERVER ? time : [sid, time];
}

/** The verbose timestamp recorded for node `id` (reads the annotation arrays directly). */
function tsAt(ann: CrdtAnnotations, id: number): VerboseTimestamp {
  const sid = ann.sid[id];
  const time = ann.time[id];
  return sid === SESSION.SERVER ? time : [sid, time];
}

/**
 * A complete operation's verbose form, built from its recorded children (in the order the
 * walker records them, see the layout above). No closures or per-child arrays: a big patch
 * has hundreds of thousands of operations.
 */
function opJson(index: SpanIndex, ann: CrdtAnnotations, op: number): VerbosePatchOp | undefined {
  const { store } = index;
  const opcode = store.arg[op];
  const next = store.nextSibling;
  const a = store.firstChild[op];
  switch (opcode) {
    case PatchOpcode.new_con:
      if (a < 0) return { op: 'new_con', value: undefined };
      if (store.kind[a] === Kind.crdt_id) return { op: 'new_con', timestamp: true, value: tsAt(ann, a) };
      return { op: 'new_con', value: contentValue(index, a) };
    case PatchOpcode.new_val:
    case PatchOpcode.new_obj:
    case PatchOpcode.new_vec:
    case PatchOpcode.new_str:
    case PatchOpcode.new_bin:
    case PatchOpcode.new_arr:
      return { op: OP_NAMES[opcode] as 'new_val' };
    case PatchOpcode.ins_val:
      return { op: 'ins_val', obj: tsAt(ann, a), value: tsAt(ann, next[a]) };
    case PatchOpcode.ins_obj: {
      const value: [string, VerboseTimestamp][] = [];
      for (let k = next[a]; k >= 0 && next[k] >= 0; k = next[next[k]])
        value.push([contentValue(index, k) as string, tsAt(ann, next[k])]);
      return { op: 'ins_obj', obj: tsAt(ann, a), value };
    }
    case PatchOpcode.ins_vec: {
      const value: [number, VerboseTimestamp][] = [];
      for (let c = next[a]; c >= 0; c = next[c]) value.push([store.arg[c], tsAt(ann, c)]);
      return { op: 'ins_vec', obj: tsAt(ann, a), value };
    }
    case PatchOpcode.ins_str:
    case PatchOpcode.ins_bin: {
      const after = next[a];
      const data = contentValue(index, next[after]);
      if (opcode === PatchOpcode.ins_str)
        return { op: 'ins_str', obj: tsAt(ann, a), after: tsAt(ann, after), value: data as string };
      return { op: 'ins_bin', obj: tsAt(ann, a), after: tsAt(ann, after), value: encodeBase64(data as Uint8Array) };
    }
    case PatchOpcode.ins_arr: {
      const after = next[a];
      const values: VerboseTimestamp[] = [];
      for (let c = next[after]; c >= 0; c = next[c]) values.push(tsAt(ann, c));
      return { op: 'ins_arr', obj: tsAt(ann, a), after: tsAt(ann, after), values };
    }
    case PatchOpcode.upd_arr: {
      const ref = next[a];
      return { op: 'upd_arr', obj: tsAt(ann, a), ref: tsAt(ann, ref), value: tsAt(ann, next[ref]) };
    }
    case PatchOpcode.del: {
      const what: [number, number, number][] = [];
      for (let c = next[a]; c >= 0; c = next[c]) what.push([ann.sid[c], ann.time[c], ann.span[c]]);
      return { op: 'del', obj: tsAt(ann, a), what };
    }
    case PatchOpcode.nop: {
      const len = ann.span[op];
      return len > 1 ? { op: 'nop', len } : { op: 'nop' };
    }
    default:
      return undefined;
  }
}

/** The decoded meta value (undefined when absent). */
function metaValue(index: SpanIndex, id: number): unknown {
  const { store, bytes } = index;
  const start = store.start[id];
  if (bytes[start] !== 0x81) return undefined;
  return cborValue(bytes, start + 1, store.end[id]);
}

/** A content leaf: a con value, an object key, string text or binary data. */
function contentValue(index: SpanIndex, id: number): unknown {
  const { store, bytes } = index;
  const start = store.start[id];
  const end = store.end[id];
  const parent = store.parent[id];
  switch (parent >= 0 ? store.arg[parent] : -1) {
    case PatchOpcode.new_con:
      return cborValue(bytes, start, end);
    case PatchOpcode.ins_obj:
    case PatchOpcode.ins_str:
      return decodeUtf8(bytes, start, end);
    case PatchOpcode.ins_bin:
      return bytes.slice(start, end);
    default:
      return undefined;
  }
}

/** A CBOR item's value in wirescope's value model (tags, simple values, bigints kept). */
function cborValue(bytes: Uint8Array, start: number, end: number): unknown {
  // Scalars directly (most constants are); containers and tags through a CBOR index.
  const ib = bytes[start];
  const major = ib >> 5;
  const ai = ib & 31;
  if (major <= 3 && ai <= 27) {
    const head = ai < 24 ? 1 : 1 + (1 << (ai - 24));
    const arg = cborArgument(bytes, start, head);
    switch (major) {
      case 0:
        return arg;
      case 1:
        return typeof arg === 'bigint' || arg >= MAX_SAFE ? -1n - BigInt(arg) : -1 - arg;
      case 2:
        return bytes.slice(start + head, end);
      default:
        return decodeUtf8(bytes, start + head, end);
    }
  }
  if (major === 7) {
    switch (ai) {
      case 20:
        return false;
      case 21:
        return true;
      case 22:
        return null;
      case 23:
        return undefined;
      case 25:
        return decodeFloat16((bytes[start + 1] << 8) | bytes[start + 2]);
      case 26:
        return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 4).getFloat32(0);
      case 27:
        return new DataView(bytes.buffer, bytes.byteOffset + start + 1, 8).getFloat64(0);
    }
  }
  const sub = indexCbor(bytes.subarray(start, end));
  return sub.ok ? sub.value(0) : undefined;
}
