/**
 * Value helpers: json-pack's JSON conventions for values JSON cannot say, strict base64,
 * and the plain-object test every shape check uses.
 */
import { EntriesMap } from '../core/values.js';

/** A plain object of our value model (not an array, EntriesMap, Map, bytes or wrapper). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof EntriesMap) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

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
      const bytes = fromBase64(v.slice(BIN_PREFIX.length));
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

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;

/** Strict standard base64 (padded); null when malformed. */
export function fromBase64(text: string): Uint8Array | null {
  if (text.length % 4 || !BASE64.test(text)) return null;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const a = B64_INDEX[text.charCodeAt(i)];
    const b = B64_INDEX[text.charCodeAt(i + 1)];
    const c = text[i + 2] === '=' ? 0 : B64_INDEX[text.charCodeAt(i + 2)];
    const d = text[i + 3] === '=' ? 0 : B64_INDEX[text.charCodeAt(i + 3)];
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    if (o < out.length) out[o++] = n >>> 16;
    if (o < out.length) out[o++] = (n >>> 8) & 0xff;
    if (o < out.length) out[o++] = n & 0xff;
  }
  return out;
}
