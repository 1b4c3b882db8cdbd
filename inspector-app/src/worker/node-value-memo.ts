/**
 * The value of the node the Compare tab was last shown on, materialized once for both the
 * lanes' warm-up and the comparison that may follow (compare-job.ts): a ~1 MB frame's value
 * takes 60–110 ms to build from its index, and the Run would otherwise wait for a second
 * build. One value at most is held, and a comparison takes it (lets it go).
 */
import type { SpanIndex } from '../../../codecs/index.js';

export class NodeValueMemo {
  private held: { readonly index: SpanIndex; readonly nodeId: number; readonly value: unknown } | null = null;

  /** Builds the node's value and holds it for `take`. */
  keep(index: SpanIndex, nodeId: number): unknown {
    const value = index.value(nodeId);
    this.held = { index, nodeId, value };
    return value;
  }

  /** The node's value: the one held when it is this node of this very index (then let go), else built now. */
  take(index: SpanIndex, nodeId: number): unknown {
    const held = this.held;
    this.held = null;
    return held && held.index === index && held.nodeId === nodeId ? held.value : index.value(nodeId);
  }
}
