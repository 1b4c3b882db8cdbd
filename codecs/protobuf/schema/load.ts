import protobuf from 'protobufjs';

/**
 * Loads `.proto` sources into one protobufjs Root. Imports are resolved among the files
 * given (by path, or by file name when the import has directories the upload lost); the
 * well-known types under `google/protobuf/` come from protobufjs' bundled copies. Never
 * throws: a syntax error or a missing import is an error naming the file (and line).
 */
export interface ProtoFile {
  /** The file's name as imports refer to it (`trade.proto`, `api/v1/trade.proto`). */
  readonly name: string;
  readonly source: string;
}

export interface LoadedSchema {
  readonly root: protobuf.Root;
  /** Fully qualified names of the message types a frame may be (map entries and google.protobuf.* left out). */
  readonly messageTypes: readonly string[];
}

export type SchemaLoad =
  | { readonly ok: true; readonly schema: LoadedSchema }
  | { readonly ok: false; readonly error: string };

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function loadSchema(files: readonly ProtoFile[]): SchemaLoad {
  const root = new protobuf.Root();
  const byPath = new Map<string, ProtoFile>();
  for (const f of files) byPath.set(f.name, f);
  const known = (name: string): boolean => byPath.has(name) || files.some((f) => baseName(f.name) === baseName(name));
  const wellKnownAdded = new Set<string>();
  for (const file of files) {
    let parsed: protobuf.IParserResult;
    try {
      // protobufjs names the file in its syntax errors through this module-level field.
      (protobuf.parse as unknown as { filename: string | null }).filename = file.name;
      parsed = protobuf.parse(file.source, root, { keepCase: true, alternateCommentMode: true });
    } catch (e) {
      const message = String((e as Error)?.message ?? e);
      return { ok: false, error: message.includes(file.name) ? message : `${file.name}: ${message}` };
    } finally {
      (protobuf.parse as unknown as { filename: string | null }).filename = null;
    }
    for (const imported of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      if (imported.startsWith('google/protobuf/')) {
        const common = protobuf.common.get(imported);
        if (common && !known(imported)) {
          if (!wellKnownAdded.has(imported)) root.addJSON(common.nested!);
          wellKnownAdded.add(imported);
          continue;
        }
      }
      if (!known(imported))
        return {
          ok: false,
          error: `${file.name}: import "${imported}" is not among the loaded files (${files.map((f) => f.name).join(', ')})`,
        };
    }
  }
  try {
    root.resolveAll();
  } catch (e) {
    return { ok: false, error: `schema does not resolve: ${String((e as Error)?.message ?? e)}` };
  }
  return { ok: true, schema: { root, messageTypes: listMessageTypes(root) } };
}

function listMessageTypes(root: protobuf.Root): string[] {
  const out: string[] = [];
  const visit = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) {
        const name = nested.fullName.replace(/^\./, '');
        if (!name.startsWith('google.protobuf.') && !isMapEntry(nested)) out.push(name);
      }
      if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type)
        visit(nested as protobuf.NamespaceBase);
    }
  };
  visit(root);
  return out;
}

function isMapEntry(type: protobuf.Type): boolean {
  return Boolean(type.options?.map_entry);
}

/** The message type called `name` (with or without the leading dot), or null. */
export function lookupMessage(schema: LoadedSchema, name: string): protobuf.Type | null {
  try {
    const found = schema.root.lookup(name.replace(/^\./, ''));
    return found instanceof protobuf.Type ? found : null;
  } catch {
    return null;
  }
}

/** A file left out of a lenient load, and why. */
export interface SkippedProtoFile {
  readonly name: string;
  readonly error: string;
}

/**
 * Loads what loads: a file with a syntax error, a missing import or a type that does not
 * resolve is left out (with its error) and the others are loaded without it; a file importing
 * a file left out is left out too. The schema is null when no file loads.
 */
export function loadSchemaLeavingOut(files: readonly ProtoFile[]): {
  readonly schema: LoadedSchema | null;
  readonly skipped: readonly SkippedProtoFile[];
} {
  const skipped: SkippedProtoFile[] = [];
  let current = [...files];
  while (current.length) {
    const loaded = loadSchema(current);
    if (loaded.ok) return { schema: loaded.schema, skipped };
    // Errors name their file first (`bad.proto: …`) except a type that does not resolve:
    // then the culprit is the file without which the rest loads.
    const named = current
      .filter((f) => loaded.error.startsWith(`${f.name}:`))
      .sort((a, b) => b.name.length - a.name.length)[0];
    const culprit =
      named ?? (current.length === 1 ? current[0] : current.find((f) => loadSchema(current.filter((g) => g !== f)).ok));
    if (!culprit) {
      for (const f of current) skipped.push({ name: f.name, error: loaded.error });
      return { schema: null, skipped };
    }
    const missing = /^[^:]*: import "([^"]+)" is not among the loaded files/.exec(loaded.error)?.[1];
    const leftOut =
      missing !== undefined && skipped.some((s) => s.name === missing || baseName(s.name) === baseName(missing));
    skipped.push({
      name: culprit.name,
      error: leftOut
        ? `${culprit.name}: imports "${missing}", which did not load`
        : named
          ? loaded.error
          : `${culprit.name}: ${loaded.error}`,
    });
    current = current.filter((f) => f !== culprit);
  }
  return { schema: null, skipped };
}
