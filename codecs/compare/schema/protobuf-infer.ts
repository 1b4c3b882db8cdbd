/**
 * Infers a Protobuf message from frame values: messages from object shapes,
 * nested messages, repeated fields from arrays, `optional` where keys come and go, and
 * bool / string / bytes / int32 / int64 / double from the values seen (numbers widen:
 * int32 → int64 → double). What Protobuf cannot say is left out of the schema and reported
 * per frame by the encoder (protobuf-wire.ts): a key seen with two kinds of value (Protobuf
 * has no union for them), arrays inside arrays, null inside arrays, bigints beyond int64,
 * keys that are not identifiers, a frame that is not an object.
 */
import { isRecord } from '../features.js';
import { isIdentifier, type InferredScalar, type ProtoField, type ProtoMessage } from './protobuf-shape.js';

type Kind = InferredScalar | 'message';

interface FieldAcc {
  readonly number: number;
  kind: Kind | null;
  repeated: boolean | null;
  message: MessageAcc | null;
  present: number;
  /** The first value that no field type holds (what an omitted field reports). */
  why: string | null;
}

interface MessageAcc {
  readonly name: string;
  count: number;
  readonly fields: Map<string, FieldAcc>;
}

const I32 = 2 ** 31;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

/** What a value no field holds is (kindOf gives null), as the mismatches word it. */
export function unheld(v: unknown): string {
  if (typeof v === 'bigint') return 'a bigint beyond int64';
  if (Array.isArray(v)) return 'a list';
  return v === null ? 'null' : v === undefined ? 'undefined' : typeof v;
}

/**
 * Why a value can have no field in an inferred schema, naming the item at fault in a list,
 * or null when some field could hold it.
 */
export function whyNoField(v: unknown, at: string): string | null {
  if (!Array.isArray(v))
    return kindOf(v) === null
      ? `${at}: ${unheld(v)} (${typeof v === 'bigint' ? "the inferred schema's integers are int32 / int64" : 'no field type holds it'})`
      : null;
  for (let i = 0; i < v.length; i++) {
    const item = v[i];
    if (item === null || item === undefined) return `${at}[${i}]: null inside a list (a repeated field has no null)`;
    if (Array.isArray(item)) return `${at}[${i}]: a list inside a list (a repeated field holds no lists)`;
    if (kindOf(item) === null) return `${at}[${i}]: ${unheld(item)} inside a list (no repeated field type holds it)`;
  }
  return null;
}

/** A scalar's kind, 'message' for a record, null for what no field can hold. */
export function kindOf(v: unknown): Kind | null {
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      if (Number.isInteger(v) && !Object.is(v, -0))
        return v >= -I32 && v < I32 ? 'int32' : Number.isSafeInteger(v) ? 'int64' : 'double';
      return 'double';
    case 'bigint':
      return v >= I64_MIN && v <= I64_MAX ? 'int64' : null;
    case 'object':
      if (v instanceof Uint8Array) return 'bytes';
      return isRecord(v) ? 'message' : null;
    default:
      return null;
  }
}

const NUMERIC: readonly Kind[] = ['int32', 'int64', 'double'];

/** The kind a field widens to, or null when the two cannot share a field. */
function widen(a: Kind, b: Kind): Kind | null {
  if (a === b) return a;
  const i = NUMERIC.indexOf(a),
    j = NUMERIC.indexOf(b);
  return i >= 0 && j >= 0 ? NUMERIC[Math.max(i, j)] : null;
}

const pascal = (key: string): string =>
  key.replace(/(^|_)([a-z0-9])/gi, (_m, _u, c: string) => c.toUpperCase()) || 'Message';

export class ProtobufInference {
  private readonly root: MessageAcc = { name: 'Frame', count: 0, fields: new Map() };
  private readonly names = new Set<string>(['Frame']);

  /** Adds one frame's value (frames that are not objects add nothing: the encoder reports them). */
  observe(value: unknown): void {
    if (isRecord(value)) this.observeMessage(this.root, value);
  }

  private messageName(key: string): string {
    let name = pascal(key);
    for (let n = 2; this.names.has(name); n++) name = `${pascal(key)}${n}`;
    this.names.add(name);
    return name;
  }

  private observeMessage(m: MessageAcc, obj: Record<string, unknown>): void {
    m.count++;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (!isIdentifier(key) || v === null || v === undefined) continue;
      let f = m.fields.get(key);
      if (!f) {
        f = { number: m.fields.size + 1, kind: null, repeated: null, message: null, present: 0, why: null };
        m.fields.set(key, f);
      }
      const repeated = Array.isArray(v);
      if (f.repeated === null) f.repeated = repeated;
      if (f.repeated !== repeated) {
        f.why ??= repeated ? 'a list, where other frames have one value' : 'one value, where other frames have a list';
        continue;
      }
      f.present++;
      f.why ??= whyNoField(v, key);
      if (repeated) for (const item of v as unknown[]) this.observeValue(f, key, item);
      else this.observeValue(f, key, v);
    }
  }

  private observeValue(f: FieldAcc, key: string, v: unknown): void {
    const kind = kindOf(v);
    if (kind === null) return;
    const next = f.kind === null ? kind : widen(f.kind, kind);
    if (next === null) return;
    f.kind = next;
    if (kind === 'message') {
      f.message ??= { name: this.messageName(key), count: 0, fields: new Map() };
      this.observeMessage(f.message, v as Record<string, unknown>);
    }
  }

  /** The schema so far (fields that never held a usable value are left out). */
  schema(): ProtoMessage {
    const built = new Map<MessageAcc, ProtoMessage>();
    const build = (m: MessageAcc): ProtoMessage => {
      const done = built.get(m);
      if (done) return done;
      const fields: ProtoField[] = [];
      const omitted = new Map<string, string>();
      const message: { name: string; fields: ProtoField[]; omitted?: ReadonlyMap<string, string> } = {
        name: m.name,
        fields,
      };
      built.set(m, message);
      for (const [name, f] of m.fields) {
        if (f.kind === null) {
          omitted.set(name, f.why ?? 'no frame has a value Protobuf can hold');
          continue;
        }
        const type = f.kind === 'message' ? build(f.message!) : f.kind;
        fields.push({ name, number: f.number, type, repeated: f.repeated === true, optional: f.present < m.count });
      }
      if (omitted.size) message.omitted = omitted;
      return message;
    };
    return build(this.root);
  }
}

export function inferProtobuf(values: Iterable<unknown>): ProtoMessage {
  const inference = new ProtobufInference();
  for (const v of values) inference.observe(v);
  return inference.schema();
}
