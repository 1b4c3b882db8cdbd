/**
 * One pass over a value (wirescope's value model, codecs/core/values.ts) that notes which
 * kinds of data it holds. The codec registry decides from these what a codec cannot carry,
 * and whether a value needs converting at all before an encoder sees it (plain JSON-like
 * values go to every encoder as they are). Iterative: frames may nest very deep.
 */
import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../core/values.js';

export interface ValueFeatures {
  /** The root's shape: BSON carries only a document (object / map) at the top. */
  readonly top: 'object' | 'map' | 'array' | 'scalar';
  /** Bigints (integers beyond 2^53 and CBOR bignums). */
  readonly bigints: number;
  /** Bigints outside the 64-bit signed / unsigned range (need CBOR bignum tags 2/3). */
  readonly wideBigints: number;
  /** Byte strings (Uint8Array): how many, their total length, and their total length as base64 text. */
  readonly bytes: number;
  readonly byteLength: number;
  readonly base64Length: number;
  readonly undefineds: number;
  readonly negativeZeros: number;
  readonly nans: number;
  readonly infinities: number;
  /** Maps (`Map`) with at least one key that is not a string. */
  readonly nonStringKeyMaps: number;
  /** Maps (`Map`) in general (also string-keyed ones). */
  readonly maps: number;
  /** Maps with duplicate keys (EntriesMap). */
  readonly duplicateKeyMaps: number;
  readonly tags: number;
  readonly exts: number;
  readonly simples: number;
  /** Values no codec here knows (functions, symbols, class instances we do not model). */
  readonly unknowns: number;
  /** Containers nested inside containers, at the deepest point. */
  readonly depth: number;
}

/** True when nothing in the value is outside JSON's data model (finite numbers, no -0). */
export function isPlainJson(f: ValueFeatures): boolean {
  return (
    f.bigints +
      f.bytes +
      f.undefineds +
      f.negativeZeros +
      f.nans +
      f.infinities +
      f.maps +
      f.duplicateKeyMaps +
      f.tags +
      f.exts +
      f.simples +
      f.unknowns ===
    0
  );
}

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);

export function base64Length(n: number): number {
  return 4 * Math.ceil(n / 3);
}

export function scanValue(value: unknown): ValueFeatures {
  const f = {
    top: topOf(value),
    bigints: 0,
    wideBigints: 0,
    bytes: 0,
    byteLength: 0,
    base64Length: 0,
    undefineds: 0,
    negativeZeros: 0,
    nans: 0,
    infinities: 0,
    nonStringKeyMaps: 0,
    maps: 0,
    duplicateKeyMaps: 0,
    tags: 0,
    exts: 0,
    simples: 0,
    unknowns: 0,
    depth: 0,
  };
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop();
    const d = depths.pop()!;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (Number.isNaN(v)) f.nans++;
        else if (v === Infinity || v === -Infinity) f.infinities++;
        else if (v === 0 && 1 / v < 0) f.negativeZeros++;
        continue;
      case 'bigint':
        f.bigints++;
        if (v > U64_MAX || v < I64_MIN) f.wideBigints++;
        continue;
      case 'undefined':
        f.undefineds++;
        continue;
      case 'object':
        break;
      default:
        f.unknowns++;
        continue;
    }
    if (v === null) continue;
    if (d > f.depth) f.depth = d;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        values.push(v[i]);
        depths.push(d + 1);
      }
    } else if (v instanceof Uint8Array) {
      f.bytes++;
      f.byteLength += v.length;
      f.base64Length += base64Length(v.length);
    } else if (v instanceof Map) {
      f.maps++;
      let nonString = false;
      for (const [k, item] of v) {
        if (typeof k !== 'string') nonString = true;
        values.push(k, item);
        depths.push(d + 1, d + 1);
      }
      if (nonString) f.nonStringKeyMaps++;
    } else if (v instanceof TaggedValue) {
      f.tags++;
      values.push(v.value);
      depths.push(d + 1);
    } else if (v instanceof ExtValue) f.exts++;
    else if (v instanceof SimpleValue) f.simples++;
    else if (v instanceof EntriesMap) {
      f.duplicateKeyMaps++;
      for (const [k, item] of v.entries) {
        values.push(k, item);
        depths.push(d + 1, d + 1);
      }
    } else if (isRecord(v)) {
      for (const k of Object.keys(v)) {
        values.push(v[k]);
        depths.push(d + 1);
      }
    } else f.unknowns++;
  }
  return f;
}

function topOf(v: unknown): ValueFeatures['top'] {
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map || v instanceof EntriesMap) return 'map';
  if (isRecord(v)) return 'object';
  return 'scalar';
}

/** A plain object (what our value model uses for string-keyed maps). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
