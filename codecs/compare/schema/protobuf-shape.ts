/**
 * A Protobuf message description small enough to infer, print, encode and decode without
 * protobufjs at run time (protobufjs generates its encoders with `new Function`, which MV3
 * extension pages forbid). The printed `.proto` text is proto3; a test checks that
 * protobufjs, given that text, reads our bytes back to the same values.
 */
/** The scalars an inferred schema uses (protobuf-infer.ts). */
export type InferredScalar = 'bool' | 'string' | 'bytes' | 'int32' | 'int64' | 'double';
/** Every scalar: a loaded `.proto` uses the rest too (protobuf-scalars.ts writes and reads them). */
export type ProtoScalar =
  | InferredScalar
  | 'uint32'
  | 'uint64'
  | 'sint32'
  | 'sint64'
  | 'float'
  | 'fixed32'
  | 'fixed64'
  | 'sfixed32'
  | 'sfixed64';

/** An enum of a loaded `.proto`: values by name (what a schema reading gives) and names by number. */
export interface ProtoEnum {
  readonly name: string;
  readonly byName: ReadonlyMap<string, number>;
  readonly byNumber: ReadonlyMap<number, string>;
}

export interface ProtoField {
  /** The JSON key the field carries (a proto identifier). */
  readonly name: string;
  readonly number: number;
  readonly type: ProtoScalar | ProtoMessage;
  readonly repeated: boolean;
  /** proto3 `optional` (explicit presence): the key comes and goes across frames. */
  readonly optional: boolean;
  /** A loaded enum field (type 'int32'): its value is a name of the enum, or a number. */
  readonly enum?: ProtoEnum;
  /**
   * A loaded map field: the value is an object, written as one `type` entry message (key = 1,
   * value = 2) per key; `repeated` is false (the value is not a list).
   */
  readonly map?: true;
}

export interface ProtoMessage {
  readonly name: string;
  readonly fields: readonly ProtoField[];
  /**
   * An inferred schema only: keys the frames had that got no field (no value Protobuf can
   * hold), with what the first such value was; the encoder names it instead of "the key is
   * not in the schema". Absent when none, and on a loaded `.proto`.
   */
  readonly omitted?: ReadonlyMap<string, string>;
}

export const isIdentifier = (key: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);

/** The `.proto` text: the top message first, nested messages after it, each printed once. */
export function printProto(root: ProtoMessage, packageName = 'wirescope.inferred'): string {
  const out = ['syntax = "proto3";', `package ${packageName};`, ''];
  const seen = new Set<ProtoMessage>();
  const queue = [root];
  while (queue.length) {
    const m = queue.shift()!;
    if (seen.has(m)) continue;
    seen.add(m);
    out.push(`message ${m.name} {`);
    for (const f of m.fields) {
      const type = typeof f.type === 'string' ? f.type : f.type.name;
      if (typeof f.type !== 'string') queue.push(f.type);
      out.push(
        `  ${f.repeated ? 'repeated ' : f.optional && typeof f.type === 'string' ? 'optional ' : ''}${type} ${f.name} = ${f.number};`,
      );
    }
    out.push('}', '');
  }
  return out.join('\n');
}
