import { SpanIndex } from '../../core/span-index.js';
import { lookupMessage, type LoadedSchema } from './load.js';
import { schemaData } from './data.js';
import { schemaWalker } from './walker.js';

/**
 * "Which message is this frame?": walks the frame as every message type of the schema and
 * ranks them by fit. A type that reads the frame whole beats one that errors; then fewer
 * fields the type does not know or whose wire type does not match, fewer required fields
 * missing, and more fields recognized (an empty message fits everything, which says nothing).
 */
export interface TypeFit {
  readonly type: string;
  readonly whole: boolean;
  readonly unknownFields: number;
  readonly wireMismatches: number;
  readonly missingRequired: number;
  readonly knownFields: number;
  /** The error that stopped the walk, if any. */
  readonly error: string | null;
  readonly index: SpanIndex;
}

export function fitOf(schema: LoadedSchema, type: string, bytes: Uint8Array): TypeFit | null {
  const found = lookupMessage(schema, type);
  if (!found) return null;
  const index = new SpanIndex(bytes, schemaWalker(found));
  const data = schemaData(index);
  return {
    type,
    whole: index.ok,
    unknownFields: data?.unknownFields ?? 0,
    wireMismatches: data?.wireMismatches ?? 0,
    missingRequired: data?.missingRequired ?? 0,
    knownFields: data?.knownFields ?? 0,
    error: index.error?.message ?? null,
    index,
  };
}

function compareFit(a: TypeFit, b: TypeFit): number {
  if (a.whole !== b.whole) return a.whole ? -1 : 1;
  const misfitA = a.unknownFields + a.wireMismatches;
  const misfitB = b.unknownFields + b.wireMismatches;
  if (misfitA !== misfitB) return misfitA - misfitB;
  if (a.missingRequired !== b.missingRequired) return a.missingRequired - b.missingRequired;
  return b.knownFields - a.knownFields;
}

/** Every message type of the schema, best fit first (stable: schema order breaks ties). */
export function rankTypes(schema: LoadedSchema, bytes: Uint8Array): TypeFit[] {
  const fits: TypeFit[] = [];
  for (const type of schema.messageTypes) {
    const fit = fitOf(schema, type, bytes);
    if (fit) fits.push(fit);
  }
  return fits.sort(compareFit);
}

/** A one-line reason for a fit, for "auto" choices the CLI and UI explain. */
export function describeFit(fit: TypeFit): string {
  if (!fit.whole) return `${fit.type}: does not read whole (${fit.error})`;
  const notes = [`${fit.knownFields} known field${fit.knownFields === 1 ? '' : 's'}`];
  if (fit.unknownFields) notes.push(`${fit.unknownFields} unknown`);
  if (fit.wireMismatches) notes.push(`${fit.wireMismatches} wire-type mismatch${fit.wireMismatches === 1 ? '' : 'es'}`);
  if (fit.missingRequired) notes.push(`${fit.missingRequired} required missing`);
  return `${fit.type}: reads whole, ${notes.join(', ')}`;
}
