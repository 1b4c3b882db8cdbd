/**
 * A Y.Doc holding a JSON value, for the seed benchmarks (bench code only: the product never
 * imports yjs). Mapping: the root is `doc.getMap(YJS_ROOT_NAME)` with the entries of
 * `rootRecordOf(json)`; a nested object is a Y.Map, a nested array a Y.Array whose elements are
 * inserted in one `push`, and strings, numbers, booleans and null are plain values (Yjs
 * `ContentAny`, not Y.Text). Built in one transaction by one client whose id is fixed, so the
 * encoded size is the same on every run.
 */
import * as Y from 'yjs';
import { rootRecordOf } from './crdt-root-record.js';

export const YJS_ROOT_NAME = 'root';
/** A fixed client id; like 15 of 16 random 32-bit ids it takes five bytes as a varint. */
export const YJS_BENCH_CLIENT_ID = 0x9e3779b9;

/** A not-yet-integrated Yjs value for `json`; Yjs integrates nested types when their parent is. */
function yjsValueOf(json: unknown): unknown {
  if (Array.isArray(json)) {
    const array = new Y.Array<unknown>();
    array.push(json.map(yjsValueOf));
    return array;
  }
  if (json !== null && typeof json === 'object') {
    const map = new Y.Map<unknown>();
    for (const [key, value] of Object.entries(json)) map.set(key, yjsValueOf(value));
    return map;
  }
  return json;
}

export function yjsDocOfJson(json: unknown): Y.Doc {
  const doc = new Y.Doc();
  doc.clientID = YJS_BENCH_CLIENT_ID;
  doc.transact(() => {
    const root = doc.getMap<unknown>(YJS_ROOT_NAME);
    for (const [key, value] of Object.entries(rootRecordOf(json))) root.set(key, yjsValueOf(value));
  });
  return doc;
}
