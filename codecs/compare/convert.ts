/**
 * Our value model (codecs/core/values.ts) → what each family of json-pack encoders
 * understands. Every conversion is the natural one for the target; anything the target has
 * no way to say is written as the nearest thing it does have, and the comparison of the
 * decoded output with the input (diff.ts) then names what was lost:
 *
 * | value             | cbor                                   | msgpack                    | json-like (json, ubjson, ion, bson) |
 * | ----------------- | -------------------------------------- | -------------------------- | ----------------------------------- |
 * | TaggedValue       | JsonPackExtension(tag, value)          | its value (tag dropped)    | its value (tag dropped)             |
 * | bigint ≥ 2^64 / < -2^63 | tag 2 / 3 bignum (RFC 8949 3.4.3) | bigint (as the encoder does) | bigint (json: a Number)         |
 * | ExtValue          | its data (type dropped)                | JsonPackExtension(type, data) | its data (json: base64)          |
 * | SimpleValue       | JsonPackValue(raw CBOR simple)         | null                       | null                                |
 * | Map               | Map                                    | object, keys as strings    | object, keys as strings             |
 * | Uint8Array        | as is                                  | as is                      | as is (json: a base64 string)       |
 *
 * EntriesMap (duplicate keys) is never converted: no json-pack encoder can write
 * duplicate keys from a JS value, so the registry refuses it. Recursive (the encoders
 * recurse too); the registry catches a stack overflow as "nested too deep".
 */
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { JsonPackValue } from '@jsonjoy.com/json-pack/lib/JsonPackValue.js';
import { encodeBase64 } from '../core/base64.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue, setOwn } from '../core/values.js';
import { isRecord } from './features.js';

export type Target = 'cbor' | 'cbor-fast' | 'msgpack' | 'json' | 'json-like';

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);

/** Big-endian magnitude bytes of a non-negative bigint (no leading zeros; 0 → empty). */
export function bigintBytes(n: bigint): Uint8Array {
  let hex = n.toString(16);
  if (n === 0n) return new Uint8Array(0);
  if (hex.length & 1) hex = '0' + hex;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

function simpleCbor(n: number): Uint8Array {
  return n < 24 ? Uint8Array.of(0xe0 | n) : Uint8Array.of(0xf8, n);
}

/** The value as `target`'s encoders take it (a new tree; the input is not touched). */
export function toTarget(value: unknown, target: Target): unknown {
  const cbor = target === 'cbor' || target === 'cbor-fast';
  const json = target === 'json';
  switch (typeof value) {
    case 'bigint':
      if (cbor && (value > U64_MAX || value < I64_MIN)) {
        return value >= 0n
          ? new JsonPackExtension(2, bigintBytes(value))
          : new JsonPackExtension(3, bigintBytes(-1n - value));
      }
      return json ? Number(value) : value;
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((v) => toTarget(v, target));
  if (value instanceof Uint8Array) return json ? encodeBase64(value) : value;
  if (value instanceof TaggedValue)
    return cbor
      ? new JsonPackExtension(Number(value.tag), toTarget(value.value, target))
      : toTarget(value.value, target);
  if (value instanceof ExtValue) {
    // json-pack writes the type as a byte ((0xd6 << 8) | type): a negative type (the
    // timestamp's -1) goes in as its two's-complement byte, or the header comes out `ff ff`.
    if (target === 'msgpack') return new JsonPackExtension(value.type & 0xff, value.data);
    return json ? encodeBase64(value.data) : value.data;
  }
  if (value instanceof SimpleValue) return cbor ? new JsonPackValue(simpleCbor(value.value)) : null;
  if (value instanceof Map) {
    if (target === 'cbor') {
      const out = new Map<unknown, unknown>();
      for (const [k, v] of value) out.set(toTarget(k, target), toTarget(v, target));
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) setOwn(out, keyText(k), toTarget(v, target));
    return out;
  }
  if (value instanceof EntriesMap) throw new RangeError('duplicate map keys cannot be converted');
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) setOwn(out, k, toTarget(value[k], target));
    return out;
  }
  return value;
}

/** How a non-string key becomes an object key (JS's own String(), bytes as base64). */
export function keyText(k: unknown): string {
  if (typeof k === 'string') return k;
  if (k instanceof Uint8Array) return encodeBase64(k);
  return String(k);
}
