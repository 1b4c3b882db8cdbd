import { Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';

/**
 * The label of a node that has no key, in the tree: what it is where that is known (a tag's
 * content: `epoch seconds`, `UUID bytes`; a json-joy operand: `obj`, `after`, `ops[2]`), else
 * its position (`[3]`).
 */
export function positionLabel(index: SpanIndex, id: number, position: number): string {
  index.requireNode(id, 'positionLabel');
  const parent = index.store.parent[id];
  if (parent < 0) return '$';
  const { walker } = index;
  if (index.store.kind[parent] === Kind.tag) {
    if (walker.tagContentLabel) return walker.tagContentLabel(index, parent);
  } else {
    const name = walker.childName?.(index, id);
    if (name) return name.label;
  }
  return `[${position}]`;
}
