/**
 * json-joy indexed's output kept as its encoder wrote it: one record with a blob per node
 * (plus the clock table and the root), 146,067 fields on the ~1 MB document. Listing that
 * record as entries (`Object.entries`: ~100 ms there) or rebuilding it for the decoder
 * (`Object.fromEntries`: ~30 ms) is wirescope's work, not json-joy's, so it must not sit in
 * the timed encode or decode: the record goes to the decoder as it came, and
 * `parts` — what the sizes and the compressors read — is listed once, on first use, after
 * the timing.
 */
import type { EncodedParts } from './encoded-parts.js';

export class IndexedFields implements EncodedParts {
  private listed: ReadonlyArray<readonly [string, Uint8Array]> | undefined;

  constructor(readonly fields: Readonly<Record<string, Uint8Array>>) {}

  /** Whether `parts` was listed yet (the timed encode must not list it). */
  get listedYet(): boolean {
    return this.listed !== undefined;
  }

  /**
   * The fields in `Object.entries` order. Listed from `Object.keys`: on the 146,067-field
   * record of the 1 MB document that takes ~50 ms where `Object.entries` took ~130 ms.
   */
  get parts(): ReadonlyArray<readonly [string, Uint8Array]> {
    if (!this.listed) {
      const fields = this.fields;
      const names = Object.keys(fields);
      const listed = new Array<readonly [string, Uint8Array]>(names.length);
      for (let i = 0; i < names.length; i++) listed[i] = [names[i], fields[names[i]]];
      this.listed = listed;
    }
    return this.listed;
  }
}

/** The record json-joy's indexed decoder takes: the encoder's own, or one built from parts made elsewhere. */
export const indexedRecord = (e: EncodedParts): Readonly<Record<string, Uint8Array>> =>
  e instanceof IndexedFields ? e.fields : Object.fromEntries(e.parts);
