/**
 * json-joy's JSON-, CBOR- and MessagePack-shaped CRDT codecs: encoding (thin wrappers over
 * json-joy, for tests and the re-encode comparison), decoding a frame *as* one of them into
 * a codec-independent summary, and detection. The structural-binary model and the binary
 * patch codecs have their own span walkers (model-walker.ts, patch-walker.ts).
 *
 * How frames carry each codec (the first carrier is the canonical one, the one
 * `encodeModel` / `encodePatch` write; the others are accepted):
 *
 * | kind  | codec          | value                                  | carriers             |
 * | ----- | -------------- | -------------------------------------- | -------------------- |
 * | model | compact        | `[clock, root]` (structural/compact)   | JSON, CBOR           |
 * | model | compact-binary | the same, MessagePack-encoded          | MessagePack          |
 * | model | verbose        | `{ time, root }` (structural/verbose)  | JSON, CBOR, MsgPack  |
 * | model | indexed        | map `{ c, r?, '<i>_<t>': bytes }`      | CBOR, MsgPack, JSON  |
 * | model | sidecar        | array `[view, meta]`                   | CBOR, MsgPack, JSON  |
 * | patch | compact        | `[[id, meta?], ...ops]`                | JSON, MessagePack    |
 * | patch | compact-binary | the same, CBOR-encoded                 | CBOR                 |
 * | patch | verbose        | `{ id, ops, meta? }`                   | JSON, CBOR, MsgPack  |
 *
 * - indexed: json-joy's encoder returns the fields as an object of byte strings; a frame is
 *   that object as a CBOR map (text keys, byte-string values).
 * - sidecar: json-joy's encoder returns two blobs, `[view, meta]`: the document view
 *   already CBOR-encoded and the metadata (ids, chunk spans, clock table). A frame is a
 *   two-element CBOR array whose first item IS the view (its bytes verbatim, so the view
 *   reads as ordinary CBOR) and whose second is the meta blob as a byte string — the same
 *   split json-joy's own log format (`json-crdt/log/codec`) uses: view as a value, model
 *   blob beside it. `[bytes(view CBOR), bytes(meta)]` is accepted too. An empty document
 *   has no view bytes at all; its frame carries `undefined` (0xf7) in the view's place.
 *   Over MessagePack or JSON the view is re-encoded, so an `undefined` constant becomes
 *   nil / null there (json-joy's view encoding is CBOR).
 * - JSON carriers follow json-pack's JSON conventions: bytes are
 *   `data:application/octet-stream;base64,...` strings and undefined is
 *   `data:application/cbor,base64;9w==` (what json-pack's JsonEncoder writes and its
 *   JsonDecoder reads back).
 *
 * Decoding never throws: the carrier is read by our own JSON / CBOR / MessagePack index
 * (`decodeFrame`) and must decode whole; the value must have the exact shape json-joy's
 * encoder writes (codec-shapes.ts, codec-binary.ts); only then does json-joy's decoder
 * build the Model, whose node tree the summary walks (codec-summary.ts). Documents nested
 * deeper than MAX_CRDT_DEPTH (1000) CRDT levels are refused: json-joy recurses per level.
 *
 * Detection indexes each carrier one level deep first and materializes the value only when
 * the top level could be a codec (codec-decode.ts `plausibleTop`), so plain frames cost one
 * validating pass per carrier.
 */
import type { Model } from 'json-joy/lib/json-crdt/model/Model.js';
import type { Patch } from 'json-joy/lib/json-crdt-patch/Patch.js';
import { Encoder as CompactModelEncoder } from 'json-joy/lib/json-crdt/codec/structural/compact/index.js';
import { Encoder as CompactBinaryModelEncoder } from 'json-joy/lib/json-crdt/codec/structural/compact-binary/Encoder.js';
import { Encoder as VerboseModelEncoder } from 'json-joy/lib/json-crdt/codec/structural/verbose/index.js';
import { Encoder as IndexedEncoder } from 'json-joy/lib/json-crdt/codec/indexed/binary/index.js';
import { Encoder as SidecarEncoder } from 'json-joy/lib/json-crdt/codec/sidecar/binary/index.js';
import { encode as compactPatchEncode } from 'json-joy/lib/json-crdt-patch/codec/compact/index.js';
import { encode as compactBinaryPatchEncode } from 'json-joy/lib/json-crdt-patch/codec/compact-binary/index.js';
import { encode as verbosePatchEncode } from 'json-joy/lib/json-crdt-patch/codec/verbose/index.js';
import { CrdtWriter } from 'json-joy/lib/json-crdt-patch/util/binary/CrdtWriter.js';
import { JsonEncoder } from '@jsonjoy.com/json-pack/lib/json/JsonEncoder.js';
import { CborEncoder } from '@jsonjoy.com/json-pack/lib/cbor/CborEncoder.js';
import type { CrdtCarrier, CrdtClock, CrdtModelSummary } from './codec-summary.js';
import { isPlainObject } from './codec-json.js';
import {
  MODEL_CARRIERS,
  PATCH_CARRIERS,
  errorText,
  modelFromValue,
  patchFromValue,
  readCarrier,
  type Attempt,
  type CarrierValue,
  type CrdtDecodeResult,
  type CrdtError,
  type CrdtKind,
  type CrdtModelCodec,
  type CrdtPatchCodec,
  type CrdtPatchSummary,
} from './codec-decode.js';

export type {
  CrdtCarrier,
  CrdtClock,
  CrdtClockTable,
  CrdtModelSummary,
  CrdtNodeSummary,
  CrdtChunkSummary,
  CrdtNodeType,
} from './codec-summary.js';
export {
  CRDT_MODEL_CODECS,
  CRDT_PATCH_CODECS,
  MODEL_CARRIERS,
  PATCH_CARRIERS,
  type CrdtDecodeResult,
  type CrdtError,
  type CrdtKind,
  type CrdtModelCodec,
  type CrdtPatchCodec,
  type CrdtPatchSummary,
} from './codec-decode.js';
export { reviveJsonPack } from './codec-json.js';

// ---------------------------------------------------------------------------------------
// Encoding (throws what json-joy throws: these take trusted models and patches)

const jsonBytes = (value: unknown): Uint8Array => new JsonEncoder(new CrdtWriter()).encode(value).slice();
const cborBytes = (value: unknown): Uint8Array => new CborEncoder(new CrdtWriter()).encode(value).slice();

/**
 * A model as `codec` on its canonical carrier. `clock`, when given, is checked against the
 * model's clock (a RangeError when they differ: json-joy picks the encoding from the model).
 */
export function encodeModel(model: Model, codec: CrdtModelCodec, clock?: CrdtClock): Uint8Array {
  const actual: CrdtClock = model.clock.sid === 1 ? 'server' : 'logical';
  if (clock && clock !== actual) throw new RangeError(`the model has a ${actual} clock, not a ${clock} one`);
  switch (codec) {
    case 'compact':
      return jsonBytes(new CompactModelEncoder().encode(model));
    case 'compact-binary':
      return new CompactBinaryModelEncoder().encode(model).slice();
    case 'verbose':
      return jsonBytes(new VerboseModelEncoder().encode(model));
    case 'indexed':
      return cborBytes(new IndexedEncoder().encode(model));
    case 'sidecar': {
      const [blob, meta] = new SidecarEncoder().encode(model);
      // An empty document has no view at all; the frame says `undefined` (0xf7) there.
      const view = blob.length ? blob : Uint8Array.of(0xf7);
      const metaHead = cborBytes(meta);
      const out = new Uint8Array(1 + view.length + metaHead.length);
      out[0] = 0x82;
      out.set(view, 1);
      out.set(metaHead, 1 + view.length);
      return out;
    }
  }
  throw new RangeError(`unknown model codec ${codec}`);
}

/** A patch as `codec` on its canonical carrier (json-joy throws on an empty patch). */
export function encodePatch(patch: Patch, codec: CrdtPatchCodec): Uint8Array {
  switch (codec) {
    case 'compact':
      return jsonBytes(compactPatchEncode(patch));
    case 'compact-binary':
      return compactBinaryPatchEncode(patch).slice();
    case 'verbose':
      return jsonBytes(verbosePatchEncode(patch));
  }
  throw new RangeError(`unknown patch codec ${codec}`);
}

function decodeWith<T>(
  bytes: Uint8Array,
  carriers: readonly CrdtCarrier[],
  only: CrdtCarrier | undefined,
  attempt: (cv: CarrierValue) => Attempt<T>,
): CrdtDecodeResult<T> {
  let best: CrdtError | null = null;
  let bestReadWhole = false;
  for (const carrier of only ? [only] : carriers) {
    let error: CrdtError;
    let readWhole = false;
    try {
      const cv = readCarrier(bytes, carrier);
      if ('index' in cv) {
        readWhole = true;
        const result = attempt(cv);
        if (result.ok) return { ok: true, summary: result.summary };
        error = result.error;
      } else error = cv;
    } catch (e) {
      error = { message: `internal error: ${errorText(e)}`, offset: 0 };
    }
    // Prefer what the codec disliked in a frame that read whole over a carrier that failed.
    if (!best || (readWhole && !bestReadWhole)) {
      best = error;
      bestReadWhole = readWhole;
    }
  }
  return { ok: false, error: best ?? { message: 'no carrier', offset: 0 } };
}

export interface CrdtDecodeOptions {
  /** Read the frame only as this carrier (default: every carrier the codec allows). */
  readonly carrier?: CrdtCarrier;
}

/** Decodes a frame as a model in `codec`. Never throws. */
export function decodeModel(
  bytes: Uint8Array,
  codec: CrdtModelCodec,
  options: CrdtDecodeOptions = {},
): CrdtDecodeResult<CrdtModelSummary> {
  const carriers = MODEL_CARRIERS[codec];
  if (!carriers) return { ok: false, error: { message: `unknown model codec ${String(codec)}` } };
  return decodeWith(bytes, carriers, options.carrier, (cv) => modelFromValue(cv, codec));
}

/** Decodes a frame as a patch in `codec`. Never throws. */
export function decodePatch(
  bytes: Uint8Array,
  codec: CrdtPatchCodec,
  options: CrdtDecodeOptions = {},
): CrdtDecodeResult<CrdtPatchSummary> {
  const carriers = PATCH_CARRIERS[codec];
  if (!carriers) return { ok: false, error: { message: `unknown patch codec ${String(codec)}` } };
  return decodeWith(bytes, carriers, options.carrier, (cv) => patchFromValue(cv, codec));
}

// ---------------------------------------------------------------------------------------
// Detection

export interface CrdtCandidate {
  readonly kind: CrdtKind;
  readonly codec: CrdtModelCodec | CrdtPatchCodec;
  readonly carrier: CrdtCarrier;
  readonly clock?: CrdtClock;
  /** 0..1; below 0.5 means "decodes, but could as well be plain data". */
  readonly confidence: number;
  readonly summary: CrdtModelSummary | CrdtPatchSummary;
}

/** Confidence below which a candidate is not worth calling CRDT. */
export const CRDT_CONFIDENCE_THRESHOLD = 0.5;

const JSON_FIRST = new Set([0x7b, 0x5b, 0x20, 0x0a, 0x0d, 0x09, 0xef]);

/**
 * Which of the JSON- / CBOR- / MessagePack-shaped json-joy codecs the bytes are: every
 * reading that decodes whole and validates, most likely first. Confidence is highest on
 * the codec's canonical carrier and grows with the number of nodes / operations (an empty
 * document `[5, 0]` or an empty patch `[[5]]` is as likely plain data). Never throws.
 */
export function detectCrdtCodec(bytes: Uint8Array, context: { readonly isText?: boolean } = {}): CrdtCandidate[] {
  const out: CrdtCandidate[] = [];
  if (!bytes.length) return out;
  const carriers: CrdtCarrier[] = [];
  if (JSON_FIRST.has(bytes[0])) carriers.push('json');
  // Binary carriers are tried on text frames too (as format detection does), at a discount.
  carriers.push('cbor', 'msgpack');
  for (const carrier of carriers) {
    let cv: CarrierValue | CrdtError;
    try {
      cv = readCarrier(bytes, carrier, true);
    } catch {
      continue;
    }
    if (!('index' in cv)) continue;
    const v = cv.value;
    // Cheap gates before any full validation.
    const isArr = Array.isArray(v);
    const isObj = isPlainObject(v);
    if (!isArr && !isObj) continue;
    const tries: [CrdtKind, CrdtModelCodec | CrdtPatchCodec][] = [];
    if (isArr) {
      tries.push(
        ['model', carrier === 'msgpack' ? 'compact-binary' : 'compact'],
        ['model', 'sidecar'],
        ['patch', carrier === 'cbor' ? 'compact-binary' : 'compact'],
      );
    } else {
      if ('time' in v && 'root' in v) tries.push(['model', 'verbose']);
      if ('c' in v) tries.push(['model', 'indexed']);
      if ('id' in v && 'ops' in v) tries.push(['patch', 'verbose']);
    }
    for (const [kind, codec] of tries) {
      const allowed =
        kind === 'model' ? MODEL_CARRIERS[codec as CrdtModelCodec] : PATCH_CARRIERS[codec as CrdtPatchCodec];
      if (!allowed.includes(carrier)) continue;
      let r: Attempt<CrdtModelSummary | CrdtPatchSummary>;
      try {
        r =
          kind === 'model' ? modelFromValue(cv, codec as CrdtModelCodec) : patchFromValue(cv, codec as CrdtPatchCodec);
      } catch {
        continue;
      }
      if (!r.ok) continue;
      const base = allowed[0] === carrier ? 0.95 : 0.8;
      const richness = r.items === 0 ? 0.3 : r.items === 1 ? 0.7 : r.items === 2 ? 0.9 : 1;
      const textPenalty = context.isText && carrier !== 'json' ? 0.5 : 1;
      out.push({
        kind,
        codec,
        carrier,
        clock: r.summary.clock,
        confidence: Math.round(base * richness * textPenalty * 1000) / 1000,
        summary: r.summary,
      });
    }
  }
  out.sort((a, b) => b.confidence - a.confidence);
  return out;
}

/** The best CRDT reading of a frame when it is confident enough, else null. Never throws. */
export function decodeCrdt(bytes: Uint8Array, context: { readonly isText?: boolean } = {}): CrdtCandidate | null {
  const best = detectCrdtCodec(bytes, context)[0];
  return best && best.confidence >= CRDT_CONFIDENCE_THRESHOLD ? best : null;
}
