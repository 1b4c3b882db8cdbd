import type { SpanIndex } from '../../core/span-index.js';
import type { LenReading } from '../readings.js';
import type { FieldDesc, MessageDesc } from './descriptor.js';

/** What the schema walker keeps beside the store: each node's field, and fit counters. */
export interface NodeField {
  /** The field (for key, value and packed item nodes), or null for an unknown field. */
  readonly field: FieldDesc | null;
  /** The message a map node is (messages, map entries, an Any's decoded value). */
  readonly message?: MessageDesc;
  /** An unknown field's raw readings (length-delimited), or why a known field was read raw. */
  readonly raw?: readonly LenReading[] | 'wire-type-mismatch';
  /** The node is an Any's value decoded as the type its URL names. */
  readonly anyValue?: boolean;
}

/**
 * Each node's field, by node id: an array (node ids are dense) whose entries for plain field
 * nodes are one shared object per field, so a walk allocates nothing per node for them.
 */
const UNKNOWN: NodeField = { field: null };

export class NodeFields {
  private readonly byId: (NodeField | undefined)[] = [];

  get(id: number): NodeField | undefined {
    return this.byId[id];
  }

  has(id: number): boolean {
    return this.byId[id] !== undefined;
  }

  set(id: number, info: NodeField): void {
    this.byId[id] = info;
  }

  /** Marks a node as plain `field` (no message, no raw reading). */
  setField(id: number, field: FieldDesc | null): void {
    this.byId[id] = field ? field.shared : UNKNOWN;
  }
}

export interface SchemaData {
  readonly type: MessageDesc;
  readonly nodes: NodeFields;
  /** Fit counters for ranking types: fields not in the schema, wire types that do not match, required fields absent. */
  unknownFields: number;
  wireMismatches: number;
  missingRequired: number;
  knownFields: number;
  /** The frame is a run of length-delimited messages (the root an array of them). */
  readonly delimited?: boolean;
}

export function schemaData(index: SpanIndex): SchemaData {
  return index.formatData as SchemaData;
}
