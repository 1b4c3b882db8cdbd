/**
 * Value helpers: json-pack's JSON conventions for values JSON cannot say, strict base64,
 * and the plain-object test every shape check uses.
 */
import { strictBase64Bytes } from '../core/base64.js';
import { EntriesMap } from '../core/values.js';

/** A plain object of our value model (not an array, EntriesMap, Map, bytes or wrapper). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof EntriesMap) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const BIN_PREFIX = 'data:application/octet-stream;base64,';
const UNDEFINED_TEXT = 'data:application/cbor,base64;9w==';

/**
 * json-pack's JsonEncoder writes bytes as `data:application/octet-stream;base64,...` and
 * `undefined` as `data:application/cbor,base64;9w==`; its JsonDecoder turns them back, and
 * reads integers beyond 2^53 as (inexact) numbers, as JSON.parse does. Applies the same to
 * a value read from a JSON frame (our JSON index keeps such integers exact, as bigint), in
 * place, iteratively.
 */
export function reviveJsonPack(value: unknown): unknown {
  const revive = (v: unknown): unknown => {
    if (typeof v === 'bigint') return Number(v);
    if (typeof v !== 'string' || v.charCodeAt(0) !== 0x64 /* d */) return v;
    if (v === UNDEFINED_TEXT) return undefined;
    if (v.startsWith(BIN_PREFIX)) {
      const bytes = strictBase64Bytes(v.slice(BIN_PREFIX.length));
      if (bytes) return bytes;
    }
    return v;
  };
  const top = revive(value);
  const stack: unknown[] = [top];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const r = revive(v[i]);
        if (r !== v[i]) v[i] = r;
        if (r !== null && typeof r === 'object') stack.push(r);
      }
    } else if (isPlainObject(v)) {
      for (const k of Object.keys(v)) {
        const r = revive(v[k]);
        if (r !== v[k]) v[k] = r;
        if (r !== null && typeof r === 'object') stack.push(r);
      }
    }
  }
  return top;
}
