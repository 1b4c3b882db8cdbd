/**
 * An Automerge document holding a JSON value, for the seed benchmarks (bench code only: the
 * product never imports @automerge/automerge): `Automerge.from(rootRecordOf(json))`, with
 * Automerge's own mapping of JS values: objects are maps, arrays lists, strings collaborative
 * text, integers 64-bit `int`, other numbers `f64`. An integer beyond ±(2^53 − 1) is therefore
 * stored as the exact integer value of its double and reads back as a bigint of that value.
 */
import * as Automerge from '@automerge/automerge';
import { rootRecordOf } from './crdt-root-record.js';

export function automergeDocOfJson(json: unknown): Automerge.Doc<Record<string, unknown>> {
  return Automerge.from({ ...rootRecordOf(json) });
}
