import { Kind } from './kinds.js';
import type { SpanIndex } from './span-index.js';
import { tagContentLabel } from '../cbor/known-tags.js';
import { crdtChildName } from '../crdt/op-roles.js';

/**
 * The label of a node that has no key, in the tree: what it is where that is known (a tag's
 * content: `epoch seconds`, `UUID bytes`; a json-joy operand: `obj`, `after`, `ops[2]`), else
 * its position (`[3]`).
 */
export function positionLabel(index: SpanIndex, id: number, position: number): string {
  const parent = index.store.parent[id];
  if (parent < 0) return '$';
  if (index.format === 'cbor' && index.store.kind[parent] === Kind.tag) return tagContentLabel(index, parent);
  if (index.format === 'crdt-model' || index.format === 'crdt-patch') {
    const name = crdtChildName(index, id);
    if (name) return name.label;
  }
  return `[${position}]`;
}
