import { Flag } from '../core/kinds.js';
import type { SpanIndex } from '../core/span-index.js';
import { lenReadings, type LenReading } from './readings.js';

/**
 * What the raw Protobuf walker keeps beside the store (an index's `formatData`), made when
 * first asked for: the readings of length-delimited nodes and where groups end. A file of
 * its own so the walker and the views (value.ts) share it without importing each other.
 */
export interface ProtobufData {
  /**
   * Length-delimited nodes: the readings that fit, best first (the node shows the first).
   * Worked out on first `get` (see LazyReadings); iterating it lists only those asked for.
   */
  readonly readings: Map<number, readonly LenReading[]>;
  /** Group nodes: where the end-group tag starts (their fields end there). */
  readonly groupEnd: Map<number, number>;
}

export function protobufData(index: SpanIndex): ProtobufData {
  if (!index.formatData)
    index.formatData = { readings: new LazyReadings(index), groupEnd: new Map() } satisfies ProtobufData;
  return index.formatData as ProtobufData;
}

/**
 * The readings of a length-delimited node, computed when first asked for: the walk only
 * picks the first (firstReading), since ranking them all for every field cost more than the
 * rest of the walk. A length-delimited value is the one node kind with a head (its length
 * varint); tags, varints, fixed fields, groups and packed items have none.
 */
class LazyReadings extends Map<number, readonly LenReading[]> {
  constructor(private readonly index: SpanIndex) {
    super();
  }

  override get(id: number): readonly LenReading[] | undefined {
    const known = super.get(id);
    if (known) return known;
    const { store, bytes } = this.index;
    if (!(id > 0 && id < store.size) || store.head[id] === 0 || store.flags[id] & Flag.key) return undefined;
    const readings = lenReadings(bytes, store.start[id] + store.head[id], store.end[id]).readings;
    super.set(id, readings);
    return readings;
  }

  override has(id: number): boolean {
    return this.get(id) !== undefined;
  }
}
