/**
 * The codec registry: every codec a decoded value can be re-encoded with, each with its
 * encoder, its decoder and what it cannot carry.
 *
 * MV3 extension pages forbid `new Function` / `eval`, which some json-pack classes use
 * for code generation (MsgPackEncoderFast's codegen'd paths, MsgPackDecoderFast, the
 * msgpack `shallow-read`, json-type codegen'd encoders). Every class imported here (and in
 * convert.ts / diff.ts) was checked: bundled with esbuild, transitive imports included,
 * none contains `new Function` or `eval(` — CborEncoder, CborEncoderFast,
 * CborEncoderStable, CborEncoderDag, CborDecoder, CborDecoderDag, MsgPackEncoder,
 * MsgPackDecoder, UbjsonEncoder, UbjsonDecoder, IonEncoderFast, IonDecoder, BsonEncoder,
 * BsonDecoder, JsonEncoder, JsonDecoder, JsonPackExtension, JsonPackValue, and json-joy's
 * Model and its compact, compact-binary, verbose, indexed and sidecar codecs.
 *
 * A codec works in four steps so that timing measures only the codec:
 * - `prepare(value)`: untimed — our value model → the encoder's input (convert.ts), or for
 *   json-joy codecs the CRDT Model built from the value (shared between the codecs of one
 *   comparison through `PrepareCache`);
 * - `write(prepared)`: timed — the encoder;
 * - `read(encoded)`: timed — the decoder (json-pack wrappers kept; json-joy: the Model);
 * - `view(decoded)`: untimed — what to compare with the input (json-joy: `model.view()`).
 * `encode` / `decode` chain them for callers that just want bytes or a value.
 *
 * json-joy's compact, compact-binary and verbose codecs write exactly the frames
 * `encodeModel` (codecs/crdt/codecs.ts) writes, on their canonical carriers (JSON,
 * MessagePack, JSON); decoding uses json-joy's decoders directly (not our validating
 * `decodeModel`, which would time wirescope rather than the codec).
 *
 * Most codecs write one byte string. json-joy's indexed codec writes a set of fields
 * (one blob per node plus the clock table) and its sidecar codec two blobs (the view as
 * CBOR and the metadata); their output is `EncodedParts` and their size is the sum of the
 * parts, the way a store that keeps the fields apart pays for them (the frame
 * `encodeModel` makes — a CBOR map or array around the parts — is a few bytes more).
 */
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import { CborEncoderFast } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoderFast.js';
import { CborEncoderStable } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoderStable.js';
import { CborEncoderDag } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoderDag.js';
import { CborDecoder } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoder.js';
import { CborDecoderDag } from '@jsonjoy.com/json-pack/lib/cbor/CborDecoderDag.js';
import { MsgPackEncoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackEncoder.js';
import { MsgPackDecoder } from '@jsonjoy.com/json-pack/lib/msgpack/MsgPackDecoder.js';
import { UbjsonEncoder } from '@jsonjoy.com/json-pack/lib/ubjson/UbjsonEncoder.js';
import { UbjsonDecoder } from '@jsonjoy.com/json-pack/lib/ubjson/UbjsonDecoder.js';
import { IonEncoderFast } from '@jsonjoy.com/json-pack/lib/ion/IonEncoderFast.js';
import { IonDecoder } from '@jsonjoy.com/json-pack/lib/ion/IonDecoder.js';
import { BsonEncoder } from '@jsonjoy.com/json-pack/lib/bson/BsonEncoder.js';
import { BsonDecoder } from '@jsonjoy.com/json-pack/lib/bson/BsonDecoder.js';
import { JsonDecoder } from '@jsonjoy.com/json-pack/lib/json/JsonDecoder.js';
import { CrdtWriter } from 'json-joy/lib/json-crdt-patch/util/binary/CrdtWriter.js';
import { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import { Decoder as CompactModelDecoder } from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { Decoder as CompactBinaryModelDecoder } from 'json-joy/lib/json-crdt/codec/structural/compact-binary/Decoder.js';
import { Decoder as VerboseModelDecoder } from 'json-joy/lib/json-crdt/codec/structural/verbose/index.js';
import {
  Encoder as IndexedEncoder,
  Decoder as IndexedDecoder,
} from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import {
  Encoder as SidecarEncoder,
  Decoder as SidecarDecoder,
} from 'json-joy/lib/json-crdt/codec/sidecar/binary/index.js';
import { encodeModel } from '../crdt/codecs.js';
import { IndexedFields, indexedRecord } from './jsonjoy-indexed-fields.js';
import { toTarget, type Target } from './convert.js';
import { isPlainJson, scanValue, type ValueFeatures } from './features.js';
import type { EncodedParts } from './encoded-parts.js';
export type { EncodedParts } from './encoded-parts.js';

export type Encoded = Uint8Array | EncodedParts;

export type CodecFamily = 'json' | 'cbor' | 'msgpack' | 'ubjson' | 'ion' | 'bson' | 'json-joy';

/** Values shared between the codecs of one comparison (the CRDT models built once). */
export type PrepareCache = Map<string, unknown>;

export interface Codec {
  /** Stable id, e.g. 'cbor-stable', 'json-joy-sidecar'. */
  readonly name: string;
  /** What tables show, e.g. 'CBOR (stable)'. */
  readonly label: string;
  readonly family: CodecFamily;
  /**
   * The PrepareCache entry this codec's `prepare` reads or makes, if any (a CRDT model, a
   * converted copy): the comparison drops an entry once no codec still to run shares it.
   */
  readonly shares?: string;
  /** Null when the codec can carry the value (perhaps lossily), else why not. */
  represent(value: unknown, features?: ValueFeatures): string | null;
  prepare(value: unknown, features: ValueFeatures, cache: PrepareCache): unknown;
  write(prepared: unknown): Encoded;
  read(encoded: Encoded): unknown;
  view(decoded: unknown): unknown;
  /** Remarks on how this codec writes the value (e.g. bytes as base64 in JSON). */
  notes(features: ValueFeatures): string[];
  /** prepare + write. */
  encode(value: unknown): Encoded;
  /** read + view. */
  decode(encoded: Encoded): unknown;
}

export function encodedSize(e: Encoded): number {
  if (e instanceof Uint8Array) return e.length;
  let n = 0;
  for (const [, bytes] of e.parts) n += bytes.length;
  return n;
}

/** The bytes of an encoding, parts concatenated in order (what the compressors see). */
export function encodedBytes(e: Encoded): Uint8Array {
  if (e instanceof Uint8Array) return e;
  const out = new Uint8Array(encodedSize(e));
  let o = 0;
  for (const [, bytes] of e.parts) {
    out.set(bytes, o);
    o += bytes.length;
  }
  return out;
}

function single(e: Encoded): Uint8Array {
  if (!(e instanceof Uint8Array)) throw new TypeError('expected one byte string');
  return e;
}

/** Deeper than this, refuse up front: json-pack's encoders and json-joy recurse per level. */
export const MAX_DEPTH = 2000;

interface Spec {
  name: string;
  label: string;
  family: CodecFamily;
  shares?: string;
  /** Codec-specific refusals (the common ones are checked for every codec). */
  refuse?(f: ValueFeatures): string | null;
  prepare(value: unknown, f: ValueFeatures, cache: PrepareCache): unknown;
  write(prepared: unknown): Encoded;
  read(encoded: Encoded): unknown;
  view?(decoded: unknown): unknown;
  notes?(f: ValueFeatures): string[];
}

function commonRefusal(f: ValueFeatures): string | null {
  if (f.duplicateKeyMaps)
    return `duplicate map keys (${f.duplicateKeyMaps} map${f.duplicateKeyMaps > 1 ? 's' : ''}): json-pack encoders take JS objects and Maps, which cannot hold a key twice`;
  if (f.unknowns) return `${f.unknowns} value(s) outside the value model (functions, symbols, class instances)`;
  if (f.depth > MAX_DEPTH) return `nested ${f.depth} levels deep: the encoders recurse per level (limit ${MAX_DEPTH})`;
  return null;
}

function make(spec: Spec): Codec {
  const codec: Codec = {
    name: spec.name,
    label: spec.label,
    family: spec.family,
    shares: spec.shares,
    represent: (value, features) => {
      const f = features ?? scanValue(value);
      return commonRefusal(f) ?? spec.refuse?.(f) ?? null;
    },
    prepare: spec.prepare,
    write: spec.write,
    read: spec.read,
    view: spec.view ?? ((d) => d),
    notes: (f) => spec.notes?.(f) ?? [],
    encode: (value) => {
      const f = scanValue(value);
      return spec.write(spec.prepare(value, f, new Map()));
    },
    decode: (encoded) => codec.view(spec.read(encoded)),
  };
  return codec;
}

/**
 * Converts only when the value holds something beyond plain JSON, and once per target in
 * a comparison (CBOR, stable and DAG share one tree; UBJSON, Ion and BSON another): on a
 * 1 MB value each conversion is a full copy. The encoders only read it.
 */
const convertKey = (target: Target): string => `convert:${target}`;
const convertFor = (target: Target) => (value: unknown, f: ValueFeatures, cache: PrepareCache) => {
  if (isPlainJson(f)) return value;
  const key = convertKey(target);
  if (!cache.has(key)) cache.set(key, toTarget(value, target));
  return cache.get(key);
};

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

// One encoder / decoder instance per codec, reused (json-pack's writers hand out
// subarrays of a growing buffer that later writes never overwrite).
const cbor = {
  enc: new CborEncoder(),
  fast: new CborEncoderFast(),
  stable: new CborEncoderStable(),
  dag: new CborEncoderDag(),
  dec: new CborDecoder(),
  decDag: new CborDecoderDag(),
};
/**
 * json-pack's MsgPackEncoder writes nothing at all for a bigint (its writeAny has no bigint
 * case): a map then lacks a value and its own decoder runs off the end ("Index out of
 * range"; `seq` = 2^64-1 in samples/order.cbor). A bigint is written as
 * MessagePack's 64-bit integer, uint 64 (0xcf) or int 64 (0xd3), as other MessagePack
 * encoders do; beyond 64 bits MessagePack has no integer, so the nearest thing, a float 64.
 * MsgPackDecoder reads 64-bit integers back as doubles, so the round trip names 'bigint'.
 */
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
class MsgPackBigIntEncoder extends MsgPackEncoder {
  override writeAny(value: unknown): void {
    if (typeof value !== 'bigint') return super.writeAny(value);
    if (value >= 0n && value <= U64_MAX) this.writer.u8u64(0xcf, value);
    else if (value < 0n && value >= I64_MIN) this.writer.u8u64(0xd3, BigInt.asUintN(64, value));
    else this.writer.u8f64(0xcb, Number(value));
  }
}
const msgpack = { enc: new MsgPackBigIntEncoder(), dec: new MsgPackDecoder() };
const ubjson = { enc: new UbjsonEncoder(new CrdtWriter()), dec: new UbjsonDecoder() };
const ion = { enc: new IonEncoderFast(), dec: new IonDecoder() };
const bson = { enc: new BsonEncoder(new CrdtWriter()), dec: new BsonDecoder() };
// json-joy's JSON carriers: bytes as data: URIs, which JsonDecoder reads back as bytes.
const jsonPack = { dec: new JsonDecoder() };

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function jsonNotes(f: ValueFeatures): string[] {
  const notes: string[] = [];
  if (f.bytes)
    notes.push(
      `bytes: ${plural(f.bytes, 'byte string')} of ${f.byteLength} bytes written as base64 strings; as base64 it would be ${f.base64Length} bytes (+2 quotes each)`,
    );
  if (f.bigints)
    notes.push(`bigint: ${plural(f.bigints, 'bigint')} written as JSON numbers; JSON.parse reads them back as doubles`);
  if (f.undefineds)
    notes.push(
      `undefined: ${plural(f.undefineds, 'value')}; JSON.stringify drops object members and writes null in arrays`,
    );
  if (f.negativeZeros) notes.push('-0: JSON.stringify writes 0');
  if (f.nans || f.infinities) notes.push(`NaN / Infinity: ${plural(f.nans + f.infinities, 'value')} written as null`);
  if (f.nonStringKeyMaps)
    notes.push(`non-string keys: ${plural(f.nonStringKeyMaps, 'map')} written as objects with String(key) keys`);
  if (f.tags) notes.push(`tags: ${plural(f.tags, 'tag')} dropped, the tagged content kept`);
  if (f.exts) notes.push(`ext: ${plural(f.exts, 'MessagePack extension')} written as their data in base64`);
  if (f.simples) notes.push(`simple: ${plural(f.simples, 'simple value')} written as null`);
  return notes;
}

// ---------------------------------------------------------------------------------------
// json-joy CRDT models

/** A fixed session id, so sizes do not depend on a random one (any id ≥ 65536 is a user's). */
export const CRDT_SID = 0x123456;

function crdtRefusal(f: ValueFeatures): string | null {
  const what: string[] = [];
  if (f.bigints) what.push('bigint');
  if (f.maps) what.push('Map');
  if (f.tags) what.push('tags');
  if (f.exts) what.push('MessagePack extensions');
  if (f.simples) what.push('simple values');
  if (what.length)
    return `${what.join(', ')}: json-joy builds a document from JSON values and binary data only (model.api.root throws or flattens)`;
  return null;
}

const crdtModelKey = (clock: 'logical' | 'server'): string => `json-joy:${clock}`;

function crdtModel(value: unknown, cache: PrepareCache, clock: 'logical' | 'server'): Model {
  const key = crdtModelKey(clock);
  let model = cache.get(key) as Model | undefined;
  if (!model) {
    model = clock === 'server' ? Model.withServerClock() : Model.create(undefined, CRDT_SID);
    model.api.root(value);
    cache.set(key, model);
  }
  return model;
}

const crdtView = (m: unknown): unknown => (m as Model).view();

/** json-joy's JSON carriers (compact, verbose) go through json-pack's JsonEncoder, which writes NaN / Infinity as `NaN` / `Infinity`: not JSON. */
function crdtJsonRefusal(f: ValueFeatures): string | null {
  const r = crdtRefusal(f);
  if (r) return r;
  if (f.nans || f.infinities)
    return `NaN / Infinity: ${plural(f.nans + f.infinities, 'value')}; on a JSON carrier json-pack's JsonEncoder writes them as text no JSON decoder reads back`;
  return null;
}

function crdtSpec(
  name: string,
  label: string,
  clock: 'logical' | 'server',
  write: (m: Model) => Encoded,
  read: (e: Encoded) => Model,
  notes?: (f: ValueFeatures) => string[],
  jsonCarrier = false,
): Spec {
  return {
    name,
    label,
    family: 'json-joy',
    shares: crdtModelKey(clock),
    refuse: jsonCarrier ? crdtJsonRefusal : crdtRefusal,
    prepare: (value, _f, cache) => crdtModel(value, cache, clock),
    write: (m) => write(m as Model),
    read,
    view: crdtView,
    notes,
  };
}

const crdt = {
  compact: { dec: new CompactModelDecoder() },
  compactBinary: { dec: new CompactBinaryModelDecoder() },
  verbose: { dec: new VerboseModelDecoder() },
  indexed: { enc: new IndexedEncoder(), dec: new IndexedDecoder() },
  sidecar: { enc: new SidecarEncoder(), dec: new SidecarDecoder() },
};

const specs: Spec[] = [
  {
    name: 'json',
    label: 'JSON',
    family: 'json',
    shares: convertKey('json'),
    prepare: convertFor('json'),
    write: (v) => utf8Encoder.encode(JSON.stringify(v) ?? 'null'),
    read: (e) => JSON.parse(utf8Decoder.decode(single(e))),
    notes: jsonNotes,
  },
  {
    name: 'cbor',
    label: 'CBOR',
    family: 'cbor',
    shares: convertKey('cbor'),
    prepare: convertFor('cbor'),
    write: (v) => cbor.enc.encode(v),
    read: (e) => cbor.dec.decode(single(e)),
  },
  {
    name: 'cbor-fast',
    label: 'CBOR (fast)',
    family: 'cbor',
    shares: convertKey('cbor-fast'),
    prepare: convertFor('cbor-fast'),
    write: (v) => cbor.fast.encode(v),
    read: (e) => cbor.dec.decode(single(e)),
    notes: (f) => (isPlainJson(f) ? [] : ['CborEncoderFast writes JSON values only; anything else comes out mangled']),
  },
  {
    name: 'cbor-stable',
    label: 'CBOR (stable)',
    family: 'cbor',
    shares: convertKey('cbor'),
    prepare: convertFor('cbor'),
    write: (v) => cbor.stable.encode(v),
    read: (e) => cbor.dec.decode(single(e)),
  },
  {
    name: 'cbor-dag',
    label: 'CBOR (DAG)',
    family: 'cbor',
    shares: convertKey('cbor'),
    prepare: convertFor('cbor'),
    write: (v) => cbor.dag.encode(v),
    read: (e) => cbor.decDag.decode(single(e)),
  },
  {
    name: 'msgpack',
    label: 'MessagePack',
    family: 'msgpack',
    shares: convertKey('msgpack'),
    prepare: convertFor('msgpack'),
    notes: (f) =>
      f.bigints
        ? [
            `bigint: ${plural(f.bigints, 'bigint')} written as uint 64 / int 64 (a float 64 beyond 64 bits); json-pack's MsgPackDecoder reads 64-bit integers back as doubles`,
          ]
        : [],
    write: (v) => msgpack.enc.encode(v),
    read: (e) => msgpack.dec.decode(single(e)),
  },
  {
    name: 'ubjson',
    label: 'UBJSON',
    family: 'ubjson',
    shares: convertKey('json-like'),
    prepare: convertFor('json-like'),
    write: (v) => ubjson.enc.encode(v),
    read: (e) => ubjson.dec.decode(single(e)),
  },
  {
    name: 'ion',
    label: 'Ion',
    family: 'ion',
    refuse: (f) => {
      const what: string[] = [];
      if (f.bigints) what.push(plural(f.bigints, 'bigint'));
      if (f.undefineds) what.push(plural(f.undefineds, 'undefined'));
      return what.length
        ? `${what.join(', ')}: json-pack's IonEncoderFast has no encoding for them (it throws UNKNOWN_TYPE)`
        : null;
    },
    shares: convertKey('json-like'),
    prepare: convertFor('json-like'),
    write: (v) => ion.enc.encode(v),
    read: (e) => ion.dec.decode(single(e)),
  },
  {
    name: 'bson',
    label: 'BSON',
    family: 'bson',
    refuse: (f) => {
      if (f.top !== 'object' && f.top !== 'map')
        return `BSON carries a document (an object) at the top, not ${f.top === 'array' ? 'an array' : 'a scalar'}`;
      if (f.infinities) return `${plural(f.infinities, 'infinity')}: json-pack's BsonEncoder throws on ±Infinity`;
      return null;
    },
    shares: convertKey('json-like'),
    prepare: convertFor('json-like'),
    write: (v) => bson.enc.encode(v),
    read: (e) => bson.dec.decode(single(e)),
  },
  crdtSpec(
    'json-joy-binary',
    'json-joy binary',
    'logical',
    (m) => m.toBinary(),
    (e) => Model.fromBinary(single(e)),
  ),
  crdtSpec(
    'json-joy-binary-server',
    'json-joy binary (server clock)',
    'server',
    (m) => m.toBinary(),
    (e) => Model.fromBinary(single(e)),
  ),
  crdtSpec(
    'json-joy-compact',
    'json-joy compact',
    'logical',
    (m) => encodeModel(m, 'compact'),
    (e) => crdt.compact.dec.decode(jsonPack.dec.decode(single(e)) as never),
    undefined,
    true,
  ),
  crdtSpec(
    'json-joy-compact-binary',
    'json-joy compact-binary',
    'logical',
    (m) => encodeModel(m, 'compact-binary'),
    (e) => crdt.compactBinary.dec.decode(single(e)),
  ),
  crdtSpec(
    'json-joy-verbose',
    'json-joy verbose',
    'logical',
    (m) => encodeModel(m, 'verbose'),
    (e) => crdt.verbose.dec.decode(jsonPack.dec.decode(single(e)) as never),
    undefined,
    true,
  ),
  crdtSpec(
    'json-joy-indexed',
    'json-joy indexed',
    'logical',
    (m) => new IndexedFields(crdt.indexed.enc.encode(m) as unknown as Record<string, Uint8Array>),
    (e) => {
      if (e instanceof Uint8Array) throw new TypeError('json-joy indexed is a set of fields');
      return crdt.indexed.dec.decode(indexedRecord(e) as never);
    },
    () => ['size: the sum of the field blobs (one per node, plus the clock table), keys not counted'],
  ),
  crdtSpec(
    'json-joy-sidecar',
    'json-joy sidecar',
    'logical',
    (m) => {
      const [view, meta] = crdt.sidecar.enc.encode(m);
      return {
        parts: [
          ['view', view],
          ['meta', meta],
        ],
      };
    },
    (e) => {
      if (e instanceof Uint8Array) throw new TypeError('json-joy sidecar is two blobs');
      const view = e.parts[0][1];
      return crdt.sidecar.dec.decode(view.length ? cbor.dec.decode(view) : undefined, e.parts[1][1]);
    },
    () => ['size: the view (CBOR) plus the metadata blob'],
  ),
];

export const CODECS: readonly Codec[] = specs.map(make);

export const CODEC_NAMES: readonly string[] = CODECS.map((c) => c.name);

export function codecByName(name: string): Codec | undefined {
  return CODECS.find((c) => c.name === name);
}
