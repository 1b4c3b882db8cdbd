import type { DecodedFrame } from '../index.js';
import { describeFit, fitOf, loadSchema, rankTypes, type LoadedSchema } from '../protobuf/schema/index.js';
import { schemaText } from '../protobuf/schema/schema-text.js';

/**
 * `--proto` / `--type` for `inspect`: loads the schema files through the CLI's reader and
 * reads the frame as the given message type, or as the type that fits best (saying which and
 * why). Schema problems are usage errors: they are the command line's, not the frame's.
 */
export function readSchema(
  paths: readonly string[],
  readFile: (path: string) => Uint8Array,
): { schema: LoadedSchema; text: string } | { error: string } {
  const files: { name: string; source: string }[] = [];
  for (const path of paths) {
    try {
      files.push({ name: path, source: new TextDecoder().decode(readFile(path)) });
    } catch (e) {
      return { error: `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
  }
  // Imports name files relative to an import root: match them by the path as given, or its tail.
  const loaded = loadSchema(
    files.map((f) => ({
      ...f,
      name: importName(
        f.name,
        files.map((g) => g.name),
      ),
    })),
  );
  // `text`: the files as given, what a receiver is sent once (a schema codec's own size).
  return loaded.ok ? { schema: loaded.schema, text: schemaText(files) } : { error: loaded.error };
}

/** A path as imports will name it: the path without the directories every file shares. */
function importName(path: string, all: readonly string[]): string {
  const dirs = all.map((p) => p.slice(0, p.lastIndexOf('/') + 1));
  let common = dirs[0];
  for (const d of dirs)
    while (!d.startsWith(common)) common = common.slice(0, common.lastIndexOf('/', common.length - 2) + 1);
  return path.slice(common.length);
}

export interface SchemaFrame {
  readonly frame: DecodedFrame;
  readonly type: string;
  readonly chosen: 'given' | 'ranked';
  /** Without --type: the fit of the type used, and how many types were tried. */
  readonly note: string;
}

export function schemaFrame(
  bytes: Uint8Array,
  schema: LoadedSchema,
  type: string | null,
): SchemaFrame | { error: string } {
  const fit = type !== null ? fitOf(schema, type, bytes) : rankTypes(schema, bytes)[0];
  if (!fit) {
    return {
      error:
        type !== null
          ? `${type} is not a message type of the schema (${schema.messageTypes.join(', ')})`
          : 'the schema has no message types',
    };
  }
  const { index } = fit;
  const frame: DecodedFrame = {
    format: 'protobuf',
    index,
    error: index.error,
    detection: null,
    verdict: index.error ? 'malformed' : 'decoded',
  };
  const note =
    type !== null
      ? ''
      : `best of ${schema.messageTypes.length} type${schema.messageTypes.length === 1 ? '' : 's'} by fit: ${describeFit(fit)}`;
  return { frame, type: fit.type, chosen: type !== null ? 'given' : 'ranked', note };
}
