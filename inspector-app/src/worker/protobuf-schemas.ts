import { SpanIndex } from '../../../codecs/core/span-index.js';
import {
  describeFit,
  fitOf,
  loadSchemaLeavingOut,
  rankTypes,
  type LoadedSchema,
  type ProtoFile,
  type SkippedProtoFile,
  type TypeFit,
} from '../../../codecs/protobuf/schema/index.js';
import { schemaText } from '../../../codecs/protobuf/schema/schema-text.js';
import { parseReadAs, readAsWalker } from '../../../codecs/protobuf/read-as.js';
import type { IngestFrame, SchemaState, SchemaTypeChoice } from './api.js';

/**
 * The worker's Protobuf schemas: the `.proto` files the user loaded (one schema, imports
 * resolved among them) and, per connection, the message type its binary frames are read as:
 * a type name, 'auto' (rank every type by fit and use the best that reads the frame whole),
 * or 'raw' (no schema). Connections without a choice are 'auto'.
 */
export class ProtobufSchemas {
  private schema: LoadedSchema | null = null;
  private files: readonly ProtoFile[] = [];
  private skipped: readonly SkippedProtoFile[] = [];
  private readonly choices = new Map<string, SchemaTypeChoice>();
  /** Under 'auto': the type each connection's last frame was read as (tried first: ranking walks every type). */
  private readonly lastAuto = new Map<string, string>();

  set(files: readonly ProtoFile[]): SchemaState {
    this.files = files;
    // A broken file is left out, not the whole set: the others keep reading frames.
    const loaded = loadSchemaLeavingOut(files);
    this.schema = loaded.schema;
    this.skipped = loaded.skipped;
    this.lastAuto.clear();
    return this.state();
  }

  choose(connectionId: string, choice: SchemaTypeChoice): SchemaState {
    this.choices.set(connectionId, choice);
    return this.state();
  }

  state(): SchemaState {
    const { files, skipped } = this;
    const reasons = skipped.map((s) => s.error).join('; ');
    const used = files.length - skipped.length;
    const error = !skipped.length
      ? null
      : !used
        ? files.length === 1
          ? reasons
          : `No file loaded: ${reasons}`
        : `${skipped.length} of ${files.length} files left out (the ${used === 1 ? 'other file is' : `other ${used} are`} in use): ${reasons}`;
    return {
      files: files.map((f) => f.name),
      types: this.schema?.messageTypes ?? [],
      error,
      skipped,
      choices: Object.fromEntries(this.choices),
    };
  }

  get active(): boolean {
    return this.schema !== null;
  }

  /**
   * The loaded schema and its own text (the files in use, as loaded; a file left out is not
   * counted): what the session's loaded-`.proto` row writes with and sizes, as the CLI's
   * `--proto` does (schema-text.ts). Null with no schema.
   */
  source(): { readonly schema: LoadedSchema; readonly text: string } | null {
    if (!this.schema) return null;
    const left = new Set(this.skipped.map((s) => s.name));
    return { schema: this.schema, text: schemaText(this.files.filter((f) => !left.has(f.name))) };
  }

  /**
   * The frame read with the schema, or null (no schema, 'raw', a text frame, or no type reads
   * it whole under 'auto'). `fits`: the type reads it perfectly (whole, every field known,
   * wire types right, required fields there); else the reading is the nearest there is.
   */
  decode(frame: IngestFrame): { index: SpanIndex; type: string; note: string; fits: boolean; chosenBy: string } | null {
    const schema = this.schema;
    if (!schema || frame.opcode === 'text' || frame.data.byteLength === 0) return null;
    const choice = this.choices.get(frame.connectionId) ?? 'auto';
    if (choice === 'raw') return null;
    if (choice !== 'auto') {
      const fit = fitOf(schema, choice, frame.data);
      return fit
        ? {
            index: fit.index,
            type: fit.type,
            note: `read as ${fit.type} (chosen for this connection)${fitsPerfectly(fit) ? '' : `: ${describeFit(fit)}`}`,
            fits: fitsPerfectly(fit),
            chosenBy: `the message type chosen for this connection (${fit.type})`,
          }
        : null;
    }
    // A connection usually carries one type: when the last frame's type fits this one perfectly
    // (whole, every field known, wire types right, required fields there), ranking every
    // type again would only cost time.
    const last = this.lastAuto.get(frame.connectionId);
    const again = last ? fitOf(schema, last, frame.data) : null;
    if (again && fitsPerfectly(again)) {
      return {
        index: again.index,
        type: again.type,
        note: `read as ${again.type}, the type of this connection's previous frame, which fits it perfectly (${describeFit(again)})`,
        fits: true,
        chosenBy: `the loaded schema (${again.type} fits)`,
      };
    }
    const best = rankTypes(schema, frame.data)[0];
    if (!best?.whole || best.knownFields === 0 || best.unknownFields + best.wireMismatches > best.knownFields)
      return null;
    this.lastAuto.set(frame.connectionId, best.type);
    return {
      index: best.index,
      type: best.type,
      note: `read as ${best.type}, the best fit of ${schema.messageTypes.length} types (${describeFit(best)})`,
      fits: fitsPerfectly(best),
      chosenBy: `the loaded schema (${best.type} fits best)`,
    };
  }
}

/** Whole, with known fields and nothing unknown, mistyped or missing. */
const fitsPerfectly = (fit: TypeFit): boolean =>
  fit.whole && fit.knownFields > 0 && fit.unknownFields + fit.wireMismatches + fit.missingRequired === 0;

/** A frame indexed with "read as" choices (format `protobuf:<offset>=<reading>,…`), or null when the format is not one. */
export function readAsIndex(frame: IngestFrame, format: string): SpanIndex | null {
  const choices = parseReadAs(format);
  return choices ? new SpanIndex(frame.data, readAsWalker(choices), { depth: 1 }) : null;
}

const SHOWN: Record<string, string> = { map: 'message', text: 'text', bytes: 'bytes', array: 'packed' };

/**
 * A raw Protobuf length-delimited node's readings for "read as", the one shown first; undefined
 * for other nodes (and for frames read with a schema, where the field's type decides).
 */
export function nodeReadings(index: SpanIndex, id: number): readonly string[] | undefined {
  if (index.format !== 'protobuf' || id <= 0 || index.store.head[id] === 0) return undefined;
  const readings = index.walker.details?.(index, id).readings as readonly string[] | undefined;
  if (!readings || readings.length < 2) return undefined;
  const shown = SHOWN[index.kind(id)];
  return shown ? [shown, ...readings.filter((r) => r !== shown)] : undefined;
}
