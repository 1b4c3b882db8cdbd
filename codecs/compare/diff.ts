/**
 * What a round trip lost: the input (our value model) walked side by side with what a
 * codec's decoder gave back, naming each kind of difference once. json-pack's own wrappers
 * in the output are understood: JsonPackExtension as a CBOR tag or a MessagePack extension
 * (tags 2 / 3 with bytes as a bignum), JsonPackValue as raw CBOR (simple values).
 *
 * Loss names: 'bytes', 'bigint', 'undefined', '-0', 'NaN', 'Infinity', 'non-string keys',
 * 'tags', 'ext', 'simple', 'duplicate keys', 'keys' (a key missing or added), 'numbers'
 * (a finite number changed), 'strings', 'values' (booleans, null), 'structure' (a
 * container became something else or changed length). Equality is structural: object key
 * order does not matter; an integer that comes back as an equal bigint (or the reverse)
 * is the same number. Iterative.
 */
import { JsonPackExtension } from '@jsonjoy.com/json-pack/lib/JsonPackExtension.js';
import { JsonPackValue } from '@jsonjoy.com/json-pack/lib/JsonPackValue.js';
import { EntriesMap, ExtValue, SimpleValue, TaggedValue } from '../core/values.js';
import { bytesBigint, keyText } from './convert.js';
import { isRecord } from './features.js';

export type Loss =
  | 'bytes'
  | 'bigint'
  | 'undefined'
  | '-0'
  | 'NaN'
  | 'Infinity'
  | 'non-string keys'
  | 'tags'
  | 'ext'
  | 'simple'
  | 'duplicate keys'
  | 'keys'
  | 'numbers'
  | 'strings'
  | 'values'
  | 'structure';

const hasOwn = (o: object, k: string): boolean => Object.hasOwn(o, k);

function sameBytes(a: Uint8Array, b: unknown): boolean {
  if (!(b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameBigint(a: bigint, b: unknown): boolean {
  if (typeof b === 'bigint') return a === b;
  // A bigint that comes back as a double is lost even when the double happens to be exact:
  // beyond 2^53 a decoder's number no longer says which integer it was.
  if (b instanceof JsonPackExtension && b.val instanceof Uint8Array) {
    if (b.tag === 2) return bytesBigint(b.val) === a;
    if (b.tag === 3) return -1n - bytesBigint(b.val) === a;
  }
  return false;
}

/** A map entry that did not come back: charged to what its value was (BSON drops bigints, JSON undefined). */
function missing(v: unknown): Loss {
  if (v === undefined) return 'undefined';
  if (typeof v === 'bigint') return 'bigint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof TaggedValue) return 'tags';
  if (v instanceof ExtValue) return 'ext';
  if (v instanceof SimpleValue) return 'simple';
  return 'keys';
}

/** The kinds of data lost between `input` and `output`, in a stable order. */
export function lostInRoundTrip(input: unknown, output: unknown): Loss[] {
  const lost = new Set<Loss>();
  const ins: unknown[] = [input];
  const outs: unknown[] = [output];
  while (ins.length) {
    const a = ins.pop();
    const b = outs.pop();
    switch (typeof a) {
      case 'number':
        if (Number.isNaN(a)) {
          if (!(typeof b === 'number' && Number.isNaN(b))) lost.add('NaN');
        } else if (a === Infinity || a === -Infinity) {
          if (b !== a) lost.add('Infinity');
        } else if (a === 0 && 1 / a < 0) {
          if (!Object.is(b, -0)) lost.add(b === 0 || b === 0n ? '-0' : 'numbers');
        } else if (!(b === a || (typeof b === 'bigint' && Number.isInteger(a) && BigInt(a) === b))) lost.add('numbers');
        continue;
      case 'bigint':
        if (!sameBigint(a, b)) lost.add('bigint');
        continue;
      case 'string':
        if (b !== a) lost.add('strings');
        continue;
      case 'undefined':
        if (b !== undefined) lost.add('undefined');
        continue;
      case 'boolean':
        if (b !== a) lost.add('values');
        continue;
      case 'object':
        break;
      default:
        if (b !== a) lost.add('values');
        continue;
    }
    if (a === null) {
      if (b !== null) lost.add('values');
    } else if (Array.isArray(a)) {
      if (!Array.isArray(b) || b.length !== a.length) {
        lost.add('structure');
        continue;
      }
      for (let i = 0; i < a.length; i++) {
        ins.push(a[i]);
        outs.push(b[i]);
      }
    } else if (a instanceof Uint8Array) {
      if (!sameBytes(a, b)) lost.add('bytes');
    } else if (a instanceof TaggedValue) {
      if (b instanceof JsonPackExtension && b.tag === Number(a.tag)) {
        ins.push(a.value);
        outs.push(b.val);
      } else if (b instanceof TaggedValue && b.tag === a.tag) {
        ins.push(a.value);
        outs.push(b.value);
      } else {
        // The tag is gone; see what became of its content.
        lost.add('tags');
        ins.push(a.value);
        outs.push(b);
      }
    } else if (a instanceof ExtValue) {
      // json-pack's decoder reads the type as an unsigned byte (255 for the timestamp's -1).
      if (!(b instanceof JsonPackExtension && b.tag === (a.type & 0xff) && sameBytes(a.data, b.val))) lost.add('ext');
    } else if (a instanceof SimpleValue) {
      // json-pack's CborDecoder reads a simple value as JsonPackValue(number); what we hand
      // its encoder is JsonPackValue(raw CBOR bytes).
      const raw = b instanceof JsonPackValue ? (b.val as unknown) : null;
      const ok =
        raw === a.value ||
        (raw instanceof Uint8Array &&
          ((raw.length === 1 && raw[0] === (0xe0 | a.value)) ||
            (raw.length === 2 && raw[0] === 0xf8 && raw[1] === a.value)));
      if (!ok && !(b instanceof SimpleValue && b.value === a.value)) lost.add('simple');
    } else if (a instanceof EntriesMap) {
      lost.add('duplicate keys');
    } else if (a instanceof Map) {
      if (b instanceof Map) {
        if (b.size !== a.size) lost.add('keys');
        for (const [k, v] of a) {
          if (!b.has(k)) {
            lost.add(typeof k === 'string' ? missing(v) : 'non-string keys');
            continue;
          }
          ins.push(v);
          outs.push(b.get(k));
        }
      } else if (isRecord(b)) {
        let size = 0;
        for (const [k, v] of a) {
          size++;
          if (typeof k !== 'string') lost.add('non-string keys');
          const t = keyText(k);
          if (!hasOwn(b, t)) {
            lost.add(missing(v));
            continue;
          }
          ins.push(v);
          outs.push(b[t]);
        }
        if (Object.keys(b).length !== size) lost.add('keys');
      } else lost.add('structure');
    } else if (isRecord(a)) {
      const record = isRecord(b) ? b : b instanceof Map ? Object.fromEntries(b) : null;
      if (!record) {
        lost.add('structure');
        continue;
      }
      // for-in, not Object.keys: no key array per object (a 1 MB document has ~100,000 of
      // them, and the garbage made V8 collect while the decoded tree was still young).
      let present = 0;
      for (const k in a) {
        if (!hasOwn(a, k)) continue;
        const v = a[k];
        if (!hasOwn(record, k)) {
          lost.add(missing(v));
          continue;
        }
        present++;
        ins.push(v);
        outs.push(record[k]);
      }
      let keys = 0;
      for (const k in record) if (hasOwn(record, k)) keys++;
      if (keys !== present) lost.add('keys');
    } else if (a !== b) lost.add('values');
  }
  return ORDER.filter((l) => lost.has(l));
}

const ORDER: readonly Loss[] = [
  'bytes',
  'bigint',
  'undefined',
  '-0',
  'NaN',
  'Infinity',
  'non-string keys',
  'tags',
  'ext',
  'simple',
  'duplicate keys',
  'keys',
  'numbers',
  'strings',
  'values',
  'structure',
];
