/** An encoded value in its parts (a leaf: the codec table and the indexed json-joy fields both import it). */
/** Named blobs a multi-part codec writes (json-joy indexed: fields; sidecar: view, meta). */
export interface EncodedParts {
  readonly parts: ReadonlyArray<readonly [name: string, bytes: Uint8Array]>;
}
