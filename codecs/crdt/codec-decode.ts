/**
 * Decoding a frame's value as one json-joy codec (the internals behind codecs.ts): read
 * the carrier with our own index, validate the value's shape, let json-joy build the
 * Model, summarize it. Errors come back as data with a byte offset where one can be found.
 */
import type { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { Decoder as CompactModelDecoder } from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { Decoder as VerboseModelDecoder } from 'json-joy/lib/json-crdt/codec/structural/verbose/index.js';
import { Decoder as IndexedDecoder } from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import { Decoder as SidecarDecoder } from 'json-joy/lib/json-crdt/codec/sidecar/binary/index.js';
import { decode as compactPatchDecode } from 'json-joy/lib/json-crdt-patch/codec/compact/index.js';
import {
  encode as verbosePatchEncode,
  decode as verbosePatchDecode,
} from 'json-joy/lib/json-crdt-patch/codec/verbose/index.js';
import { SpanIndex, type FormatWalker } from '../core/span-index.js';
import { cborWalker } from '../cbor/walker.js';
import { msgpackWalker } from '../msgpack/walker.js';
import { jsonWalker } from '../json/walker.js';
import { Kind } from '../core/kinds.js';
import {
  summarizeModel,
  tsText,
  type CrdtCarrier,
  type CrdtClock,
  type CrdtClockTable,
  type CrdtModelSummary,
} from './codec-summary.js';
import { checkCompactModel, checkVerboseModel, type PathKey, type ShapeResult } from './codec-shapes.js';
import { checkCompactPatch, checkVerbosePatch } from './codec-patch-shapes.js';
import { reviveJsonPack } from './codec-json.js';
import { checkIndexed, checkSidecar, type BlobError } from './codec-binary.js';

export type CrdtModelCodec = 'compact' | 'compact-binary' | 'verbose' | 'indexed' | 'sidecar';
export type CrdtPatchCodec = 'compact' | 'compact-binary' | 'verbose';
export type CrdtKind = 'model' | 'patch';

export const CRDT_MODEL_CODECS: readonly CrdtModelCodec[] = [
  'compact',
  'compact-binary',
  'verbose',
  'indexed',
  'sidecar',
];
export const CRDT_PATCH_CODECS: readonly CrdtPatchCodec[] = ['compact', 'compact-binary', 'verbose'];

/** Carriers each codec is read from; the first is the one the encoders write. */
export const MODEL_CARRIERS: Readonly<Record<CrdtModelCodec, readonly CrdtCarrier[]>> = {
  compact: ['json', 'cbor'],
  'compact-binary': ['msgpack'],
  verbose: ['json', 'cbor', 'msgpack'],
  indexed: ['cbor', 'msgpack', 'json'],
  sidecar: ['cbor', 'msgpack', 'json'],
};
export const PATCH_CARRIERS: Readonly<Record<CrdtPatchCodec, readonly CrdtCarrier[]>> = {
  compact: ['json', 'msgpack'],
  'compact-binary': ['cbor'],
  verbose: ['json', 'cbor', 'msgpack'],
};

export interface CrdtPatchSummary {
  readonly kind: 'patch';
  readonly codec: CrdtPatchCodec;
  readonly carrier: CrdtCarrier;
  readonly clock: CrdtClock;
  /** The patch id (its first operation's id), 'sid.time'. */
  readonly id: string;
  /** Timestamps the patch consumes. */
  readonly span: number;
  readonly meta: unknown;
  /** The operations as json-joy's verbose codec writes them. */
  readonly ops: readonly Record<string, unknown>[];
}

export interface CrdtError {
  readonly message: string;
  /** Byte offset in the frame, when the error can be placed. */
  readonly offset?: number;
}

export type CrdtDecodeResult<T> =
  | { readonly ok: true; readonly summary: T }
  | { readonly ok: false; readonly error: CrdtError };

// ---------------------------------------------------------------------------------------
// Carriers

export interface CarrierValue {
  readonly carrier: CrdtCarrier;
  readonly value: unknown;
  readonly index: SpanIndex;
}

/**
 * The frame read whole as `carrier` by our own index, or the error that stopped it. With
 * `gate`, the frame is first indexed one level deep and materialized only when its top
 * level could be one of the codecs (a large plain frame costs one validating pass).
 */
export function readCarrier(bytes: Uint8Array, carrier: CrdtCarrier, gate = false): CarrierValue | CrdtError {
  const index = indexAs(bytes, carrier, gate ? 1 : Infinity);
  if (index.error || index.root < 0)
    return { message: `not ${carrier}: ${index.error?.message ?? 'no value'}`, offset: index.error?.offset ?? 0 };
  if (gate && !plausibleTop(index)) return { message: 'not shaped like a json-joy model or patch', offset: 0 };
  const raw = index.value(index.root);
  return { carrier, value: carrier === 'json' ? reviveJsonPack(raw) : raw, index };
}

const WALKERS: Readonly<Record<CrdtCarrier, FormatWalker>> = {
  json: jsonWalker,
  cbor: cborWalker,
  msgpack: msgpackWalker,
};

/**
 * The frame's span index as `carrier`: what `decodeFrame(bytes, { format: carrier, depth })`
 * (codecs/index.ts) builds, without importing the public entry point, so that it can later
 * import this module without a cycle.
 */
function indexAs(bytes: Uint8Array, carrier: CrdtCarrier, depth: number): SpanIndex {
  return new SpanIndex(bytes, WALKERS[carrier], { depth });
}

const TOP_KEYS = new Set(['time', 'root', 'c', 'id', 'ops']);

/** Top level of a codec: an array of 2 (model, sidecar) or headed by a short array (patch); a map with a codec key. */
function plausibleTop(index: SpanIndex): boolean {
  const { store } = index;
  const root = index.root;
  if (store.kind[root] === Kind.array) {
    const kids = index.children(root);
    if (kids.length === 2) return true;
    return kids.length > 0 && store.kind[kids[0]] === Kind.array && index.children(kids[0]).length <= 2;
  }
  if (store.kind[root] !== Kind.map) return false;
  for (const c of index.children(root)) {
    const k = index.keyOf(c);
    if (k >= 0 && TOP_KEYS.has(index.value(k) as string)) return true;
  }
  return false;
}

/** The byte offset of the value at `path` (as far as the path resolves). */
function offsetAt(index: SpanIndex, path: readonly PathKey[], inner?: number): number {
  let id = index.root;
  const { store } = index;
  for (const seg of path) {
    const kind = store.kind[id];
    let next = -1;
    if (kind === Kind.array && typeof seg === 'number') next = index.children(id)[seg] ?? -1;
    else if (kind === Kind.map) {
      for (const c of index.children(id)) {
        const k = index.keyOf(c);
        if (k >= 0 && index.value(k) === seg) {
          next = c;
          break;
        }
      }
    }
    if (next < 0) break;
    id = next;
  }
  if (id < 0) return 0;
  if (inner !== undefined && store.kind[id] === Kind.bytes) return store.start[id] + store.head[id] + inner;
  return store.start[id];
}

const shapeError = (cv: CarrierValue, r: ShapeResult & { ok: false }): CrdtError => ({
  message: `${r.error.message}${r.error.path.length ? ` at ${r.error.path.map((k) => `[${JSON.stringify(k)}]`).join('')}` : ''}`,
  offset: offsetAt(cv.index, r.error.path),
});

const blobError = (cv: CarrierValue, e: BlobError, base: readonly PathKey[] = []): CrdtError => {
  const path = [...base, ...e.path];
  return {
    message: `${e.message}${path.length ? ` in ${path.map((k) => `[${JSON.stringify(k)}]`).join('')}` : ''} (blob byte ${e.at})`,
    offset: offsetAt(cv.index, path, e.at),
  };
};

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

// ---------------------------------------------------------------------------------------
// Decoding a value as one codec

export type Attempt<T> = { ok: true; summary: T; items: number } | { ok: false; error: CrdtError };

export function modelFromValue(cv: CarrierValue, codec: CrdtModelCodec): Attempt<CrdtModelSummary> {
  const { value } = cv;
  let model: Model;
  let items: number;
  let clockTable: CrdtClockTable | undefined;
  try {
    if (codec === 'compact' || codec === 'compact-binary') {
      const r = checkCompactModel(value);
      if (!r.ok) return { ok: false, error: shapeError(cv, r) };
      items = r.info.items;
      model = new CompactModelDecoder().decode(value as never);
    } else if (codec === 'verbose') {
      const r = checkVerboseModel(value);
      if (!r.ok) return { ok: false, error: shapeError(cv, r) };
      items = r.info.items;
      model = new VerboseModelDecoder().decode(value as never);
    } else if (codec === 'indexed') {
      const r = checkIndexed(value);
      if (!r.ok) return { ok: false, error: blobError(cv, r.error) };
      items = r.value.nodes;
      const [local, ...peers] = r.value.table;
      // json-joy's indexed decoder keeps only the local clock; the frame lists the peers.
      clockTable =
        local.sid === 1
          ? { serverTime: local.time + 1 }
          : [
              { sid: local.sid, time: local.time + 1 },
              ...peers.filter((p) => p.sid !== 0 && p.sid !== local.sid).sort((a, b) => a.sid - b.sid),
            ];
      model = new IndexedDecoder().decode(value as never);
    } else {
      const pair = sidecarParts(cv);
      if ('message' in pair) return { ok: false, error: pair };
      items = pair.nodes;
      model = new SidecarDecoder().decode(pair.view, pair.meta);
    }
  } catch (e) {
    return { ok: false, error: { message: `json-joy could not decode it as ${codec}: ${errorText(e)}`, offset: 0 } };
  }
  try {
    return { ok: true, summary: summarizeModel(model, codec, cv.carrier, clockTable), items };
  } catch (e) {
    return { ok: false, error: { message: errorText(e), offset: 0 } };
  }
}

/** The sidecar's view and meta: `[view, bytes]`, or `[bytes(view CBOR), bytes]`; validated. */
function sidecarParts(cv: CarrierValue): { view: unknown; meta: Uint8Array; nodes: number } | CrdtError {
  const v = cv.value;
  if (!Array.isArray(v) || v.length !== 2 || !(v[1] instanceof Uint8Array))
    return { message: 'a sidecar frame is [view, meta bytes]', offset: 0 };
  const meta = v[1];
  const first = checkSidecar(v[0], meta, [1]);
  if (first.ok) return { view: v[0], meta, nodes: first.value.nodes };
  if (v[0] instanceof Uint8Array) {
    // The view may travel as its own CBOR blob.
    const inner = indexAs(v[0], 'cbor', Infinity);
    if (!inner.error && inner.root >= 0) {
      const view = inner.value(inner.root);
      const second = checkSidecar(view, meta, [1]);
      if (second.ok) return { view, meta, nodes: second.value.nodes };
    }
  }
  return blobError(cv, first.error);
}

export function patchFromValue(cv: CarrierValue, codec: CrdtPatchCodec): Attempt<CrdtPatchSummary> {
  const { value } = cv;
  const verbose = codec === 'verbose';
  const r = verbose ? checkVerbosePatch(value) : checkCompactPatch(value);
  if (!r.ok) return { ok: false, error: shapeError(cv, r) };
  try {
    const patch = verbose ? verbosePatchDecode(value as never) : compactPatchDecode(value as never);
    let id: string;
    if (verbose) {
      const raw = (value as { id: number | [number, number] }).id;
      id = typeof raw === 'number' ? `1.${raw}` : `${raw[0]}.${raw[1]}`;
    } else {
      const raw = (value as [[number | [number, number]]])[0][0];
      id = typeof raw === 'number' ? `1.${raw}` : `${raw[0]}.${raw[1]}`;
    }
    const first = patch.getId();
    if (first && tsText(first) !== id)
      throw new Error(`patch id ${id} and its first operation ${tsText(first)} disagree`);
    const ops = patch.ops.length ? (verbosePatchEncode(patch).ops as unknown as Record<string, unknown>[]) : [];
    const summary: CrdtPatchSummary = {
      kind: 'patch',
      codec,
      carrier: cv.carrier,
      clock: id.startsWith('1.') ? 'server' : 'logical',
      id,
      span: patch.span(),
      meta: patch.meta,
      ops,
    };
    // Plausibility counts operations with an effect: a patch that only creates nodes (or
    // skips ids) changes nothing, and random arrays of small integers often read as one.
    const effects = ops.filter((o) => typeof o.op === 'string' && /^(ins_|upd_|del)/.test(o.op)).length;
    return { ok: true, summary, items: effects };
  } catch (e) {
    return {
      ok: false,
      error: { message: `json-joy could not decode it as a ${codec} patch: ${errorText(e)}`, offset: 0 },
    };
  }
}
