/**
 * A loaded schema's own text: what a receiver must be given once, so what a schema codec's
 * "schema (sent once)" counts. The files' sources in the order they were loaded, one newline
 * between them; the well-known `google/protobuf/*` types are not counted (every runtime has
 * them). The CLI (`--proto`) and the inspector (the Schemas dialog) both size it here, so the
 * same files give the same figure.
 */
export function schemaText(files: readonly { readonly source: string }[]): string {
  return files.map((f) => f.source).join('\n');
}
