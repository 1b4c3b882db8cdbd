/**
 * The explicit stack of open containers used by the walkers (struct-of-arrays, grows on
 * demand): nesting depth is limited by memory, not by the JS call stack.
 */
export class WalkStack {
  top = -1;
  /** Node id of the open container, or -1 when it is not recorded (a skipped subtree). */
  node = new Int32Array(64);
  /**
   * Items expected (a map counts keys and values), -1 until a break / closing token.
   * Int32 keeps the hot loop in integer arithmetic; counts are clamped to 2^31 - 1, more
   * than any frame can hold (every item takes at least one byte).
   */
  remaining = new Int32Array(64);
  /** Items seen so far. */
  items = new Int32Array(64);
  /** Format-specific frame kind. */
  kind = new Uint8Array(64);
  /** Levels still recorded below this container: children are recorded when > 0 (Infinity is clamped to 2^30). */
  depthLeft = new Int32Array(64);
  /** Last recorded child, to link the next one. */
  last = new Int32Array(64);

  push(node: number, remaining: number, kind: number, depthLeft: number): void {
    const t = ++this.top;
    if (t === this.node.length) this.grow();
    this.node[t] = node;
    this.remaining[t] = Math.min(remaining, MAX_COUNT);
    this.items[t] = 0;
    this.kind[t] = kind;
    this.depthLeft[t] = depthLeft > MAX_DEPTH ? MAX_DEPTH : Math.max(depthLeft, 0);
    this.last[t] = -1;
  }

  /** A frame of a skipped (unrecorded) subtree: only the counts matter. */
  pushSkip(remaining: number, kind: number): void {
    const t = ++this.top;
    if (t === this.node.length) this.grow();
    this.node[t] = -1;
    this.remaining[t] = Math.min(remaining, MAX_COUNT);
    this.items[t] = 0;
    this.kind[t] = kind;
  }

  pop(): void {
    this.top--;
  }

  private grow(): void {
    const n = this.node.length * 2;
    const g = <T extends Int32Array | Float64Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.node = g(this.node);
    this.remaining = g(this.remaining);
    this.items = g(this.items);
    this.kind = g(this.kind);
    this.depthLeft = g(this.depthLeft);
    this.last = g(this.last);
  }
}

const MAX_COUNT = 0x7fffffff;

/**
 * The stack clamps counts to 2^31 - 1. Error messages must not print the clamped number as
 * the count ("array is missing 2147483647 items" for a 4,294,967,295-item header): for a
 * clamped count they say "at least". The recorded node is not used, so a skipped subtree
 * (depth-limited walk) reports exactly what a recorded one does.
 */
export function countIsClamped(stack: WalkStack, t: number): boolean {
  return stack.remaining[t] === MAX_COUNT;
}
const MAX_DEPTH = 0x40000000;

let shared: WalkStack | null = null;

/**
 * The stack for one walk. Walks are synchronous and never nest, so one stack is reused:
 * allocating six typed arrays per frame would cost more than walking a small frame.
 */
export function acquireWalkStack(): WalkStack {
  if (!shared || shared.node.length > 1 << 16) shared = new WalkStack();
  shared.top = -1;
  return shared;
}
