import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { createFileRegistry, fromBinary, type FileRegistry } from '@bufbuild/protobuf';
import {
  FileDescriptorSetSchema,
  file_google_protobuf_any,
  file_google_protobuf_duration,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers,
} from '@bufbuild/protobuf/wkt';

const WKT_FILES = [
  file_google_protobuf_timestamp,
  file_google_protobuf_duration,
  file_google_protobuf_any,
  file_google_protobuf_wrappers,
  file_google_protobuf_struct,
];

/**
 * The test schema for the Protobuf schema walker: every scalar type, an enum, a oneof, maps,
 * repeated packed and unpacked fields, nested and recursive messages and the well-known types.
 * Loaded both by protobufjs and (through a FileDescriptorSet) by @bufbuild/protobuf, so random
 * messages can be encoded by either library.
 */
export const TEST_PROTO = `syntax = "proto3";
package wtest;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/any.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/struct.proto";

enum Color { COLOR_UNSPECIFIED = 0; RED = 1; GREEN = 2; BLUE = 3; }

message Inner {
  string label = 1;
  sint32 delta = 2;
  Inner child = 3;
}

message Scalars {
  double f_double = 1; float f_float = 2; int32 f_int32 = 3; int64 f_int64 = 4;
  uint32 f_uint32 = 5; uint64 f_uint64 = 6; sint32 f_sint32 = 7; sint64 f_sint64 = 8;
  fixed32 f_fixed32 = 9; fixed64 f_fixed64 = 10; sfixed32 f_sfixed32 = 11; sfixed64 f_sfixed64 = 12;
  bool f_bool = 13; string f_string = 14; bytes f_bytes = 15;
}

message Everything {
  Scalars scalars = 1;
  Color color = 2;
  oneof choice { string name = 3; int64 number = 4; Inner inner = 5; }
  map<string, int32> counts = 6;
  map<int32, Inner> inners = 7;
  repeated int32 packed_ints = 8;
  repeated sint64 packed_sints = 9;
  repeated double packed_doubles = 10;
  repeated uint32 unpacked_ints = 11 [packed = false];
  repeated string names = 12;
  repeated Inner children = 13;
  repeated Color colors = 14;
  google.protobuf.Timestamp at = 15;
  google.protobuf.Duration took = 16;
  google.protobuf.Any extra = 17;
  google.protobuf.Int32Value maybe_int = 18;
  google.protobuf.StringValue maybe_text = 19;
  google.protobuf.Struct meta = 20;
}
`;

export const TEST_PROTO_FILE = { name: 'wtest.proto', source: TEST_PROTO };

/** protobufjs' own root for the test schema (the reference decoder and one encoder). */
export function protobufjsRoot(): protobuf.Root {
  const root = new protobuf.Root();
  protobuf.parse(TEST_PROTO, root, { keepCase: true });
  for (const f of ['timestamp', 'duration', 'any', 'wrappers', 'struct'])
    root.addJSON(protobuf.common.get(`google/protobuf/${f}.proto`)!.nested!);
  root.resolveAll();
  return root;
}

/**
 * The same schema as a @bufbuild/protobuf registry. protobufjs writes nested type names
 * relative to their message ("CountsEntry"); descriptors want them fully qualified.
 */
export function bufbuildRegistry(root: protobuf.Root): FileRegistry {
  const set = (root as unknown as { toDescriptor(syntax: string): unknown }).toDescriptor('proto3') as {
    file: Array<Record<string, unknown>>;
  };
  const qualify = (pkg: string, scope: string, message: Record<string, unknown>): void => {
    const here = `${scope}.${message.name as string}`;
    for (const field of (message.field ?? []) as Array<Record<string, unknown>>) {
      // protobufjs writes json_name "" where the JSON name is the default (lowerCamelCase): spell it out.
      if (!field.jsonName)
        field.jsonName = (field.name as string).replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
      const typeName = field.typeName as string | undefined;
      if (!typeName || typeName.startsWith('.')) continue;
      const nested = ((message.nestedType ?? []) as Array<Record<string, unknown>>).some((n) => n.name === typeName);
      if (nested) field.typeName = `${here}.${typeName}`;
      else {
        const found = root.lookup(typeName, undefined) ?? root.lookup(`${pkg}.${typeName}`);
        field.typeName = found ? found.fullName : typeName;
      }
    }
    for (const n of (message.nestedType ?? []) as Array<Record<string, unknown>>) qualify(pkg, here, n);
  };
  for (const file of set.file) {
    const pkg = (file.package as string) ?? '';
    for (const m of (file.messageType ?? []) as Array<Record<string, unknown>>) qualify(pkg, pkg ? `.${pkg}` : '', m);
  }
  // The well-known types come from @bufbuild/protobuf's own descriptors; the test file imports them.
  const own = { file: set.file.filter((f) => f.name === 'wtest.proto') };
  own.file[0].dependency = WKT_FILES.map((f) => f.proto.name);
  const bytes = (descriptor as unknown as { FileDescriptorSet: protobuf.Type }).FileDescriptorSet.encode(
    own as never,
  ).finish();
  const fileProto = fromBinary(FileDescriptorSetSchema, bytes).file[0];
  return createFileRegistry(fileProto, (name) => WKT_FILES.find((f) => f.proto.name === name));
}

/**
 * Integers (our numbers and bigints, protobufjs' numbers and Longs) as `int:…` text so 64-bit
 * values compare exactly; bytes as base64 (toObject's `bytes: String`).
 */
export function normalize(v: unknown): unknown {
  if (typeof v === 'bigint') return `int:${v}`;
  if (typeof v === 'number') return Number.isInteger(v) && !Object.is(v, -0) ? `int:${v}` : v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    if (protobuf.util.Long && v instanceof protobuf.util.Long) return `int:${v.toString()}`;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = normalize(x);
    return out;
  }
  return v;
}
